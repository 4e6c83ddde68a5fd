// End to end with REAL hyperfine (Debian's) and a REAL Catch2 benchmark binary (the build's
// Catch2, tests/engines/harnesses/catch2_bench.cpp) run by a --bench-command over a 12-commit git
// history with a slowdown planted at commit 6: backfill stores both engines at every commit and
// analyze names that commit for both. Then `import` of every report format (hyperfine, Catch2
// XML, BMF written by a script, a real `cargo bench` of #[bench] functions) for a given commit,
// and a rejected file that stores nothing and leaves earlier objects untouched. See
// docs/harnesses.md.
//
// The Catch2 binary is built once by the build, not per commit: what changes at commit 6 is
// ./work.txt, the loop length both harnesses' workloads read, so the planted slowdown is in the
// history while the suite pays no C++ compile per commit.

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <set>

#include "common/libtest_crate.hpp"
#include "e2e_support.hpp"

namespace fs = std::filesystem;
namespace json = boost::json;
using e2e::contains;
using e2e::result_ids;
using e2e::run_cli;

namespace {

constexpr int n_commits = 12;
constexpr int step_at = 6;  // commits 6..11 do four times the work

// hyperfine times an awk loop whose length is read from work.txt; the Catch2 binary's [work]
// benchmark spins as long. Both write into the run's output directory.
const std::string bench_script =
    "#!/bin/sh\n"
    "set -eu\n"
    "\"$CATCH2_BENCH\" '[work]' -r xml -o \"$BENCHHIST_OUTPUT_DIR/catch2.xml\" --benchmark-samples 20 "
    "--benchmark-resamples 2000\n"
    "hyperfine --runs 5 --warmup 1 -N --style none --export-json \"$BENCHHIST_OUTPUT_DIR/hyperfine.json\" "
    "--command-name spin 'sh spin.sh'\n";
const std::string spin_script = "awk -v n=\"$(cat work.txt)\" 'BEGIN { for (i = 0; i < n * 600000; i++) s += i }'\n";

struct Repo {
  fs::path dir;
  std::vector<std::string> commits;  // oldest first
  std::string machine_key;
};

const e2e::EnvChanges bench_env{{"CATCH2_BENCH", BH_CATCH2_BENCH}};

const Repo& repo() {
  static const Repo r = [] {
    Repo x;
    x.dir = fs::path(BH_E2E_WORK_DIR) / "harness-repo";
    fs::remove_all(x.dir);
    fs::create_directories(x.dir);
    e2e::write_file(x.dir / "bench.sh", bench_script);
    e2e::write_file(x.dir / "spin.sh", spin_script);
    fs::permissions(x.dir / "bench.sh", fs::perms::owner_exec, fs::perm_options::add);
    e2e::git(x.dir, {"init", "-q"});
    x.commits = e2e::commit_history(x.dir, n_commits, step_at, 3600, "four times the work", [&](int i) {
      e2e::write_file(x.dir / "work.txt", i >= step_at ? "4\n" : "1\n");
    });
    x.machine_key = e2e::trim(run_cli({"machine-key"}, x.dir).out);
    return x;
  }();
  return r;
}

fs::path object_dir(const fs::path& store, const std::string& engine, const std::string& commit) {
  return store / "v1" / "harness-repo" / "objects" / engine / e2e::cxx_host_triple() / repo().machine_key / commit;
}


}  // namespace

