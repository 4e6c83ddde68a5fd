// The reports of bisect (docs/bisect.md#output): the text lines, the Markdown table with the same
// content, escaping, and the closing line — over a hand-built BisectReport, no measuring.

#include <catch2/catch.hpp>

#include <string>

#include "benchhist/bisect/bisect.hpp"

using namespace benchhist;
using namespace benchhist::bisect;

namespace {

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

std::string id(std::size_t i) { return "c" + std::to_string(i) + std::string(39 - std::to_string(i).size(), '0'); }

report::Finding finding(const std::string& name, FindingMethod method, std::size_t at) {
  report::Finding f;
  f.set = DiscriminantSet{Engine::google_benchmark, "x86_64-unknown-linux-gnu", "k"};
  f.benchmark = BenchmarkId{{name}};
  f.kind = MetricKind::processor_time;
  f.method = method;
  f.baseline = 100;
  f.latest = 400;
  f.relative_delta = 3;
  f.commit = id(at);
  return f;
}

BisectReport sample() {
  BisectReport r;
  r.project = "demo";
  for (std::size_t i = 0; i < 10; ++i) r.line.push_back({id(i), std::nullopt, "change " + std::to_string(i)});
  r.line[5].subject = "make a|b slower";
  FindingEntry pinned;
  pinned.finding = finding("BM_Work", FindingMethod::change_point, 8);
  pinned.window = Window{1, 8};
  TargetOutcome o;
  o.verdict = Verdict::pinned;
  o.window = Window{4, 5};
  o.measurements = 7;
  o.confirmed = true;
  pinned.outcome = o;
  FindingEntry drift;
  drift.finding = finding("BM_Drift", FindingMethod::drift, 9);
  drift.kind = EntryKind::drift;
  drift.finding.window_start = id(0);
  r.entries = {pinned, drift};
  r.builds = 7;
  r.stored = 3;
  r.max_builds = 16;
  r.repeat = 2;
  return r;
}

}  // namespace

TEST_CASE("the Markdown report is the text report's lines as one table, escaped", "[bisect][output]") {
  const auto r = sample();
  const auto text = render_text(r);
  CHECK(contains(text, "BM_Work processor_time [google_benchmark] +300.00% at c80000000000: pinned to c50000000000 "
                       "make a|b slower (7 measurements)\n"));
  CHECK(contains(text, "BM_Drift processor_time [google_benchmark] +300.00% accumulated c00000000000 → c90000000000: "
                       "nothing to pin: a drift has no single commit\n"));
  CHECK(contains(text, "7 builds of the 16 allowed; 3 new measurements stored."));

  const auto md = render_markdown(r);
  CHECK(md.rfind("# Benchmark history bisect: demo\n\n", 0) == 0);
  CHECK(contains(md, "| Benchmark | Metric | Engine | Change | Finding at | Verdict | Result |\n"
                     "| --- | --- | --- | --- | --- | --- | --- |\n"
                     "| `BM_Work` | processor_time | google_benchmark | +300.00% | c80000000000 | pinned | pinned to "
                     "c50000000000 make a\\|b slower (7 measurements) |\n"
                     "| `BM_Drift` | processor_time | google_benchmark | +300.00% | c90000000000 | drift | nothing to "
                     "pin: a drift has no single commit |\n"));
  CHECK(contains(md, "\n**7 builds of the 16 allowed; 3 new measurements stored.**\n"));

  auto dry = r;
  dry.dry_run = true;
  dry.entries.clear();
  CHECK(render_markdown(dry) == "# Benchmark history bisect: demo\n\nNo findings to bisect: the analysis reported none "
                                "in scope.\n\n**Dry run: nothing was measured or stored.**\n");
}

TEST_CASE("a note for the whole invocation (a shallow clone's boundary) comes after the findings in every format",
          "[bisect][output]") {
  auto r = sample();
  r.entries.clear();
  r.notes = {"this repository is a shallow clone whose history stops at c00000000000 change 0: 2 stored runs of "
             "1 commit it does not have were left out, so a step whose old level or window reaches past that commit "
             "is not found and not bisected here: run `git fetch --unshallow` (actions/checkout: `fetch-depth: 0`) "
             "and bisect again"};
  CHECK(render_text(r) == "No findings to bisect: the analysis reported none in scope.\nNote: " + r.notes[0] +
                              "\n7 builds of the 16 allowed; 3 new measurements stored.");
  CHECK(contains(render_markdown(r), "in scope.\n\nNote: " + r.notes[0] + "\n\n**7 builds of the 16 allowed"));
  CHECK(contains(render_json(r), "\"notes\": [\n    \"this repository is a shallow clone whose history stops at "));
  CHECK(contains(render_json(sample()), "\"notes\": []"));
}

TEST_CASE("an outcome says whether its window moved, and a window the history already pinned says it was not "
          "measured again",
          "[bisect][output]") {
  auto r = sample();
  auto line = [&](const FindingEntry& e) {
    r.entries = {e};
    return render_text(r);
  };
  FindingEntry e = r.entries[0];
  TargetOutcome& o = *e.outcome;

  // Started pinned (8 follows 7), no build left for it after the other windows.
  e.window = Window{7, 8};
  o = TargetOutcome{};
  o.verdict = Verdict::pinned;
  o.window = Window{7, 8};
  CHECK(contains(line(e), ": pinned to c80000000000 change 8 by the stored history (its window has no unmeasured "
                          "commit); not measured again: the budget of 16 builds ran out (windows with unmeasured "
                          "commits come first)\n"));
  CHECK(contains(render_json(r), "\"confirmed\": false"));

  // The budget ran out during confirmation: nothing moved, and the text says so and what to do.
  e.window = Window{1, 8};
  o.verdict = Verdict::narrowed;
  o.window = Window{1, 8};
  CHECK(contains(line(e), ": not narrowed: the budget of 16 builds ran out before both ends were measured again "
                          "(4 builds with --repeat 2); the window is still c10000000000..c80000000000 (7 commits): "
                          "raise --max-builds\n"));
  o.confirmed = true;
  CHECK(contains(line(e), ": confirmed, not narrowed: the budget of 16 builds ran out; the window is still "
                          "c10000000000..c80000000000 (7 commits)\n"));
  o.window = Window{4, 8};
  CHECK(contains(line(e), ": narrowed to 4 commits: c40000000000..c80000000000 (the budget of 16 builds ran out)\n"));
  CHECK(contains(render_json(r), "\"confirmed\": true"));

  // A commit that does not measure before any halving: the window is unchanged, not "narrowed".
  o.verdict = Verdict::failed;
  o.window = Window{1, 8};
  o.at = 1;
  o.reason = "engine \"./bench.sh\" failed with exit code 1";
  CHECK(contains(line(e), ": could not measure c10000000000 change 1: engine \"./bench.sh\" failed with exit code 1; "
                          "the window is still c10000000000..c80000000000 (7 commits)\n"));

  // --dry-run of a window that is already pinned.
  FindingEntry planned = r.entries[0];
  planned.kind = EntryKind::planned;
  planned.outcome.reset();
  planned.window = Window{7, 8};
  r.dry_run = true;
  CHECK(contains(line(planned), ": window c70000000000..c80000000000: 1 commit (0 unmeasured); would measure both ends "
                                "2 times each to confirm it, with the builds the windows with unmeasured commits leave "
                                "(already pinned to c80000000000 change 8)\n"));
}
