// backfill (docs/backfill.md): planning with substituted services over real git repositories,
// and end-to-end runs of real `cargo bench` on a Criterion crate whose history contains one
// planted slowdown.
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/collect/backfill.hpp"
#include "benchhist/probe/process.hpp"
#include "probe/toolchain.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "common/demo_crate_cache.hpp"

namespace fs = std::filesystem;
using namespace benchhist;

namespace {

std::string run_ok(const std::vector<std::string>& argv, const fs::path& cwd = {},
                   std::map<std::string, std::optional<std::string>> env = {}) {
  probe::ProcessSpec s;
  s.argv = argv;
  s.cwd = cwd;
  s.env_changes = std::move(env);
  s.capture_stdout = true;
  s.capture_stderr = true;
  auto r = probe::run_process(s);
  INFO(probe::describe_command(argv) << " in " << cwd << "\n" << r.out << r.err);
  REQUIRE(r.success());
  return r.out;
}

std::string sh(const std::string& cmd, const fs::path& cwd) { return run_ok({"sh", "-c", cmd}, cwd); }

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

fs::path scratch(const std::string& name) {
  static int counter = 0;
  // Each run starts by dropping the previous runs' scratch trees (kept until then for
  // debugging), including worktrees a SIGKILLed backfill could not remove.
  if (counter == 0) fs::remove_all(fs::path(BH_BUILD_DIR) / "backfill-scratch");
  auto p = fs::path(BH_BUILD_DIR) / "backfill-scratch" /
           (name + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void git_init(const fs::path& repo) {
  fs::create_directories(repo);
  sh("git init -q -b main && git config user.email t@example.com && git config user.name Test && "
     "git config commit.gpgsign false",
     repo);
}

std::string commit_all(const fs::path& repo, const std::string& msg) {
  sh("git add -A && git commit -q --allow-empty -m '" + msg + "'", repo);
  return trimmed(sh("git rev-parse HEAD", repo));
}

std::string short12(const std::string& id) { return id.substr(0, 12); }

std::size_t worktree_count(const fs::path& repo) {
  auto out = sh("git worktree list --porcelain", repo);
  std::size_t n = 0, pos = 0;
  while ((pos = out.find("worktree ", pos)) != std::string::npos) {
    if (pos == 0 || out[pos - 1] == '\n') ++n;
    pos += 9;
  }
  return n;
}

std::vector<fs::path> worktree_dirs(const fs::path& tmp) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(tmp))
    if (e.path().filename().string().rfind("cargo-bench-history-worktree-", 0) == 0) out.push_back(e.path());
  return out;
}

// ---------------------------------------------------------------------------------------------
// Substituted services: real git, fake toolchain/hardware/collect.

constexpr const char* fake_triple = "x86_64-unknown-linux-gnu";
constexpr const char* fake_mk = "0123456789abcdef";

struct Fake {
  fs::path tmp;
  std::vector<std::string> announcements, notes;
  std::vector<collect::BackfillProgress> progress;
  struct Call {
    collect::CollectRequest request;
    std::string head;        // HEAD of the worktree when collect ran
    std::string target_dir;  // CARGO_TARGET_DIR collect saw
  };
  std::vector<Call> calls;
  std::vector<std::string> toolchain_dirs;
  // What collect does for its n-th call (0-based) at `head`; default: store 7 cases.
  std::function<collect::CollectOutcome(const collect::CollectRequest&, storage::ObjectStore*, std::size_t, const std::string&)> behaviour;

  explicit Fake(fs::path t) : tmp(std::move(t)) {}

  static collect::CollectOutcome store_cases(const collect::CollectRequest& r, storage::ObjectStore* st, const std::string& head, std::size_t cases) {
    collect::CollectOutcome out;
    auto key = codec::clean_key(r.project, Engine::criterion, fake_triple, fake_mk, head);
    st->put(key, "{}", r.policy);
    out.objects.push_back(collect::StoredObject{Engine::criterion, key, cases, storage::PutOutcome::stored, {}});
    return out;
  }

  collect::BackfillServices services() {
    collect::BackfillServices s;
    s.clock = [] { return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now()); };
    s.run_command = [](const probe::ProcessSpec& spec) { return probe::run_process(spec); };
    s.probe_toolchain = [this](const fs::path& dir) {
      toolchain_dirs.push_back(dir.string());
      return ToolchainInfo{fake_triple, "1.95.0"};
    };
    s.machine_key = [] { return std::string(fake_mk); };
    s.collect_services = [](const fs::path&, const probe::Environment&) { return collect::CollectServices{}; };
    s.collect = [this](const collect::CollectRequest& r, const probe::Environment& env, storage::ObjectStore* st, const collect::CollectServices&) {
      auto head = trimmed(run_ok({"git", "-C", r.repo_dir.string(), "rev-parse", "HEAD"}));
      calls.push_back({r, head, env.get("CARGO_TARGET_DIR").value_or("")});
      if (behaviour) return behaviour(r, st, calls.size() - 1, head);
      return store_cases(r, st, head, 7);
    };
    s.temp_dir = tmp;
    s.pid = ::getpid();
    s.announce = [this](std::string_view t) { announcements.emplace_back(t); };
    s.note = [this](std::string_view t) { notes.emplace_back(t); };
    s.progress = [this](const collect::BackfillProgress& p) { progress.push_back(p); };
    return s;
  }
};

// A repository with commits D (oldest), C, B, A (newest) on main; `target/` ignored.
struct AbcdRepo {
  fs::path root, repo, tmp, store_dir;
  std::string a, b, c, d;
  AbcdRepo() {
    root = scratch("abcd");
    repo = root / "repo";
    tmp = root / "tmp";
    store_dir = root / "store";
    fs::create_directories(tmp);
    git_init(repo);
    write_file(repo / ".gitignore", "target/\n");
    write_file(repo / "file.txt", "d\n");
    d = commit_all(repo, "commit D");
    write_file(repo / "file.txt", "c\n");
    c = commit_all(repo, "commit C");
    write_file(repo / "file.txt", "b\n");
    b = commit_all(repo, "commit B");
    write_file(repo / "file.txt", "a\n");
    a = commit_all(repo, "commit A");
  }
  collect::BackfillRequest request() const {
    collect::BackfillRequest r;
    r.base_dir = repo;
    r.project = "demo";
    r.from = d;
    r.to = "main";
    r.handle_interrupts = false;
    return r;
  }
};

void put_clean(storage::ObjectStore& st, Engine e, const std::string& triple, const std::string& mk, const std::string& commit) {
  st.put(codec::clean_key("demo", e, triple, mk, commit), "{}", storage::CollisionPolicy::refuse);
}

