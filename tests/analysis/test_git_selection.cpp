// Real-git tests: a repository built with the git CLI (46-commit first-parent main line with
// a merged side branch, a commit without runs, dirty snapshots, a feature branch, a topic
// branch that merged the base back in, a branch forked deep in history) and runs written
// through LocalStore + encode_run. Checks the funnel, mode derivation, the announcement,
// loading, ghosts, blessings, the shallow-clone error and corrupt objects.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/analysis/loading.hpp"
#include "benchhist/analysis/reconstruction.hpp"
#include "benchhist/analysis/selection.hpp"
#include "benchhist/codec/blessing_json.hpp"
#include "benchhist/codec/gzip.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"

using namespace benchhist;
using namespace benchhist::analysis;
namespace fs = std::filesystem;

namespace {

constexpr const char* kTriple = "x86_64-unknown-linux-gnu";
constexpr const char* kHost = "hostkey";
constexpr const char* kProject = "demo";

std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string run_cmd(const std::string& cmd) {
  const std::string full = cmd + " 2>/dev/null";
  FILE* p = popen(full.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int rc = pclose(p);
  INFO(cmd);
  REQUIRE(rc == 0);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

Timestamp day(int n) { return *parse_rfc3339("2024-01-01T12:00:00Z") + std::chrono::hours(24 * n); }

struct Repo {
  fs::path root;
  fs::path repo;
  fs::path store_dir;
  std::map<std::string, std::string> ids;  // name → commit id
  std::vector<std::string> main_line;      // first-parent main, names oldest first
  int clock = 0;

  Repo() = default;
  Repo(const Repo&) = delete;
  Repo& operator=(const Repo&) = delete;
  Repo(Repo&& o) noexcept : root(std::move(o.root)), repo(o.repo), store_dir(o.store_dir), ids(o.ids), main_line(o.main_line), clock(o.clock) { o.root.clear(); }
  ~Repo() {
    std::error_code ec;
    if (!root.empty()) fs::remove_all(root, ec);
  }

  std::string git(const std::string& args) const {
    return run_cmd("git -C " + sh_quote(repo.string()) +
                   " -c user.name=t -c user.email=t@example.com -c commit.gpgsign=false " + args);
  }
  std::string commit(const std::string& name) {
    const std::string date = format_rfc3339(day(clock++));
    {
      std::ofstream(repo / (name + ".txt")) << name << "\n";  // one file per commit: merges never conflict
    }
    git("add " + sh_quote(name + ".txt"));
    run_cmd("GIT_AUTHOR_DATE=" + date + " GIT_COMMITTER_DATE=" + date + " git -C " + sh_quote(repo.string()) +
            " -c user.name=t -c user.email=t@example.com -c commit.gpgsign=false commit -q -m " + sh_quote(name));
    return ids[name] = git("rev-parse HEAD");
  }
  std::string merge(const std::string& name, const std::string& branch) {
    const std::string date = format_rfc3339(day(clock++));
    run_cmd("GIT_AUTHOR_DATE=" + date + " GIT_COMMITTER_DATE=" + date + " git -C " + sh_quote(repo.string()) +
            " -c user.name=t -c user.email=t@example.com -c commit.gpgsign=false merge -q --no-ff -m " +
            sh_quote(name) + " " + branch);
    return ids[name] = git("rev-parse HEAD");
  }
};

Run make_run(const std::string& commit, bool dirty, Engine engine, const std::map<std::string, double>& benches,
             Timestamp observed) {
  Run run;
  run.context.observation = observed;
  run.context.git = GitState{commit, std::string("main"), dirty};
  run.context.toolchain = ToolchainInfo{kTriple, std::string("1.95.0")};
  run.context.tool_version = "0.9.0";
  for (const auto& [id, value] : benches) {
    std::vector<std::string> segments;
    std::stringstream ss(id);
    for (std::string seg; std::getline(ss, seg, '/');) segments.push_back(seg);
    BenchmarkResult r{BenchmarkId(segments), {}};
    if (engine == Engine::criterion)
      r.metrics.push_back(MetricValue{MetricKind::wall_time, value, std::nullopt, Interval{value * 0.99, value * 1.01}});
    else
      r.metrics.push_back(MetricValue{MetricKind::instruction_count, value, std::nullopt, std::nullopt});
    run.results.push_back(std::move(r));
  }
  return run;
}

void put_run(storage::LocalStore& store, Engine engine, const char* triple, const char* machine, const std::string& commit,
             std::optional<std::int64_t> dirty_at, const std::map<std::string, double>& benches) {
  const Run run = make_run(commit, dirty_at.has_value(), engine, benches, day(0));
  const std::string key = dirty_at ? codec::dirty_key(kProject, engine, triple, machine, commit, *dirty_at)
                                   : codec::clean_key(kProject, engine, triple, machine, commit);
  store.put(key, codec::encode_run(run), storage::CollisionPolicy::refuse);
}

// Built once for the whole suite (the repository is only read afterwards, except by the
// working-tree test, which restores it).
const Repo& fixture() {
  static Repo r = [] {
    Repo r;
    r.root = fs::temp_directory_path() / ("bh-analysis-" + std::to_string(std::random_device{}()));
    fs::remove_all(r.root);
    r.repo = r.root / "repo";
    r.store_dir = r.root / "store";
    fs::create_directories(r.repo);
    run_cmd("git -C " + sh_quote(r.repo.string()) + " init -q -b main");
    for (int i = 0; i < 30; ++i) r.main_line.push_back("c" + std::to_string(i)), r.commit(r.main_line.back());
    r.git("checkout -q -b side");
    for (int i = 0; i < 3; ++i) r.commit("s" + std::to_string(i));
    r.git("checkout -q main");
    for (int i = 30; i < 35; ++i) r.main_line.push_back("c" + std::to_string(i)), r.commit(r.main_line.back());
    r.main_line.push_back("m"), r.merge("m", "side");
    for (int i = 35; i < 45; ++i) r.main_line.push_back("c" + std::to_string(i)), r.commit(r.main_line.back());
    // feature: forked at the main tip
    r.git("checkout -q -b feature");
    r.commit("f0"), r.commit("f1");
    // topic: forked at c25, merged main back in (merge base off its first-parent line)
    r.git("checkout -q -b topic " + r.ids.at("c25"));
    r.commit("t0");
    r.merge("tm", "main");
    r.commit("t1");
    // old: forked deep in history, for the shallow clone
    r.git("checkout -q -b old " + r.ids.at("c20"));
    r.commit("o0"), r.commit("o1");
    r.git("checkout -q main");

    storage::LocalStore store(r.store_dir);
    for (const auto& name : r.main_line) {
      if (name == "c10") continue;  // a commit without runs
      const double level = name == "c44" || name == "c43" ? 150.0 : 100.0;
      std::map<std::string, double> benches{{"grp/fast", level}, {"grp/slow", 1000.0}};
      if (name != "c44") benches["grp/gone"] = 5.0;  // deleted before the tip: a ghost
      put_run(store, Engine::criterion, kTriple, kHost, r.ids.at(name), std::nullopt, benches);
      put_run(store, Engine::callgrind, kTriple, kHost, r.ids.at(name), std::nullopt, {{"grp/fast", 5000.0}});
    }
    for (const char* name : {"c5", "c30", "c44"})  // a foreign partition
      put_run(store, Engine::criterion, "aarch64-apple-darwin", "otherkey", r.ids.at(name), std::nullopt,
              {{"grp/fast", 1.0}});
    for (const char* name : {"c40", "c44"})  // a sibling partition: same engine and triple, another machine
      put_run(store, Engine::criterion, kTriple, "otherhost", r.ids.at(name), std::nullopt, {{"grp/fast", 2.0}});
    put_run(store, Engine::criterion, kTriple, kHost, r.ids.at("s1"), std::nullopt, {{"grp/fast", 7.0}});  // off the line
    put_run(store, Engine::criterion, kTriple, kHost, r.ids.at("c20"), 1700000000, {{"grp/fast", 9.0}});  // base-side dirty
    put_run(store, Engine::criterion, kTriple, kHost, r.ids.at("c44"), 1700000100, {{"grp/fast", 151.0}});  // base-tip dirty
    for (const char* name : {"f0", "f1", "t0", "t1"})
      put_run(store, Engine::criterion, kTriple, kHost, r.ids.at(name), std::nullopt, {{"grp/fast", 120.0}, {"grp/new", 1.0}});
    put_run(store, Engine::criterion, kTriple, kHost, r.ids.at("f1"), 1700000200, {{"grp/fast", 121.0}});
    put_run(store, Engine::criterion, kTriple, kHost, r.ids.at("f1"), 1700000300, {{"grp/fast", 122.0}});
    // A project-level blessing of grp/fast at c30 for every partition, and a legacy sidecar
    // at c40 for callgrind only.
    Blessing b;
    b.commit = r.ids.at("c30");
    b.issued_at = day(100);
    b.prefixes = {"grp/fast"};
    b.tool_version = "0.9.0";
    b.scope = BlessingScope{};
    store.put(codec::project_blessing_key(kProject, b.commit, unix_nanos(b.issued_at)), codec::encode_blessing(b), storage::CollisionPolicy::refuse);
    Blessing legacy = b;
    legacy.commit = r.ids.at("c40");
    legacy.scope.reset();
    legacy.prefixes = {};
    store.put(codec::partition_blessing_key(kProject, Engine::callgrind, kTriple, kHost, legacy.commit, 1800000000),
              codec::encode_blessing(legacy), storage::CollisionPolicy::refuse);
    return r;
  }();
  return r;
}

SelectionRequest request(const std::string& context = "HEAD") {
  SelectionRequest req;
  req.project = kProject;
  req.context_ref = context;
  req.filters = resolve_filters({}, {}, {}, std::string(kTriple), std::string(kHost));
  req.now = day(60);
  return req;
}

std::size_t topo_of(const Selection& sel, const std::string& id) {
  for (std::size_t i = 0; i < sel.line.size(); ++i)
    if (sel.line[i].id == id) return i;
  FAIL("commit not on the line");
  return 0;
}

}  // namespace

TEST_CASE("libgit2 topology answers the §4.1 queries on a real repository", "[analysis][git]") {
  const Repo& r = fixture();
  auto git = open_git_topology(r.repo / "c0.txt");  // found by searching upward, like git -C
  REQUIRE(git);
  CHECK(git->resolve("HEAD") == r.ids.at("c44"));
  CHECK(git->resolve("feature~1") == r.ids.at("f0"));
  CHECK_FALSE(git->resolve("no-such-ref"));
  // fuzz_git_ref finding: libgit2 reads C strings, so "HEAD\0junk" resolved as HEAD.
  using namespace std::string_view_literals;
  CHECK_FALSE(git->resolve("HEAD\0junk"sv));
  CHECK_THROWS_AS(resolve_context(*git, "main\0x"sv), Error);
  CHECK(git->default_branch() == "main");
  CHECK(git->merge_base(r.ids.at("f1"), r.ids.at("c44")) == r.ids.at("c44"));
  CHECK(git->merge_base(r.ids.at("t1"), r.ids.at("c44")) == r.ids.at("c44"));
  CHECK(git->is_ancestor(r.ids.at("c25"), r.ids.at("c44")));
  CHECK_FALSE(git->is_ancestor(r.ids.at("t0"), r.ids.at("c44")));
  const auto line = git->first_parent_history(r.ids.at("c44"));
  REQUIRE(line.size() == r.main_line.size());
  REQUIRE(line.size() >= 40);
  for (std::size_t i = 0; i < line.size(); ++i) CHECK(line[i].id == r.ids.at(r.main_line[i]));
  CHECK(line[35].subject == "m");
  CHECK(line.front().committer_time == day(0));
  CHECK(git->committer_time("main") == day(48));  // c44 is the 49th commit made (3 side commits, 1 merge)
  CHECK_FALSE(git->working_tree_dirty());
  {
    std::ofstream(r.repo / "untracked.tmp") << "x";  // untracked files count as dirty (docs/formats.md#git-facts)
  }
  const bool dirty_with_untracked = git->working_tree_dirty();
  fs::remove(r.repo / "untracked.tmp");
  CHECK(dirty_with_untracked);
  CHECK_FALSE(git->working_tree_dirty());
  CHECK_FALSE(git->is_shallow());
  CHECK_THROWS_AS(git->committer_time("no-such-ref"), Error);
  const fs::path not_a_repo = r.root / "plain";
  fs::create_directories(not_a_repo);
  try {
    open_git_topology(not_a_repo);
  } catch (const Error& e) {
    // (inside /tmp there is normally no enclosing repository)
    CHECK(e.kind() == ErrorKind::git);
    CHECK(e.message() == "could not open a git repository at " + not_a_repo.string());
  }
}

TEST_CASE("history mode at the base tip runs the key-only funnel in order", "[analysis][git]") {
  const Repo& r = fixture();
  auto git = open_git_topology(r.repo);
  storage::LocalStore store(r.store_dir);
  const Selection sel = select_objects(request(), *git, store);
  CHECK(sel.mode == AnalysisMode::history);
  CHECK(sel.context_is_merge_base);
  CHECK(sel.base.name == "main");
  CHECK(sel.base.auto_detected());
  CHECK(sel.line.size() == 46);
  CHECK(sel.split == 45);
  CHECK(sel.working_tree_dirty == false);
  // Runs: 45 main commits × 2 engines, 3 foreign, 2 sibling, 1 side, 2 base dirty, 4 branch
  // clean, 2 branch dirty.
  CHECK(sel.counts.stored_runs == 90 + 3 + 2 + 1 + 2 + 4 + 2);
  CHECK(sel.counts.outside_filters == 5);
  CHECK(sel.counts.off_history == 1 + 4 + 2);
  CHECK(sel.counts.dirty_not_admitted == 2);  // base-side dirty never enters, nor the tip's without a dirty tree
  CHECK(sel.counts.before_since == 0);        // six months cover the whole line
  CHECK(sel.counts.selected == 90);
  REQUIRE(sel.excluded.size() == sel.counts.stored_runs - sel.counts.selected);
  std::map<FunnelStage, std::size_t> by_stage;
  for (const auto& e : sel.excluded) ++by_stage[e.stage];
  CHECK(by_stage[FunnelStage::discriminant_filter] == 5);
  CHECK(by_stage[FunnelStage::off_history] == 7);
  CHECK(by_stage[FunnelStage::dirty_admission] == 2);
  CHECK(sel.sibling_base_objects.empty());  // history mode has no comparison-base lag
  REQUIRE(sel.since.cutoff);
  CHECK(format_rfc3339(*sel.since.cutoff) == "2023-09-01T12:00:00Z");
  // Ordinals follow storage-key order.
  for (std::size_t i = 0; i < sel.objects.size(); ++i) {
    CHECK(sel.objects[i].ordinal == i);
    if (i) CHECK(sel.objects[i - 1].key < sel.objects[i].key);
  }
  // Both blessings lie on the context line.
  REQUIRE(sel.blessings.size() == 2);
  const auto counts = sel.run_counts();
  REQUIRE(counts.size() == 2);
  CHECK(counts[0].set.engine == Engine::callgrind);
  CHECK(counts[0].runs == 45);
  CHECK(counts[0].commits.size() == 45);
  CHECK(counts[0].commits.front().commit == r.ids.at("c0"));
  const auto line = selection_announcement(request().filters, sel);
  CHECK(line ==
        "[bench-history] selection: engine=all, target-triple=x86_64-unknown-linux-gnu (auto-detected), "
        "machine-key=hostkey (auto-detected); base=main (auto-detected); since=2023-09-01T12:00:00Z "
        "(history-mode default six-month look-back)");
}

TEST_CASE("an explicit --since drops runs of commits committed before it", "[analysis][git]") {
  const Repo& r = fixture();
  auto git = open_git_topology(r.repo);
  storage::LocalStore store(r.store_dir);
  auto req = request();
  req.since = parse_since(format_rfc3339(day(20)));  // commit c20 was made on day 20
  const Selection sel = select_objects(req, *git, store);
  CHECK(sel.since.reason == SinceReason::explicit_option);
  // c0..c19 carry 2 runs each except c10 (none): 19 × 2 dropped; c20 stays (at the cutoff).
  CHECK(sel.counts.before_since == 38);
  CHECK(sel.objects.front().topo >= 20);
  bool c20 = false;
  for (const auto& o : sel.objects) c20 = c20 || o.data.commit == r.ids.at("c20");
  CHECK(c20);
}

TEST_CASE("a feature branch is analysed in branch mode with its dirty snapshots", "[analysis][git]") {
  const Repo& r = fixture();
  auto git = open_git_topology(r.repo);
  storage::LocalStore store(r.store_dir);
  const Selection sel = select_objects(request("feature"), *git, store);
  CHECK(sel.mode == AnalysisMode::branch);
  CHECK_FALSE(sel.context_is_merge_base);
  CHECK(sel.merge_base == r.ids.at("c44"));
  CHECK(sel.line[sel.split].id == r.ids.at("c44"));
  CHECK_FALSE(sel.working_tree_dirty);  // not probed: the context is target-side
  CHECK_FALSE(sel.since.cutoff);
  CHECK(sel.since.reason == SinceReason::no_default_outside_history);
  CHECK(sel.counts.dirty_not_admitted == 2);  // c20 and c44 (base side)
  std::size_t dirty = 0;
  for (const auto& o : sel.objects) dirty += o.dirty();
  CHECK(dirty == 2);
  CHECK(sel.base_line.size() == 46);
  CHECK(sel.base_objects.size() == 90);
  for (const auto& o : sel.base_objects) CHECK_FALSE(o.dirty());
  REQUIRE(sel.sibling_base_objects.size() == 2);  // otherhost at c40 and c44, for the lag check
  CHECK(sel.sibling_base_objects[0].data.machine_key == "otherhost");
  CHECK(std::set<std::size_t>{sel.sibling_base_objects[0].topo, sel.sibling_base_objects[1].topo} ==
        std::set<std::size_t>{41, 45});

  auto no_dirty = request("feature");
  no_dirty.allow_dirty = false;
  const Selection clean = select_objects(no_dirty, *git, store);
  CHECK(clean.counts.dirty_not_admitted == 4);
  CHECK(clean.counts.dirty_on_base_side == 2);  // the branch's own two were refused by --no-dirty

  // Loading and reconstruction: the tip observation is the newest dirty snapshot.
  const auto loaded = load_selection(store, sel, 2);
  const auto rec = reconstruct(sel, loaded);
  // Runs are matched to the selection by position: a truncated list is refused, not read short.
  using Runs = std::vector<std::shared_ptr<const Run>> LoadedSelection::*;
  for (const Runs runs : {Runs{&LoadedSelection::runs}, Runs{&LoadedSelection::base_runs}}) {
    auto cut = loaded;
    (cut.*runs).pop_back();
    CHECK_THROWS_WITH(reconstruct(sel, cut), Catch::StartsWith("the loaded runs do not match the selection: "));
  }
  const Series* fast = nullptr;
  for (const auto& s : rec.series)
    if (s.key.id.qualified() == "grp/fast" && s.key.set.engine == Engine::criterion) fast = &s;
  REQUIRE(fast);
  REQUIRE(fast->tip);
  CHECK(fast->tip->value == 122.0);
  CHECK(fast->tip->dirty);
  CHECK(fast->base_history_count == 45);
  CHECK(fast->base_window.size() == 16);  // blessed at c30 (topo 30): levels 30..45
  CHECK(fast->base_window.front().commit == r.ids.at("c30"));
  CHECK(fast->blessed());
  // grp/new exists only on the branch: present, with an empty base window.
  bool saw_new = false;
  for (const auto& s : rec.series)
    if (s.key.id.qualified() == "grp/new") {
      saw_new = true;
      CHECK(s.base_window.empty());
    }
  CHECK(saw_new);
  // grp/slow and grp/gone have no run at the context: ghosts.
  CHECK(rec.ghost_benchmarks == 3);  // criterion grp/slow, criterion grp/gone, callgrind grp/fast
}

TEST_CASE("a base merged into the branch puts the split at the newest shared commit", "[analysis][git]") {
  const Repo& r = fixture();
  auto git = open_git_topology(r.repo);
  storage::LocalStore store(r.store_dir);
  const Selection sel = select_objects(request("topic"), *git, store);
  CHECK(sel.merge_base == r.ids.at("c44"));  // off the topic's first-parent line
  CHECK(sel.line[sel.split].id == r.ids.at("c25"));
  CHECK(sel.line.size() == 26 + 3);
  CHECK(sel.mode == AnalysisMode::branch);
  CHECK(sel.base_line.back().id == r.ids.at("c44"));
}

TEST_CASE("a dirty working tree at the base tip admits its dirty run and switches to branch mode", "[analysis][git]") {
  const Repo& r = fixture();
  {
    std::ofstream(r.repo / "c0.txt", std::ios::app) << "uncommitted\n";
  }
  auto git = open_git_topology(r.repo);
  storage::LocalStore store(r.store_dir);
  Selection sel;
  Selection no_dirty_sel;
  Selection older_sel;
  Selection feature_sel;
  auto no_dirty = request();
  no_dirty.allow_dirty = false;
  try {
    CHECK(git->working_tree_dirty());
    sel = select_objects(request(), *git, store);
    no_dirty_sel = select_objects(no_dirty, *git, store);
    older_sel = select_objects(request(r.ids.at("c40")), *git, store);
    feature_sel = select_objects(request("feature"), *git, store);
  } catch (...) {
    r.git("checkout -q -- c0.txt");
    throw;
  }
  r.git("checkout -q -- c0.txt");
  CHECK_FALSE(git->working_tree_dirty());
  CHECK(sel.context_is_merge_base);
  CHECK(sel.dirty_run_admitted_on_context);
  CHECK(sel.dirty_base_tip_admitted);
  CHECK(sel.mode == AnalysisMode::branch);
  CHECK(sel.counts.dirty_not_admitted == 1);  // only c20's
  CHECK_FALSE(sel.since.cutoff);
  CHECK(sel.working_tree_dirty == std::optional<bool>(true));  // the report's "+ uncommitted changes"
  CHECK(no_dirty_sel.mode == AnalysisMode::history);
  // --no-dirty admits no dirty run, but the marker stays true to the working tree.
  CHECK(no_dirty_sel.working_tree_dirty == std::optional<bool>(true));
  // Another context was not measured with these changes: no marker, and no exception for it.
  CHECK_FALSE(older_sel.working_tree_dirty);
  CHECK_FALSE(older_sel.dirty_run_admitted_on_context);
  CHECK_FALSE(feature_sel.working_tree_dirty);
}

TEST_CASE("history reconstruction removes ghosts, ignores prefixes and applies blessings", "[analysis][git]") {
  const Repo& r = fixture();
  auto git = open_git_topology(r.repo);
  storage::LocalStore store(r.store_dir);
  const Selection sel = select_objects(request(), *git, store);
  const auto loaded = load_selection(store, sel, 4);
  REQUIRE(loaded.runs.size() == sel.objects.size());
  REQUIRE(loaded.blessings.size() == 2);

  ReconstructionOptions opts;
  opts.ignore_prefixes = {"grp/sl"};
  const auto rec = reconstruct(sel, loaded, opts);
  CHECK(rec.context_has_runs);
  CHECK(rec.ghost_series == 1);
  CHECK(rec.ghost_benchmarks == 1);
  REQUIRE(rec.ghosts.size() == 1);
  CHECK(rec.ghosts[0].id.qualified() == "grp/gone");
  REQUIRE(rec.ignored.size() == 1);
  CHECK(rec.ignored[0].id.qualified() == "grp/slow");
  REQUIRE(rec.series.size() == 2);  // callgrind grp/fast, criterion grp/fast (series order)
  const Series& cg = rec.series[0];
  const Series& cr = rec.series[1];
  CHECK(cg.key.set.engine == Engine::callgrind);
  CHECK(cr.key.kind == MetricKind::wall_time);
  REQUIRE(cr.points.size() == 45);
  for (std::size_t i = 1; i < cr.points.size(); ++i) CHECK(cr.points[i - 1].topo < cr.points[i].topo);
  CHECK(cr.points.back().value == 150.0);
  REQUIRE(cr.points.back().interval);
  // Project-level blessing at c30 (topo 30): 29 points precede it (c10 has none).
  REQUIRE(cr.blessed());
  CHECK(cr.blessing->commit == r.ids.at("c30"));
  CHECK(cr.active_start == 29);
  CHECK(cr.blessing->commit_time == sel.line[30].committer_time);
  // The callgrind series also matches the legacy sidecar at c40, which is newer.
  REQUIRE(cg.blessed());
  CHECK(cg.blessing->commit == r.ids.at("c40"));
  CHECK(cg.active_start == topo_of(sel, r.ids.at("c40")) - 1);
  CHECK(cg.values().size() == 45);

  // examine: no ghosts, ignores or blessings.
  ReconstructionOptions raw;
  raw.eliminate_ghosts = raw.apply_ignores = raw.apply_blessings = false;
  const auto all = reconstruct(sel, loaded, raw);
  CHECK(all.series.size() == 4);
  for (const auto& s : all.series) CHECK_FALSE(s.blessed());
  const auto per_set = series_per_set(sel, loaded);
  CHECK(per_set.size() == 2);

  // The outcome does not depend on the number of loading threads.
  const auto one = reconstruct(sel, load_selection(store, sel, 1), opts);
  REQUIRE(one.series.size() == rec.series.size());
  for (std::size_t i = 0; i < one.series.size(); ++i) {
    CHECK(one.series[i].key == rec.series[i].key);
    CHECK(one.series[i].points == rec.series[i].points);
    CHECK(one.series[i].active_start == rec.series[i].active_start);
  }
}

TEST_CASE("unresolvable refs fail with the exact messages", "[analysis][git]") {
  const Repo& r = fixture();
  auto git = open_git_topology(r.repo);
  try {
    resolve_context(*git, "nope");
    FAIL("resolved");
  } catch (const Error& e) {
    CHECK(e.message() ==
          "could not resolve \"nope\" while resolving the analysis context. Check that the --context ref exists or is fetched.");
  }
  try {
    resolve_base(*git, std::string("nope"), std::nullopt, "HEAD");
    FAIL("resolved");
  } catch (const Error& e) {
    CHECK(e.message() ==
          "could not resolve \"nope\" while resolving the comparison base. Check that the --base ref exists or is fetched.");
    CHECK(e.hint() == "name a branch, tag or commit of this repository (origin/main for a remote-tracking branch), or "
                      "fetch it first");
  }
  // A configured default branch that does not resolve falls through to git's default.
  CHECK(resolve_base(*git, std::nullopt, std::string("gone"), "HEAD").name == "main");
  CHECK(resolve_base(*git, std::nullopt, std::string("gone"), "HEAD").unresolved_default_branch == "gone");
  CHECK(resolve_base(*git, std::nullopt, std::string("gone"), "HEAD").announced().unresolved_default_branch == "gone");
  CHECK_FALSE(resolve_base(*git, std::nullopt, std::string("feature"), "HEAD").unresolved_default_branch);
  CHECK(resolve_base(*git, std::nullopt, std::string("feature"), "HEAD").origin == ResolvedBase::Origin::configured);
  auto req = request();
  req.base_ref = "nope";
  storage::LocalStore store(r.store_dir);
  CHECK_THROWS_AS(select_objects(req, *git, store), Error);
}

TEST_CASE("a shallow clone without the merge base fails with the shallow-clone explanation", "[analysis][git]") {
  const Repo& r = fixture();
  const fs::path shallow = r.root / "shallow";
  if (!fs::exists(shallow))
    run_cmd("git clone -q --depth 5 --no-single-branch " + sh_quote("file://" + r.repo.string()) + " " +
            sh_quote(shallow.string()));
  auto git = open_git_topology(shallow);
  CHECK(git->is_shallow());
  CHECK(git->default_branch() == "main");  // from refs/remotes/origin/HEAD
  const auto tip = git->resolve("HEAD");
  REQUIRE(tip);
  CHECK(git->first_parent_history(*tip).size() == 5);  // the walk ends at the boundary
  const auto old = git->resolve("origin/old");
  REQUIRE(old);
  CHECK_FALSE(git->merge_base(*old, *tip));
  try {
    require_merge_base(*git, *old, *tip, "origin/old", "main");
    FAIL("found a merge base");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::git);
    CHECK(e.message() == "could not find a merge base between \"origin/old\" and the base \"main\"");
    CHECK(e.cause().find("shallow clone") != std::string::npos);
    CHECK(e.hint().find("fetch-depth: 0") != std::string::npos);
    CHECK(e.hint().find("--base") != std::string::npos);
  }
  SelectionRequest req = request("origin/old");
  req.base_ref = "main";
  CHECK_THROWS_WITH(select_objects(req, *git, std::vector<std::string>{}),
                    Catch::Contains("could not find a merge base"));
}

TEST_CASE("loading a corrupt object fails naming its key", "[analysis][git]") {
  const Repo& r = fixture();
  const fs::path dir = r.root / "corrupt-store";
  fs::remove_all(dir);
  fs::copy(r.store_dir, dir, fs::copy_options::recursive);
  storage::LocalStore store(dir);
  auto git = open_git_topology(r.repo);
  const Selection sel = select_objects(request(), *git, store);
  REQUIRE(sel.objects.size() > 10);

  SECTION("truncated gzip") {
    const std::string key = sel.objects[7].key;
    const fs::path file = store.path_of(key);
    std::string body;
    {
      std::ifstream in(file, std::ios::binary);
      body.assign(std::istreambuf_iterator<char>(in), {});
    }
    {
      std::ofstream(file, std::ios::binary | std::ios::trunc) << body.substr(0, body.size() / 2);
    }
    try {
      load_selection(store, sel, 4);
      FAIL("loaded");
    } catch (const Error& e) {
      CHECK((e.message().find(key) != std::string::npos || e.subject().find(key) != std::string::npos));
    }
  }
  SECTION("wrong schema") {
    const std::string key = sel.objects[3].key;
    store.put(key, "{\"schema_version\": 5, \"results\": 3}", storage::CollisionPolicy::overwrite);
    const std::string later = sel.objects[9].key;
    store.put(later, "not json", storage::CollisionPolicy::overwrite);
    try {
      load_selection(store, sel, 3);
      FAIL("loaded");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::decode);
      CHECK(e.message() == "stored object " + key + " is not a valid result set");  // the lowest position wins
    }
  }
  SECTION("vanished object") {
    const std::string key = sel.objects[5].key;
    store.remove(key);
    try {
      load_selection(store, sel, 2);
      FAIL("loaded");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::not_found);
      CHECK(e.message() == "object not found: " + key);
    }
  }
}

