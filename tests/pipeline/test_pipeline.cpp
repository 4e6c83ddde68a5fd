// The analysis pipeline end to end through the library: a real git repository made by the
// test, runs written through LocalStore, analyze / examine / list runs over them.

#include <catch2/catch.hpp>

#include <algorithm>

#include <boost/json.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/error.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/pipeline/chart_data.hpp"
#include "benchhist/pipeline/examine.hpp"
#include "benchhist/report/html_reporter.hpp"
#include "benchhist/report/json_reporter.hpp"
#include "benchhist/report/markdown_reporter.hpp"
#include "benchhist/report/summary_reporter.hpp"
#include "benchhist/report/text_reporter.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "benchhist/version.hpp"

#include "shell.hpp"

namespace fs = std::filesystem;
using namespace benchhist;

namespace {

using bhtest::sh;

// 45 first-parent commits on main; a side branch forked at commit 20 is merged as commit 21.
struct History {
  fs::path dir;
  std::vector<std::string> commits;  // first-parent, oldest first

  History() {
    dir = fs::temp_directory_path() / ("bh-pipeline-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "repo");
    const std::string g = "git -C '" + (dir / "repo").string() + "' ";
    sh(g + "init -q -b main && " + g + "config user.email t@example.invalid && " + g + "config user.name t");
    for (int i = 0; i < 45; ++i) {
      if (i == 21) {
        sh(g + "checkout -q -b side HEAD && " + g + "commit -q --allow-empty -m 'side one' && " + g +
           "commit -q --allow-empty -m 'side two' && " + g + "checkout -q main && " + g +
           "merge -q --no-ff -m 'merge side' side");
      } else {
        sh(g + "commit -q --allow-empty -m 'change " + std::to_string(i) + "'");
      }
      commits.push_back(sh(g + "rev-parse HEAD"));
    }
  }
  ~History() { fs::remove_all(dir); }
  fs::path repo() const { return dir / "repo"; }
};

double noise(int i, int salt) { return double(((i * 7919 + salt * 104729) % 17) - 8) / 8.0; }  // in [-1, 1]

Run make_run(const std::string& commit, bool dirty, std::vector<BenchmarkResult> results, const std::string& triple) {
  Run run;
  run.context.observation = *parse_rfc3339("2026-11-01T00:00:00Z");
  run.context.git = GitState{commit, std::string("main"), dirty};
  run.context.toolchain = ToolchainInfo{triple, std::string("1.91.0")};
  run.context.tool_version = std::string(tool_version);
  run.context.best_of = 1;
  run.results = std::move(results);
  return run;
}

BenchmarkResult result(std::vector<std::string> id, MetricKind kind, double v) {
  return BenchmarkResult{BenchmarkId(std::move(id)), {MetricValue{kind, v, {}, {}}}};
}

const std::string triple = "x86_64-unknown-linux-gnu";

// criterion/…/mk-a: parse/small steps 100 → 130 at commit 30 (regression), parse/flat stays;
// old/gone is measured until commit 40 only (a ghost). callgrind/…/mk-b: flat counts.
// Commit 12 has no runs; commit 5 also has a dirty snapshot (never admitted on the base line).
void write_history(storage::LocalStore& store, const History& h) {
  for (int i = 0; i < 45; ++i) {
    if (i == 12) continue;
    const auto& c = h.commits[i];
    std::vector<BenchmarkResult> crit{result({"parse", "small"}, MetricKind::wall_time, (i >= 30 ? 130.0 : 100.0) + noise(i, 1)),
                                      result({"parse", "flat"}, MetricKind::wall_time, 50.0 + 0.5 * noise(i, 2))};
    if (i <= 40) crit.push_back(result({"old", "gone"}, MetricKind::wall_time, 10.0 + 0.1 * noise(i, 3)));
    store.put(codec::clean_key("demo", Engine::criterion, triple, "mk-a", c), codec::encode_run(make_run(c, false, crit, triple)),
              storage::CollisionPolicy::refuse);
    std::vector<BenchmarkResult> cg{BenchmarkResult{BenchmarkId({"pkg", "mod::f", "f"}),
                                                    {MetricValue{MetricKind::instruction_count, 1000.0, {}, {}},
                                                     MetricValue{MetricKind::conditional_branches, 100.0, {}, {}}}}};
    store.put(codec::clean_key("demo", Engine::callgrind, triple, "mk-b", c), codec::encode_run(make_run(c, false, cg, triple)),
              storage::CollisionPolicy::refuse);
  }
  store.put(codec::dirty_key("demo", Engine::criterion, triple, "mk-a", h.commits[5], 1790000000),
            codec::encode_run(make_run(h.commits[5], true, {result({"parse", "small"}, MetricKind::wall_time, 999.0)}, triple)),
            storage::CollisionPolicy::refuse);
}

// The history written to a local store beside its repository, and the repository opened: the
// setup most tests here start from.
struct StoredHistory {
  History h;
  storage::LocalStore store{h.dir / "store"};
  std::unique_ptr<analysis::GitTopology> git;
  StoredHistory() {
    write_history(store, h);
    git = analysis::open_git_topology(h.repo());
  }
};

analysis::SelectionRequest selection_request() {
  analysis::SelectionRequest req;
  req.project = "demo";
  req.filters = analysis::resolve_filters({}, {"all"}, {"ALL"}, std::nullopt, std::nullopt);
  req.now = std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
  return req;
}

// The branch-mode tests' request: the feature branch's tip against main.
pipeline::AnalyzeRequest feature_request() {
  pipeline::AnalyzeRequest req;
  req.selection = selection_request();
  req.selection.context_ref = "feature";
  return req;
}

}  // namespace

TEST_CASE("analyze finds the planted step at its commit and accounts for every series", "[pipeline]") {
  StoredHistory fx;

  pipeline::AnalyzeRequest req;
  req.selection = selection_request();
  std::vector<std::string> announced;
  pipeline::Hooks hooks;
  hooks.announce = [&](std::string_view s) { announced.emplace_back(s); };
  const auto result = pipeline::analyze(req, *fx.git, fx.store, hooks);
  const auto& r = result.report;

  REQUIRE(announced.size() == 1);
  CHECK_THAT(announced[0], Catch::StartsWith("selection: engine=all, target-triple=all, machine-key=all; base=main"));
  CHECK(r.mode == benchhist::AnalysisMode::history);
  CHECK(r.context_commit == fx.h.commits.back());
  CHECK(r.runs.runs == 44 * 2);  // the dirty snapshot on a base-line commit is not admitted
  CHECK(result.selection.counts.dirty_not_admitted == 1);

  REQUIRE(r.findings.size() == 1);
  const auto& f = r.findings[0];
  CHECK(f.benchmark.qualified() == "parse/small");
  CHECK(f.method == benchhist::FindingMethod::change_point);
  CHECK(f.direction == benchhist::Direction::regression);
  CHECK(f.commit == fx.h.commits[30]);
  CHECK(f.commit_subject == "change 30");
  CHECK(f.relative_delta == Approx(0.30).margin(0.02));
  REQUIRE(f.chart);
  CHECK(f.chart->attributed_index == 30u);
  CHECK(f.chart->points.size() == 44);  // one column per commit with a run; commit 12 is a gap

  // 2 criterion series judged, 1 ghost series, 2 callgrind series judged.
  CHECK(r.census.judged == 4);
  CHECK(r.census.count(benchhist::UnjudgedReason::ghost) == 1);
  CHECK(r.ghosts_excluded == 1);
  REQUIRE(r.sets.size() == 2);
  CHECK(r.sets[0].set.engine == Engine::callgrind);
  CHECK(r.sets[1].runs == 44);

  // The series come with the report.
  REQUIRE(result.reconstruction);
  CHECK(result.reconstruction->series.size() == 4);  // the judged ones; the ghost is removed
  CHECK(result.reconstruction->ghost_series == 1);

  // Identical inputs → byte-identical reports.
  const auto again = pipeline::analyze(req, *fx.git, fx.store);
  CHECK(report::JsonReporter().render(again.report) == report::JsonReporter().render(r));
  CHECK(report::TextReporter().render(again.report) == report::TextReporter().render(r));
}

TEST_CASE("examine lists every commit of the range with gaps as n/a and no detection", "[pipeline]") {
  StoredHistory fx;
  pipeline::ExamineRequest req;
  req.selection = selection_request();
  req.benchmark = "old/gone";  // a ghost for analyze, still visible here
  req.metric = MetricKind::wall_time;
  const auto data = pipeline::examine(req, *fx.git, fx.store);
  REQUIRE(data.sets.size() == 1);
  const auto& rows = data.sets[0].rows;
  REQUIRE(rows.size() == 45);
  CHECK_FALSE(rows[12].value.has_value());
  CHECK(rows[12].title == "change 12");
  CHECK_FALSE(rows[44].value.has_value());
  CHECK(rows[40].value.has_value());

  req.benchmark = "no/such";
  // An id the selected runs do not hold is an error naming the closest stored ids.
  try {
    (void)pipeline::examine(req, *fx.git, fx.store);
    FAIL("examine of an unknown benchmark id must throw");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::not_found);
    CHECK_THAT(e.message(), Catch::StartsWith("no benchmark \"no/such\" in the 88 selected runs"));
    CHECK_THAT(e.hint(), Catch::Contains("the closest stored ids are: "));
  }
  req.benchmark = "old/gone";
  req.metric = MetricKind::instruction_count;
  CHECK_THROWS_WITH(pipeline::examine(req, *fx.git, fx.store), Catch::Contains("has no instruction_count metric"));
}