Error bench_failure(int code) {
  return Error(ErrorKind::benchmark_failed, "engine \"cargo bench\" failed with exit code " + std::to_string(code));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Range planning and setup.

TEST_CASE("the range is TO's first-parent history from FROM to TO, newest first", "[backfill][plan]") {
  auto root = scratch("range");
  auto repo = root / "repo";
  git_init(repo);
  write_file(repo / "f", "1");
  auto c1 = commit_all(repo, "c1");
  write_file(repo / "f", "2");
  auto c2 = commit_all(repo, "c2");
  sh("git checkout -q -b side", repo);
  write_file(repo / "s", "s");
  auto s1 = commit_all(repo, "s1");
  sh("git checkout -q main", repo);
  write_file(repo / "f", "3");
  auto c3 = commit_all(repo, "c3");
  sh("git merge -q --no-ff -m merge side", repo);
  auto m = trimmed(sh("git rev-parse HEAD", repo));
  write_file(repo / "f", "4");
  auto c4 = commit_all(repo, "c4");
  sh("git checkout -q side", repo);  // the range depends only on TO, not on the checkout

  Fake fake(root);
  auto svc = fake.services();
  CHECK(collect::plan_backfill_range(repo, c1, "main", svc) == std::vector<std::string>{c4, m, c3, c2, c1});
  CHECK(collect::plan_backfill_range(repo, short12(c2), c2, svc) == std::vector<std::string>{c2});
  CHECK(collect::plan_backfill_range(repo, "main~1", "main", svc) == std::vector<std::string>{c4, m});

  auto message_of = [&](std::string from, std::string to) -> std::string {
    try {
      collect::plan_backfill_range(repo, from, to, svc);
    } catch (const Error& e) {
      return e.message();
    }
    return "no error";
  };
  CHECK(message_of("side", "main") == "<FROM> (side) is not a first-parent ancestor of <TO> (main)");
  CHECK(message_of(c3, c1) == "<FROM> (" + c3 + ") is not a first-parent ancestor of <TO> (" + c1 + ")");
  CHECK(message_of("no-such-ref", "main") == "cannot resolve <FROM> (no-such-ref) to a commit");
  CHECK(message_of(c1, "v9.9") == "cannot resolve <TO> (v9.9) to a commit");
  CHECK(s1 != c1);
}

TEST_CASE("the project prefix strips exactly one line ending and must be a relative normal path", "[backfill][plan]") {
  CHECK(collect::parse_project_prefix("") == fs::path());
  CHECK(collect::parse_project_prefix("\n") == fs::path());
  CHECK(collect::parse_project_prefix("crates/demo/\n") == fs::path("crates/demo"));
  CHECK(collect::parse_project_prefix("crates/demo/\r\n") == fs::path("crates/demo"));
  CHECK(collect::parse_project_prefix(" spaced dir /\n") == fs::path(" spaced dir "));
  for (std::string bad : {"../up/\n", "/abs/\n", "a/../b/\n", "./a/\n", "C:/x/\n", "a//b/\n"}) {
    INFO(bad);
    try {
      collect::parse_project_prefix(bad);
      FAIL("accepted");
    } catch (const Error& e) {
      auto shown = bad.substr(0, bad.size() - 1);
      CHECK(e.message() == "git returned a project directory that is not relative to the repository: \"" + shown + "\"");
    }
  }
}

TEST_CASE("backfill outside a git repository fails before any worktree exists", "[backfill][plan]") {
  // Outside the source tree, which is itself a git repository.
  auto root = fs::temp_directory_path() / ("benchhist-backfill-norepo-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  Fake fake(root);
  collect::BackfillRequest r;
  r.base_dir = root;
  r.project = "demo";
  r.from = "HEAD";
  r.to = "HEAD";
  r.handle_interrupts = false;
  storage::LocalStore st(root / "store");
  try {
    collect::backfill(r, probe::MapEnvironment{}, st, fake.services());
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.message() == "failed to resolve the selected project directory in " + root.string());
  }
  CHECK(worktree_dirs(root).empty());
  fs::remove_all(root);
}

// ---------------------------------------------------------------------------------------------
// Pre-check, classification, loop and summary (docs/backfill.md#the-run-step-by-step worked
// examples).

TEST_CASE("the pre-check unions engines in this partition only and --max-commits counts attempts", "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  put_clean(st, Engine::criterion, fake_triple, fake_mk, t.a);   // A recorded by criterion
  put_clean(st, Engine::callgrind, fake_triple, fake_mk, t.d);   // D recorded by callgrind only
  st.put(codec::dirty_key("demo", Engine::criterion, fake_triple, fake_mk, t.b, 1700000000), "{}", storage::CollisionPolicy::refuse);
  put_clean(st, Engine::criterion, fake_triple, "ffffffffffffffff", t.b);       // another machine
  put_clean(st, Engine::criterion, "aarch64-apple-darwin", fake_mk, t.c);       // another triple
  st.put(codec::partition_blessing_key("demo", Engine::criterion, fake_triple, fake_mk, t.c, 1700000000), "{}",
         storage::CollisionPolicy::refuse);

  Fake fake(t.tmp);
  auto req = t.request();
  req.max_commits = 1;
  auto res = collect::backfill(req, probe::MapEnvironment{}, st, fake.services());

  REQUIRE(fake.announcements.size() >= 2);
  CHECK(fake.announcements[0] ==
        std::string("scanning for already-backfilled commits: target-triple=") + fake_triple +
            " (toolchain host of the newest checkout in the range); machine-key=" + fake_mk + " (auto-detected)");
  CHECK(fake.announcements[1] ==
        "backfilling 4 commits, newest first: 2 already recorded in this partition and skipped without benchmarking "
        "(pass --overwrite to re-measure them), 2 pending; --max-commits 1 allows at most 1 replay attempt this "
        "invocation");
  REQUIRE(fake.calls.size() == 1);
  CHECK(fake.calls[0].head == t.b);
  CHECK(fake.calls[0].request.policy == storage::CollisionPolicy::refuse);
  CHECK(fake.calls[0].request.strip_toolchain_overrides);
  CHECK(fake.calls[0].request.repo_dir.parent_path() == t.tmp);
  CHECK(fake.calls[0].target_dir == (fake.calls[0].request.repo_dir / "target").string());
  // The partition was probed inside the worktree, not in the user's checkout.
  REQUIRE(fake.toolchain_dirs.size() == 1);
  CHECK(fake.toolchain_dirs[0] == fake.calls[0].request.repo_dir.string());

  CHECK(res.exit_status == 0);
  CHECK(res.stop == collect::BackfillStop::commit_limit);
  CHECK(res.summary ==
        "Backfill range of 4 commits: 1 stored, 2 skipped (existing), 0 skipped (empty), 0 failed, 1 deferred. "
        "Commit limit reached.\n"
        "  stored " + short12(t.b) + " (7 cases)\n"
        "  skipped " + short12(t.a) + " (already stored)\n"
        "  skipped " + short12(t.d) + " (already stored)");
  CHECK(worktree_dirs(t.tmp).empty());
  CHECK(worktree_count(t.repo) == 1);
}

TEST_CASE("a benchmark failure stops at the newest failing commit and exits 1 with the summary as the error",
          "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  put_clean(st, Engine::criterion, fake_triple, fake_mk, t.a);
  put_clean(st, Engine::criterion, fake_triple, fake_mk, t.d);
  Fake fake(t.tmp);
  fake.behaviour = [&](const collect::CollectRequest& r, storage::ObjectStore* s, std::size_t, const std::string& head) -> collect::CollectOutcome {
    if (head == t.b) throw bench_failure(101);
    return Fake::store_cases(r, s, head, 7);
  };
  auto res = collect::backfill(t.request(), probe::MapEnvironment{}, st, fake.services());
  CHECK(fake.calls.size() == 1);  // C is never attempted
  CHECK(res.exit_status == 1);
  CHECK(res.stop == collect::BackfillStop::benchmark_failure);
  const std::string expected =
      "Backfill range of 4 commits: 0 stored, 2 skipped (existing), 0 skipped (empty), 1 failed, 1 deferred. "
      "Stopped on benchmark failure.\n"
      "  skipped " + short12(t.a) + " (already stored)\n"
      "  skipped " + short12(t.d) + " (already stored)\n"
      "  failed " + short12(t.b) + " (engine \"cargo bench\" failed with exit code 101)\n"
      "  stopped at " + short12(t.b) + " (pass --ignore-errors to continue past failures)";
  CHECK(res.summary == expected);
  CHECK(res.error().message() == expected);
  CHECK(res.error().cause() == "engine \"cargo bench\" failed with exit code 101");
  CHECK(worktree_dirs(t.tmp).empty());
}

TEST_CASE("a store that fails mid-run keeps its error, and its hint names what was stored and how to resume",
          "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  Fake fake(t.tmp);
  // The first commit (A, newest) is stored; the store then goes away, as a storage service that
  // stops answering does (not a benchmark failure: it would fail every commit alike).
  fake.behaviour = [&](const collect::CollectRequest& r, storage::ObjectStore* s, std::size_t n,
                       const std::string& head) -> collect::CollectOutcome {
    if (n == 1)
      throw Error(ErrorKind::network, "could not list Azure blobs with prefix \"v1/p/\"", "v1/p/",
                  "Connection refused", "check `endpoint` and `account` in [storage.azure] of the configuration file");
    return Fake::store_cases(r, s, head, 7);
  };
  try {
    (void)collect::backfill(t.request(), probe::MapEnvironment{}, st, fake.services());
    FAIL("a failing store ended the backfill without an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::network);
    CHECK(e.message() == "could not list Azure blobs with prefix \"v1/p/\"");
    CHECK(e.cause() == "Connection refused");
    CHECK(e.hint() == "check `endpoint` and `account` in [storage.azure] of the configuration file; then run the same "
                      "backfill again: the commit stored before this failure (" + short12(t.a) +
                      ") is kept and skipped");
  }
  CHECK(worktree_dirs(t.tmp).empty());
  // With --overwrite the same command would measure them again: the hint says to drop it.
  {
    Fake again(t.tmp);
    again.behaviour = fake.behaviour;
    auto req = t.request();
    req.overwrite = true;
    try {
      (void)collect::backfill(req, probe::MapEnvironment{}, st, again.services());
      FAIL("a failing store ended the backfill without an error");
    } catch (const Error& e) {
      CHECK(e.hint().ends_with("; then run the backfill again without --overwrite to resume: the commit stored before "
                               "this failure (" + short12(t.a) + ") is kept and skipped"));
    }
  }
  // Failing before anything was stored, the error is the store's own.
  Fake first(t.tmp);
  first.behaviour = [&](const collect::CollectRequest&, storage::ObjectStore*, std::size_t, const std::string&)
      -> collect::CollectOutcome { throw Error(ErrorKind::network, "down", "", "", "check the endpoint"); };
  auto req = t.request();
  req.overwrite = true;
  try {
    (void)collect::backfill(req, probe::MapEnvironment{}, st, first.services());
    FAIL("a failing store ended the backfill without an error");
  } catch (const Error& e) {
    CHECK(e.hint() == "check the endpoint");
  }
}

TEST_CASE("--ignore-errors lists every failed commit and exits 0", "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  Fake fake(t.tmp);
  fake.behaviour = [&](const collect::CollectRequest& r, storage::ObjectStore* s, std::size_t, const std::string& head) -> collect::CollectOutcome {
    if (head == t.b) throw bench_failure(101);
    if (head == t.c)
      throw Error(ErrorKind::benchmark_output, "failed to parse benchmark output: /x/target/criterion/a/new/estimates.json");
    if (head == t.d) throw Error(ErrorKind::benchmark_failed, "engine \"cargo bench\" terminated without an exit code");
    return Fake::store_cases(r, s, head, 1);
  };
  auto req = t.request();
  req.ignore_errors = true;
  auto res = collect::backfill(req, probe::MapEnvironment{}, st, fake.services());
  CHECK(fake.calls.size() == 4);
  CHECK(res.exit_status == 0);
  CHECK(res.summary ==
        "Backfill range of 4 commits: 1 stored, 0 skipped (existing), 0 skipped (empty), 3 failed, 0 deferred. "
        "Range exhausted.\n"
        "  stored " + short12(t.a) + " (1 case)\n"
        "  failed " + short12(t.b) + " (engine \"cargo bench\" failed with exit code 101)\n"
        "  failed " + short12(t.c) + " (failed to parse benchmark output: /x/target/criterion/a/new/estimates.json)\n"
        "  failed " + short12(t.d) + " (engine \"cargo bench\" terminated without an exit code)");
}

TEST_CASE("infrastructure errors abort even with --ignore-errors and still remove the worktree", "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  for (auto err : {Error(ErrorKind::benchmark_not_started, "failed to run the benchmark command \"cargo bench --workspace\""),
                   Error(ErrorKind::io, "could not write local storage object at /x"),
                   Error(ErrorKind::benchmark_inconsistent, "engine \"criterion\" produced inconsistent results across --best-of runs")}) {
    Fake fake(t.tmp);
    fake.behaviour = [&](const collect::CollectRequest&, storage::ObjectStore*, std::size_t n, const std::string&) -> collect::CollectOutcome {
      if (n == 1) throw err;
      return {};
    };
    auto req = t.request();
    req.ignore_errors = true;
    try {
      collect::backfill(req, probe::MapEnvironment{}, st, fake.services());
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.message() == err.message());
    }
    CHECK(fake.calls.size() == 2);
    CHECK(worktree_dirs(t.tmp).empty());
    CHECK(worktree_count(t.repo) == 1);
  }
}

