// collect with substituted services: the benchmark command is a function that writes real
// engine output files (the shared fixtures and files in their shape) into the target root,
// so harvest, best-of, key building, encoding and the collision policies all run for real.

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <regex>
#include <memory>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/collect/collect.hpp"
#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "common/files.hpp"

namespace fs = std::filesystem;
using namespace benchhist;

namespace {

using benchhist::testing::read_file;
using benchhist::testing::write_file;

const fs::path fixtures = fs::path(BH_TEST_DATA_DIR) / "fixtures" / "engines";

// Directories live until the suite exits (the TempDirs are destroyed then), so cases may keep
// paths without owning them and nothing is left in /tmp.
fs::path temp_dir(const std::string& name) {
  static std::vector<std::unique_ptr<benchhist::testing::TempDir>> dirs;
  dirs.push_back(std::make_unique<benchhist::testing::TempDir>("bh-collect-" + name));
  return dirs.back()->path();
}

std::string all_the_time_json(double slope) {
  std::ostringstream o;
  o.precision(17);
  o << "{\"operation\":\"read_cell\",\"total_iterations\":4,\"total_processor_time_nanos\":80,"
       "\"span_count\":1,\"slope_processor_time_nanos\":"
    << slope << "}";
  return o.str();
}

struct Rig {
  fs::path repo = temp_dir("repo");
  fs::path store_dir = temp_dir("store");
  probe::MapEnvironment env;
  storage::LocalStore store{store_dir};
  GitState git{std::string("4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39"), std::string("main"), false};
  std::vector<double> slopes{20.0};  // all_the_time value written by repetition k
  int runs = 0;
  int exit_code = 0;
  std::vector<std::string> announcements;
  Timestamp now = *parse_rfc3339("2026-08-20T09:14:03.512Z");

  collect::CollectServices services() {
    collect::CollectServices s;
    s.clock = [] { return Timestamp(std::chrono::floor<std::chrono::nanoseconds>(std::chrono::system_clock::now())); };
    s.run_benchmarks = [this](const probe::ProcessSpec& spec) {
      const auto& changes = spec.env_changes;
      REQUIRE(changes.at("GUNGRAUN_SAVE_SUMMARY") == std::optional<std::string>("pretty-json"));
      const fs::path root = *changes.at("CARGO_TARGET_DIR");
      const double slope = slopes.at(std::min<std::size_t>(runs, slopes.size() - 1));
      ++runs;
      // Written, not copied: the shared fixtures are read-only and copies would keep that mode.
      for (const char* f : {"benchmark.json", "estimates.json"})
        write_file(root / "criterion" / "g" / "std_instant" / "new" / f, read_file(fixtures / "criterion" / "std_instant" / f));
      write_file(root / "gungraun" / "pkg" / "summary.json",
                 read_file(fixtures / "callgrind" / "single_unparametrized.summary.json"));
      write_file(root / "alloc_tracker" / "allocate_vec.json", read_file(fixtures / "alloc_tracker" / "allocate_vec.json"));
      write_file(root / "all_the_time" / "read_cell.json", all_the_time_json(slope));
      probe::ProcessResult r;
      r.exited = true;
      r.exit_code = exit_code;
      return r;
    };
    s.probe_git = [this](const fs::path&) { return git; };
    s.probe_toolchain = [] { return ToolchainInfo{"x86_64-unknown-linux-gnu", std::string("1.91.0")}; };
    s.probe_ci = [] { return EnvContext{}; };
    s.probe_hardware = [] {
      return MachineDescription{8, 1, {"Test CPU 3000"}, {{9867, 8}}, "4ffd697efb295d32"};
    };
    s.announce = [this](std::string_view line) { announcements.emplace_back(line); };
    return s;
  }

  collect::CollectRequest request() {
    collect::CollectRequest r;
    r.repo_dir = repo;
    r.project = "Word Count";
    return r;
  }
};

}  // namespace