TEST_CASE("examine refuses a name that two stored benchmarks of one set share, instead of charting them as one",
          "[pipeline]") {
  StoredHistory fx;
  // At commit 40 the criterion run also holds ["parse/small"]: printed as parse/small, like
  // ["parse", "small"], but another benchmark.
  const auto& c = fx.h.commits[40];
  fx.store.put(codec::clean_key("demo", Engine::criterion, triple, "mk-a", c),
               codec::encode_run(make_run(c, false,
                                          {result({"parse", "small"}, MetricKind::wall_time, 130.0),
                                           result({"parse/small"}, MetricKind::wall_time, 5.0)},
                                          triple)),
               storage::CollisionPolicy::overwrite);
  pipeline::ExamineRequest req;
  req.selection = selection_request();
  req.benchmark = "parse/small";
  req.metric = MetricKind::wall_time;
  try {
    (void)pipeline::examine(req, *fx.git, fx.store);
    FAIL("two benchmarks of one name were charted as one series");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(e.message() == "benchmark \"parse/small\" names 2 different stored benchmarks in criterion (id segments "
                         "[\"parse\", \"small\"] and [\"parse/small\"])");
  }
  // A name only one of them has is charted as before.
  req.benchmark = "parse/flat";
  CHECK(pipeline::examine(req, *fx.git, fx.store).sets.size() == 1);
}