TEST_CASE("write-time duplicates and empty results count as attempts and are summarised after pre-check skips",
          "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  put_clean(st, Engine::all_the_time, fake_triple, fake_mk, t.d);
  Fake fake(t.tmp);
  fake.behaviour = [&](const collect::CollectRequest& r, storage::ObjectStore* s, std::size_t, const std::string& head) -> collect::CollectOutcome {
    if (head == t.a)
      throw Error(ErrorKind::already_exists, "a result is already stored for this run at v1/demo/objects/x; pass "
                                             "--overwrite to replace it");
    if (head == t.b) return {};
    return Fake::store_cases(r, s, head, 3);
  };
  auto req = t.request();
  req.max_commits = 2;
  auto res = collect::backfill(req, probe::MapEnvironment{}, st, fake.services());
  CHECK(fake.calls.size() == 2);
  CHECK(res.exit_status == 0);
  CHECK(res.summary ==
        "Backfill range of 4 commits: 0 stored, 2 skipped (existing), 1 skipped (empty), 0 failed, 1 deferred. "
        "Commit limit reached.\n"
        "  skipped " + short12(t.d) + " (already stored)\n"
        "  skipped " + short12(t.a) + " (already stored)\n"
        "  skipped " + short12(t.b) + " (no benchmark cases)");
  CHECK(res.skipped_existing + res.skipped_empty + res.stored + res.failed + res.deferred == 4);
}

