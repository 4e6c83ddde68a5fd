// prune through the library: a real git repository (git CLI) with a base branch and a
// feature branch, runs and blessings in a LocalStore, plans compared with what is deleted.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "benchhist/codec/blessing_json.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/collect/collect.hpp"
#include "benchhist/error.hpp"
#include "benchhist/pipeline/bless.hpp"
#include "benchhist/pipeline/prune.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "benchhist/version.hpp"

#include "shell.hpp"

namespace fs = std::filesystem;
using namespace benchhist;

namespace {

using bhtest::sh;

const std::string triple = "x86_64-unknown-linux-gnu";
const std::int64_t day = 86400;

// main: m0..m5 (one commit a day, ending 10 days ago); feature forks at m5: f0..f3 (days
// after). Runs: clean everywhere for mk-a and mk-b except f2 (no run); a dirty snapshot at
// m5, f1 and f3 (mk-a). Blessing sidecars: f1 (mk-a), f2 (mk-a, an orphan), m4 (mk-a).
struct Fixture {
  fs::path dir;
  std::vector<std::string> main_commits, feature;
  std::int64_t start = 0;
  std::unique_ptr<storage::LocalStore> store;
  std::unique_ptr<analysis::GitTopology> git;

  Fixture() {
    static std::atomic<int> counter{0};
    dir = fs::temp_directory_path() / ("bh-prune-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir);
    fs::create_directories(dir / "repo");
    sh(g() + "init -q -b main && " + g() + "config user.email t@example.invalid && " + g() + "config user.name t");
    start = static_cast<std::int64_t>(std::time(nullptr)) - 20 * day;
    int n = 0;
    for (int i = 0; i < 6; ++i) main_commits.push_back(commit("main " + std::to_string(i), n++));
    sh(g() + "checkout -q -b feature");
    for (int i = 0; i < 4; ++i) feature.push_back(commit("feature " + std::to_string(i), n++));
    store = std::make_unique<storage::LocalStore>(dir / "store");
    for (const auto& c : main_commits) clean_runs(c);
    for (int i = 0; i < 4; ++i)
      if (i != 2) clean_runs(feature[i]);
    for (const auto& c : {main_commits[5], feature[1], feature[3]})
      store->put(codec::dirty_key("demo", Engine::criterion, triple, "mk-a", c, 1790000000), codec::encode_run(run(c, true)),
                 storage::CollisionPolicy::refuse);
    for (const auto& c : {feature[1], feature[2], main_commits[4]}) sidecar(c, "mk-a");
    git = analysis::open_git_topology(repo());
  }
  ~Fixture() { fs::remove_all(dir); }
  fs::path repo() const { return dir / "repo"; }
  std::string g() const { return "git -C '" + repo().string() + "' "; }

  std::string commit(const std::string& msg, int n) {
    const std::string when = "@" + std::to_string(start + n * day) + " +0000";
    sh("GIT_COMMITTER_DATE='" + when + "' GIT_AUTHOR_DATE='" + when + "' " + g() + "commit -q --allow-empty -m '" + msg + "'");
    return sh(g() + "rev-parse HEAD");
  }

  static Run run(const std::string& commit, bool dirty) {
    Run r;
    r.context.observation = *parse_rfc3339("2026-11-01T00:00:00Z");
    r.context.git = GitState{commit, std::string("main"), dirty};
    r.context.toolchain = ToolchainInfo{triple, std::string("1.91.0")};
    r.context.tool_version = std::string(tool_version);
    r.context.best_of = 1;
    r.results = {BenchmarkResult{BenchmarkId({"parse", "small"}), {MetricValue{MetricKind::wall_time, 100.0, {}, {}}}}};
    return r;
  }
  void clean_runs(const std::string& c) {
    for (const char* mk : {"mk-a", "mk-b"})
      store->put(codec::clean_key("demo", Engine::criterion, triple, mk, c), codec::encode_run(run(c, false)), storage::CollisionPolicy::refuse);
  }
  std::string sidecar(const std::string& c, const std::string& mk) {
    Blessing b;
    b.commit = c;
    b.issued_at = from_unix_seconds(1790000000);
    b.tool_version = "0.9.0";
    const auto key = codec::partition_blessing_key("demo", Engine::criterion, triple, mk, c, 1790000000);
    store->put(key, codec::encode_blessing(b), storage::CollisionPolicy::refuse);
    return key;
  }
  std::string scoped(const std::string& c, std::vector<std::string> machines, std::int64_t nanos) {
    Blessing b;
    b.commit = c;
    b.issued_at = Timestamp(std::chrono::nanoseconds(nanos));
    b.tool_version = "0.9.0";
    b.scope = BlessingScope{{}, {triple}, std::move(machines)};
    const auto key = codec::project_blessing_key("demo", c, nanos);
    store->put(key, codec::encode_blessing(b), storage::CollisionPolicy::refuse);
    return key;
  }
  std::set<std::string> all_keys() {
    const auto v = store->list("v1/");
    return {v.begin(), v.end()};
  }
};

pipeline::PruneRequest request(const std::string& context, pipeline::PruneRuns runs, std::vector<std::string> machines = {"all"}) {
  pipeline::PruneRequest req;
  req.selection.project = "demo";
  req.selection.context_ref = context;
  req.selection.filters = analysis::resolve_filters({}, {}, machines, triple, std::string("mk-a"));
  req.selection.now = std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
  req.runs = runs;
  return req;
}

// Counts the mutating calls prune makes, forwarding to a real store.
class RecordingStore final : public storage::ObjectStore {
 public:
  explicit RecordingStore(storage::ObjectStore& inner) : inner_(inner) {}
  storage::PutOutcome put(std::string_view key, std::string_view json, storage::CollisionPolicy policy) override {
    ++puts;
    return inner_.put(key, json, policy);
  }
  std::optional<std::string> get(std::string_view key) override { return inner_.get(key); }
  std::vector<std::string> list(std::string_view prefix) override { return inner_.list(prefix); }
  bool remove(std::string_view key) override {
    removes.emplace_back(key);
    return inner_.remove(key);
  }
  void flush() override { ++flushes; }
  std::string describe() const override { return "recording " + inner_.describe(); }
  int puts = 0;
  int flushes = 0;
  std::vector<std::string> removes;