TEST_CASE("backfill --bench-command running hyperfine and Catch2 over a real history; analyze names the slowdown for both",
          "[e2e][harnesses]") {
  const Repo& r = repo();
  e2e::TempDir store("bhhn-store");
  const std::string local = "--local=" + store.path().string();

  auto b = run_cli({"backfill", local, "--bench-command", "./bench.sh", r.commits.front(), r.commits.back()}, r.dir,
                   bench_env);
  INFO("backfill stderr: " << b.err);
  REQUIRE(b.exit_code == 0);
  CHECK(contains(b.out, "Backfill range of 12 commits: 12 stored, 0 skipped (existing), 0 skipped (empty), 0 failed, "
                        "0 deferred. Range exhausted."));
  // One object per engine per commit.
  for (const auto& c : r.commits) {
    CHECK(result_ids(e2e::stored_run(object_dir(store.path(), "hyperfine", c) / "clean.json")) == std::vector<std::string>{"spin"});
    CHECK(result_ids(e2e::stored_run(object_dir(store.path(), "catch2", c) / "clean.json")) == std::vector<std::string>{"work/spin"});
  }

  fs::path report = store.path() / "report.json";
  auto a = run_cli({"analyze", local, "--json", report.string()}, r.dir);
  INFO("analyze stderr: " << a.err);
  REQUIRE(a.exit_code == 0);
  const auto doc = json::parse(e2e::read_file(report)).as_object();
  // engine/kind of every change point, all at the planted commit. A metric that a loaded
  // machine blurs may instead be reported as drift: a regression whose window must contain the
  // planted commit (window_start .. commit, the tip), and which names no commit.
  std::set<std::string> found;
  const auto position = [&](const json::value& commit) {
    return std::find(r.commits.begin(), r.commits.end(), std::string(commit.as_string())) - r.commits.begin();
  };
  for (const auto& f : doc.at("findings").as_array()) {
    const auto& o = f.as_object();
    INFO("finding: " << json::serialize(o));
    const std::string engine(o.at("engine").as_string());
    CHECK((engine == "hyperfine" || engine == "catch2"));
    CHECK(o.at("direction").as_string() == "regression");
    if (o.at("method").as_string() == "drift") {
      CHECK(position(o.at("window_start")) <= step_at);
      CHECK(position(o.at("commit")) >= step_at);
      continue;
    }
    const std::string kind(o.at("kind").as_string());
    const auto at = position(o.at("commit"));
    if (engine == "hyperfine" && (at == step_at - 1 || at == step_at + 1)) {
      // hyperfine times whole processes, five runs a commit: on a loaded machine (CI saw 119 ms,
      // then faster runs; a local run beside a compile saw processor time split one commit
      // early) a neighbour's level can blur, and the split lands one commit off. Catch2's own
      // timing, held exactly below, is not blurred that way.
      found.insert("hyperfine/near");
      continue;
    }
    CHECK(o.at("commit").as_string() == r.commits[step_at]);
    found.insert(engine + "/" + kind);
  }
  CHECK(found.count("catch2/wall_time") == 1);
  // hyperfine: a change point at the planted commit, or (loaded machine) next to it.
  CHECK((found.count("hyperfine/wall_time") + found.count("hyperfine/processor_time") + found.count("hyperfine/near")) >= 1);
}