TEST_CASE("a fully recorded range benchmarks nothing but still creates and removes the worktree", "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  for (const auto& c : {t.a, t.b, t.c, t.d}) put_clean(st, Engine::criterion, fake_triple, fake_mk, c);
  Fake fake(t.tmp);
  auto req = t.request();
  req.max_commits = 1;
  auto res = collect::backfill(req, probe::MapEnvironment{}, st, fake.services());
  CHECK(fake.calls.empty());
  REQUIRE(fake.announcements.size() == 2);
  CHECK(fake.announcements[1] ==
        "backfilling 4 commits, newest first: 4 already recorded in this partition and skipped without benchmarking "
        "(pass --overwrite to re-measure them), 0 pending; --max-commits 1 allows at most 0 replay attempts this "
        "invocation");
  CHECK(res.summary.substr(0, res.summary.find('\n')) ==
        "Backfill range of 4 commits: 0 stored, 4 skipped (existing), 0 skipped (empty), 0 failed, 0 deferred. "
        "Range exhausted.");
  bool created = false, removed = false;
  for (const auto& n : fake.notes) {
    created |= n.rfind("created the worktree ", 0) == 0;
    removed |= n.rfind("removed the worktree ", 0) == 0;
  }
  CHECK(created);
  CHECK(removed);
  CHECK(worktree_dirs(t.tmp).empty());
}

TEST_CASE("--overwrite skips the pre-check and replaces, newest first", "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  for (const auto& c : {t.a, t.b, t.c, t.d}) put_clean(st, Engine::criterion, fake_triple, fake_mk, c);
  Fake fake(t.tmp);
  auto req = t.request();
  req.overwrite = true;
  req.max_commits = 1;
  for (int round = 0; round < 2; ++round) {
    fake.announcements.clear();
    auto res = collect::backfill(req, probe::MapEnvironment{}, st, fake.services());
    REQUIRE(fake.announcements.size() == 1);
    CHECK(fake.announcements[0] ==
          "backfilling 4 commits, newest first: --overwrite disables the skip pre-check, so every commit is eligible "
          "for re-measurement and replacement; --max-commits 1 allows at most 1 replay attempt this invocation");
    CHECK(res.stored == 1);
    CHECK(res.deferred == 3);
  }
  REQUIRE(fake.calls.size() == 2);
  CHECK(fake.calls[0].head == t.a);
  CHECK(fake.calls[1].head == t.a);
  CHECK(fake.calls[0].request.policy == storage::CollisionPolicy::overwrite);
  CHECK(fake.toolchain_dirs.empty());
}

TEST_CASE("flush runs once after the loop, not once per commit", "[backfill][plan]") {
  struct CountingStore final : storage::ObjectStore {
    storage::LocalStore inner;
    int flushes = 0;
    explicit CountingStore(fs::path p) : inner(std::move(p)) {}
    storage::PutOutcome put(std::string_view k, std::string_view j, storage::CollisionPolicy p) override { return inner.put(k, j, p); }
    std::optional<std::string> get(std::string_view k) override { return inner.get(k); }
    std::vector<std::string> list(std::string_view p) override { return inner.list(p); }
    bool remove(std::string_view k) override { return inner.remove(k); }
    void flush() override { ++flushes; }
    std::string describe() const override { return "counting"; }
  };
  AbcdRepo t;
  CountingStore st(t.store_dir);
  Fake fake(t.tmp);
  auto res = collect::backfill(t.request(), probe::MapEnvironment{}, st, fake.services());
  CHECK(res.stored == 4);
  CHECK(st.flushes == 1);
}

TEST_CASE("the user's dirty checkout is untouched and the worktree keeps ignored build output between commits",
          "[backfill][plan]") {
  AbcdRepo t;
  write_file(t.repo / "file.txt", "uncommitted edit\n");
  write_file(t.repo / "scratch.txt", "untracked\n");
  sh("git checkout -q -b feature", t.repo);
  storage::LocalStore st(t.store_dir);
  Fake fake(t.tmp);
  fake.behaviour = [&](const collect::CollectRequest& r, storage::ObjectStore* s, std::size_t n, const std::string& head) -> collect::CollectOutcome {
    const auto wt = r.repo_dir;
    CHECK(read_file(wt / "file.txt") == (head == t.a ? "a\n" : head == t.b ? "b\n" : head == t.c ? "c\n" : "d\n"));
    if (n == 0) {
      write_file(wt / "target" / "marker", "kept");
      write_file(wt / "untracked-build-leftover.txt", "x");
      write_file(wt / "file.txt", "modified by the build");
    } else {
      CHECK(read_file(wt / "target" / "marker") == "kept");
      CHECK_FALSE(fs::exists(wt / "untracked-build-leftover.txt"));
    }
    return Fake::store_cases(r, s, head, 1);
  };
  auto res = collect::backfill(t.request(), probe::MapEnvironment{}, st, fake.services());
  CHECK(res.stored == 4);
  CHECK(read_file(t.repo / "file.txt") == "uncommitted edit\n");
  CHECK(read_file(t.repo / "scratch.txt") == "untracked\n");
  CHECK(trimmed(sh("git rev-parse --abbrev-ref HEAD", t.repo)) == "feature");
  CHECK(trimmed(sh("git rev-parse HEAD", t.repo)) == t.a);
  CHECK(worktree_count(t.repo) == 1);
}

