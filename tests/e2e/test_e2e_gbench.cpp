// End to end with REAL Google Benchmark binaries (Debian's libbenchmark-dev) built by a
// --bench-command in a real git history: backfill over 12 commits with a slowdown planted at
// commit 6, then analyze names that commit; `import` of a report for a given commit (clean and
// dirty, collision policies, no freshness gate); a stale report is never harvested and every
// run gets a fresh BENCHHIST_OUTPUT_DIR; two binaries in one command are both kept; the
// [collect] bench_command key runs examples/textstats-cpp (Meson). See docs/bench-command.md.

#include <sys/stat.h>
#include <utime.h>

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <set>

#include "e2e_support.hpp"

namespace fs = std::filesystem;
namespace json = boost::json;
using e2e::contains;
using e2e::result_ids;
using e2e::run_cli;

namespace {

constexpr int n_commits = 12;
constexpr int step_at = 6;  // commits 6..11 do four times the work in BM_Work

// The benchmark source: BM_Work's cost is `factor` × a fixed loop, BM_Stable never changes.
std::string work_source(int factor) {
  return "#include <benchmark/benchmark.h>\n"
         "static void BM_Work(benchmark::State& state) {\n"
         "  for (auto _ : state) {\n"
         "    unsigned long x = 1;\n"
         "    for (int i = 0; i < " + std::to_string(factor) + " * 20000; ++i) { x = x * 6364136223846793005ul + 1; benchmark::DoNotOptimize(x); }\n"
         "  }\n"
         "}\n"
         "BENCHMARK(BM_Work)->Arg(1);\n"
         "BENCHMARK_MAIN();\n";
}

const std::string stable_source =
    "#include <benchmark/benchmark.h>\n"
    "static void BM_Stable(benchmark::State& state) {\n"
    "  for (auto _ : state) { unsigned long x = 7; for (int i = 0; i < 20000; ++i) { x ^= x << 1; benchmark::DoNotOptimize(x); } }\n"
    "}\n"
    "BENCHMARK(BM_Stable);\n"
    "BENCHMARK_MAIN();\n";

// Two benchmark binaries, each writing its own report into the run's output directory.
const std::string bench_script =
    "#!/bin/sh\n"
    "set -eu\n"
    "mkdir -p build\n"
    "c++ -O1 -o build/bench_work work.cpp -lbenchmark -lpthread\n"
    "c++ -O1 -o build/bench_stable stable.cpp -lbenchmark -lpthread\n"
    "for b in bench_work bench_stable; do\n"
    "  \"build/$b\" --benchmark_min_time=0.02 --benchmark_out=\"$BENCHHIST_OUTPUT_DIR/$b.json\" --benchmark_out_format=json\n"
    "done\n";

struct Repo {
  fs::path dir;
  std::vector<std::string> commits;  // oldest first
  std::string machine_key;
};

const Repo& repo() {
  static const Repo r = [] {
    Repo x;
    x.dir = fs::path(BH_E2E_WORK_DIR) / "gbench-repo";
    fs::remove_all(x.dir);
    fs::create_directories(x.dir);
    e2e::write_file(x.dir / ".gitignore", "/build/\n");
    e2e::write_file(x.dir / "stable.cpp", stable_source);
    e2e::write_file(x.dir / "bench.sh", bench_script);
    fs::permissions(x.dir / "bench.sh", fs::perms::owner_exec, fs::perm_options::add);
    e2e::git(x.dir, {"init", "-q"});
    x.commits = e2e::commit_history(x.dir, n_commits, step_at, 3600, "make BM_Work four times slower", [&](int i) {
      e2e::write_file(x.dir / "work.cpp", work_source(i >= step_at ? 4 : 1));
    });
    x.machine_key = e2e::trim(run_cli({"machine-key"}, x.dir).out);
    return x;
  }();
  return r;
}

fs::path object_dir(const fs::path& store, const std::string& commit) {
  return store / "v1" / "gbench-repo" / "objects" / "google_benchmark" / e2e::cxx_host_triple() / repo().machine_key / commit;
}

// Builds the binaries in the main checkout and writes their reports into `out` (as a user
// would before `import`).
void write_reports(const fs::path& out) {
  fs::create_directories(out);
  auto r = e2e::run({"./bench.sh"}, repo().dir, {{"BENCHHIST_OUTPUT_DIR", out.string()}});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
}

}  // namespace