TEST_CASE("an ignore prefix that matches no benchmark is a warning naming the fix, and the analysis goes on",
          "[pipeline]") {
  StoredHistory fx;
  pipeline::AnalyzeRequest req;
  req.selection = selection_request();
  req.ignore_prefixes = {"parse/smal", "criterion/parse/", "nothing/like/it", "old/", "callgrind/"};
  std::vector<std::string> announced;
  pipeline::Hooks hooks;
  hooks.announce = [&](std::string_view s) { announced.emplace_back(s); };
  const auto result = pipeline::analyze(req, *fx.git, fx.store, hooks);
  // "parse/smal" and "old/" (a ghost) match; the two others ignore nothing and say why.
  REQUIRE(announced.size() == 4);
  CHECK_THAT(announced[3], Catch::EndsWith("ids do not carry their engine, so an engine alone ignores nothing; to "
                                           "leave an engine out of an analysis, pass --engine with the others"));
  CHECK(announced[1] == "warning: the [analysis] ignore prefix \"criterion/parse/\" matches none of the 4 benchmarks "
                        "in the selected runs, so it ignores nothing; ids do not carry their engine: drop "
                        "\"criterion/\"");
  CHECK_THAT(announced[2], Catch::StartsWith("warning: the [analysis] ignore prefix \"nothing/like/it\" matches none "
                                             "of the 4 benchmarks in the selected runs, so it ignores nothing; the "
                                             "closest stored ids are: "));
  CHECK(result.report.census.count(benchhist::UnjudgedReason::ignored) == 1);
  // Positional prefixes and explicit filter values narrow what the check could see: no warning.
  announced.clear();
  req.benchmark_prefixes = {"parse/"};
  (void)pipeline::analyze(req, *fx.git, fx.store, hooks);
  CHECK(announced.size() == 1);
  announced.clear();
  req.benchmark_prefixes.clear();
  req.selection.filters = analysis::resolve_filters({"criterion"}, {"all"}, {"all"}, std::nullopt, std::nullopt);
  (void)pipeline::analyze(req, *fx.git, fx.store, hooks);
  CHECK(announced.size() == 1);
}

TEST_CASE("an empty selection's hint names the filter that emptied it, with what is stored instead", "[pipeline]") {
  StoredHistory fx;
  pipeline::AnalyzeRequest req;
  req.selection = selection_request();
  const auto hint_for = [&](const std::vector<std::string>& engines, const std::vector<std::string>& machines) {
    req.selection.filters = analysis::resolve_filters(engines, {"all"}, machines, std::nullopt, std::nullopt);
    const auto data = pipeline::analyze(req, *fx.git, fx.store);
    REQUIRE(data.report.hint);
    return *data.report.hint;
  };
  // Only --engine constrains: widening the triple or machine key (the old advice) changes nothing.
  const auto engine = hint_for({"catch2"}, {"all"});
  CHECK_THAT(engine, Catch::Contains("--engine catch2 matches no stored run (stored: callgrind and criterion)"));
  CHECK_THAT(engine, Catch::Contains("widen it with `--engine all`;"));
  CHECK_THAT(engine, !Catch::Contains("--machine-key all"));
  // Each filter matches some run (criterion is stored under mk-a, mk-b holds callgrind), only not together.
  CHECK_THAT(hint_for({"criterion"}, {"mk-b"}), Catch::Contains("no run matches all of them at once"));
}