TEST_CASE("a project sub-directory is built inside the worktree and its absence at a commit is a failure",
          "[backfill][plan]") {
  auto root = scratch("prefix");
  auto repo = root / "repo";
  git_init(repo);
  write_file(repo / "README", "r");
  auto c0 = commit_all(repo, "no crate yet");
  write_file(repo / "crates" / "demo" / "Cargo.toml", "[package]\n");
  auto c1 = commit_all(repo, "add the crate");
  write_file(repo / "crates" / "demo" / "Cargo.toml", "[package]\nname = \"demo\"\n");
  auto c2 = commit_all(repo, "name the crate");
  storage::LocalStore st(root / "store");
  Fake fake(root);
  collect::BackfillRequest req;
  req.base_dir = repo / "crates" / "demo";
  req.project = "demo";
  req.from = c0;
  req.to = "HEAD";
  req.ignore_errors = true;
  req.handle_interrupts = false;
  auto res = collect::backfill(req, probe::MapEnvironment{}, st, fake.services());
  REQUIRE(fake.calls.size() == 2);
  for (const auto& call : fake.calls) {
    CHECK(call.request.repo_dir.filename() == "demo");
    CHECK(call.request.repo_dir.parent_path().filename() == "crates");
    CHECK(call.target_dir == (call.request.repo_dir / "target").string());
  }
  CHECK(fake.toolchain_dirs.at(0) == fake.calls[0].request.repo_dir.string());
  CHECK(res.exit_status == 0);
  REQUIRE(res.failed == 1);
  const auto& failed = res.outcomes.back();
  CHECK(failed.commit == c0);
  CHECK(failed.reason == "project directory " + fake.calls[0].request.repo_dir.string() + " does not exist at this commit");
  CHECK(c1 != c2);

  // Without --ignore-errors the missing directory stops the run like a benchmark failure.
  auto st2 = storage::LocalStore(root / "store2");
  req.ignore_errors = false;
  req.overwrite = true;
  Fake fake2(root);
  auto res2 = collect::backfill(req, probe::MapEnvironment{}, st2, fake2.services());
  CHECK(res2.exit_status == 1);
  CHECK(res2.stopped_at == c0);
}

TEST_CASE("progress reports commit k of n with the title, elapsed and estimated remaining time", "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  put_clean(st, Engine::criterion, fake_triple, fake_mk, t.c);
  Fake fake(t.tmp);
  auto res = collect::backfill(t.request(), probe::MapEnvironment{}, st, fake.services());
  REQUIRE(fake.progress.size() == 3);
  CHECK(fake.progress[0].index == 1);
  CHECK(fake.progress[0].total == 3);
  CHECK(fake.progress[0].title == "commit A");
  CHECK(fake.progress[0].short_id == short12(t.a));
  CHECK_FALSE(fake.progress[0].remaining_seconds.has_value());
  CHECK(fake.progress[2].index == 3);
  CHECK(fake.progress[2].title == "commit D");
  CHECK(fake.progress[2].remaining_seconds.has_value());
  CHECK(fake.progress[2].elapsed_seconds >= fake.progress[1].elapsed_seconds);

  collect::BackfillProgress p;
  p.index = 3;
  p.total = 12;
  p.short_id = "0123456789ab";
  p.title = "Make checksum slower";
  p.elapsed_seconds = 65;
  p.remaining_seconds = 190;
  CHECK(collect::format_progress(p) == "commit 3 of 12: 0123456789ab Make checksum slower (elapsed 1m05s, about 3m10s remaining)");
  p.remaining_seconds.reset();
  p.elapsed_seconds = 3;
  CHECK(collect::format_progress(p) == "commit 3 of 12: 0123456789ab Make checksum slower (elapsed 3s, remaining time not yet known)");
}