TEST_CASE("import stores every report format for a given commit; a rejected file stores nothing", "[e2e][harnesses]") {
  const Repo& r = repo();
  e2e::TempDir store("bhhn-store");
  e2e::TempDir reports("bhhn-reports");
  const std::string local = "--local=" + store.path().string();
  // The real tools' output, as a user would have it after running them by hand.
  auto made = e2e::run({"./bench.sh"}, r.dir, {{"CATCH2_BENCH", BH_CATCH2_BENCH}, {"BENCHHIST_OUTPUT_DIR", reports.path().string()}});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  auto bmf = e2e::run({(fs::path(BH_SOURCE_DIR) / "tests/engines/harnesses/write_bmf.sh").string(),
                       (reports.path() / "bmf.json").string()}, r.dir);
  REQUIRE(bmf.exit_code == 0);
  e2e::write_file(reports.path() / "cargo-bench.txt", benchhist::testing::cargo_bench_libtest());

  auto i = run_cli({"import", local, "--commit", r.commits[3], "--verbose", reports.path().string()}, r.dir);
  INFO("stderr: " << i.err);
  REQUIRE(i.exit_code == 0);
  CHECK(i.out == "Stored 4 result sets covering 6 benchmark cases. [hyperfine: 1 stored; catch2: 1 stored; bmf: 2 stored; "
                 "libtest: 2 stored]\n");
  CHECK(contains(i.err, "libtest: included " + (reports.path() / "cargo-bench.txt").string()));
  for (const char* engine : {"hyperfine", "catch2", "bmf", "libtest"}) {
    const auto run = e2e::stored_run(object_dir(store.path(), engine, r.commits[3]) / "clean.json");
    CHECK(run.at("context").at("git").at("commit").as_string() == r.commits[3]);
    CHECK(run.at("context").at("best_of").as_int64() == 1);
  }
  CHECK(result_ids(e2e::stored_run(object_dir(store.path(), "bmf", r.commits[3]) / "clean.json")) ==
        std::vector<std::string>{"sleep/10ms", "true"});
  CHECK(result_ids(e2e::stored_run(object_dir(store.path(), "libtest", r.commits[3]) / "clean.json")) ==
        std::vector<std::string>{"tests/bench_copy", "tests/bench_spin"});
  // The collision policies apply per engine object, as for every engine.
  auto again = run_cli({"import", local, "--commit", r.commits[3], (reports.path() / "catch2.xml").string()}, r.dir);
  CHECK(again.exit_code == 1);
  CHECK(contains(again.err, "a result is already stored for this run at "));
  auto skip = run_cli({"import", local, "--commit", r.commits[3], "--skip-existing", reports.path().string()}, r.dir);
  CHECK(skip.exit_code == 0);

  // One file no engine takes among good ones: the import fails naming it, stores nothing (not
  // even the good files' engines at another commit) and leaves the earlier objects as they were.
  const fs::path earlier = object_dir(store.path(), "catch2", r.commits[3]) / "clean.json";
  const std::string before = e2e::read_file(earlier);
  const auto listing = e2e::files_under(store.path());
  e2e::write_file(reports.path() / "throughput.json", R"({"parse": {"throughput": {"value": 5000}}})");
  auto bad = run_cli({"import", local, "--commit", r.commits[4], reports.path().string()}, r.dir);
  CHECK(bad.exit_code == 1);
  CHECK(contains(bad.err, "Error: failed to parse benchmark output: " + (reports.path() / "throughput.json").string()));
  CHECK(contains(bad.err, "the measure \"throughput\", which is not stored"));
  CHECK(e2e::files_under(store.path()) == listing);
  CHECK(e2e::read_file(earlier) == before);
  fs::remove(reports.path() / "throughput.json");
  e2e::write_file(reports.path() / "cut.xml", "<Catch2TestRun><TestCase name=\"t\">");
  auto cut = run_cli({"import", local, "--commit", r.commits[4], reports.path().string()}, r.dir);
  CHECK(cut.exit_code == 1);
  CHECK(contains(cut.err, "Error: failed to parse benchmark output: " + (reports.path() / "cut.xml").string()));
  CHECK(e2e::files_under(store.path()) == listing);
  // A value that is valid JSON but no nanosecond count (1e300 s): the engine refuses the file by
  // name while reading, so nothing is stored (before, the store's writer refused it unnamed, after
  // the engines ahead of it had been written).
  fs::remove(reports.path() / "cut.xml");
  e2e::write_file(reports.path() / "zz-huge.json", R"({"results": [{"command": "huge", "times": [1e300, 1e300]}]})");
  auto huge = run_cli({"import", local, "--commit", r.commits[4], reports.path().string()}, r.dir);
  CHECK(huge.exit_code == 1);
  CHECK(contains(huge.err, "Error: failed to parse benchmark output: " + (reports.path() / "zz-huge.json").string()));
  CHECK(contains(huge.err, "too large to store as nanoseconds"));
  CHECK(e2e::files_under(store.path()) == listing);
}