TEST_CASE("collect stores one object per engine under the clean key with schema-5 records", "[collect]") {
  Rig rig;
  rig.env.set("CARGO_TARGET_DIR", (rig.repo / "target").string());
  auto out = collect::collect(rig.request(), rig.env, &rig.store, rig.services());

  REQUIRE(out.objects.size() == 4);
  CHECK(rig.announcements == std::vector<std::string>{
                                 "collecting: target-triple=x86_64-unknown-linux-gnu (toolchain host); "
                                 "machine-key=4ffd697efb295d32 (auto-detected)"});
  const auto key = codec::clean_key("Word Count", Engine::criterion, "x86_64-unknown-linux-gnu", "4ffd697efb295d32",
                             *rig.git.commit);
  CHECK(key == "v1/word_count/objects/criterion/x86_64-unknown-linux-gnu/4ffd697efb295d32/"
               "4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39/clean.json");
  const auto body = rig.store.get(key);
  REQUIRE(body);
  const Run run = codec::decode_run(*body, key);
  CHECK(run.schema_version == 5);
  CHECK(run.context.best_of == 1u);
  CHECK(run.context.git == rig.git);
  REQUIRE(run.results.size() == 1);
  const auto* wall = run.results[0].find(MetricKind::wall_time);
  REQUIRE(wall);
  CHECK(wall->value == 26.92998067163995);
  CHECK(wall->interval == Interval{26.672074791998387, 27.182943616630872});
  CHECK(out.message() ==
        "Stored 4 result sets covering 4 benchmark cases. [callgrind: 1 stored; criterion: 1 stored; "
        "alloc_tracker: 1 stored; all_the_time: 1 stored]");
  // the raw file on disk is gzip, not JSON
  const auto raw = read_file(rig.store_dir / key);
  CHECK(static_cast<unsigned char>(raw[0]) == 0x1f);
}

TEST_CASE("a second clean collect is refused and stores nothing; skip-existing and overwrite behave", "[collect]") {
  Rig rig;
  collect::collect(rig.request(), rig.env, &rig.store, rig.services());
  const auto key = codec::clean_key("Word Count", Engine::all_the_time, "x86_64-unknown-linux-gnu", "4ffd697efb295d32",
                             *rig.git.commit);
  const auto before = rig.store.get(key);

  rig.slopes = {99.0};
  try {
    collect::collect(rig.request(), rig.env, &rig.store, rig.services());
    FAIL("the second collect should be refused");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::already_exists);
    CHECK_THAT(e.message(), Catch::StartsWith("a result is already stored for this run at v1/word_count/objects/"));
    CHECK_THAT(e.message(), Catch::EndsWith("; pass --overwrite to replace it or --skip-existing to keep it"));
  }
  CHECK(rig.store.get(key) == before);

  auto req = rig.request();
  req.policy = storage::CollisionPolicy::skip_existing;
  auto skipped = collect::collect(req, rig.env, &rig.store, rig.services());
  CHECK(rig.store.get(key) == before);
  CHECK_THAT(skipped.message(), Catch::Contains("all_the_time: 1 harvested (" + key + " already exists)"));
  // It still ran the benchmarks (a broken one is caught), and says why it stored nothing.
  CHECK(rig.runs == 3);
  CHECK_THAT(skipped.message(), Catch::StartsWith("Harvested 4 benchmark cases and stored nothing: their 4 result sets "
                                                  "were already stored, and --skip-existing keeps them. ["));

  // One engine's object gone: the others are kept, and the sentence counts only what was stored.
  rig.store.remove(key);
  const auto partly = collect::collect(req, rig.env, &rig.store, rig.services());
  CHECK_THAT(partly.message(), Catch::StartsWith("Stored 1 result set covering 1 benchmark case; 3 more were harvested "
                                                 "but not stored: their 3 result sets were already stored, and "
                                                 "--skip-existing keeps them. ["));

  req.policy = storage::CollisionPolicy::overwrite;
  collect::collect(req, rig.env, &rig.store, rig.services());
  CHECK(codec::decode_run(*rig.store.get(key), key).results[0].metrics[0].value == 99.0);
}