TEST_CASE("the interrupt guard turns SIGINT into a pending flag and restores the previous handler", "[backfill][signal]") {
  struct sigaction before {};
  sigaction(SIGINT, nullptr, &before);
  {
    collect::InterruptGuard guard;
    CHECK(guard.pending() == 0);
    ::raise(SIGINT);
    CHECK(guard.pending() == SIGINT);
    ::raise(SIGTERM);
    CHECK(guard.pending() == SIGINT);  // the first signal is the one reported
    CHECK_THROWS_AS(collect::InterruptGuard(), Error);  // one guard at a time
  }
  struct sigaction after {};
  sigaction(SIGINT, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
}

TEST_CASE("a signal during a commit ends the run as interrupted and removes the worktree", "[backfill][signal]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  Fake fake(t.tmp);
  fake.behaviour = [&](const collect::CollectRequest& r, storage::ObjectStore* s, std::size_t n, const std::string& head) -> collect::CollectOutcome {
    if (n == 1) {
      ::raise(SIGTERM);  // as if the benchmark's process group was terminated
      throw Error(ErrorKind::benchmark_failed, "engine \"cargo bench\" terminated without an exit code");
    }
    return Fake::store_cases(r, s, head, 2);
  };
  auto req = t.request();
  req.handle_interrupts = true;
  auto res = collect::backfill(req, probe::MapEnvironment{}, st, fake.services());
  CHECK(res.stop == collect::BackfillStop::interrupted);
  CHECK(res.exit_status == 128 + SIGTERM);
  CHECK(res.summary ==
        "Backfill range of 4 commits: 1 stored, 0 skipped (existing), 0 skipped (empty), 0 failed, 3 deferred. "
        "Interrupted by SIGTERM.\n"
        "  stored " + short12(t.a) + " (2 cases)");
  CHECK(res.error().cause() == "interrupted by SIGTERM");
  CHECK(worktree_dirs(t.tmp).empty());
  CHECK(worktree_count(t.repo) == 1);
}

// ---------------------------------------------------------------------------------------------
// Real cargo bench on a Criterion crate (examples/demo-crate), offline.

namespace {

constexpr int slow_passes = 16;  // ~16x slower: a wide margin over the 2.5x check on a loaded machine

struct CrateRepo {
  fs::path repo;
  fs::path seed_target;                // warmed dependency cache, built from the FAST code
  std::vector<std::string> main_ids;   // oldest first: 13 commits, slow from index 6
  std::vector<std::string> broken_ids; // branch `broken` after main: breaks, note, fixes
  std::size_t slow_index = 6;
};

std::map<std::string, std::optional<std::string>> cargo_env() {
  return {{"RUSTUP_TOOLCHAIN", std::nullopt}, {"CARGO", std::nullopt}};
}

void set_passes(const fs::path& crate, int passes) {
  auto text = read_file(crate / "src" / "lib.rs");
  auto pos = text.find("pub const PASSES: u32 = ");
  REQUIRE(pos != std::string::npos);
  auto end = text.find(';', pos);
  text.replace(pos, end - pos, "pub const PASSES: u32 = " + std::to_string(passes));
  write_file(crate / "src" / "lib.rs", text);
}

const CrateRepo& crate_repo() {
  static std::optional<CrateRepo> built;
  if (built) return *built;
  CrateRepo r;
  // The shared dependency build (tests/common/demo_crate_cache.hpp) seeds every worktree.
  const auto& cache = testing::demo_crate_cache();
  r.seed_target = cache.target;

  r.repo = scratch("crate-repo") / "repo";
  git_init(r.repo);
  testing::copy_demo_crate(r.repo);
  fs::copy_file(cache.crate / "Cargo.lock", r.repo / "Cargo.lock");
  write_file(r.repo / ".gitignore", "/target\n");
  for (int i = 0; i < 13; ++i) {
    if (i == 0) {
      r.main_ids.push_back(commit_all(r.repo, "initial crate"));
    } else if (i == static_cast<int>(r.slow_index)) {
      set_passes(r.repo, slow_passes);
      r.main_ids.push_back(commit_all(r.repo, "make checksum slower"));
    } else {
      write_file(r.repo / "NOTES.md", "note " + std::to_string(i) + "\n");
      r.main_ids.push_back(commit_all(r.repo, "note " + std::to_string(i)));
    }
  }
  sh("git checkout -q -b broken", r.repo);
  const auto bench_src = read_file(r.repo / "benches" / "wordcount.rs");
  write_file(r.repo / "benches" / "wordcount.rs", bench_src + "\nthis is not rust\n");
  r.broken_ids.push_back(commit_all(r.repo, "break the bench"));
  write_file(r.repo / "NOTES.md", "broken note\n");
  r.broken_ids.push_back(commit_all(r.repo, "note while broken"));
  write_file(r.repo / "benches" / "wordcount.rs", bench_src);
  r.broken_ids.push_back(commit_all(r.repo, "fix the bench"));
  sh("git checkout -q main", r.repo);
  built = std::move(r);
  return *built;
}

struct RealRun {
  explicit RealRun(fs::path t) : tmp(std::move(t)) {}
  fs::path tmp;
  std::shared_ptr<int> bench_runs = std::make_shared<int>(0);
  std::vector<std::string> announcements;
};

// The real services, with benchmark output captured (and counted) instead of streamed.
collect::BackfillServices real_services(const probe::Environment& env, RealRun& run) {
  auto s = collect::BackfillServices::system(env);
  s.temp_dir = run.tmp;
  auto counter = run.bench_runs;
  auto base = s.collect_services;
  s.collect_services = [base, counter](const fs::path& dir, const probe::Environment& e) {
    auto cs = base(dir, e);
    cs.run_benchmarks = [counter](const probe::ProcessSpec& spec) {
      ++*counter;
      auto quiet = spec;
      quiet.capture_stdout = true;
      quiet.capture_stderr = true;
      return probe::run_process(quiet);
    };
    return cs;
  };
  s.announce = [&run](std::string_view t) { run.announcements.emplace_back(t); };
  return s;
}

collect::BackfillRequest real_request(const CrateRepo& cr, std::string from, std::string to) {
  collect::BackfillRequest r;
  r.base_dir = cr.repo;
  r.project = "wordcount";
  r.from = std::move(from);
  r.to = std::move(to);
  r.scope.benches = {"wordcount"};
  r.scope.passthrough = {"checksum/4096", "--nresamples", "1000", "--noplot"};
  r.seed_target_dir = cr.seed_target;
  return r;
}

std::map<std::string, std::string> criterion_objects(storage::LocalStore& st) {
  std::map<std::string, std::string> by_commit;  // commit -> key
  for (const auto& k : st.list("v1/wordcount/objects/criterion/")) {
    auto dk = codec::parse_data_key(k);
    REQUIRE(dk);
    CHECK(dk->kind == codec::ObjectKind::clean);
    CHECK(by_commit.emplace(dk->commit, k).second);
  }
  return by_commit;
}

double checksum_value(storage::LocalStore& st, const std::string& key) {
  auto run = codec::decode_run(*st.get(key), key);
  for (const auto& res : run.results)
    if (res.id.qualified() == "checksum/4096") return res.metrics.at(0).value;
  FAIL("no checksum/4096 in " << key);
  return 0;
}

}  // namespace

TEST_CASE("backfilling 13 real commits stores one criterion object per commit measured from that commit's code",
          "[backfill][cargo]") {
  const auto& cr = crate_repo();
  RealRun run(scratch("real13") / "tmp");
  fs::create_directories(run.tmp);
  storage::LocalStore st(run.tmp.parent_path() / "store");
  probe::ProcessEnvironment env;
  auto res = collect::backfill(real_request(cr, cr.main_ids.front(), "main"), env, st, real_services(env, run));
  INFO(res.summary);
  CHECK(res.exit_status == 0);
  CHECK(res.stored == 13);
  CHECK(*run.bench_runs == 13);
  auto objs = criterion_objects(st);
  REQUIRE(objs.size() == 13);
  double max_fast = 0, min_slow = 1e300;
  for (std::size_t i = 0; i < cr.main_ids.size(); ++i) {
    REQUIRE(objs.count(cr.main_ids[i]));
    const double v = checksum_value(st, objs[cr.main_ids[i]]);
    if (i < cr.slow_index)
      max_fast = std::max(max_fast, v);
    else
      min_slow = std::min(min_slow, v);
  }
  // The seed cache was built from the fast code, and the first commit measured is slow: a
  // stale binary from the cache would make the newest commits look fast.
  INFO("fastest slow-commit value " << min_slow << " ns, slowest fast-commit value " << max_fast << " ns");
  CHECK(min_slow >= 2.5 * max_fast);
  // The run record names the commit and the worktree's toolchain.
  auto rec = codec::decode_run(*st.get(objs[cr.main_ids.back()]), objs[cr.main_ids.back()]);
  CHECK(rec.context.git.commit == cr.main_ids.back());
  CHECK_FALSE(rec.context.git.dirty);
  CHECK(rec.context.toolchain.rustc_version.has_value());
  CHECK(worktree_dirs(run.tmp).empty());
}

TEST_CASE("an interrupted backfill removes its worktree and a rerun measures nothing twice", "[backfill][cargo]") {
  const auto& cr = crate_repo();
  RealRun run(scratch("interrupt") / "tmp");
  fs::create_directories(run.tmp);
  const auto store_dir = run.tmp.parent_path() / "store";
  const auto req = real_request(cr, cr.main_ids[0], cr.main_ids[6]);  // 7 commits

  // Runs backfill in a child process (its own process group, as a terminal job would be) and
  // signals the whole group once the store holds `objects` criterion objects.
  auto run_and_signal = [&](std::size_t objects, int sig) -> int {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      ::setpgid(0, 0);
      int code = 99;
      try {
        probe::ProcessEnvironment env;
        storage::LocalStore st(store_dir);
        RealRun child_run(run.tmp);
        code = collect::backfill(req, env, st, real_services(env, child_run)).exit_status;
      } catch (...) {
      }
      ::_exit(code);
    }
    ::setpgid(child, child);
    storage::LocalStore st(store_dir);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(4);
    int status = 0;
    while (st.list("v1/wordcount/objects/criterion/").size() < objects) {
      if (::waitpid(child, &status, WNOHANG) == child) FAIL("backfill finished before it could be interrupted");
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(-child, SIGKILL);
        ::waitpid(child, &status, 0);
        FAIL("timed out waiting for stored objects");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(-child, sig);
    REQUIRE(::waitpid(child, &status, 0) == child);
    return status;
  };

  // 1. SIGINT after two commits: exit 130, the worktree is gone.
  int status = run_and_signal(2, SIGINT);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 128 + SIGINT);
  CHECK(worktree_dirs(run.tmp).empty());
  CHECK(worktree_count(cr.repo) == 1);
  storage::LocalStore st(store_dir);
  const auto after_sigint = criterion_objects(st).size();
  CHECK(after_sigint >= 2);
  CHECK(after_sigint < 7);

  // 2. SIGKILL after one more: nothing can clean up, the rerun must cope anyway.
  status = run_and_signal(after_sigint + 1, SIGKILL);
  CHECK(WIFSIGNALED(status));
  const auto before_rerun = criterion_objects(st);
  REQUIRE(before_rerun.size() > after_sigint);
  std::map<std::string, fs::file_time_type> mtimes;
  for (const auto& [commit, key] : before_rerun) mtimes[key] = fs::last_write_time(st.path_of(key));

  // 3. The rerun measures exactly the missing commits and leaves stored objects alone.
  probe::ProcessEnvironment env;
  RealRun rerun(run.tmp);
  auto res = collect::backfill(req, env, st, real_services(env, rerun));
  INFO(res.summary);
  CHECK(res.exit_status == 0);
  CHECK(res.skipped_existing == before_rerun.size());
  CHECK(*rerun.bench_runs == static_cast<int>(7 - before_rerun.size()));
  CHECK(res.stored == 7 - before_rerun.size());
  CHECK(criterion_objects(st).size() == 7);
  for (const auto& [key, mtime] : mtimes) CHECK(fs::last_write_time(st.path_of(key)) == mtime);
  sh("git worktree prune", cr.repo);  // the SIGKILLed run's registration
}