TEST_CASE("list runs counts runs, series and commits per discriminant set", "[pipeline]") {
  StoredHistory fx;
  const auto listing = pipeline::list_runs(selection_request(), *fx.git, fx.store, 2);
  REQUIRE(listing.sets.size() == 2);
  CHECK(listing.sets[1].runs() == 44);
  CHECK(listing.sets[1].series == 3);
  CHECK(listing.sets[1].commits.size() == 44);
}

TEST_CASE("a corrupt stored object fails the analysis naming its key, nothing skipped", "[pipeline]") {
  History h;
  storage::LocalStore store(h.dir / "store");
  write_history(store, h);
  const auto key = codec::clean_key("demo", Engine::criterion, triple, "mk-a", h.commits[20]);
  {
    std::ofstream(store.path_of(key), std::ios::binary | std::ios::trunc) << "\x1f\x8b\x08";
  }
  auto git = analysis::open_git_topology(h.repo());
  pipeline::AnalyzeRequest req;
  req.selection = selection_request();
  try {
    pipeline::analyze(req, *git, store);
    FAIL("a truncated object must fail the analysis");
  } catch (const Error& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains(h.commits[20]));
  }
}

TEST_CASE("unreadable objects: the failure counts them and names --skip-unreadable; with it the rest is analysed and every format lists the keys",
          "[pipeline][skip_unreadable]") {
  History h;
  storage::LocalStore store(h.dir / "store");
  write_history(store, h);
  // Two damaged runs of different kinds: a truncated gzip body and a record that is not one.
  const auto truncated = codec::clean_key("demo", Engine::criterion, triple, "mk-a", h.commits[20]);
  const auto invalid = codec::clean_key("demo", Engine::callgrind, triple, "mk-b", h.commits[7]);
  std::ofstream(store.path_of(truncated), std::ios::binary | std::ios::trunc) << "\x1f\x8b\x08";
  store.put(invalid, "{\"schema_version\": 5, \"context\": 7}", storage::CollisionPolicy::overwrite);
  auto git = analysis::open_git_topology(h.repo());
  pipeline::AnalyzeRequest req;
  req.selection = selection_request();
  req.threads = 3;

  // Default: fails on the first key (byte order), saying how many and what to do.
  try {
    pipeline::analyze(req, *git, store);
    FAIL("unreadable objects must fail the analysis by default");
  } catch (const Error& e) {
    CHECK(e.subject() == invalid);  // the key (callgrind sorts before criterion), as analyze.hpp says
    CHECK_THAT(e.hint(), Catch::StartsWith("2 of the 88 selected stored objects cannot be read"));
    CHECK_THAT(e.hint(), Catch::Contains("--skip-unreadable"));
  }

  // The local store's own error for the truncated body names the file; analyze names the key
  // (what census.skipped_unreadable lists and ObjectStore::remove takes), the message the file.
  {
    storage::LocalStore only_truncated(h.dir / "store");
    REQUIRE(only_truncated.remove(invalid));
    try {
      pipeline::analyze(req, *git, only_truncated);
      FAIL("a truncated object must fail the analysis");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::decode);
      CHECK(e.subject() == truncated);
      CHECK_THAT(e.message(), Catch::Contains(store.path_of(truncated).string()));
    }
    store.put(invalid, "{\"schema_version\": 5, \"context\": 7}", storage::CollisionPolicy::overwrite);
  }

  req.skip_unreadable = true;
  std::vector<std::string> announced;
  pipeline::Hooks hooks;
  hooks.announce = [&](std::string_view s) { announced.emplace_back(s); };
  const auto result = pipeline::analyze(req, *git, store, hooks);
  const auto& r = result.report;
  CHECK(r.census.skipped_unreadable == std::vector<std::string>{invalid, truncated});
  CHECK(r.runs.runs == 44 * 2 - 2);
  REQUIRE(r.findings.size() == 1);  // the planted step is still found
  CHECK(r.findings[0].commit == h.commits[30]);
  CHECK(std::count_if(announced.begin(), announced.end(),
                      [](const std::string& a) { return a.starts_with("skipped (--skip-unreadable): "); }) == 2);
  const std::string sentence = "Skipped 2 unreadable stored objects (--skip-unreadable): " + invalid + ", " + truncated + ".";
  CHECK_THAT(report::TextReporter().render(r), Catch::Contains("\n  " + sentence + "\n"));
  CHECK_THAT(report::MarkdownReporter().render(r), Catch::Contains("\n- " + sentence + "\n"));
  CHECK_THAT(report::SummaryReporter().render(r), Catch::Contains("\n- " + sentence + "\n"));
  CHECK_THAT(report::HtmlReporter().render(r), Catch::Contains("<p id=\"skipped-unreadable\">"));
  {
    const auto json = boost::json::parse(report::JsonReporter().render(r));
    const auto& skipped = json.at("census").at("skipped_unreadable").as_array();
    REQUIRE(skipped.size() == 2);
    CHECK(skipped[0].as_string() == invalid);
    CHECK(skipped[1].as_string() == truncated);
  }
  // Thread count never changes the outcome.
  req.threads = 1;
  CHECK(report::JsonReporter().render(pipeline::analyze(req, *git, store).report) == report::JsonReporter().render(r));
  // Nothing in the store was touched.
  CHECK(store.list("") .size() == 44 * 2 + 1);

  // examine reads runs too: same default, same way out.
  pipeline::ExamineRequest ex;
  ex.selection = selection_request();
  ex.benchmark = "parse/small";
  ex.metric = MetricKind::wall_time;
  CHECK_THROWS_WITH(pipeline::examine(ex, *git, store), Catch::Contains(invalid));
  ex.skip_unreadable = true;
  const auto data = pipeline::examine(ex, *git, store);
  REQUIRE(data.sets.size() == 1);
  CHECK_FALSE(data.sets[0].rows[20].value.has_value());  // the skipped run is a gap
  REQUIRE(data.warning);
  CHECK_THAT(*data.warning, Catch::Contains(sentence));
}