TEST_CASE("a refusal over a stored result holding benchmarks this run lacks says --overwrite would delete them",
          "[collect]") {
  Rig rig;
  collect::collect(rig.request(), rig.env, &rig.store, rig.services());
  const auto key = codec::clean_key("Word Count", Engine::all_the_time, "x86_64-unknown-linux-gnu", "4ffd697efb295d32",
                                    *rig.git.commit);
  // As if another package of the workspace had been collected at this commit first.
  Run stored = codec::decode_run(*rig.store.get(key), key);
  stored.results.push_back(BenchmarkResult{BenchmarkId({"other", "bench"}), {MetricValue{MetricKind::wall_time, 5.0, {}, {}}}});
  rig.store.put(key, codec::encode_run(stored), storage::CollisionPolicy::overwrite);
  const auto before = rig.store.get(key);
  try {
    collect::collect(rig.request(), rig.env, &rig.store, rig.services());
    FAIL("the second collect should be refused");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::already_exists);
    CHECK(e.subject() == key);
    CHECK_THAT(e.message(), Catch::Contains(", and it holds 1 benchmark this run did not measure (other/bench): "
                                            "--overwrite would delete them."));
    CHECK_THAT(e.message(), Catch::EndsWith("or pass --skip-existing to keep the stored result"));
  }
  CHECK(rig.store.get(key) == before);

  // --skip-existing keeps it whole; a result this run measured beyond it is named as not stored.
  stored.results.erase(stored.results.begin());  // the stored object lacks this run's first case
  rig.store.put(key, codec::encode_run(stored), storage::CollisionPolicy::overwrite);
  const std::string missing = codec::decode_run(*before, key).results[0].id.qualified();
  auto req = rig.request();
  req.policy = storage::CollisionPolicy::skip_existing;
  const auto skipped = collect::collect(req, rig.env, &rig.store, rig.services());
  CHECK_THAT(skipped.message(), Catch::Contains("all_the_time: 1 harvested (" + key + " already exists; it does not hold " +
                                                missing + ", so that result was not stored)"));
}

TEST_CASE("a local store that cannot be written is refused before the benchmark command runs", "[collect]") {
  Rig rig;
  SECTION("a file where the store's parent directory belongs") {
    write_file(rig.store_dir / "file", "");
    storage::LocalStore store(rig.store_dir / "file" / "store");
    try {
      collect::collect(rig.request(), rig.env, &store, rig.services());
      FAIL("the store was accepted");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::io);
      CHECK(e.message() == "could not create the local store at " + (rig.store_dir / "file" / "store").string());
      CHECK(e.cause() == "a new file could not be made in " + (rig.store_dir / "file").string() +
                             " (checked before any benchmark runs): Not a directory");
    }
    CHECK(rig.runs == 0);
  }
  SECTION("a read-only store directory, for a user who is not root") {
    // Root writes anywhere: a forked child gives up root (when it has it) before collecting.
    const fs::path ro = rig.store_dir / "read-only";
    fs::create_directories(ro);
    fs::permissions(rig.store_dir, fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::others_read | fs::perms::others_exec);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
      int code = 2;
      try {
        storage::LocalStore store(ro);
        collect::collect(rig.request(), rig.env, &store, rig.services());
      } catch (const Error& e) {
        code = e.message() == "could not write to the local store at " + ro.string() &&
                       e.cause() == "a new file could not be made in it (checked before any benchmark runs): "
                                    "Permission denied" && rig.runs == 0
                   ? 0
                   : 1;
      } catch (...) {
        code = 1;  // the run itself failed (writing its engine files), past the check
      }
      ::_exit(code);
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);  // 2: accepted; 1: another error; 3: could not give up root
    fs::permissions(ro, fs::perms::owner_all, fs::perm_options::add);
  }
}

TEST_CASE("a dirty tree stores a dirty snapshot keyed by the first repetition's second", "[collect]") {
  Rig rig;
  rig.git.dirty = true;
  // Both collects start in one second whatever the machine's speed: a slow (sanitized) first
  // collect could otherwise let the second start in the next second, which must not collide.
  auto svc = rig.services();
  svc.clock = [start = svc.clock()] { return start; };
  auto out = collect::collect(rig.request(), rig.env, &rig.store, svc);
  REQUIRE(!out.objects.empty());
  const auto parsed = codec::parse_data_key(out.objects[0].key);
  REQUIRE(parsed);
  CHECK(parsed->kind == codec::ObjectKind::dirty);
  CHECK(parsed->timestamp == unix_seconds(out.observation));
  // A second snapshot in the same second collides (the guide); the way out is to wait.
  try {
    collect::collect(rig.request(), rig.env, &rig.store, svc);
    FAIL("a second dirty snapshot in the same second should collide");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::already_exists);
    CHECK_THAT(e.message(), Catch::StartsWith("a dirty snapshot was already stored at ") &&
                                Catch::EndsWith(" in this same second (dirty snapshots are keyed to the second); "
                                                "collect again a second later"));
  }
}