TEST_CASE("backfill --bench-command over a real history and analyze name the commit of a planted C++ slowdown",
          "[e2e][gbench]") {
  const Repo& r = repo();
  e2e::TempDir store("bhgb-store");
  const std::string local = "--local=" + store.path().string();

  auto b = run_cli({"backfill", local, "--bench-command", "./bench.sh", r.commits.front(), r.commits.back()}, r.dir);
  INFO("backfill stderr: " << b.err);
  REQUIRE(b.exit_code == 0);
  CHECK(contains(b.out, "Backfill range of 12 commits: 12 stored, 0 skipped (existing), 0 skipped (empty), 0 failed, "
                        "0 deferred. Range exhausted."));
  // The partition comes from the C++ compiler and is said to.
  CHECK(contains(b.err, "[bench-history] scanning for already-backfilled commits: target-triple=" + e2e::cxx_host_triple() +
                            " (C++ compiler: c++ -dumpmachine)"));
  CHECK(contains(b.err, "[bench-history] collecting: target-triple=" + e2e::cxx_host_triple() + " (C++ compiler: c++ -dumpmachine); machine-key="));
  CHECK(contains(b.err, "commit 1 of 12: "));  // progress, as for cargo

  // Both binaries' reports are in every commit's object; the record names no rustc.
  for (const auto& c : r.commits) {
    const auto run = e2e::stored_run(object_dir(store.path(), c) / "clean.json");
    CHECK(result_ids(run) == std::vector<std::string>{"BM_Stable", "BM_Work/1"});
    CHECK(run.at("context").at("toolchain").at("target_triple").as_string() == e2e::cxx_host_triple());
  }

  fs::path report = store.path() / "report.json";
  auto a = run_cli({"analyze", local, "--json", report.string()}, r.dir);
  INFO("analyze stderr: " << a.err);
  REQUIRE(a.exit_code == 0);
  CHECK(contains(a.out, r.commits[step_at].substr(0, 12)));
  const auto doc = json::parse(e2e::read_file(report)).as_object();
  // Every BM_Work finding (wall_time, processor_time) names the planted commit. BM_Stable is not
  // asserted silent: on a shared, loaded machine its wall time can really shift mid-backfill.
  std::set<std::string> kinds;
  for (const auto& f : doc.at("findings").as_array()) {
    const auto& o = f.as_object();
    CHECK(o.at("engine").as_string() == "google_benchmark");
    if (o.at("segments") != json::array{"BM_Work", "1"}) continue;
    kinds.insert(std::string(o.at("kind").as_string()));
    CHECK(o.at("commit").as_string() == r.commits[step_at]);
    CHECK(o.at("direction").as_string() == "regression");
  }
  CHECK(kinds.count("processor_time") == 1);  // four times the instructions: cannot be missed
}