TEST_CASE("a clean store reports nothing skipped and its JSON has no skipped_unreadable member", "[pipeline][skip_unreadable]") {
  StoredHistory fx;
  pipeline::AnalyzeRequest req;
  req.selection = selection_request();
  req.skip_unreadable = true;
  const auto r = pipeline::analyze(req, *fx.git, fx.store).report;
  CHECK(r.census.skipped_unreadable.empty());
  CHECK_THAT(report::JsonReporter().render(r), !Catch::Contains("skipped_unreadable"));
  CHECK_THAT(report::TextReporter().render(r), !Catch::Contains("Skipped"));
}

namespace {

// main: 64 commits; a/x steps 100 → 120 at commit 30 (its current regime is 120), a/y and a/z
// stay flat. feature forks at main's commit 55, merges main back in, and its tip measures a/x
// above the current regime (regression), a/y below it (improvement) and a/z inside.
struct BranchHistory {
  fs::path dir;
  std::vector<std::string> main_commits;
  std::string tip;

  BranchHistory() {
    dir = fs::temp_directory_path() / ("bh-branch-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "repo");
    g_ = "git -C '" + (dir / "repo").string() + "' ";
    sh(g_ + "init -q -b main && " + g_ + "config user.email t@example.invalid && " + g_ + "config user.name t");
    for (int i = 0; i < 56; ++i) commit("main " + std::to_string(i), main_commits);
    std::vector<std::string> feature;
    sh(g_ + "checkout -q -b feature");
    commit("feature one", feature);
    commit("feature two", feature);
    sh(g_ + "checkout -q main");
    for (int i = 56; i < 64; ++i) commit("main " + std::to_string(i), main_commits);
    sh(g_ + "checkout -q feature && " + g_ + "merge -q --no-ff -m 'merge main' main");
    commit("feature tip", feature);
    tip = feature.back();
  }
  ~BranchHistory() { fs::remove_all(dir); }
  fs::path repo() const { return dir / "repo"; }

 private:
  void commit(const std::string& msg, std::vector<std::string>& into) {
    sh(g_ + "commit -q --allow-empty -m '" + msg + "'");
    into.push_back(sh(g_ + "rev-parse HEAD"));
  }
  std::string g_;
};

void write_branch_history(storage::LocalStore& store, const BranchHistory& h) {
  auto put = [&](const std::string& commit, double x, double y, double z) {
    std::vector<BenchmarkResult> rs{result({"a", "x"}, MetricKind::wall_time, x),
                                    result({"a", "y"}, MetricKind::wall_time, y),
                                    result({"a", "z"}, MetricKind::wall_time, z)};
    store.put(codec::clean_key("demo", Engine::criterion, triple, "mk-a", commit), codec::encode_run(make_run(commit, false, rs, triple)),
              storage::CollisionPolicy::refuse);
  };
  for (std::size_t i = 0; i < h.main_commits.size(); ++i) {
    const int k = int(i);
    put(h.main_commits[i], (k >= 30 ? 120.0 : 100.0) * (1 + 0.004 * noise(k, 1)), 50.0 * (1 + 0.004 * noise(k, 2)),
        200.0 * (1 + 0.004 * noise(k, 3)));
  }
  put(h.tip, 140.0, 40.0, 200.3);
}

}  // namespace

TEST_CASE("branch mode judges the tip against the base's current regime in both directions", "[pipeline][branch]") {
  BranchHistory h;
  storage::LocalStore store(h.dir / "store");
  write_branch_history(store, h);
  auto git = analysis::open_git_topology(h.repo());
  auto req = feature_request();
  const auto result = pipeline::analyze(req, *git, store);
  const auto& r = result.report;

  CHECK(r.mode == benchhist::AnalysisMode::branch);
  CHECK(r.context_commit == h.tip);
  REQUIRE(r.findings.size() == 2);
  const auto& up = r.findings[0].benchmark.qualified() == "a/x" ? r.findings[0] : r.findings[1];
  const auto& down = r.findings[0].benchmark.qualified() == "a/x" ? r.findings[1] : r.findings[0];
  CHECK(up.benchmark.qualified() == "a/x");
  CHECK(up.direction == benchhist::Direction::regression);
  REQUIRE(up.branch);
  // The reference range is the current regime (after the step at commit 30), not all history.
  CHECK(up.branch->reference_min > 115.0);
  CHECK(up.branch->current_regime_start == h.main_commits[30]);
  CHECK(down.benchmark.qualified() == "a/y");
  CHECK(down.direction == benchhist::Direction::improvement);
  CHECK(r.census.judged == 3);
  REQUIRE(r.sets.size() == 1);
  CHECK(r.sets[0].comparison.has_value());
  CHECK(r.sets[0].lags.empty());

  const auto text = report::TextReporter().render(r);
  // The report-wide historical-turn sentence (docs/statistics.md#historical-turn-comparison).
  CHECK_THAT(text, Catch::Contains("comparable base commits showed"));
  CHECK_THAT(text, Catch::Contains("series compared)."));
  CHECK(text == report::TextReporter().render(pipeline::analyze(req, *git, store).report));
}

TEST_CASE("a rotating machine-key pool makes a branch finding lag with the discriminant-set-mismatch reason",
          "[pipeline][branch][lag]") {
  BranchHistory h;
  storage::LocalStore store(h.dir / "store");
  // The pool alternates: even main commits ran on mk-a, odd ones on mk-b; the tip ran on mk-a.
  for (std::size_t i = 0; i < h.main_commits.size(); ++i) {
    const auto& c = h.main_commits[i];
    const std::string mk = i % 2 == 0 ? "mk-a" : "mk-b";
    std::vector<BenchmarkResult> rs{result({"a", "x"}, MetricKind::wall_time, 100.0 * (1 + 0.004 * noise(int(i), 1)))};
    store.put(codec::clean_key("demo", Engine::criterion, triple, mk, c), codec::encode_run(make_run(c, false, rs, triple)),
              storage::CollisionPolicy::refuse);
  }
  store.put(codec::clean_key("demo", Engine::criterion, triple, "mk-a", h.tip),
            codec::encode_run(make_run(h.tip, false, {result({"a", "x"}, MetricKind::wall_time, 150.0)}, triple)),
            storage::CollisionPolicy::refuse);
  auto git = analysis::open_git_topology(h.repo());

  for (const char* filter : {"all", "mk-a"}) {  // loaded evidence, then lazily fetched siblings
    INFO("machine-key filter " << filter);
    auto req = feature_request();
    req.selection.filters = analysis::resolve_filters({}, {"all"}, {filter}, std::nullopt, std::nullopt);
    const auto r = pipeline::analyze(req, *git, store).report;
    REQUIRE(r.findings.size() == 1);
    const auto set_a = std::find_if(r.sets.begin(), r.sets.end(), [](const auto& s) { return s.set.machine_key == "mk-a"; });
    REQUIRE(set_a != r.sets.end());
    REQUIRE(set_a->lags.size() == 1);
    CHECK(set_a->lags[0].commits_behind == 1);
    CHECK(set_a->lags[0].reason == benchhist::LagReason::discriminant_set_mismatch);
    CHECK_THAT(report::TextReporter().render(r), Catch::Contains("comparison base is 1 commit behind base"));
  }
}

TEST_CASE("base commits without any recent run make the finding lag for lack of base data", "[pipeline][branch][lag]") {
  BranchHistory h;
  storage::LocalStore store(h.dir / "store");
  // The newest three main commits carry no run at all.
  for (std::size_t i = 0; i + 3 < h.main_commits.size(); ++i) {
    const auto& c = h.main_commits[i];
    std::vector<BenchmarkResult> rs{result({"a", "x"}, MetricKind::wall_time, 100.0 * (1 + 0.004 * noise(int(i), 1)))};
    store.put(codec::clean_key("demo", Engine::criterion, triple, "mk-a", c), codec::encode_run(make_run(c, false, rs, triple)),
              storage::CollisionPolicy::refuse);
  }
  store.put(codec::clean_key("demo", Engine::criterion, triple, "mk-a", h.tip),
            codec::encode_run(make_run(h.tip, false, {result({"a", "x"}, MetricKind::wall_time, 150.0)}, triple)),
            storage::CollisionPolicy::refuse);
  auto git = analysis::open_git_topology(h.repo());
  auto req = feature_request();
  const auto r = pipeline::analyze(req, *git, store).report;
  REQUIRE(r.findings.size() == 1);
  REQUIRE(r.sets.size() == 1);
  REQUIRE(r.sets[0].lags.size() == 1);
  CHECK(r.sets[0].lags[0].commits_behind == 3);
  CHECK(r.sets[0].lags[0].reason == benchhist::LagReason::no_recent_base_data);
}

TEST_CASE("a dirty snapshot on the base tip with a dirty working tree switches to branch mode with a warning",
          "[pipeline][branch]") {
  BranchHistory h;
  storage::LocalStore store(h.dir / "store");
  write_branch_history(store, h);
  const std::string g = "git -C '" + h.repo().string() + "' ";
  sh(g + "checkout -q main");
  std::ofstream(h.repo() / "scratch.txt") << "uncommitted\n";
  const auto& main_tip = h.main_commits.back();
  store.put(codec::dirty_key("demo", Engine::criterion, triple, "mk-a", main_tip, 1790000000),
            codec::encode_run(make_run(main_tip, true,
                                {result({"a", "x"}, MetricKind::wall_time, 160.0), result({"a", "y"}, MetricKind::wall_time, 50.0),
                                 result({"a", "z"}, MetricKind::wall_time, 200.0)},
                                triple)),
            storage::CollisionPolicy::refuse);
  auto git = analysis::open_git_topology(h.repo());
  pipeline::AnalyzeRequest req;
  req.selection = selection_request();
  const auto r = pipeline::analyze(req, *git, store).report;
  CHECK(r.mode == benchhist::AnalysisMode::branch);
  REQUIRE(r.warning);
  CHECK_THAT(*r.warning, Catch::StartsWith("Warning: "));
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].benchmark.qualified() == "a/x");
}