TEST_CASE("best-of keeps the per-metric minimum and records the repetition count", "[collect]") {
  Rig rig;
  rig.slopes = {30.0, 10.0, 20.0};
  auto req = rig.request();
  req.best_of = 3;
  collect::collect(req, rig.env, &rig.store, rig.services());
  CHECK(rig.runs == 3);
  const auto key = codec::clean_key("Word Count", Engine::all_the_time, "x86_64-unknown-linux-gnu", "4ffd697efb295d32",
                             *rig.git.commit);
  const Run run = codec::decode_run(*rig.store.get(key), key);
  CHECK(run.context.best_of == 3u);
  CHECK(run.results[0].metrics[0].value == 10.0);
}

TEST_CASE("files left by an earlier run are stale and never harvested", "[collect]") {
  Rig rig;
  const fs::path root = rig.repo / "target";
  write_file(root / "all_the_time" / "old_op.json",
             "{\"operation\":\"old_op\",\"span_count\":1,\"slope_processor_time_nanos\":5.0}");
  fs::last_write_time(root / "all_the_time" / "old_op.json", fs::file_time_type::clock::now() - std::chrono::hours(1));
  auto out = collect::collect(rig.request(), rig.env, &rig.store, rig.services());
  const auto key = codec::clean_key("Word Count", Engine::all_the_time, "x86_64-unknown-linux-gnu", "4ffd697efb295d32",
                             *rig.git.commit);
  const Run run = codec::decode_run(*rig.store.get(key), key);
  REQUIRE(run.results.size() == 1);
  CHECK(run.results[0].id.qualified() == "read_cell");
}

TEST_CASE("a failing benchmark command stores nothing and says what failed", "[collect]") {
  Rig rig;
  rig.exit_code = 101;
  CHECK_THROWS_WITH(collect::collect(rig.request(), rig.env, &rig.store, rig.services()),
                    "engine \"cargo bench\" failed with exit code 101");
  CHECK(rig.store.list("v1/").empty());
}

TEST_CASE("a malformed engine file aborts the collection naming the file, nothing stored", "[collect]") {
  Rig rig;
  auto svc = rig.services();
  auto inner = svc.run_benchmarks;
  svc.run_benchmarks = [&](const probe::ProcessSpec& spec) {
    auto r = inner(spec);
    write_file(fs::path(*spec.env_changes.at("CARGO_TARGET_DIR")) / "alloc_tracker" / "broken.json", "{\"operation\":");
    return r;
  };
  try {
    collect::collect(rig.request(), rig.env, &rig.store, svc);
    FAIL("expected a parse error");
  } catch (const Error& e) {
    CHECK_THAT(e.message(), Catch::Contains("failed to parse benchmark output: ") && Catch::Contains("broken.json"));
  }
  CHECK(rig.store.list("v1/").empty());
}

TEST_CASE("--no-store harvests and reports without a store", "[collect]") {
  Rig rig;
  auto req = rig.request();
  req.store = false;
  auto out = collect::collect(req, rig.env, nullptr, rig.services());
  CHECK(out.message() ==
        "Harvested 4 benchmark cases; nothing stored (--no-store). [callgrind: 1 harvested (not stored); "
        "criterion: 1 harvested (not stored); alloc_tracker: 1 harvested (not stored); all_the_time: 1 "
        "harvested (not stored)]");
}

TEST_CASE("the cargo bench command line follows the scope order of formats.md 3.1", "[collect]") {
  collect::BenchScope s;
  s.excludes = {"x"};
  s.benches = {"b"};
  s.features = {"f1 f2"};
  s.all_features = true;
  s.passthrough = {"--noplot"};
  CHECK(collect::cargo_bench_argv(s) == std::vector<std::string>{"cargo", "bench", "--workspace", "--exclude", "x", "--bench",
                                                        "b", "--features", "f1 f2", "--all-features", "--", "--noplot"});
  collect::BenchScope p;
  p.packages = {"a", "b"};
  p.no_default_features = true;
  CHECK(collect::cargo_bench_argv(p, "/opt/cargo") ==
        std::vector<std::string>{"/opt/cargo", "bench", "--package", "a", "--package", "b", "--no-default-features"});
  probe::MapEnvironment env;
  CHECK(collect::target_root(env, "/r") == fs::path("/r/target"));
  env.set("CARGO_TARGET_DIR", "t/x");
  CHECK(collect::target_root(env, "/r") == fs::path("/r/t/x"));
  CHECK(collect::bench_environment("/t", true).at("CARGO") == std::nullopt);
}