TEST_CASE("import stores a Google Benchmark report for a given commit without a freshness gate", "[e2e][gbench]") {
  const Repo& r = repo();
  e2e::TempDir store("bhgb-store");
  e2e::TempDir reports("bhgb-reports");
  const std::string local = "--local=" + store.path().string();
  write_reports(reports.path());
  const fs::path work = reports.path() / "bench_work.json";
  // An hour old: collect's freshness gate would refuse it; import must not.
  const auto old = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() - std::chrono::hours(1));
  utimbuf times{old, old};
  REQUIRE(utime(work.c_str(), &times) == 0);

  auto i = run_cli({"import", local, "--commit", r.commits[3], work.string(), "--verbose"}, r.dir);
  INFO("stderr: " << i.err);
  REQUIRE(i.exit_code == 0);
  CHECK(i.out == "Stored 1 result set covering 1 benchmark case. [google_benchmark: 1 stored]\n");
  CHECK(contains(i.err, "[bench-history] importing at " + r.commits[3] + ": target-triple=" + e2e::cxx_host_triple()));
  const auto run = e2e::stored_run(object_dir(store.path(), r.commits[3]) / "clean.json");
  CHECK(result_ids(run) == std::vector<std::string>{"BM_Work/1"});
  CHECK(run.at("context").at("git").at("commit").as_string() == r.commits[3]);
  CHECK(run.at("context").at("git").at("branch").is_null());
  CHECK(run.at("context").at("best_of").as_int64() == 1);

  // Refused a second time; --skip-existing succeeds without writing; --overwrite replaces.
  auto again = run_cli({"import", local, "--commit", r.commits[3], work.string()}, r.dir);
  CHECK(again.exit_code == 1);
  CHECK(contains(again.err, "a result is already stored for this run at "));
  auto skip = run_cli({"import", local, "--commit", r.commits[3], "--skip-existing", work.string()}, r.dir);
  CHECK(skip.exit_code == 0);
  CHECK(contains(skip.out, "already exists"));
  auto both = run_cli({"import", local, "--commit", r.commits[3], "--overwrite", reports.path().string()}, r.dir);
  INFO("stderr: " << both.err);
  CHECK(both.exit_code == 0);
  CHECK(result_ids(e2e::stored_run(object_dir(store.path(), r.commits[3]) / "clean.json")) ==
        std::vector<std::string>{"BM_Stable", "BM_Work/1"});

  // --dirty stores a snapshot beside the clean run; HEAD is the default commit.
  auto dirty = run_cli({"import", local, "--dirty", work.string()}, r.dir);
  REQUIRE(dirty.exit_code == 0);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(object_dir(store.path(), r.commits.back())))
    names.push_back(e.path().filename().string());
  REQUIRE(names.size() == 1);
  CHECK(names[0].starts_with("dirty-"));

  // Errors name what to fix.
  auto missing = run_cli({"import", local, (reports.path() / "nope.json").string()}, r.dir);
  CHECK(missing.exit_code == 1);
  CHECK(contains(missing.err, "Error: the report " + (reports.path() / "nope.json").string() + " does not exist"));
  auto bad_ref = run_cli({"import", local, "--commit", "no-such-ref", work.string()}, r.dir);
  CHECK(bad_ref.exit_code == 1);
  CHECK(contains(bad_ref.err, "could not resolve \"no-such-ref\" while resolving --commit"));
  auto nothing = run_cli({"import", local}, r.dir);
  CHECK(nothing.exit_code == 1);
  CHECK(contains(nothing.err, "import needs something to store"));
}

TEST_CASE("collect --bench-command: every run gets a fresh output directory and a stale report is never harvested",
          "[e2e][gbench]") {
  const Repo& r = repo();
  e2e::TempDir scratch("bhgb-scratch");
  write_reports(scratch.path());
  const fs::path old = scratch.path() / "bench_work.json";
  const auto then = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() - std::chrono::hours(1));
  utimbuf times{then, then};
  REQUIRE(utime(old.c_str(), &times) == 0);
  const fs::path seen = scratch.path() / "seen.txt";

  // A command that copies an earlier run's report, keeping its age, into the output directory.
  const std::string copy_old = "ls -A \"$BENCHHIST_OUTPUT_DIR\" > " + seen.string() + " && cp -p " + old.string() +
                               " \"$BENCHHIST_OUTPUT_DIR/\"";
  auto c = run_cli({"collect", "--no-store", "--verbose", "--bench-command", copy_old}, r.dir);
  INFO("stderr: " << c.err);
  REQUIRE(c.exit_code == 0);
  CHECK(e2e::read_file(seen).empty());  // nothing of an earlier run was there
  CHECK(c.out == "Harvested 0 benchmark cases; nothing stored (--no-store).\n");
  CHECK(contains(c.err, "google_benchmark: ignored stale "));

  // The real binaries: both reports harvested; a second run again starts from an empty directory.
  auto fresh = run_cli({"collect", "--no-store", "--verbose", "--bench-command",
                        "ls -A \"$BENCHHIST_OUTPUT_DIR\" > " + seen.string() + " && ./bench.sh"},
                       r.dir);
  INFO("stderr: " << fresh.err);
  REQUIRE(fresh.exit_code == 0);
  CHECK(e2e::read_file(seen).empty());
  CHECK(e2e::last_line(fresh.out) == "Harvested 2 benchmark cases; nothing stored (--no-store). [google_benchmark: 2 harvested (not stored)]\n");
  // The output directory is removed after a successful harvest.
  const auto dir_note = fresh.err.find("BENCHHIST_OUTPUT_DIR=/");
  REQUIRE(dir_note != std::string::npos);
  const std::string out_dir = fresh.err.substr(dir_note + 21, fresh.err.find('\n', dir_note) - dir_note - 21);
  CHECK_FALSE(fs::exists(out_dir));
}