TEST_CASE("a branch judged by a dirty snapshot says so even when the working tree is clean now", "[pipeline][branch]") {
  BranchHistory h;
  storage::LocalStore store(h.dir / "store");
  write_branch_history(store, h);
  auto git = analysis::open_git_topology(h.repo());
  auto req = feature_request();
  const auto clean = pipeline::analyze(req, *git, store).report;
  CHECK_FALSE(clean.warning);
  const auto clean_findings = clean.findings.size();

  // An experiment measured on top of the branch tip, then discarded: the checkout is clean.
  store.put(codec::dirty_key("demo", Engine::criterion, triple, "mk-a", h.tip, 1790000000),
            codec::encode_run(make_run(h.tip, true, {result({"a", "x"}, MetricKind::wall_time, 100.0)}, triple)),
            storage::CollisionPolicy::refuse);
  store.put(codec::dirty_key("demo", Engine::criterion, triple, "mk-a", h.tip, 1790000600),
            codec::encode_run(make_run(h.tip, true, {result({"a", "x"}, MetricKind::wall_time, 100.0)}, triple)),
            storage::CollisionPolicy::refuse);
  const auto dirty = pipeline::analyze(req, *git, store).report;
  CHECK_FALSE(dirty.context_dirty);
  REQUIRE(dirty.warning);
  CHECK(*dirty.warning == "Note: commit " + h.tip.substr(0, 12) +
                              " was judged by its newest dirty snapshot (uncommitted changes measured at "
                              "2026-09-21T14:23:20Z), not by its clean run. Pass --no-dirty to judge the committed "
                              "state, or collect again to measure the working tree as it is now.");
  // Every format carries it.
  CHECK(report::TextReporter().render(dirty).find(*dirty.warning) != std::string::npos);
  CHECK(report::MarkdownReporter().render(dirty).find(*dirty.warning) != std::string::npos);
  CHECK(report::JsonReporter().render(dirty).find("\"warning\": \"Note: commit ") != std::string::npos);

  req.selection.allow_dirty = false;  // --no-dirty: the clean run is judged, and nothing is noted
  const auto no_dirty = pipeline::analyze(req, *git, store).report;
  CHECK_FALSE(no_dirty.warning);
  CHECK(no_dirty.findings.size() == clean_findings);

  // A commit measured only dirty has no committed state to fall back on: the note says so.
  req.selection.allow_dirty = true;
  REQUIRE(store.remove(codec::clean_key("demo", Engine::criterion, triple, "mk-a", h.tip)));
  const auto only_dirty = pipeline::analyze(req, *git, store).report;
  REQUIRE(only_dirty.warning);
  CHECK_THAT(*only_dirty.warning, Catch::EndsWith("; it has no clean run. Collect on a clean checkout of it to judge "
                                                  "the committed state."));
}