TEST_CASE("parallel loading places results by position whatever the thread count", "[analysis]") {
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) keys.push_back("k" + std::to_string(1000 + i));
  for (unsigned threads : {0u, 1u, 3u, 16u}) {
    const auto out = parallel_load<std::string>(keys, threads, [](const std::string& k) { return k + "!"; });
    REQUIRE(out.size() == keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) CHECK(out[i] == keys[i] + "!");
  }
  auto failing = [](const std::string& k) -> int {
    if (k == "k1050" || k == "k1150") throw std::runtime_error("boom");
    return 1;
  };
  for (unsigned threads : {1u, 4u}) {
    try {
      parallel_load<int>(keys, threads, failing);
      FAIL("loaded");
    } catch (const Error& e) {
      CHECK(e.message() == "failed to load stored object k1050");
      CHECK(e.subject() == "k1050");
    }
  }
}

TEST_CASE("loading keeps an error about its object as it is, and never turns out-of-memory into a decode failure",
          "[analysis]") {
  const std::vector<std::string> keys{"v1/p/objects/x"};
  try {
    parallel_load<int>(keys, 1, [](const std::string& k) -> int {
      throw Error(ErrorKind::not_found, "object " + k + " is gone", k);
    });
    FAIL("loaded");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::not_found);
    CHECK(e.message() == "object v1/p/objects/x is gone");
  }
  // The key only in the message, not the subject: wrapped so the subject names the object.
  try {
    parallel_load<int>(keys, 1, [](const std::string& k) -> int { throw Error(ErrorKind::io, "read " + k + " failed"); });
    FAIL("loaded");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::io);
    CHECK(e.message() == "failed to load stored object v1/p/objects/x");
    CHECK(e.subject() == "v1/p/objects/x");
  }
  CHECK_THROWS_AS(parallel_load<int>(keys, 1, [](const std::string&) -> int { throw std::bad_alloc(); }),
                  std::bad_alloc);
}