TEST_CASE("--max-commits bounds each pass and later passes resume where the last stopped", "[backfill][cargo]") {
  const auto& cr = crate_repo();
  RealRun run(scratch("maxc") / "tmp");
  fs::create_directories(run.tmp);
  storage::LocalStore st(run.tmp.parent_path() / "store");
  probe::ProcessEnvironment env;
  auto req = real_request(cr, cr.main_ids[10], cr.main_ids[12]);
  req.max_commits = 2;
  auto first = collect::backfill(req, env, st, real_services(env, run));
  CHECK(first.exit_status == 0);
  CHECK(first.stored == 2);
  CHECK(first.deferred == 1);
  CHECK(first.summary.find("Commit limit reached.") != std::string::npos);
  CHECK(criterion_objects(st).count(cr.main_ids[12]) == 1);
  CHECK(criterion_objects(st).count(cr.main_ids[11]) == 1);

  auto second = collect::backfill(req, env, st, real_services(env, run));
  CHECK(second.exit_status == 0);
  CHECK(second.stored == 1);
  CHECK(second.skipped_existing == 2);
  CHECK(second.summary.find("Range exhausted.") != std::string::npos);
  CHECK(*run.bench_runs == 3);
  CHECK(criterion_objects(st).size() == 3);
}

TEST_CASE("a commit whose bench does not compile stops the run unless --ignore-errors", "[backfill][cargo]") {
  const auto& cr = crate_repo();
  RealRun run(scratch("broken") / "tmp");
  fs::create_directories(run.tmp);
  storage::LocalStore st(run.tmp.parent_path() / "store");
  probe::ProcessEnvironment env;
  // Range newest first: fix, note-while-broken, break, main tip.
  auto req = real_request(cr, cr.main_ids.back(), "broken");
  auto stopped = collect::backfill(req, env, st, real_services(env, run));
  INFO(stopped.summary);
  CHECK(stopped.exit_status == 1);
  CHECK(stopped.stored == 1);
  CHECK(stopped.failed == 1);
  CHECK(stopped.deferred == 2);
  CHECK(stopped.stopped_at == cr.broken_ids[1]);
  CHECK(stopped.summary.find("  failed " + short12(cr.broken_ids[1]) + " (engine \"cargo bench\" failed with exit code 101)") !=
        std::string::npos);

  req.ignore_errors = true;
  auto resumed = collect::backfill(req, env, st, real_services(env, run));
  INFO(resumed.summary);
  CHECK(resumed.exit_status == 0);
  CHECK(resumed.skipped_existing == 1);
  CHECK(resumed.failed == 2);
  CHECK(resumed.stored == 1);
  CHECK(resumed.summary.find("  failed " + short12(cr.broken_ids[0]) + " (engine \"cargo bench\" failed with exit code 101)") !=
        std::string::npos);
  auto objs = criterion_objects(st);
  CHECK(objs.size() == 2);
  CHECK(objs.count(cr.broken_ids[2]) == 1);
  CHECK(objs.count(cr.main_ids.back()) == 1);
}

TEST_CASE("a seeded build cache written after the checkout never stands in for the commit's own build",
          "[backfill][cargo]") {
  // The worktree pitfall (ENVIRONMENT.md): cargo names a path package's artifacts without the
  // checkout's location and judges freshness by mtimes, so a target directory last written by
  // another worktree's build *after* this checkout passes as up to date. Simulate that: a cache
  // built from the SLOW code, dated an hour ahead, seeds a range whose older commit is FAST.
  const auto& cr = crate_repo();
  const auto root = scratch("pitfall");
  const auto seed = root / "seed-slow";
  run_ok({"cp", "-a", cr.seed_target.string(), seed.string()});
  testing::copy_demo_crate(root / "slow-crate");
  fs::copy_file(cr.repo / "Cargo.lock", root / "slow-crate" / "Cargo.lock");
  set_passes(root / "slow-crate", slow_passes);
  auto env_changes = cargo_env();
  env_changes["CARGO_TARGET_DIR"] = seed.string();
  run_ok({"cargo", "bench", "--bench", "wordcount", "--no-run"}, root / "slow-crate", env_changes);
  const auto ahead = fs::file_time_type::clock::now() + std::chrono::hours(1);
  for (const auto& e : fs::recursive_directory_iterator(seed))
    if (e.is_regular_file() && !e.is_symlink()) fs::last_write_time(e.path(), ahead);

  RealRun run(root / "tmp");
  fs::create_directories(run.tmp);
  storage::LocalStore st(root / "store");
  probe::ProcessEnvironment env;
  auto req = real_request(cr, cr.main_ids[cr.slow_index - 1], cr.main_ids[cr.slow_index]);
  req.seed_target_dir = seed;
  auto res = collect::backfill(req, env, st, real_services(env, run));
  INFO(res.summary);
  REQUIRE(res.stored == 2);
  auto objs = criterion_objects(st);
  const double slow = checksum_value(st, objs.at(cr.main_ids[cr.slow_index]));
  const double fast = checksum_value(st, objs.at(cr.main_ids[cr.slow_index - 1]));
  INFO("slow commit " << slow << " ns, fast commit " << fast << " ns");
  CHECK(slow >= 2.5 * fast);
}