TEST_CASE("the git state is probed before the benchmark command runs, so files it creates never make the run dirty",
          "[collect]") {
  Rig rig;
  rig.env.set("CARGO_TARGET_DIR", (rig.repo / "target").string());
  auto s = rig.services();
  std::vector<std::string> order;
  auto run = s.run_benchmarks;
  s.run_benchmarks = [&order, run](const probe::ProcessSpec& spec) {
    order.push_back("run");
    return run(spec);
  };
  // The probe reports what a real one would see: dirty once the run has created a file.
  s.probe_git = [&order, &rig](const fs::path&) {
    order.push_back("probe_git");
    GitState g = rig.git;
    g.dirty = std::find(order.begin(), order.end(), "run") != order.end();
    return g;
  };
  auto req = rig.request();
  req.best_of = 2;
  auto out = collect::collect(req, rig.env, &rig.store, s);
  CHECK(order == std::vector<std::string>{"probe_git", "run", "run"});
  CHECK_FALSE(out.git.dirty);
  for (const auto& o : out.objects) CHECK(codec::parse_data_key(o.key)->kind == codec::ObjectKind::clean);
}

TEST_CASE("collect killed at random instants while storing four engines leaves only whole objects; a re-run completes",
          "[collect][faults]") {
  // Each round: a forked child runs collect into a fresh store and is killed with SIGKILL at
  // a random instant of its run; the store then holds only whole, decodable objects of the
  // four expected keys (no partial object is ever listed or readable), and a re-run with
  // --skip-existing stores exactly the missing engines, leaving the survivors untouched.
  std::mt19937 rng(16);
  const auto expected_keys = [](const Rig& rig) {
    std::vector<std::string> keys;
    for (auto e : {Engine::criterion, Engine::callgrind, Engine::alloc_tracker, Engine::all_the_time})
      keys.push_back(codec::clean_key("Word Count", e, "x86_64-unknown-linux-gnu", "4ffd697efb295d32", *rig.git.commit));
    std::sort(keys.begin(), keys.end());
    return keys;
  };
  const auto run_child = [](Rig& rig) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      try {
        collect::collect(rig.request(), rig.env, &rig.store, rig.services());
      } catch (...) {
        ::_exit(3);
      }
      ::_exit(0);
    }
    return pid;
  };
  // How long a whole child run takes here, so the kills spread over all of it.
  std::chrono::microseconds full{0};
  {
    Rig rig;
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = run_child(rig);
    int status = 0;
    ::waitpid(pid, &status, 0);
    full = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    REQUIRE(rig.store.list("") == expected_keys(rig));
  }
  std::uniform_int_distribution<long> at(0, std::max<long>(1, static_cast<long>(full.count() * 12 / 10)));
  int partial_rounds = 0, rounds = 0;
  for (; rounds < 200 && (rounds < 30 || partial_rounds == 0); ++rounds) {
    Rig rig;
    const auto keys = expected_keys(rig);
    const pid_t pid = run_child(rig);
    std::this_thread::sleep_for(std::chrono::microseconds(at(rng)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);

    const auto listed = rig.store.list("");
    std::size_t regular = 0, temps = 0;
    for (const auto& e : fs::recursive_directory_iterator(rig.store_dir)) {
      if (!e.is_regular_file()) continue;
      ++regular;
      if (e.path().filename().string().starts_with(storage::LocalStore::temp_prefix)) ++temps;
    }
    CHECK(regular == listed.size() + temps);
    std::map<std::string, std::string> survivors;
    for (const auto& key : listed) {
      INFO(key);
      REQUIRE(std::binary_search(keys.begin(), keys.end(), key));
      const auto body = rig.store.get(key);  // throws on a partial gzip body
      REQUIRE(body);
      CHECK(codec::decode_run(*body, key).results.size() == 1);
      survivors[key] = *body;
    }
    if (!listed.empty() && listed.size() < keys.size()) ++partial_rounds;

    auto req = rig.request();
    req.policy = storage::CollisionPolicy::skip_existing;
    collect::collect(req, rig.env, &rig.store, rig.services());
    CHECK(rig.store.list("") == keys);
    for (const auto& key : keys) CHECK_NOTHROW(codec::decode_run(*rig.store.get(key), key));
    for (const auto& [key, body] : survivors) CHECK(rig.store.get(key) == body);
  }
  INFO("rounds: " << rounds << ", killed between the first and the last object: " << partial_rounds
                  << ", a whole run takes " << full.count() << " us");
  // The kills really landed mid-collection at least once, or the test proved nothing.
  CHECK(partial_rounds > 0);
}