namespace {

const report::SeriesSketch* sketch_of(const report::ChartData& d, const std::string& bench) {
  for (const auto& s : d.judged)
    if (s.benchmark.qualified() == bench) return &s;
  return nullptr;
}

std::size_t index_of(const std::vector<analysis::CommitInfo>& line, const std::string& id) {
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i].id == id) return i;
  FAIL("commit " << id << " is not on the line");
  return 0;
}

}  // namespace

TEST_CASE("the HTML report's chart data is the commit line and every judged series, and the page is identical on "
          "any thread count",
          "[pipeline][html]") {
  StoredHistory fx;
  pipeline::AnalyzeRequest req;
  req.selection = selection_request();
  req.threads = 1;
  auto one = pipeline::analyze(req, *fx.git, fx.store);
  req.threads = 4;
  auto four = pipeline::analyze(req, *fx.git, fx.store);

  const auto d = pipeline::chart_data(one);
  // The line the chart indices refer to: the context's first-parent line, with subjects and times.
  REQUIRE(d.line.size() == one.selection.line.size());
  const auto at30 = index_of(one.selection.line, fx.h.commits[30]);
  CHECK(d.line[at30].id == fx.h.commits[30]);
  CHECK(d.line[at30].subject == "change 30");
  CHECK(d.line[at30].committed.has_value());
  // Every judged series once, the ghost not among them, each finding linked both ways.
  CHECK(d.judged.size() == one.report.census.judged);
  CHECK(sketch_of(d, "old/gone") == nullptr);
  const auto* small = sketch_of(d, "parse/small");
  REQUIRE(small);
  REQUIRE(small->finding);
  CHECK(one.report.findings[*small->finding].benchmark.qualified() == "parse/small");
  CHECK(small->points.size() == 44);  // commit 12 has no run: a gap, not a point
  CHECK(small->target_index == one.selection.context_topo());
  const auto* flat = sketch_of(d, "parse/flat");
  REQUIRE(flat);
  CHECK_FALSE(flat->finding);
  // The finding's own chart carries what the graphical chart marks beyond the text chart.
  REQUIRE(one.report.findings[0].chart);
  CHECK(one.report.findings[0].chart->analysed_from.has_value());
  CHECK(one.report.findings[0].chart->attributed_index == at30);

  one.report.charts = d;
  four.report.charts = pipeline::chart_data(four);
  const auto html = report::HtmlReporter().render(one.report);
  CHECK(report::HtmlReporter().render(four.report) == html);
}