TEST_CASE("worktree set-up and teardown failures name the worktree and the commit", "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  {
    // The temp "directory" is a regular file, so `git worktree add` cannot create the path.
    write_file(t.root / "not-a-dir", "x");
    Fake fake(t.root / "not-a-dir");
    try {
      collect::backfill(t.request(), probe::MapEnvironment{}, st, fake.services());
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.message().rfind("failed to add a git worktree at " + (t.root / "not-a-dir").string() +
                                  "/cargo-bench-history-worktree-",
                              0) == 0);
      CHECK(e.message().find(" for commit " + t.a) != std::string::npos);
      CHECK_THAT(e.hint(), Catch::StartsWith("run `git worktree prune` in "));
    }
    CHECK(fake.calls.empty());
  }
  auto failing_remove = [](collect::BackfillServices s) {
    auto inner = s.run_command;
    s.run_command = [inner](const probe::ProcessSpec& spec) {
      for (const auto& a : spec.argv)
        if (a == "remove") return probe::ProcessResult{128, true, "", "fatal: simulated", 0};
      return inner(spec);
    };
    return s;
  };
  {
    Fake fake(t.tmp);
    try {
      collect::backfill(t.request(), probe::MapEnvironment{}, st, failing_remove(fake.services()));
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.message().rfind("failed to remove the git worktree at " + t.tmp.string(), 0) == 0);
      CHECK(e.cause() == "fatal: simulated");
    }
  }
  {
    // An infrastructure error wins over the teardown failure.
    Fake fake(t.tmp);
    fake.behaviour = [](const collect::CollectRequest&, storage::ObjectStore*, std::size_t, const std::string&) -> collect::CollectOutcome {
      throw Error(ErrorKind::io, "could not write local storage object at /x");
    };
    auto req = t.request();
    req.overwrite = true;
    try {
      collect::backfill(req, probe::MapEnvironment{}, st, failing_remove(fake.services()));
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.message() == "could not write local storage object at /x");
    }
  }
  sh("git worktree prune", t.repo);
  for (const auto& d : worktree_dirs(t.tmp)) fs::remove_all(d);
}

TEST_CASE("a git reset killed by the interrupt ends the run as interrupted, not as an infrastructure error",
          "[backfill][signal]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  Fake fake(t.tmp);
  auto svc = fake.services();
  auto inner = svc.run_command;
  int resets = 0;
  svc.run_command = [&](const probe::ProcessSpec& spec) {
    for (const auto& a : spec.argv)
      if (a == "reset" && ++resets == 2) {
        ::raise(SIGINT);  // Ctrl-C reached git's process group too
        return probe::ProcessResult{-1, false, "", "", SIGINT};
      }
    return inner(spec);
  };
  auto req = t.request();
  req.handle_interrupts = true;
  auto res = collect::backfill(req, probe::MapEnvironment{}, st, svc);
  CHECK(res.stop == collect::BackfillStop::interrupted);
  CHECK(res.exit_status == 128 + SIGINT);
  CHECK(res.stored == 1);
  CHECK(res.deferred == 3);
  CHECK(res.summary.substr(0, res.summary.find('\n')) ==
        "Backfill range of 4 commits: 1 stored, 0 skipped (existing), 0 skipped (empty), 0 failed, 3 deferred. "
        "Interrupted by SIGINT.");
  CHECK(worktree_dirs(t.tmp).empty());
}

TEST_CASE("--max-commits 0 and --best-of 0 are refused before touching the repository", "[backfill][plan]") {
  AbcdRepo t;
  storage::LocalStore st(t.store_dir);
  Fake fake(t.tmp);
  auto req = t.request();
  req.max_commits = 0;
  CHECK_THROWS_WITH(collect::backfill(req, probe::MapEnvironment{}, st, fake.services()), "--max-commits must be at least 1");
  req.max_commits.reset();
  req.best_of = 0;
  CHECK_THROWS_WITH(collect::backfill(req, probe::MapEnvironment{}, st, fake.services()), "--best-of must be at least 1");
  CHECK(worktree_dirs(t.tmp).empty());
}

TEST_CASE("a crate that neither commits nor ignores Cargo.lock stores clean runs when backfilled",
          "[backfill][cargo]") {
  // cargo bench creates Cargo.lock in each fresh worktree checkout; the git state is probed
  // before the benchmark command runs (collect's probe → run → harvest), so it is not counted.
  const auto& cr = crate_repo();
  const auto root = scratch("lockless");
  const auto repo = root / "repo";
  git_init(repo);
  testing::copy_demo_crate(repo);
  write_file(repo / ".gitignore", "/target\n");
  const auto first = commit_all(repo, "lockless crate");
  write_file(repo / "NOTES.md", "a note\n");
  const auto second = commit_all(repo, "a note");
  REQUIRE_FALSE(fs::exists(repo / "Cargo.lock"));

  RealRun run(root / "tmp");
  fs::create_directories(run.tmp);
  storage::LocalStore st(root / "store");
  probe::ProcessEnvironment env;
  CrateRepo lockless = cr;
  lockless.repo = repo;
  auto req = real_request(lockless, first, "main");
  auto res = collect::backfill(req, env, st, real_services(env, run));
  INFO(res.summary);
  CHECK(res.exit_status == 0);
  CHECK(res.stored == 2);
  auto objs = criterion_objects(st);  // every key parses as a clean object
  REQUIRE(objs.size() == 2);
  for (const auto& commit : {first, second}) {
    REQUIRE(objs.count(commit));
    auto rec = codec::decode_run(*st.get(objs[commit]), objs[commit]);
    CHECK(rec.context.git.commit == commit);
    CHECK_FALSE(rec.context.git.dirty);
  }
  CHECK(worktree_dirs(run.tmp).empty());
}