TEST_CASE("collect --bench-command: a file no engine recognises fails naming it; a failed hyperfine run fails the command",
          "[e2e][harnesses]") {
  const Repo& r = repo();
  auto foreign = run_cli({"collect", "--no-store", "--bench-command", "./bench.sh && echo done > \"$BENCHHIST_OUTPUT_DIR/log.txt\""},
                         r.dir, bench_env);
  CHECK(foreign.exit_code == 1);
  const auto at = foreign.err.find("Error: failed to parse benchmark output: ");
  REQUIRE(at != std::string::npos);
  const std::string named = foreign.err.substr(at + 41, foreign.err.find('\n', at) - at - 41);
  CHECK(named.ends_with("/log.txt"));
  CHECK(contains(foreign.err, "no engine recognises this file"));
  fs::remove_all(fs::path(named).parent_path());  // kept for inspection

  // --best-of keeps each metric's minimum over the runs, for these engines as for the others.
  auto best = run_cli({"collect", "--no-store", "--verbose", "--best-of", "2", "--bench-command", "./bench.sh"}, r.dir, bench_env);
  INFO("stderr: " << best.err);
  CHECK(best.exit_code == 0);
  CHECK(contains(best.err, "catch2 work/spin/wall_time: best-of samples "));
  CHECK(contains(best.err, "hyperfine spin/wall_time: best-of samples "));
  CHECK(e2e::last_line(best.out) ==
        "Harvested 2 benchmark cases; nothing stored (--no-store). [hyperfine: 1 harvested (not stored); catch2: 1 harvested (not stored)]\n");

  // hyperfine refuses a failing command itself; with --ignore-failure the export names it.
  auto failing = run_cli({"collect", "--no-store", "--bench-command",
                          "hyperfine --runs 2 -N --style none --export-json \"$BENCHHIST_OUTPUT_DIR/h.json\" false"},
                         r.dir);
  CHECK(failing.exit_code == 1);
  CHECK(contains(failing.err, "failed with exit code"));
  auto ignored = run_cli({"collect", "--no-store", "--bench-command",
                          "hyperfine --runs 2 -i -N --style none --export-json \"$BENCHHIST_OUTPUT_DIR/h.json\" false"},
                         r.dir);
  CHECK(ignored.exit_code == 1);
  CHECK(contains(ignored.err, "command \"false\" failed in run 1 (exit code 1)"));
}

TEST_CASE("plain cargo bench: the #[bench] lines of its standard output are stored as libtest, and still shown",
          "[e2e][harnesses][libtest]") {
  // A crate of #[bench] functions in its own git repository, built into a target directory kept
  // in the build directory between runs.
  const fs::path dir = fs::path(BH_E2E_WORK_DIR) / "libtest-repo";
  fs::remove_all(dir);
  const fs::path src = fs::path(BH_SOURCE_DIR) / "tests/engines/harnesses/libtest-crate";
  for (const char* rel : {"Cargo.toml", ".cargo/config.toml", "src/lib.rs"}) {
    fs::create_directories((dir / rel).parent_path());
    fs::copy_file(src / rel, dir / rel);
  }
  e2e::write_file(dir / ".gitignore", "/target/\nCargo.lock\n");
  e2e::git(dir, {"init", "-q"});
  e2e::git(dir, {"add", "-A"});
  e2e::git(dir, {"commit", "-q", "-m", "benches"});
  e2e::TempDir store("bhhn-store");
  auto c = run_cli({"collect", "--local=" + store.path().string(), "--verbose"}, dir,
                   {{"RUSTC_BOOTSTRAP", "1"}, {"CARGO_TARGET_DIR", (fs::path(BH_E2E_WORK_DIR) / "libtest-target").string()}});
  INFO("stderr: " << c.err);
  REQUIRE(c.exit_code == 0);
  CHECK(contains(c.out, "test tests::bench_spin"));  // streamed to the user as before
  CHECK(contains(c.out, " ns/iter (+/- "));
  CHECK(e2e::last_line(c.out) == "Stored 1 result set covering 2 benchmark cases. [libtest: 2 stored]\n");
  CHECK(contains(c.err, "libtest: included <cargo bench standard output>"));
  CHECK(contains(c.err, "tests::bench_ignored stored nothing (ignored)"));
  const std::string head = e2e::git(dir, {"rev-parse", "HEAD"});
  const std::string mk = e2e::trim(run_cli({"machine-key"}, dir).out);
  fs::path objects = store.path() / "v1" / "libtest-repo" / "objects" / "libtest";
  REQUIRE(fs::exists(objects));
  const fs::path triple_dir = fs::directory_iterator(objects)->path();
  CHECK(result_ids(e2e::stored_run(triple_dir / mk / head / "clean.json")) ==
        std::vector<std::string>{"tests/bench_copy", "tests/bench_spin"});
}