TEST_CASE("in branch mode the chart data is the base line then the context commit, where every tip value sits",
          "[pipeline][branch][html]") {
  BranchHistory h;
  storage::LocalStore store(h.dir / "store");
  write_branch_history(store, h);
  auto git = analysis::open_git_topology(h.repo());
  auto req = feature_request();
  const auto result = pipeline::analyze(req, *git, store);
  REQUIRE(result.report.mode == benchhist::AnalysisMode::branch);
  const auto d = pipeline::chart_data(result);
  const auto& base = result.selection.base_line;
  REQUIRE(d.line.size() == base.size() + 1);
  CHECK(d.line.back().id == h.tip);
  CHECK(d.line.back().subject == "feature tip");
  CHECK(d.judged.size() == 3);
  for (const auto& s : d.judged) {
    INFO(s.benchmark.qualified());
    REQUIRE_FALSE(s.points.empty());
    CHECK(s.target_index == base.size());
    CHECK(s.points.back().index == base.size());
    for (std::size_t i = 0; i + 1 < s.points.size(); ++i) CHECK(s.points[i].index < base.size());
  }
  CHECK(sketch_of(d, "a/x")->points.back().value == 140.0);
  CHECK_FALSE(sketch_of(d, "a/z")->finding);
  // The regression's chart marks where the current base regime starts: the step at main's commit 30.
  const auto& up = result.report.findings[0].benchmark.qualified() == "a/x" ? result.report.findings[0]
                                                                             : result.report.findings[1];
  REQUIRE(up.chart);
  REQUIRE(up.chart->regime_start_index);
  CHECK(*up.chart->regime_start_index == index_of(base, h.main_commits[30]));
  CHECK(up.chart->target_index == base.size());
}
