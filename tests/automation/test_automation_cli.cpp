// `backfill-range` and `affected` through the real binary: their results as $GITHUB_OUTPUT
// lines on stdout, the explanation on stderr, and their errors.

#include <catch2/catch.hpp>

#include <chrono>

#include "../cli/cli_support.hpp"
#include "git_repo.hpp"

using bhtest::contains;
using bhtest::run_cli;

namespace {

long long now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

constexpr long long day = 86400;

}  // namespace

TEST_CASE("backfill-range prints the frozen range as step outputs, resolved from the current time",
          "[automation][cli]") {
  bhtest::TempRepo repo("range-cli");
  const long long now = now_seconds();
  repo.commit("c0", now - 20 * day);
  const auto c1 = repo.commit("c1", now - 10 * day);
  repo.commit("c2", now - 5 * day);
  const auto c3 = repo.commit("c3", now - 2 * day);
  repo.commit("c4", now - 3600);
  auto r = run_cli({"backfill-range", "--lookback", "14 days", "--minimum-age", "24 hours", "--max-commits", "2",
                    "--ignore-errors", "true", "--from", "", "--to", ""},
                   repo.dir());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string expected_head = "eligible=true\nfrom=" + c1 + "\nto=" + c3 +
                                    "\ncommits=3\nproject=repo\nmax-commits=2\nignore-errors=true\nexplanation=backfilling 3 "
                                    "first-parent commits " + c1.substr(0, 12) + " → " + c3.substr(0, 12);
  CHECK(r.out.rfind(expected_head, 0) == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 8);
  CHECK(contains(r.err, "[bench-history] backfilling 3 first-parent commits"));

  auto none = run_cli({"backfill-range", "--lookback", "P60D", "--minimum-age", "30 days"}, repo.dir());
  REQUIRE(none.exit_code == 0);
  CHECK(none.out.rfind("eligible=false\nfrom=\nto=\ncommits=0\nproject=repo\nmax-commits=\nignore-errors=false\n"
                       "explanation=nothing to backfill: no first-parent commit of HEAD",
                       0) == 0);

  auto zero = run_cli({"backfill-range", "--lookback", "0 days", "--minimum-age", "0 days"}, repo.dir());
  CHECK(zero.exit_code == 1);
  CHECK(contains(zero.err, "Error: lookback must be a nonzero duration (got \"0 days\")"));
  CHECK(zero.out.empty());
  auto negative = run_cli({"backfill-range", "--lookback", "-3 days", "--minimum-age", "0"}, repo.dir());
  CHECK(negative.exit_code == 1);
  CHECK(contains(negative.err, "Error: invalid lookback \"-3 days\": a span cannot be negative"));
  CHECK(negative.out.empty());
  auto explicit_range = run_cli({"backfill-range", "--from", c1.substr(0, 8), "--to", "HEAD"}, repo.dir());
  CHECK(explicit_range.exit_code == 0);
  CHECK(contains(explicit_range.out, "\nfrom=" + c1 + "\n"));
  CHECK(contains(explicit_range.out, "\ncommits=4\n"));
}

TEST_CASE("backfill-range in a shallow clone refuses a range that reaches the clone's boundary", "[automation][cli]") {
  bhtest::TempRepo repo("range-shallow-cli");
  const long long now = now_seconds();
  repo.commit("c0", now - 40 * day);
  repo.commit("c1", now - 20 * day);
  const auto c2 = repo.commit("c2", now - 3600);
  const auto clone = [&](int depth) {
    const auto dir = repo.dir().parent_path() / ("depth-" + std::to_string(depth));
    repo.git({"clone", "-q", "--depth", std::to_string(depth), "file://" + repo.dir().string(), dir.string()});
    return dir;
  };
  // Depth 1: c1, 20 days old, is within the lookback; the clone just does not have it.
  auto cut = run_cli({"backfill-range", "--lookback", "60 days", "--minimum-age", "0"}, clone(1));
  CHECK(cut.exit_code == 1);
  CHECK(cut.out.empty());
  CHECK(contains(cut.err, "Error: this shallow clone's history ends at " + c2.substr(0, 12) + " (committed "));
  CHECK(contains(cut.err, "within 60 days of "));
  CHECK(contains(cut.err, "hint: a shallow clone cuts the history off: fetch full history"));
  // Depth 2: the 10-day window ends at c1, inside what the clone holds.
  auto inside = run_cli({"backfill-range", "--lookback", "10 days", "--minimum-age", "0"}, clone(2));
  INFO(inside.err);
  CHECK(inside.exit_code == 0);
  CHECK(contains(inside.out, "eligible=true\nfrom=" + c2 + "\nto=" + c2 + "\ncommits=1\n"));
}