// The real lock (CollectServices::system's lock_target, platform::FileLock) under a private
// $TMPDIR, restored afterwards: the lock file's directory is the process's temporary directory.
namespace {
struct PrivateTmp {
  fs::path dir = temp_dir("lock-tmp");
  std::optional<std::string> old;
  PrivateTmp() {
    if (const char* t = std::getenv("TMPDIR")) old = t;
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~PrivateTmp() {
    if (old) ::setenv("TMPDIR", old->c_str(), 1);
    else ::unsetenv("TMPDIR");
  }
  std::vector<fs::path> files() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().filename().string().starts_with("cargo-bench-history-")) out.push_back(e.path());
    return out;
  }
};
}  // namespace

TEST_CASE("the target lock is one file per target directory in $TMPDIR, held by one collect at a time, named by its "
          "holder, and free again once released",
          "[collect][lock]") {
  PrivateTmp tmp;
  probe::MapEnvironment env;
  const auto lock = collect::CollectServices::system(env).lock_target;
  const fs::path target = temp_dir("lock-target") / "target";  // need not exist yet

  auto first = lock(target);
  REQUIRE(first.held);
  CHECK_FALSE(first.busy);
  CHECK(first.unavailable.empty());
  REQUIRE(tmp.files().size() == 1);
  const std::string name = tmp.files().front().filename().string();
  CHECK(std::regex_match(name, std::regex("cargo-bench-history-[0-9a-f]{16}\\.lock")));
  CHECK(read_file(tmp.files().front()) == std::to_string(::getpid()) + "\n");

  // Another open of the file (another collect; here another thread's would do the same) is refused.
  const auto second = lock(target / "." / "");  // the same directory by another spelling
  CHECK_FALSE(second.held);
  CHECK(second.busy);
  CHECK(second.holder == std::optional<long>(::getpid()));
  CHECK(tmp.files().size() == 1);

  // Another target directory has a lock of its own.
  const auto other = lock(temp_dir("lock-other") / "target");
  CHECK(other.held);
  CHECK(tmp.files().size() == 2);

  first.held.reset();
  const auto again = lock(target);
  CHECK(again.held);
  CHECK_FALSE(again.busy);
}

TEST_CASE("a lock file that cannot be opened leaves collect running unguarded, and it says so", "[collect][lock]") {
  PrivateTmp tmp;
  probe::MapEnvironment env;
  const auto lock = collect::CollectServices::system(env).lock_target;
  Rig rig;
  rig.env.set("CARGO_TARGET_DIR", (rig.repo / "target").string());
  { (void)lock(rig.repo / "target"); }  // makes the file, to learn its name
  REQUIRE(tmp.files().size() == 1);
  const fs::path file = tmp.files().front();
  fs::remove(file);
  fs::create_symlink(rig.repo / "elsewhere", file);  // planted: never followed

  const auto refused = lock(rig.repo / "target");
  CHECK_FALSE(refused.held);
  CHECK_FALSE(refused.busy);
  CHECK(refused.unavailable.find(file.string()) != std::string::npos);
  CHECK_FALSE(fs::exists(rig.repo / "elsewhere"));

  auto svc = rig.services();
  svc.lock_target = lock;
  collect::collect(rig.request(), rig.env, &rig.store, svc);
  CHECK(rig.runs == 1);
  CHECK(std::any_of(rig.announcements.begin(), rig.announcements.end(), [&](const std::string& l) {
    return l.starts_with("could not lock " + (rig.repo / "target").string() + " against other collects (") &&
           l.ends_with("); running anyway: do not start another collect in this directory until this one ends");
  }));
}

