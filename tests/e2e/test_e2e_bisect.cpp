// End to end: `bisect` through the real binary on a real git history of 90 commits of a small
// Google Benchmark project, measured (with backfill of single commits) only on every 8th commit,
// with a slowdown planted at an unmeasured commit. analyze names the next measured commit;
// bisect pins the planted commit storing at most ⌈log₂ 8⌉ + 1 new measurements (the confirmation
// of the window's ends is not stored); the next analyze reports the planted commit itself;
// --dry-run touches nothing; a stretch measured under a simulated machine load does not
// reproduce; the budget stops cleanly; --benchmark naming nothing is an error; a commit that no
// longer builds ends its window, or with --ignore-errors is gone around; a shallow clone whose
// boundary cuts a window says so with the fix, and one that holds the window bisects it; and the
// cargo path once: real `cargo bench` in the worktrees of a small crate. See docs/bisect.md.
//
// The benchmark binary depends only on work.cpp, whose busy loop is scaled by a factor in the
// source; bench.sh keeps each distinct work.cpp's binary in a cache outside the worktrees, so
// the 90-commit history compiles three times, not once per measurement.

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "e2e_support.hpp"

namespace fs = std::filesystem;
namespace json = boost::json;
using e2e::contains;
using e2e::run_cli;

namespace {

constexpr int n_commits = 90;
constexpr int step_at = 45;         // commits 45.. do four times the work in BM_Work and BM_Twin
constexpr int other_step_at = 53;   // commits 53.. do four times the work in BM_Other
constexpr int measured_offset = 1;  // measured: 1, 9, 17, …, 89 (89 is HEAD)

// One busy loop of `factor` × 20000 steps; `seed` keeps the loops of two benchmarks distinct.
std::string busy_loop(const std::string& factor, int seed) {
  return "    unsigned long x = " + std::to_string(seed) + ";\n"
         "    for (int i = 0; i < (" + factor + ") * 20000; ++i) { x = x * 6364136223846793005ul + " +
         std::to_string(seed) + "; benchmark::DoNotOptimize(x); }\n";
}

// Commit i's benchmarks. BM_Work and BM_Twin step at commit 45 (one window, one set of builds),
// BM_Other at commit 53 (a second window, five measured points after it as the detector needs). BM_Steady never changes in the code, but its loop is
// scaled by $BISECT_E2E_LOAD: a stand-in for a machine that was loaded while a stretch of commits
// was measured. BM_Drift grows a little with every commit — it reads the commit's number from
// NOTES at run time, so the binary (cached per work.cpp) need not be rebuilt — a drift, which has
// no single commit to pin.
std::string work_source(int i) {
  const auto fn = [](const std::string& name, const std::string& prologue, const std::string& factor, int seed) {
    return "static void " + name + "(benchmark::State& state) {\n" + prologue + "  for (auto _ : state) {\n" +
           busy_loop(factor, seed) + "  }\n}\nBENCHMARK(" + name + ");\n";
  };
  return "#include <benchmark/benchmark.h>\n#include <cstdlib>\n#include <fstream>\n#include <string>\n" +
         fn("BM_Work", "", i >= step_at ? "4" : "1", 1) + fn("BM_Twin", "", i >= step_at ? "4" : "1", 5) +
         fn("BM_Other", "", i >= other_step_at ? "4" : "1", 9) +
         fn("BM_Steady", "  const char* load = std::getenv(\"BISECT_E2E_LOAD\");\n", "load ? std::atoi(load) : 1", 7) +
         fn("BM_Drift",
            "  std::ifstream notes(\"NOTES\");\n  std::string word;\n  int commit = 0;\n  notes >> word >> commit;\n",
            "1.0 + commit / 45.0", 11) +
         "BENCHMARK_MAIN();\n";
}

const std::string bench_script =
    "#!/bin/sh\n"
    "set -eu\n"
    "if [ \"$(git rev-parse HEAD)\" = \"${BISECT_E2E_BROKEN:-}\" ]; then echo 'work.cpp: error: no longer builds' >&2; exit 1; fi\n"
    // SIGINT to the tool alone (not to the test): the commit's measurement finishes, then bisect stops.
    "if [ \"$(git rev-parse HEAD)\" = \"${BISECT_E2E_INTERRUPT:-}\" ]; then\n"
    "  p=$PPID; while [ \"$p\" -gt 1 ] && [ \"$(cat /proc/$p/comm)\" != cargo-bench-his ]; do p=$(cut -d' ' -f4 /proc/$p/stat); done\n"
    "  kill -INT \"$p\"\n"
    "fi\n"
    "sum=$(sha256sum work.cpp | cut -c1-16)\n"
    "bin=\"$BISECT_E2E_BINARIES/bench_$sum\"\n"
    "if [ ! -x \"$bin\" ]; then c++ -O1 -o \"$bin.$$\" work.cpp -lbenchmark -lpthread && mv \"$bin.$$\" \"$bin\"; fi\n"
    "\"$bin\" --benchmark_min_time=0.02 --benchmark_repetitions=3 "
    "--benchmark_out=\"$BENCHHIST_OUTPUT_DIR/work.json\" --benchmark_out_format=json >/dev/null\n";

struct Repo {
  fs::path dir;
  fs::path binaries;
  std::vector<std::string> commits;  // oldest first
};

const Repo& repo() {
  static const Repo r = [] {
    Repo x;
    x.dir = fs::path(BH_E2E_WORK_DIR) / "bisect-repo";
    x.binaries = fs::path(BH_E2E_WORK_DIR) / "bisect-binaries";
    fs::remove_all(x.dir);
    fs::remove_all(x.binaries);
    fs::create_directories(x.dir);
    fs::create_directories(x.binaries);
    e2e::write_file(x.dir / ".gitignore", "/build/\n");
    e2e::write_file(x.dir / "bench.sh", bench_script);
    fs::permissions(x.dir / "bench.sh", fs::perms::owner_exec, fs::perm_options::add);
    e2e::git(x.dir, {"init", "-q"});
    x.commits = e2e::commit_history(x.dir, n_commits, step_at, 600, "make BM_Work four times slower", [&](int i) {
      e2e::write_file(x.dir / "work.cpp", work_source(i));
    });
    return x;
  }();
  return r;
}

e2e::EnvChanges bench_env() { return {{"BISECT_E2E_BINARIES", repo().binaries.string()}}; }

// The store every case starts from: every 8th commit measured, one commit per backfill (as a
// rotating pool would leave it); commits 49 and later measured while "the machine was loaded"
// (BM_Steady three times slower, its code unchanged).
const fs::path& template_store() {
  static const fs::path dir = [] {
    const Repo& r = repo();
    const fs::path d = fs::path(BH_E2E_WORK_DIR) / "bisect-template-store";
    fs::remove_all(d);
    for (int i = measured_offset; i < n_commits; i += 8) {
      auto env = bench_env();
      if (i >= 49) env["BISECT_E2E_LOAD"] = "3";
      auto b = run_cli({"backfill", "--local=" + d.string(), "--bench-command", "./bench.sh", r.commits[i], r.commits[i]},
                       r.dir, env);
      if (b.exit_code != 0) throw std::runtime_error("backfill of commit " + std::to_string(i) + " failed: " + b.err);
    }
    return d;
  }();
  return dir;
}

// A fresh copy of the template store.
void copy_template(const fs::path& to) {
  fs::copy(template_store(), to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

// Every stored object with its bytes, by path under the store.
std::map<std::string, std::string> snapshot(const fs::path& store) {
  std::map<std::string, std::string> out;
  for (const auto& f : e2e::files_under(store)) out[f] = e2e::read_file(store / f);
  return out;
}

// The commits with a stored clean run.
std::set<std::string> stored_commits(const fs::path& store) {
  std::set<std::string> out;
  for (const auto& f : e2e::files_under(store))
    if (f.size() > 11 && f.substr(f.size() - 11) == "/clean.json") {
      const auto dir = f.substr(0, f.size() - 11);
      out.insert(dir.substr(dir.rfind('/') + 1));
    }
  return out;
}

// The findings of an analyze --json report: "<benchmark> <metric>" → (method, attributed commit).
std::map<std::string, std::pair<std::string, std::string>> findings_of(const fs::path& report) {
  std::map<std::string, std::pair<std::string, std::string>> out;
  const auto doc = json::parse(e2e::read_file(report)).as_object();
  for (const auto& f : doc.at("findings").as_array()) {
    const auto& o = f.as_object();
    const auto& segments = o.at("segments").as_array();
    if (segments.size() != 1) continue;
    out[std::string(segments[0].as_string()) + " " + std::string(o.at("kind").as_string())] = {
        std::string(o.at("method").as_string()), std::string(o.at("commit").as_string())};
  }
  return out;
}

// The findings of a bisect --json report: "<benchmark> <metric>" → its object.
std::map<std::string, json::object> bisect_findings(const json::object& doc) {
  std::map<std::string, json::object> out;
  for (const auto& f : doc.at("findings").as_array()) {
    const auto& o = f.as_object();
    out[std::string(o.at("segments").as_array().at(0).as_string()) + " " + std::string(o.at("kind").as_string())] = o;
  }
  return out;
}

std::string short12(const std::string& id) { return id.substr(0, 12); }

}  // namespace

TEST_CASE("bisect pins steps planted at unmeasured commits, sharing one window's builds, storing at most four per window",
          "[e2e][bisect]") {
  const Repo& r = repo();
  e2e::TempDir store("bhbis-store");
  e2e::TempDir outputs("bhbis-out");
  const std::string local = "--local=" + store.path().string();

  copy_template(store.path());
  const auto before = stored_commits(store.path());
  REQUIRE(before.size() == 12);

  // analyze can only name the first measured commit of each new level (49, 57), and says how
  // many commits before it were never measured; the drift is a drift.
  const fs::path report = outputs.path() / "report.json";
  const fs::path md = outputs.path() / "report.md";
  const fs::path html = outputs.path() / "report.html";
  auto a = run_cli({"analyze", local, "--json", report.string(), "--markdown", md.string(), "--html", html.string()}, r.dir);
  INFO("analyze stdout: " << a.out << "\nstderr: " << a.err);
  REQUIRE(a.exit_code == 0);
  auto found = findings_of(report);
  REQUIRE(found.count("BM_Work processor_time") == 1);
  CHECK(found["BM_Work processor_time"].second == r.commits[49]);
  CHECK(found["BM_Twin processor_time"].second == r.commits[49]);
  CHECK(found["BM_Other processor_time"].second == r.commits[57]);
  CHECK(found["BM_Drift processor_time"].first == "drift");
  // The loaded stretch starts at 49, but how analyze reports it depends on the scatter the machine
  // gave that benchmark: on a loaded CI runner it once named 57, and on a machine whose own load
  // grew during the stretch the ramp fitted a line better than a step (a drift). A step's window's
  // old end is the measured commit before the one named.
  REQUIRE(found.count("BM_Steady processor_time") == 1);
  const bool steady_is_step = found["BM_Steady processor_time"].first == "change_point";
  INFO("BM_Steady reported as " << found["BM_Steady processor_time"].first);
  std::string steady_old_end;
  if (steady_is_step) {
    const auto steady_at = std::find(r.commits.begin(), r.commits.end(), found["BM_Steady processor_time"].second);
    REQUIRE(steady_at - r.commits.begin() >= 8);
    steady_old_end = *(steady_at - 8);
  }
  const std::string gap_41_49 = "between `" + short12(r.commits[41]) + "` and `" + short12(r.commits[49]) +
                                "`: 7 unmeasured commits \u2014 `cargo bench-history bisect` pins it";
  CHECK(contains(e2e::read_file(md), gap_41_49));
  CHECK(contains(e2e::read_file(html), "<p class=\"detail unmeasured\">between <code>" + short12(r.commits[49]) +
                                           "</code> and <code>" + short12(r.commits[57]) + "</code>: 7 unmeasured commits"));

  // One history serves every step (sections would rebuild it): first --dry-run, which prints the
  // windows and the commit it would measure first, touching nothing.
  {
    const auto untouched = snapshot(store.path());
    const fs::path dry_md = outputs.path() / "dry-run.md";
    auto d = run_cli({"bisect", local, "--dry-run", "--bench-command", "./bench.sh", "--markdown", dry_md.string()},
                     r.dir, bench_env());
    INFO("stderr: " << d.err);
    REQUIRE(d.exit_code == 0);
    const std::string window = "window " + short12(r.commits[41]) + ".." + short12(r.commits[49]) +
                               ": 8 commits (7 unmeasured); would measure both ends 2 times each, then " +
                               short12(r.commits[45]) + " make BM_Work four times slower first";
    CHECK(contains(d.out, "BM_Work processor_time [google_benchmark] "));
    CHECK(contains(d.out, window));
    CHECK(contains(d.out, "BM_Drift processor_time [google_benchmark] "));
    CHECK(contains(d.out, ": nothing to pin: a drift has no single commit"));
    CHECK(contains(d.out, "Dry run: nothing was measured or stored."));
    CHECK(snapshot(store.path()) == untouched);
    // --markdown: the same lines as one table.
    const auto m = e2e::read_file(dry_md);
    CHECK(m.rfind("# Benchmark history bisect: ", 0) == 0);
    CHECK(contains(m, "| Benchmark | Metric | Engine | Change | Finding at | Verdict | Result |\n"));
    CHECK(contains(m, "| `BM_Work` | processor_time | google_benchmark | "));
    CHECK(contains(m, " | " + short12(r.commits[49]) + " | planned | " + window + " |\n"));
    CHECK(contains(m, " | drift | nothing to pin: a drift has no single commit |\n"));
    CHECK(contains(m, "\n**Dry run: nothing was measured or stored.**\n"));
  }

  // Then bisect pins every step, and the next analyze attributes each finding to its commit.
  {
    const auto ends_before = snapshot(store.path());
    const fs::path out_json = outputs.path() / "bisect.json";
    // Processor time: on a shared, loaded machine (2 cores, several builds) wall time is noisy
    // enough that a single value may land in the other level's band and take the wall-time
    // halving elsewhere, storing more commits than the scenario's bound.
    auto b = run_cli({"bisect", local, "--bench-command", "./bench.sh", "--metric", "processor_time", "--max-builds",
                      "24", "--json", out_json.string()},
                     r.dir, bench_env());
    INFO("bisect stdout: " << b.out << "\nstderr: " << b.err);
    REQUIRE(b.exit_code == 0);
    CHECK(contains(b.out, "BM_Work processor_time [google_benchmark] "));
    CHECK(contains(b.out, ": pinned to " + short12(r.commits[45]) + " make BM_Work four times slower ("));
    CHECK(contains(b.out, ": pinned to " + short12(r.commits[53]) + " change 53 ("));
    CHECK(contains(b.out, ": nothing to pin: a drift has no single commit"));
    // Progress on stderr: which window, which commit, the budget.
    CHECK(contains(b.err, "[bench-history] finding 1 of "));
    CHECK(contains(b.err, "re-measuring the end " + short12(r.commits[41])));
    CHECK(contains(b.err, "measuring " + short12(r.commits[45]) + " make BM_Work four times slower (build "));

    // At most ⌈log₂ 8⌉ + 1 new commits stored per window; the re-measured ends are left as they were.
    const auto after = stored_commits(store.path());
    std::set<std::string> added_first, added_second;
    for (const auto& c : after) {
      if (before.count(c)) continue;
      for (int i = 42; i < 49; ++i)
        if (c == r.commits[i]) added_first.insert(c);
      for (int i = 50; i < 57; ++i)
        if (c == r.commits[i]) added_second.insert(c);
    }
    CHECK(after.size() == before.size() + added_first.size() + added_second.size());
    CHECK(added_first.size() <= 4);
    CHECK(added_second.size() <= 4);
    CHECK(added_first.count(r.commits[45]) == 1);
    CHECK(added_first.count(r.commits[44]) == 1);
    CHECK(added_second.count(r.commits[53]) == 1);
    CHECK(added_second.count(r.commits[52]) == 1);
    const auto now = snapshot(store.path());
    for (const auto& [path, bytes] : ends_before) CHECK(now.at(path) == bytes);

    const auto doc = json::parse(e2e::read_file(out_json)).as_object();
    auto by = bisect_findings(doc);
    CHECK(by["BM_Work processor_time"].at("verdict") == "pinned");
    CHECK(by["BM_Work processor_time"].at("commit").as_string() == r.commits[45]);
    CHECK(by["BM_Twin processor_time"].at("verdict") == "pinned");
    CHECK(by["BM_Twin processor_time"].at("commit").as_string() == r.commits[45]);
    CHECK(by["BM_Other processor_time"].at("verdict") == "pinned");
    CHECK(by["BM_Other processor_time"].at("commit").as_string() == r.commits[53]);
    CHECK(by["BM_Drift processor_time"].at("verdict") == "drift");
    // One window, one set of builds: BM_Work and BM_Twin (and BM_Steady's confirmation) share the
    // 4 confirmation builds of 41/49 and the 3 halving builds; BM_Other's window 49..57 shares the
    // builds of 49 and adds 2 of 57 and 3 halving builds. Apart they would take 25; 2 spare for
    // re-measuring an ambiguous value.
    const auto builds = doc.at("builds").as_int64();
    CHECK(builds >= 12);
    CHECK(builds <= 14);
    CHECK(by["BM_Twin processor_time"].at("measurements").as_int64() >= 7);

    // The stretch measured under load is not in the code: both ends, measured again back to
    // back, are at the old level, and nothing is bisected in its name. (Reported as a drift, it
    // has no commit to pin and nothing is measured for it.)
    CHECK(contains(b.out, "BM_Steady processor_time [google_benchmark] "));
    if (steady_is_step) {
      CHECK(contains(b.out, ": did not reproduce: measured again, " + short12(steady_old_end) + " gave "));
      CHECK(contains(b.out, "; nothing bisected"));
      CHECK(by["BM_Steady processor_time"].at("verdict") == "not_reproduced");
    } else {
      CHECK(by["BM_Steady processor_time"].at("verdict") == "drift");
    }
    CHECK(doc.at("stored").as_int64() == static_cast<std::int64_t>(added_first.size() + added_second.size()));

    auto again = run_cli({"analyze", local, "--json", report.string(), "--markdown", md.string()}, r.dir);
    INFO("second analyze stderr: " << again.err);
    REQUIRE(again.exit_code == 0);
    found = findings_of(report);
    CHECK(found["BM_Work processor_time"].second == r.commits[45]);
    CHECK(found["BM_Twin processor_time"].second == r.commits[45]);
    CHECK(found["BM_Other processor_time"].second == r.commits[53]);
    CHECK(contains(again.out, short12(r.commits[45])));
    // Pinned: nothing unmeasured before the finding's commit any more.
    CHECK_FALSE(contains(e2e::read_file(md), "` and `" + short12(r.commits[45]) + "`: "));
  }
}

TEST_CASE("bisect stops cleanly when the build budget runs out, and refuses a --benchmark that names nothing",
          "[e2e][bisect]") {
  const Repo& r = repo();
  e2e::TempDir store("bhbis-store");
  copy_template(store.path());
  const std::string local = "--local=" + store.path().string();
  const auto before = stored_commits(store.path());

  // Four builds confirm the ends, the fifth measures the middle: half the window is left.
  auto b = run_cli({"bisect", local, "--bench-command", "./bench.sh", "--benchmark", "BM_Work", "--metric",
                    "processor_time", "--max-builds", "5"},
                   r.dir, bench_env());
  INFO("stdout: " << b.out << "\nstderr: " << b.err);
  REQUIRE(b.exit_code == 0);
  CHECK(contains(b.out, "BM_Work processor_time [google_benchmark] "));
  CHECK(contains(b.out, ": narrowed to 4 commits: " + r.commits[41].substr(0, 12) + ".." + r.commits[45].substr(0, 12) +
                            " (the budget of 5 builds ran out)"));
  CHECK_FALSE(contains(b.out, "BM_Steady"));
  CHECK(contains(b.out, "5 builds of the 5 allowed; 1 new measurement stored."));
  auto after = stored_commits(store.path());
  CHECK(after.size() == before.size() + 1);
  CHECK(after.count(r.commits[45]) == 1);

  const auto untouched = e2e::files_under(store.path());
  auto none = run_cli({"bisect", local, "--bench-command", "./bench.sh", "--benchmark", "BM_Nothing"}, r.dir, bench_env());
  CHECK(none.exit_code == 1);
  CHECK(contains(none.err, "no analysed series matches --benchmark BM_Nothing"));
  CHECK(contains(none.err, "pass one of the analysed ids (closest: "));
  CHECK(contains(none.err, "BM_Work"));
  // An id copied from a report carries its engine.
  auto qualified = run_cli({"bisect", local, "--bench-command", "./bench.sh", "--benchmark", "google_benchmark/BM_Work"},
                           r.dir, bench_env());
  CHECK(qualified.exit_code == 1);
  CHECK(contains(qualified.err, "its id is \"BM_Work\" (reports print the engine google_benchmark/ before it): "
                                "pass --benchmark BM_Work"));
  CHECK(e2e::files_under(store.path()) == untouched);
}

TEST_CASE("a commit in the window that no longer builds ends the window, or with --ignore-errors is gone around and "
          "reported",
          "[e2e][bisect]") {
  const Repo& r = repo();
  e2e::TempDir store("bhbis-store");
  copy_template(store.path());
  const std::string local = "--local=" + store.path().string();
  auto env = bench_env();
  env["BISECT_E2E_BROKEN"] = r.commits[45];  // the step's own commit: as if the toolchain had moved on
  const std::vector<std::string> args = {"bisect", local, "--bench-command", "./bench.sh", "--benchmark", "BM_Work",
                                         "--metric", "processor_time"};

  auto plain = run_cli(args, r.dir, env);
  INFO("stdout: " << plain.out << "\nstderr: " << plain.err);
  REQUIRE(plain.exit_code == 0);
  CHECK(contains(plain.out, ": could not measure " + short12(r.commits[45]) + " make BM_Work four times slower: "));
  CHECK(contains(plain.out, "; the window is still " + short12(r.commits[41]) + ".." + short12(r.commits[49]) +
                                " (8 commits)"));
  CHECK(contains(plain.out, "5 builds of the 16 allowed; 0 new measurements stored."));

  // --ignore-errors: 45 is listed with its reason, and its neighbours narrow the window to it.
  auto args_ignoring = args;
  args_ignoring.push_back("--ignore-errors");
  auto around = run_cli(args_ignoring, r.dir, env);
  INFO("stdout: " << around.out << "\nstderr: " << around.err);
  REQUIRE(around.exit_code == 0);
  CHECK(contains(around.out, ": could not measure " + short12(r.commits[45]) + " make BM_Work four times slower: "));
  CHECK(contains(around.out, "; narrowed to 2 commits: " + short12(r.commits[44]) + ".." + short12(r.commits[46]) +
                                 "; went around 1 commit that could not be measured: " + short12(r.commits[45]) + " ("));
  const auto stored = stored_commits(store.path());
  CHECK(stored.count(r.commits[46]) == 1);
  CHECK(stored.count(r.commits[44]) == 1);
  CHECK(stored.count(r.commits[45]) == 0);

  // Without the --bench-command that collected the history, `cargo bench` runs and writes no
  // Google Benchmark report: the reason says which option was forgotten.
  auto no_command = run_cli({"bisect", local, "--benchmark", "BM_Work", "--metric", "processor_time"}, r.dir, bench_env());
  INFO("stdout: " << no_command.out << "\nstderr: " << no_command.err);
  CHECK(no_command.exit_code == 0);
  CHECK(contains(no_command.out, ": could not measure " + short12(r.commits[44]) + " change 44: engine \"cargo bench\" "));
  CHECK(contains(no_command.out, " (the series is google_benchmark output, which `cargo bench` does not write: pass the "
                                 "--bench-command that collected it, or set [collect] bench_command); the window is still "));
}

TEST_CASE("an interrupted bisect says what it kept and leaves no worktree; running it again finishes", "[e2e][bisect]") {
  const Repo& r = repo();
  e2e::TempDir store("bhbis-store");
  copy_template(store.path());
  const std::string local = "--local=" + store.path().string();
  const std::vector<std::string> args = {"bisect", local, "--bench-command", "./bench.sh", "--benchmark", "BM_Work",
                                         "--metric", "processor_time", "--json", "bisect.json"};
  auto env = bench_env();
  env["BISECT_E2E_INTERRUPT"] = r.commits[45];  // the first middle commit, after the ends' confirmation
  auto stopped = run_cli(args, r.dir, env);
  INFO("stdout: " << stopped.out << "\nstderr: " << stopped.err);
  CHECK(stopped.exit_code == 1);
  CHECK(contains(stopped.err, "Error: bisect was interrupted while measuring " + short12(r.commits[45]) +
                                  " make BM_Work four times slower: 1 new measurement was stored and is kept; no "
                                  "report was written"));
  CHECK(contains(stopped.err, "interrupted by SIGINT"));
  CHECK(contains(stopped.err, "run the same bisect again"));
  CHECK_FALSE(contains(stopped.err, "Backfill range"));
  CHECK_FALSE(fs::exists(r.dir / "bisect.json"));
  CHECK(stored_commits(store.path()).count(r.commits[45]) == 1);  // it finished before the stop
  const auto worktrees = e2e::run({"git", "worktree", "list"}, r.dir).out;
  CHECK(std::count(worktrees.begin(), worktrees.end(), '\n') == 1);  // the checkout alone

  auto again = run_cli(args, r.dir, bench_env());
  INFO("stdout: " << again.out << "\nstderr: " << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK(contains(again.out, ": pinned to " + short12(r.commits[45]) + " make BM_Work four times slower ("));
  fs::remove(r.dir / "bisect.json");
}

TEST_CASE("in a shallow clone a window inside the clone is bisected, and a step past its boundary is reported with "
          "the fix, storing nothing",
          "[e2e][bisect]") {
  const Repo& r = repo();
  e2e::TempDir tmp("bhbis-shallow");
  // The project id is the checkout's directory name: each clone is named as the template's repository.
  const auto clone = [&](int depth) {
    const fs::path dir = tmp.path() / ("depth-" + std::to_string(depth)) / "bisect-repo";
    fs::create_directories(dir.parent_path());
    e2e::git(dir.parent_path(), {"clone", "-q", "--depth", std::to_string(depth), "file://" + r.dir.string(), dir.string()});
    REQUIRE(e2e::git(dir, {"rev-parse", "--is-shallow-repository"}) == "true");
    return dir;
  };
  const std::string unshallow = "run `git fetch --unshallow` (actions/checkout: `fetch-depth: 0`) and bisect again";

  // Commits 44..89: BM_Work's window 41..49 reaches past the boundary (41, 42 and 43 are not in
  // the clone), and the runs of 1..41 are left out, so no step is seen: bisect says why and how to
  // fix it, and measures nothing.
  {
    const fs::path dir = clone(n_commits - 44);
    e2e::TempDir store("bhbis-store");
    copy_template(store.path());
    const auto untouched = snapshot(store.path());
    const fs::path out_json = tmp.path() / "cut.json";
    auto b = run_cli({"bisect", "--local=" + store.path().string(), "--bench-command", "./bench.sh", "--benchmark",
                      "BM_Work", "--json", out_json.string()},
                     dir, bench_env());
    INFO("stdout: " << b.out << "\nstderr: " << b.err);
    REQUIRE(b.exit_code == 0);
    CHECK(contains(b.out, "No findings to bisect: the analysis reported none in scope.\n"));
    CHECK(contains(b.out, "Note: this repository is a shallow clone whose history stops at " + short12(r.commits[44]) +
                          " change 44: 6 stored runs of 6 commits it does not have were left out, so a step whose old "
                          "level or window reaches past that commit is not found and not bisected here: " + unshallow));
    CHECK(contains(b.out, "0 builds of the 16 allowed; 0 new measurements stored."));
    CHECK(snapshot(store.path()) == untouched);
    const auto doc = json::parse(e2e::read_file(out_json)).as_object();
    CHECK(doc.at("findings").as_array().empty());
    REQUIRE(doc.at("notes").as_array().size() == 1);
    CHECK(contains(std::string(doc.at("notes").as_array()[0].as_string()), unshallow));
  }

  // Commits 1..89: every stored run is in the clone (its boundary cuts off only commit 0, never
  // measured), so BM_Other's window 49..57 is bisected as in a full clone, measuring in worktrees
  // of the shallow clone, and nothing is noted. One confirmation per end: the first case tests
  // confirmation; this one the clone.
  {
    const fs::path dir = clone(n_commits - 1);
    e2e::TempDir store("bhbis-store");
    copy_template(store.path());
    const auto before = stored_commits(store.path());
    auto b = run_cli({"bisect", "--local=" + store.path().string(), "--bench-command", "./bench.sh", "--benchmark",
                      "BM_Other", "--metric", "processor_time", "--repeat", "1"},
                     dir, bench_env());
    INFO("stdout: " << b.out << "\nstderr: " << b.err);
    REQUIRE(b.exit_code == 0);
    CHECK(contains(b.out, "BM_Other processor_time [google_benchmark] "));
    CHECK(contains(b.out, ": pinned to " + short12(r.commits[53]) + " change 53 ("));
    CHECK_FALSE(contains(b.out, "shallow"));
    const auto after = stored_commits(store.path());
    CHECK(after.count(r.commits[53]) == 1);
    CHECK(after.count(r.commits[52]) == 1);
    CHECK(after.size() <= before.size() + 4);
  }
}

// The cargo path, end to end: bisect with no --bench-command measures with real `cargo bench` in
// worktrees. A crate with no dependencies whose bench target has a harness of its own printing
// libtest's bench line (what the tool reads from cargo bench's standard output): the fastest of 31
// samples short enough to fit in a time slice, which a loaded machine leaves alone where a median
// would not. A build and run in each worktree takes ~3 s, where libtest's own #[bench] runs
// for ~5 s on a loaded machine and Criterion's demo crate ~10 s. The work per iteration is a
// constant in the source, eight times larger from commit 8 on. The history is 16 commits, all
// measured but the three inside the window 6..10 (seven points at the old level, six at the new:
// with six and five the detector calls it a drift): the window's two ends by a real backfill, the
// other eleven by `import` of libtest output written from those two values with ±2 % of spread —
// so the only cargo runs are those two and bisect's own: 4 confirmations and 2 halvings of the
// window 6..10.
TEST_CASE("bisect with real cargo bench (no --bench-command) pins a step in a crate's history", "[e2e][bisect][cargo]") {
  constexpr int commits_n = 16, crate_step = 8, old_end = 6, new_end = 10;
  e2e::TempDir tmp("bhbis-cargo");
  const fs::path dir = tmp.path() / "spin-crate";
  fs::create_directories(dir);
  e2e::write_file(dir / "Cargo.toml",
                  "[package]\nname = \"spin-crate\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n"
                  "[lib]\nbench = false\n\n[[bench]]\nname = \"spin\"\nharness = false\n");
  fs::create_directories(dir / ".cargo");
  fs::copy_file(fs::path(BH_SOURCE_DIR) / "tests/engines/harnesses/libtest-crate/.cargo/config.toml",
                dir / ".cargo" / "config.toml");
  e2e::write_file(dir / "benches" / "spin.rs",
                  "use std::hint::black_box;\nuse std::time::Instant;\n\nfn main() {\n"
                  "    let iters = 50u32;\n"
                  "    let mut samples: Vec<f64> = (0..31)\n        .map(|_| {\n"
                  "            let t = Instant::now();\n"
                  "            for _ in 0..iters {\n"
                  "                black_box(spin_crate::spin(black_box(spin_crate::WORK)));\n            }\n"
                  "            t.elapsed().as_nanos() as f64 / iters as f64\n        })\n        .collect();\n"
                  "    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());\n"
                  "    println!(\"test spin ... bench: {} ns/iter (+/- {})\", samples[0].round() as u64,\n"
                  "             (samples[30] - samples[0]).round() as u64);\n}\n");
  e2e::write_file(dir / ".gitignore", "/target/\nCargo.lock\n");
  e2e::git(dir, {"init", "-q"});
  const auto commits = e2e::commit_history(dir, commits_n, crate_step, 600, "spin eight times longer", [&](int i) {
    e2e::write_file(dir / "src" / "lib.rs",
                    "pub const WORK: u64 = " + std::string(i >= crate_step ? "16000" : "2000") +
                        ";\n\npub fn spin(n: u64) -> u64 {\n    (0..n).fold(1u64, |x, _| "
                        "x.wrapping_mul(6364136223846793005).wrapping_add(1))\n}\n");
  });
  const e2e::EnvChanges cargo_env = {{"RUSTUP_TOOLCHAIN", std::nullopt}};
  e2e::TempDir store("bhbis-store");
  const std::string local = "--local=" + store.path().string();

  // The two ends, measured for real: their values set the level of the imported points.
  const auto backfill_one = [&](int i) {
    auto b = run_cli({"backfill", local, commits[i], commits[i]}, dir, cargo_env);
    INFO("backfill of commit " << i << ": " << b.out << b.err);
    REQUIRE(b.exit_code == 0);
  };
  backfill_one(old_end);
  backfill_one(new_end);
  const auto stored_value = [&](int i) {
    for (const auto& f : e2e::files_under(store.path()))
      if (contains(f, "/objects/libtest/") && contains(f, "/" + commits[i] + "/clean.json")) {
        const auto run = e2e::stored_run(store.path() / f);
        const auto& result = run.at("results").as_array().at(0).as_object();
        return std::make_pair(f.substr(0, f.find("/" + commits[i])),
                              result.at("metrics").as_array().at(0).at("value").to_number<double>());
      }
    FAIL("no libtest run stored for commit " << i);
    return std::make_pair(std::string(), 0.0);
  };
  const auto [object_dir, old_level] = stored_value(old_end);
  const double new_level = stored_value(new_end).second;
  INFO("stored levels: " << old_level << " → " << new_level << " ns/iter");
  REQUIRE(new_level > 3 * old_level);
  // …/objects/libtest/<triple>/<machine key>: import records the same partition.
  const std::string triple = fs::path(object_dir).parent_path().filename().string();
  for (int i = 0; i < commits_n; ++i) {
    if (i >= old_end && i <= new_end) continue;
    const double spread = 1.0 + 0.02 * (i % 3 - 1);
    const auto ns = static_cast<long long>((i < crate_step ? old_level : new_level) * spread);
    const fs::path report = tmp.path() / ("bench-" + std::to_string(i) + ".txt");
    e2e::write_file(report, "test spin ... bench: " + std::to_string(ns) + " ns/iter (+/- 10)\n");
    auto imp = run_cli({"import", local, "--commit", commits[i], "--target-triple", triple, report.string()}, dir);
    INFO("import of commit " << i << ": " << imp.out << imp.err);
    REQUIRE(imp.exit_code == 0);
  }
  REQUIRE(stored_commits(store.path()).size() == 13);

  const fs::path out_json = tmp.path() / "bisect.json";
  auto b = run_cli({"bisect", local, "--json", out_json.string()}, dir, cargo_env);
  INFO("bisect stdout: " << b.out << "\nstderr: " << b.err);
  REQUIRE(b.exit_code == 0);
  CHECK(contains(b.out, "spin wall_time [libtest] "));
  CHECK(contains(b.out, " at " + short12(commits[new_end]) + ": pinned to " + short12(commits[crate_step]) +
                            " spin eight times longer ("));
  const auto doc = json::parse(e2e::read_file(out_json)).as_object();
  const auto by = bisect_findings(doc);
  REQUIRE(by.count("spin wall_time") == 1);
  CHECK(by.at("spin wall_time").at("verdict") == "pinned");
  // 4 confirmations of 6 and 10, then 8 and 7; a value re-measured as ambiguous may add some.
  CHECK(doc.at("builds").as_int64() >= 6);
  const auto stored = stored_commits(store.path());
  CHECK(stored.count(commits[crate_step]) == 1);
  CHECK(stored.count(commits[crate_step - 1]) == 1);
  CHECK(doc.at("stored").as_int64() == static_cast<std::int64_t>(stored.size()) - 13);
  CHECK(stored.size() <= 13 + 3);
}