TEST_CASE("collect --bench-command: --best-of, dirty snapshots, failures and conflicts as for cargo", "[e2e][gbench]") {
  const Repo& r = repo();
  e2e::TempDir store("bhgb-store");
  const std::string local = "--local=" + store.path().string();
  e2e::write_file(r.dir / "NOTES", "uncommitted\n");  // a dirty tree
  auto c = run_cli({"collect", local, "--best-of", "2", "--verbose", "--bench-command", "./bench.sh"}, r.dir);
  e2e::git(r.dir, {"checkout", "--", "NOTES"});
  INFO("stderr: " << c.err);
  REQUIRE(c.exit_code == 0);
  CHECK(e2e::last_line(c.out) == "Stored 1 result set covering 2 benchmark cases. [google_benchmark: 2 stored]\n");
  CHECK(contains(c.err, "google_benchmark BM_Work/1/wall_time: best-of samples "));
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(object_dir(store.path(), r.commits.back()))) files.push_back(e.path());
  REQUIRE(files.size() == 1);
  CHECK(files[0].filename().string().starts_with("dirty-"));
  CHECK(e2e::stored_run(files[0]).at("context").at("best_of").as_int64() == 2);

  auto t = run_cli({"collect", local, "--target-triple", "riscv64gc-unknown-linux-gnu", "--bench-command", "./bench.sh"}, r.dir);
  INFO("stderr: " << t.err);
  REQUIRE(t.exit_code == 0);
  CHECK(contains(t.err, "collecting: target-triple=riscv64gc-unknown-linux-gnu (--target-triple)"));
  CHECK(fs::exists(store.path() / "v1" / "gbench-repo" / "objects" / "google_benchmark" / "riscv64gc-unknown-linux-gnu" /
                   r.machine_key / r.commits.back() / "clean.json"));

  auto fail = run_cli({"collect", "--no-store", "--bench-command", "exit 3"}, r.dir);
  CHECK(fail.exit_code == 1);
  CHECK(contains(fail.err, "Error: engine \"exit 3\" failed with exit code 3"));

  auto conflict = run_cli({"collect", "--no-store", "--bench-command", "./bench.sh", "--package", "x"}, r.dir);
  CHECK(conflict.exit_code == 1);
  CHECK(contains(conflict.err, "the argument '--bench-command <COMMAND>' cannot be used with '--package <NAME>'"));
  auto trailing = run_cli({"backfill", "--bench-command", "./bench.sh", "a", "b", "--", "--x"}, r.dir);
  CHECK(trailing.exit_code == 1);
  CHECK(contains(trailing.err, "cannot be used with '-- <ARGS>...'"));

  // A report that is not valid JSON fails naming the file, which is kept for inspection.
  auto broken = run_cli({"collect", "--no-store", "--bench-command", "printf '{\"context\": {' > \"$BENCHHIST_OUTPUT_DIR/cut.json\""}, r.dir);
  CHECK(broken.exit_code == 1);
  const auto at = broken.err.find("Error: failed to parse benchmark output: ");
  REQUIRE(at != std::string::npos);
  const std::string named = broken.err.substr(at + 41, broken.err.find('\n', at) - at - 41);
  CHECK(named.ends_with("/cut.json"));
  CHECK(fs::exists(named));
  fs::remove_all(fs::path(named).parent_path());
}

TEST_CASE("examples/textstats-cpp collects through its [collect] bench_command", "[e2e][gbench][example]") {
  const fs::path dir = fs::path(BH_E2E_WORK_DIR) / "textstats-repo";
  fs::remove_all(dir);
  fs::copy(fs::path(BH_SOURCE_DIR) / "examples" / "textstats-cpp", dir, fs::copy_options::recursive);
  e2e::git(dir, {"init", "-q"});
  e2e::git(dir, {"add", "-A"});
  e2e::git(dir, {"commit", "-q", "-m", "textstats"});
  e2e::TempDir store("bhgb-store");
  auto c = run_cli({"collect", "--local=" + store.path().string(), "--verbose"}, dir);
  INFO("stderr: " << c.err);
  REQUIRE(c.exit_code == 0);
  CHECK(contains(c.err, "benchmark command from [collect] bench_command"));
  CHECK(e2e::last_line(c.out) == "Stored 1 result set covering 4 benchmark cases. [google_benchmark: 4 stored]\n");
  auto l = run_cli({"list", "discriminants", "--local=" + store.path().string()}, dir);
  CHECK(contains(l.out, "  - google_benchmark/" + e2e::cxx_host_triple() + "/"));
}