TEST_CASE("a second collect on one target directory waits until the first has stored its results, then runs",
          "[collect][lock]") {
  PrivateTmp tmp;
  probe::MapEnvironment system_env;
  const auto lock = collect::CollectServices::system(system_env).lock_target;
  const fs::path target = temp_dir("lock-shared") / "target";  // one CARGO_TARGET_DIR for both
  Rig a, b;
  a.env.set("CARGO_TARGET_DIR", target.string());
  b.env.set("CARGO_TARGET_DIR", target.string());
  b.git.commit = "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b";  // another commit: both store

  std::mutex m;
  std::condition_variable cv;
  bool a_running = false, a_may_finish = false;
  std::vector<std::string> events;  // in the order they happened
  auto record = [&](std::string e) {
    std::lock_guard g(m);
    events.push_back(std::move(e));
  };

  auto sa = a.services();
  sa.lock_target = lock;
  const auto run_a = sa.run_benchmarks;
  sa.run_benchmarks = [&](const probe::ProcessSpec& spec) {
    record("a runs");
    {
      std::unique_lock g(m);
      a_running = true;
      cv.notify_all();
      cv.wait(g, [&] { return a_may_finish; });
    }
    return run_a(spec);
  };
  auto sb = b.services();
  sb.lock_target = lock;
  const auto run_b = sb.run_benchmarks;
  sb.run_benchmarks = [&](const probe::ProcessSpec& spec) {
    record(a.store.list("").size() == 4 ? "b runs after a stored" : "b runs while a has not stored");
    return run_b(spec);
  };
  std::atomic<bool> b_waits{false};
  sb.announce = [&](std::string_view line) {
    b.announcements.emplace_back(line);
    if (line.starts_with("another collect")) b_waits = true;
  };

  // One interrupt guard per process: these two collects share one, as threads (none here).
  auto ra = a.request(), rb = b.request();
  ra.handle_interrupts = rb.handle_interrupts = false;
  std::thread ta([&] { collect::collect(ra, a.env, &a.store, sa); });
  {
    std::unique_lock g(m);
    cv.wait(g, [&] { return a_running; });
  }
  std::thread tb([&] { collect::collect(rb, b.env, &b.store, sb); });
  for (int i = 0; i < 500 && !b_waits; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const bool waited = b_waits;
  {
    std::lock_guard g(m);
    a_may_finish = true;
    cv.notify_all();
  }
  ta.join();
  tb.join();
  CHECK(waited);
  CHECK(events == std::vector<std::string>{"a runs", "b runs after a stored"});
  CHECK(b.announcements.at(0) == "another collect (process " + std::to_string(::getpid()) +
                                     ") is running benchmarks that write into " + target.string() +
                                     "; waiting for it to end, so that neither harvests the other's results "
                                     "(Ctrl-C stops waiting)");
  CHECK(std::find(b.announcements.begin(), b.announcements.end(),
                  "the other collect has ended; running the benchmarks") != b.announcements.end());
  CHECK(a.store.list("").size() == 4);
  CHECK(b.store.list("").size() == 4);
}

TEST_CASE("a waiting collect names the other collect's process once its id is written, and waits without a name "
          "when none is",
          "[collect][lock]") {
  // The holder writes its process id just after it takes the lock: a collect that looks in
  // between reads an empty file, and asks again before it announces the wait.
  Rig rig;
  auto svc = rig.services();
  int asked = 0;
  int unnamed_polls = 0, busy_polls = 0;
  std::optional<long> holder;
  SECTION("the id appears on the third look") {
    unnamed_polls = 2;
    busy_polls = 4;
    holder = 4242;
  }
  SECTION("the id never appears: the wait is announced without it after half a second") {
    unnamed_polls = busy_polls = 8;
  }
  svc.lock_target = [&](const fs::path&) {
    collect::TargetLock lock;
    ++asked;
    if (asked > busy_polls) {
      lock.held = std::make_shared<int>(0);
      return lock;
    }
    lock.busy = true;
    if (asked > unnamed_polls) lock.holder = holder;
    return lock;
  };
  collect::collect(rig.request(), rig.env, &rig.store, svc);
  CHECK(rig.runs == 1);
  CHECK(asked == busy_polls + 1);
  const std::string named = holder ? " (process " + std::to_string(*holder) + ")" : "";
  CHECK(std::count_if(rig.announcements.begin(), rig.announcements.end(),
                      [](const std::string& l) { return l.starts_with("another collect"); }) == 1);
  CHECK(std::find(rig.announcements.begin(), rig.announcements.end(),
                  "another collect" + named + " is running benchmarks that write into " + (rig.repo / "target").string() +
                      "; waiting for it to end, so that neither harvests the other's results (Ctrl-C stops waiting)") !=
        rig.announcements.end());
  CHECK(std::find(rig.announcements.begin(), rig.announcements.end(),
                  "the other collect has ended; running the benchmarks") != rig.announcements.end());
}