TEST_CASE("affected prints the packages a branch affects, or any=false", "[automation][cli]") {
  bhtest::TempRepo repo("affected-cli");
  repo.write(".cargo/config.toml", "[net]\noffline = true\n");
  repo.write("Cargo.toml", "[workspace]\nmembers = [\"lib\", \"app\"]\nresolver = \"2\"\n");
  repo.write(".gitignore", "/target\nCargo.lock\n");
  repo.write("lib/Cargo.toml", "[package]\nname = \"lib\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
  repo.write("lib/src/lib.rs", "pub fn f() {}\n");
  repo.write("app/Cargo.toml",
             "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[dependencies]\nlib = { path = \"../lib\" "
             "}\n[[bench]]\nname = \"b\"\nharness = false\n");
  repo.write("app/src/lib.rs", "pub fn g() { lib::f() }\n");
  repo.write("app/benches/b.rs", "fn main() {}\n");
  const auto base = repo.commit("base", 1767225600, "README.md", "x\n");
  repo.git({"checkout", "-q", "-b", "change-lib"});
  repo.commit("change lib", 1767312000, "lib/src/lib.rs", "pub fn f() { }\n");
  auto r = run_cli({"affected", "--base", "main"}, repo.dir());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "any=true\npackages=app\ncount=1\nworkspace-wide=false\nmerge-base=" + base +
                     "\nexplanation=changed: lib; benchmarking app (the changed packages with benchmarks and every "
                     "workspace package depending on them)\n");
  auto excluded = run_cli({"affected", "--base", "main", "--head", "change-lib", "--exclude", "app"}, repo.dir());
  CHECK(contains(excluded.out, "any=false\npackages=\ncount=0\n"));
  CHECK_FALSE(contains(excluded.err, "warning"));
  // A typo excludes nothing, and says so.
  auto typo = run_cli({"affected", "--base", "main", "--head", "change-lib", "--exclude", "ap"}, repo.dir());
  CHECK(typo.exit_code == 0);
  CHECK(contains(typo.out, "packages=app\n"));
  CHECK(contains(typo.err, "warning: --exclude ap names no package of the workspace (its packages: "));
  CHECK_FALSE(contains(typo.out, "excluded: ap"));
  // Nothing changed at all: the head is the base.
  auto unchanged = run_cli({"affected", "--base", "main", "--head", "main"}, repo.dir());
  CHECK(unchanged.exit_code == 0);
  CHECK(contains(unchanged.out, "any=false\npackages=\ncount=0\nworkspace-wide=false\nmerge-base=" + base +
                                    "\nexplanation=no file changed between the merge base "));
  CHECK_FALSE(contains(unchanged.out, "inside a workspace package"));
  auto missing = run_cli({"affected"}, repo.dir());
  CHECK(missing.exit_code == 1);
  CHECK(contains(missing.err, "--base <REF>"));
}

TEST_CASE("affected: a [collect] bench_command project is measured whole on any change, without cargo",
          "[automation][cli]") {
  bhtest::TempRepo repo("affected-bench-command");
  // A C++ project: no Cargo.toml anywhere, so cargo metadata would fail.
  repo.write("src/work.cpp", "int work() { return 1; }\n");
  repo.write("ci/bench_history.toml", "[collect]\nbench_command = \"./bench.sh\"\n");
  const auto base = repo.commit("base", 1767225600, "README.md", "x\n");
  repo.git({"checkout", "-q", "-b", "change"});
  repo.commit("change the code", 1767312000, "src/work.cpp", "int work() { return 2; }\n");
  const std::string config = (repo.dir() / "ci" / "bench_history.toml").string();

  // Without the configuration it is read as a workspace, and cargo says there is none.
  auto plain = run_cli({"affected", "--base", "main"}, repo.dir());
  CHECK(plain.exit_code == 1);
  CHECK(contains(plain.err, "Cargo.toml"));

  auto r = run_cli({"affected", "--config", "ci/bench_history.toml", "--base", "main"}, repo.dir());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "any=true\npackages=\ncount=0\nworkspace-wide=true\nmerge-base=" + base +
                     "\nexplanation=1 file changed since the merge base " + base.substr(0, 12) +
                     " (src/work.cpp); the project is measured by its benchmark command ([collect] bench_command in " +
                     config + "), which covers all of it, so all of it is benchmarked\n");

  auto unchanged = run_cli({"affected", "--config", "ci/bench_history.toml", "--base", "main", "--head", "main"},
                           repo.dir());
  CHECK(unchanged.exit_code == 0);
  CHECK(contains(unchanged.out, "any=false\npackages=\ncount=0\nworkspace-wide=false\n"));
  CHECK(contains(unchanged.out, "explanation=no file changed between the merge base "));

  auto excluded = run_cli({"affected", "--config", "ci/bench_history.toml", "--base", "main", "--exclude", "x"},
                          repo.dir());
  CHECK(excluded.exit_code == 1);
  CHECK(excluded.out.empty());
  CHECK(contains(excluded.err, "the argument '--exclude <NAME>' cannot be used with the benchmark command of " + config));
}