 private:
  storage::ObjectStore& inner_;
};

std::set<std::string> difference(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::set<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

}  // namespace

TEST_CASE("prune --dry-run plans branch-side clean runs and deletes nothing; prune deletes exactly that plan", "[prune]") {
  Fixture fx;
  const auto before = fx.all_keys();
  auto req = request("feature", pipeline::PruneRuns::clean);
  req.dry_run = true;
  std::vector<std::string> announced;
  pipeline::Hooks hooks;
  hooks.announce = [&](std::string_view a) { announced.emplace_back(a); };
  const auto plan = pipeline::prune(req, *fx.git, *fx.store, hooks);
  REQUIRE(announced.size() == 1);
  CHECK(announced[0] == "selection: engine=all, target-triple=" + triple +
                            " (auto-detected), machine-key=all; base=main (auto-detected); since=none (no default look-back)");
  CHECK(fx.all_keys() == before);
  CHECK(plan.removed.empty());
  std::set<std::string> expected;
  for (int i : {0, 1, 3})
    for (const char* mk : {"mk-a", "mk-b"}) expected.insert(codec::clean_key("demo", Engine::criterion, triple, mk, fx.feature[i]));
  CHECK(std::set<std::string>(plan.keys.begin(), plan.keys.end()) == expected);
  REQUIRE(plan.plan.sets.size() == 2);
  CHECK(plan.plan.sets[0].commits.size() == 3);
  CHECK(plan.plan.sets[0].commits[0].commit == fx.feature[0]);  // oldest first
  CHECK_THAT(plan.text(), Catch::EndsWith("\nWould remove 6 runs across 2 discriminant sets\n"));
  CHECK_THAT(plan.text(), Catch::StartsWith("Prune plan for project demo (target feature)\n"));

  req.dry_run = false;
  const auto done = pipeline::prune(req, *fx.git, *fx.store);
  CHECK(done.keys == plan.keys);
  CHECK(done.removed == done.keys);
  CHECK(difference(before, fx.all_keys()) == expected);
  CHECK_THAT(done.text(), Catch::EndsWith("\nRemoved 6 runs across 2 discriminant sets\n"));
}

TEST_CASE("blessings survive a --clean prune and go only with --include-blessings", "[prune]") {
  Fixture fx;
  const auto wide = fx.scoped(fx.feature[1], {}, 1796119200000000001LL);           // all machine keys
  const auto narrow = fx.scoped(fx.feature[3], {"mk-a"}, 1796119200000000002LL);   // mk-a only
  const auto on_base = fx.scoped(fx.main_commits[4], {"mk-a"}, 1796119200000000003LL);
  const auto sidecar_f1 = codec::partition_blessing_key("demo", Engine::criterion, triple, "mk-a", fx.feature[1], 1790000000);
  const auto orphan_f2 = codec::partition_blessing_key("demo", Engine::criterion, triple, "mk-a", fx.feature[2], 1790000000);

  pipeline::prune(request("feature", pipeline::PruneRuns::clean), *fx.git, *fx.store);
  auto keys = fx.all_keys();
  for (const auto& k : {wide, narrow, on_base, sidecar_f1, orphan_f2}) CHECK(keys.count(k) == 1);

  // Blessings only, narrowed to mk-a: the sidecars (the orphan too) and the record whose
  // scope lies within mk-a; the all-machines record reaches outside and stays; runs stay.
  auto req = request("feature", pipeline::PruneRuns::none, {"mk-a"});
  req.include_blessings = true;
  const auto before = fx.all_keys();
  const auto done = pipeline::prune(req, *fx.git, *fx.store);
  CHECK(difference(before, fx.all_keys()) == std::set<std::string>{narrow, sidecar_f1, orphan_f2});
  REQUIRE(done.scoped.size() == 1);
  CHECK(done.scoped[0].key == narrow);
  CHECK(done.plan.blessings() == 2);
  CHECK(done.plan.runs() == 0);
  CHECK_THAT(done.text(), Catch::Contains("\nProject-level blessings\n    " + fx.feature[3] + "  all/" + triple + "/mk-a\n"));
  CHECK_THAT(done.json(), Catch::Contains("\"project_blessings\": ["));
  CHECK_THAT(done.json(), Catch::EndsWith("]\n}"));
  const auto doc = boost::json::parse(done.json()).as_object();  // still one valid document
  CHECK(doc.at("totals").at("blessings").as_int64() == 2);
  CHECK(doc.at("project_blessings").as_array().at(0).at("key").as_string() == narrow.c_str());
  CHECK(doc.at("dry_run").as_bool() == false);

  // Unrestricted filters contain the wide record.
  req.selection.filters = analysis::resolve_filters({}, {"all"}, {"all"}, triple, std::string("mk-a"));
  const auto wide_gone = pipeline::prune(req, *fx.git, *fx.store);
  CHECK(wide_gone.removed == std::vector<std::string>{wide});
  CHECK(fx.all_keys().count(on_base) == 1);  // base-side history is preserved
}

TEST_CASE("on the base branch prune refuses without --prune-base, after the announcement, deleting nothing", "[prune]") {
  Fixture fx;
  const auto before = fx.all_keys();
  std::vector<std::string> announced;
  pipeline::Hooks hooks;
  hooks.announce = [&](std::string_view a) { announced.emplace_back(a); };
  auto req = request("main", pipeline::PruneRuns::all);
  try {
    pipeline::prune(req, *fx.git, *fx.store, hooks);
    FAIL("prune on the base branch must be refused");
  } catch (const Error& e) {
    CHECK(e.message() ==
          "pruning will delete benchmark history of the main branch, which is the base branch. Confirm with --prune-base if this is correct.");
  }
  CHECK(announced.size() == 1);
  CHECK(fx.all_keys() == before);

  // Confirmed: --dirty removes only what analysis would admit — the dirty snapshot at the base tip.
  req.prune_base = true;
  req.runs = pipeline::PruneRuns::dirty;
  const auto dirty = pipeline::prune(req, *fx.git, *fx.store);
  CHECK(dirty.removed == std::vector<std::string>{codec::dirty_key("demo", Engine::criterion, triple, "mk-a", fx.main_commits[5], 1790000000)});

  req.runs = pipeline::PruneRuns::clean;
  req.dry_run = true;
  const auto all_base = pipeline::prune(req, *fx.git, *fx.store);
  CHECK(all_base.keys.size() == 12);  // every main commit, both machines
}

TEST_CASE("--dirty removes branch-side snapshots, --all also clean runs; --since and commit prefixes narrow the plan", "[prune]") {
  Fixture fx;
  auto req = request("feature", pipeline::PruneRuns::dirty);
  req.dry_run = true;
  auto plan = pipeline::prune(req, *fx.git, *fx.store);
  CHECK(std::set<std::string>(plan.keys.begin(), plan.keys.end()) ==
        std::set<std::string>{codec::dirty_key("demo", Engine::criterion, triple, "mk-a", fx.feature[1], 1790000000),
                              codec::dirty_key("demo", Engine::criterion, triple, "mk-a", fx.feature[3], 1790000000)});
  CHECK(std::is_sorted(plan.keys.begin(), plan.keys.end()));

  req.runs = pipeline::PruneRuns::all;
  plan = pipeline::prune(req, *fx.git, *fx.store);
  CHECK(plan.keys.size() == 8);  // 6 clean + 2 dirty, never the base-side snapshot at m5

  // --since keeps commits at or after the cutoff: f2 and f3 (f2 has no run).
  req.selection.since = analysis::parse_since(format_rfc3339(from_unix_seconds(fx.start + 8 * day)));
  plan = pipeline::prune(req, *fx.git, *fx.store);
  CHECK(plan.keys.size() == 3);
  req.selection.since.reset();

  // Positional prefixes are case-insensitive.
  std::string upper = fx.feature[0].substr(0, 10);
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  req.commits = {upper};
  plan = pipeline::prune(req, *fx.git, *fx.store);
  CHECK(plan.keys.size() == 2);
  REQUIRE(plan.plan.sets.size() == 2);
  CHECK(plan.plan.sets[0].commits[0].commit == fx.feature[0]);

  req.commits = {fx.main_commits[2].substr(0, 10)};  // base-side: never eligible here
  plan = pipeline::prune(req, *fx.git, *fx.store);
  CHECK(plan.keys.empty());
  // Base history is kept from a branch, and the plan says why and how to prune it.
  CHECK_THAT(plan.text(), Catch::Contains("\nNo run matches the selection.\n\nKept " + fx.main_commits[2].substr(0, 10) +
                                          ": it is base history of main"));
  CHECK_THAT(plan.text(), Catch::Contains("--context main --prune-base"));
  REQUIRE(plan.plan.hint);
  CHECK_THAT(plan.json(), Catch::Contains("\"hint\": "));

  // Filters that no stored run passes are named, with what is stored instead.
  auto unknown_machine = request("feature", pipeline::PruneRuns::all, {"deadbeef"});
  unknown_machine.dry_run = true;
  plan = pipeline::prune(unknown_machine, *fx.git, *fx.store);
  CHECK(plan.keys.empty());
  CHECK_THAT(plan.text(), Catch::Contains("\nNo run matches the selection.\n\nNo stored run matches the effective "
                                          "partition engine=all, target-triple=x86_64-unknown-linux-gnu (auto-detected), "
                                          "machine-key=deadbeef: --machine-key deadbeef matches no stored run (stored: "
                                          "mk-a and mk-b)."));
}

TEST_CASE("prune without a deletion scope is refused", "[prune]") {
  Fixture fx;
  CHECK_THROWS_WITH(pipeline::prune(request("feature", pipeline::PruneRuns::none), *fx.git, *fx.store),
                    "prune requires a deletion scope: --clean (clean runs), --dirty (dirty snapshots), --all (both), and/or "
                    "--include-blessings (blessing sidecars)");
}

TEST_CASE("prune deletes through ObjectStore::remove and then flushes; a dry run does neither", "[prune]") {
  Fixture fx;
  RecordingStore rec(*fx.store);
  auto req = request("feature", pipeline::PruneRuns::all);
  req.include_blessings = true;
  req.dry_run = true;
  const auto plan = pipeline::prune(req, *fx.git, rec);
  CHECK(rec.removes.empty());
  CHECK(rec.flushes == 0);
  CHECK(rec.puts == 0);
  CHECK(plan.keys.size() == 10);  // 6 clean, 2 dirty, 2 sidecars

  req.dry_run = false;
  const auto done = pipeline::prune(req, *fx.git, rec);
  CHECK(rec.removes == plan.keys);
  CHECK(done.removed == plan.keys);
  CHECK(rec.flushes == 1);
  CHECK(rec.puts == 0);
}

TEST_CASE("with the base merged into the branch, shared commits stay base-side and are never pruned", "[prune]") {
  Fixture fx;
  sh(fx.g() + "checkout -q main");
  const std::string m6 = fx.commit("main 6", 11);
  sh(fx.g() + "checkout -q feature && " + fx.g() + "merge -q --no-ff -m 'merge main' main");
  const std::string merge = sh(fx.g() + "rev-parse HEAD");
  fx.clean_runs(m6);
  fx.clean_runs(merge);
  fx.git = analysis::open_git_topology(fx.repo());

  auto req = request("feature", pipeline::PruneRuns::clean);
  req.dry_run = true;
  const auto plan = pipeline::prune(req, *fx.git, *fx.store);
  std::set<std::string> expected;
  for (const auto& c : {fx.feature[0], fx.feature[1], fx.feature[3], merge})
    for (const char* mk : {"mk-a", "mk-b"}) expected.insert(codec::clean_key("demo", Engine::criterion, triple, mk, c));
  CHECK(std::set<std::string>(plan.keys.begin(), plan.keys.end()) == expected);
}

TEST_CASE("two prunes and a collect racing on one store: nothing outside the plans goes, nothing fails, nothing is partial",
          "[prune][faults]") {
  for (int round = 0; round < 6; ++round) {
    INFO("round " << round);
    Fixture fx;
    const auto before = fx.all_keys();
    // collect for real (services substituted: the benchmark command writes an all_the_time
    // file) at the feature tip, for machine keys the fixture does not have yet.
    const auto collect_at = [&](const std::string& machine) {
      collect::CollectRequest creq;
      creq.repo_dir = fx.repo();
      creq.project = "demo";
      probe::MapEnvironment env;
      env.set("CARGO_TARGET_DIR", (fx.dir / ("target-" + machine)).string());
      collect::CollectServices s;
      s.clock = [] { return Timestamp(std::chrono::floor<std::chrono::nanoseconds>(std::chrono::system_clock::now())); };
      s.run_benchmarks = [&fx, machine](const probe::ProcessSpec&) {
        const fs::path file = fx.dir / ("target-" + machine) / "all_the_time" / "op.json";
        fs::create_directories(file.parent_path());
        std::ofstream(file) << R"({"operation":"op","total_iterations":4,"total_processor_time_nanos":80,)"
                               R"("span_count":1,"slope_processor_time_nanos":20.0})";
        probe::ProcessResult r;
        r.exited = true;
        r.exit_code = 0;
        return r;
      };
      s.probe_git = [&fx](const fs::path&) { return GitState{fx.feature.back(), std::string("feature"), false}; };
      s.probe_toolchain = [] { return ToolchainInfo{triple, std::string("1.91.0")}; };
      s.probe_ci = [] { return EnvContext{}; };
      s.probe_hardware = [machine] { return MachineDescription{8, 1, {"Test CPU"}, {{3000, 8}}, machine}; };
      s.announce = [](std::string_view) {};
      return collect::collect(creq, env, fx.store.get(), s);
    };
    std::vector<std::string> collected;
    std::optional<pipeline::PruneResult> a, b;
    std::string errors;
    std::mutex m;
    const auto guarded = [&](auto f) {
      return [&, f] {
        try {
          f();
        } catch (const std::exception& e) {
          std::lock_guard lock(m);
          errors += std::string(e.what()) + "\n";
        }
      };
    };
    {
      std::jthread t1(guarded([&] { a = pipeline::prune(request("feature", pipeline::PruneRuns::all), *analysis::open_git_topology(fx.repo()), *fx.store); }));
      std::jthread t2(guarded([&] { b = pipeline::prune(request("feature", pipeline::PruneRuns::all), *analysis::open_git_topology(fx.repo()), *fx.store); }));
      std::jthread t3(guarded([&] {
        for (const char* mk : {"mk-c", "mk-d", "mk-e"})
          for (const auto& o : collect_at(mk).objects) collected.push_back(o.key);
      }));
    }
    CHECK(errors == "");
    REQUIRE(a);
    REQUIRE(b);
    CHECK(collected.size() == 3);
    const auto after = fx.all_keys();
    // Each key went exactly once, by one of the prunes, and only if one of them planned it.
    std::set<std::string> removed;
    for (const auto* r : {&*a, &*b})
      for (const auto& k : r->removed) {
        CHECK(removed.insert(k).second);
        CHECK(std::binary_search(r->keys.begin(), r->keys.end(), k));
      }
    std::set<std::string> planned(a->keys.begin(), a->keys.end());
    planned.insert(b->keys.begin(), b->keys.end());
    for (const auto& k : before) {
      INFO(k);
      // Base-side history survives; branch-side runs go when planned.
      if (!planned.count(k)) CHECK(after.count(k));
      else CHECK_FALSE(after.count(k));
    }
    // What collect stored is either still there, whole, or was planned by a prune that listed it.
    for (const auto& k : collected) {
      INFO(k);
      if (after.count(k)) CHECK(codec::decode_run(*fx.store->get(k), k).results.size() == 1);
      else CHECK(planned.count(k));
    }
    // Nothing else appeared and no temp file was left behind.
    for (const auto& k : after) CHECK((before.count(k) || std::find(collected.begin(), collected.end(), k) != collected.end()));
    for (const auto& e : fs::recursive_directory_iterator(fx.dir / "store"))
      CHECK_FALSE(e.path().filename().string().starts_with(storage::LocalStore::temp_prefix));
  }
}
