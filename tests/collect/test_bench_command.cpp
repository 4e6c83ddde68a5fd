// collect with a --bench-command and import_results, with substituted services: the
// "benchmark command" is a function writing Google Benchmark reports (in the real reporter's
// shape) into the BENCHHIST_OUTPUT_DIR it was given, so the output directory's lifecycle, the
// harvest, best-of, the triple resolution and the storing all run for real. Real binaries and a
// real shell are in tests/e2e/test_e2e_gbench.cpp.

#include <catch2/catch.hpp>

#include <memory>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/collect/backfill.hpp"
#include "benchhist/collect/collect.hpp"
#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "common/files.hpp"

namespace fs = std::filesystem;
using namespace benchhist;

namespace {

using benchhist::testing::write_file;

// Directories live until the suite exits (then the TempDirs remove them), as in test_collect.
fs::path temp_dir(const std::string& name) {
  static std::vector<std::unique_ptr<benchhist::testing::TempDir>> dirs;
  dirs.push_back(std::make_unique<benchhist::testing::TempDir>("bh-benchcmd-" + name));
  return dirs.back()->path();
}

std::string report(const std::string& name, double real_ns) {
  std::ostringstream o;
  o.precision(17);
  o << R"({"context": {"date": "2026-12-03T12:00:00+00:00", "library_build_type": "release"}, "benchmarks": [)"
    << R"({"name": ")" << name << R"(", "run_name": ")" << name
    << R"(", "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 100, )"
    << R"("real_time": )" << real_ns << R"(, "cpu_time": )" << real_ns / 2 << R"(, "time_unit": "ns", "items_per_second": 5e6}]})";
  return o.str();
}

struct Rig {
  fs::path repo = temp_dir("repo");
  fs::path tmp = temp_dir("tmp");
  probe::MapEnvironment env;
  storage::LocalStore store{temp_dir("store")};
  GitState git{std::string("4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39"), std::string("main"), false};
  std::vector<double> values{100.0};
  std::vector<fs::path> output_dirs;   // BENCHHIST_OUTPUT_DIR of each run
  std::vector<bool> empty_at_start;    // was it empty when the command started?
  std::vector<std::vector<std::string>> argvs;
  std::optional<probe::CxxTarget> cxx = probe::CxxTarget{"x86_64-unknown-linux-gnu", "x86_64-linux-gnu", "g++"};
  std::string extra_file;  // written into the output dir as well (text), if set
  int exit_code = 0;
  std::vector<std::string> announcements;

  Rig() { env.set("TMPDIR", tmp.string()); }

  collect::CollectServices services() {
    collect::CollectServices s;
    s.clock = [] { return Timestamp(std::chrono::floor<std::chrono::nanoseconds>(std::chrono::system_clock::now())); };
    s.run_benchmarks = [this](const probe::ProcessSpec& spec) {
      argvs.push_back(spec.argv);
      const fs::path out = *spec.env_changes.at("BENCHHIST_OUTPUT_DIR");
      output_dirs.push_back(out);
      empty_at_start.push_back(fs::is_directory(out) && fs::is_empty(out));
      const double v = values.at(std::min(output_dirs.size() - 1, values.size() - 1));
      write_file(out / "a.json", report("BM_A/8", v));
      write_file(out / "sub" / "b.json", report("BM_B", 2 * v));
      if (!extra_file.empty()) write_file(out / "extra.json", extra_file);
      probe::ProcessResult r;
      r.exited = true;
      r.exit_code = exit_code;
      return r;
    };
    s.probe_git = [this](const fs::path&) { return git; };
    s.probe_toolchain = [] { return ToolchainInfo{"aarch64-unknown-linux-gnu", std::string("1.91.0")}; };
    s.probe_cxx_target = [this] { return cxx; };
    s.probe_ci = [] { return EnvContext{}; };
    s.probe_hardware = [] { return MachineDescription{8, 1, {"Test CPU 3000"}, {{9867, 8}}, "4ffd697efb295d32"}; };
    s.announce = [this](std::string_view line) { announcements.emplace_back(line); };
    return s;
  }

  collect::CollectRequest request() {
    collect::CollectRequest r;
    r.repo_dir = repo;
    r.project = "textstats";
    r.bench_command = "./bench.sh --fast";
    return r;
  }

  std::string key(const std::string& triple) const {
    return codec::clean_key("textstats", Engine::google_benchmark, triple, "4ffd697efb295d32", *git.commit);
  }
};

}  // namespace

TEST_CASE("collect --bench-command runs the command through sh with a fresh output directory per repetition",
          "[collect][bench_command]") {
  Rig rig;
  auto req = rig.request();
  req.best_of = 3;
  rig.values = {100.0, 90.0, 95.0};
  const auto out = collect::collect(req, rig.env, &rig.store, rig.services());

  REQUIRE(rig.argvs.size() == 3);
  CHECK(rig.argvs[0] == std::vector<std::string>{"/bin/sh", "-c", "./bench.sh --fast"});
  CHECK(out.reports_read == 2);  // a.json and sub/b.json, each counted once over the repetitions
  CHECK(out.unmeasured.empty());
  // Three different directories under TMPDIR, each empty when its run began, all removed after.
  CHECK(std::set<fs::path>(rig.output_dirs.begin(), rig.output_dirs.end()).size() == 3);
  CHECK(rig.empty_at_start == std::vector<bool>{true, true, true});
  for (const auto& d : rig.output_dirs) {
    CHECK(d.parent_path() == rig.tmp);
    CHECK_FALSE(fs::exists(d));
  }

  // Both reports of every repetition harvested; best-of keeps the minimum median.
  REQUIRE(out.objects.size() == 1);
  CHECK(out.objects[0].engine == Engine::google_benchmark);
  CHECK(out.objects[0].cases == 2);
  const Run run = codec::decode_run(*rig.store.get(rig.key("x86_64-unknown-linux-gnu")), "k");
  CHECK(run.context.best_of == 3u);
  REQUIRE(run.results.size() == 2);
  CHECK(run.results[0].id.segments() == std::vector<std::string>{"BM_A", "8"});
  CHECK(run.results[0].find(MetricKind::wall_time)->value == 90.0);
  CHECK(run.results[1].find(MetricKind::processor_time)->value == 90.0);  // 2 × 90 / 2
  CHECK(run.results[0].metrics.size() == 2);  // items_per_second is not stored
  // The C++ compiler's triple, said so; no rustc version is recorded for it.
  CHECK(run.context.toolchain.target_triple == "x86_64-unknown-linux-gnu");
  CHECK_FALSE(run.context.toolchain.rustc_version);
  CHECK(rig.announcements == std::vector<std::string>{"collecting: target-triple=x86_64-unknown-linux-gnu (C++ compiler: g++ "
                                                      "-dumpmachine); machine-key=4ffd697efb295d32 (auto-detected)"});
}

TEST_CASE("the run's triple: --target-triple, else the C++ compiler, else rustc's host", "[collect][bench_command]") {
  SECTION("no C++ compiler answers: the toolchain host") {
    Rig rig;
    rig.cxx.reset();
    collect::collect(rig.request(), rig.env, &rig.store, rig.services());
    CHECK(rig.announcements.at(0).starts_with("collecting: target-triple=aarch64-unknown-linux-gnu (toolchain host); "));
    CHECK(codec::decode_run(*rig.store.get(rig.key("aarch64-unknown-linux-gnu")), "k").context.toolchain.rustc_version == "1.91.0");
  }
  SECTION("--target-triple wins") {
    Rig rig;
    auto req = rig.request();
    req.target_triple = "riscv64gc-unknown-linux-gnu";
    collect::collect(req, rig.env, &rig.store, rig.services());
    CHECK(rig.announcements.at(0).starts_with("collecting: target-triple=riscv64gc-unknown-linux-gnu (--target-triple); "));
    CHECK(rig.store.get(rig.key("riscv64gc-unknown-linux-gnu")));
  }
  SECTION("cargo bench never asks the C++ compiler") {
    const collect::RunTriple t = collect::resolve_run_triple(std::nullopt, false, [] { return ToolchainInfo{"x86_64-unknown-linux-gnu", {}}; },
                                           []() -> std::optional<probe::CxxTarget> {
                                             FAIL("the C++ compiler was asked for a cargo bench run");
                                             return std::nullopt;
                                           });
    CHECK(t.source == collect::TripleSource::toolchain_host);
    CHECK(t.describe() == "toolchain host");
  }
}

TEST_CASE("collect --bench-command failures: the command's exit, a broken report kept for inspection",
          "[collect][bench_command]") {
  SECTION("a non-zero exit names the command and stores nothing") {
    Rig rig;
    rig.exit_code = 2;
    try {
      collect::collect(rig.request(), rig.env, &rig.store, rig.services());
      FAIL("a failing command was accepted");
    } catch (const Error& e) {
      CHECK(e.message() == "engine \"./bench.sh --fast\" failed with exit code 2");
      // backfill counts it against the commit, like a failing cargo bench.
      CHECK(collect::backfill_failure_reason(e) == e.message());
    }
    CHECK(rig.store.list("v1/").empty());
    CHECK_FALSE(fs::exists(rig.output_dirs.at(0)));
  }
  SECTION("a truncated report fails naming it, and its directory stays") {
    Rig rig;
    rig.extra_file = R"({"context": {}, "benchmarks": [{"name": )";
    try {
      collect::collect(rig.request(), rig.env, &rig.store, rig.services());
      FAIL("a truncated report was accepted");
    } catch (const Error& e) {
      CHECK(e.message() == "failed to parse benchmark output: " + (rig.output_dirs.at(0) / "extra.json").string());
      CHECK(collect::backfill_failure_reason(e));
    }
    CHECK(fs::exists(rig.output_dirs.at(0) / "extra.json"));
    CHECK(rig.store.list("v1/").empty());
    fs::remove_all(rig.output_dirs.at(0));
  }
  SECTION("an empty command is refused before anything runs") {
    Rig rig;
    auto req = rig.request();
    req.bench_command = "  ";
    CHECK_THROWS_WITH(collect::collect(req, rig.env, &rig.store, rig.services()), Catch::Contains("the benchmark command is empty"));
    CHECK(rig.argvs.empty());
  }
  SECTION("best-of inconsistencies stay infrastructure errors in backfill") {
    CHECK_FALSE(collect::backfill_failure_reason(
        Error(ErrorKind::benchmark_inconsistent, "engine \"google_benchmark\" produced inconsistent results across --best-of runs")));
  }
}

TEST_CASE("a report the command left with an old time is ignored and named, once, with its run's start",
          "[collect][bench_command]") {
  Rig rig;
  auto svc = rig.services();
  const auto inner = svc.run_benchmarks;
  svc.run_benchmarks = [&](const probe::ProcessSpec& spec) {
    auto r = inner(spec);  // a.json and sub/b.json, fresh
    // As `cp -p` of a report saved an hour ago would leave it.
    const fs::path old = fs::path(*spec.env_changes.at("BENCHHIST_OUTPUT_DIR")) / "sub" / "b.json";
    fs::last_write_time(old, fs::file_time_type::clock::now() - std::chrono::hours(1));
    return r;
  };
  auto req = rig.request();
  req.best_of = 2;
  const auto before = std::chrono::system_clock::now();
  const auto out = collect::collect(req, rig.env, &rig.store, svc);
  REQUIRE(out.stale_reports.size() == 1);  // both repetitions left it; named once
  const auto& stale = out.stale_reports[0];
  CHECK(stale.name == fs::path("sub") / "b.json");
  CHECK(stale.run_start >= before - std::chrono::seconds(1));
  CHECK(stale.run_start - stale.modified > std::chrono::minutes(59));
  REQUIRE(out.objects.size() == 1);  // a.json still counts
  CHECK(out.objects[0].cases == 1);
}

TEST_CASE("backfill classifies a commit's failure by its kind, never by its wording", "[bench_command][backfill]") {
  // The commit's own failures: the command ran and failed, or what it wrote does not parse.
  CHECK(collect::backfill_failure_reason(Error(ErrorKind::benchmark_failed, "any words")) == "any words");
  CHECK(collect::backfill_failure_reason(Error(ErrorKind::benchmark_output, "other words")) == "other words");
  // Everything else stops the run, whatever the message says.
  CHECK_FALSE(collect::backfill_failure_reason(Error(ErrorKind::io, "failed to parse benchmark output: /x")));
  CHECK_FALSE(collect::backfill_failure_reason(
      Error(ErrorKind::benchmark_not_started, "engine \"cargo bench\" failed with exit code 101")));
  CHECK_FALSE(collect::backfill_failure_reason(Error(ErrorKind::benchmark_inconsistent, "x")));
  CHECK_FALSE(collect::backfill_failure_reason(Error(ErrorKind::decode, "failed to parse benchmark output: /x")));
  CHECK(collect::is_duplicate_result_error(Error(ErrorKind::already_exists, "object already exists: k")));
  CHECK_FALSE(collect::is_duplicate_result_error(Error(ErrorKind::io, "a result is already stored for this run at k")));
}

TEST_CASE("import_results stores reports without a freshness gate, with the collision policies", "[collect][import]") {
  Rig rig;
  const fs::path dir = temp_dir("reports");
  write_file(dir / "a.json", report("BM_A/8", 42.0));
  fs::last_write_time(dir / "a.json", fs::file_time_type::clock::now() - std::chrono::hours(24 * 30));  // a month old

  collect::ImportRequest req;
  req.project = "textstats";
  req.report_paths = {dir / "a.json"};
  req.context.git = rig.git;
  req.context.git.branch.reset();
  req.context.toolchain.target_triple = "x86_64-unknown-linux-gnu";
  req.context.machine = MachineDescription{8, 1, {"Test CPU 3000"}, {{9867, 8}}, "4ffd697efb295d32"};
  req.context.observation = *parse_rfc3339("2026-12-03T12:00:00Z");
  std::vector<std::string> notes;
  const auto out = collect::import_results(req, rig.store, [&](std::string_view n) { notes.emplace_back(n); });
  CHECK(out.message() == "Stored 1 result set covering 1 benchmark case. [google_benchmark: 1 stored]");
  const Run run = codec::decode_run(*rig.store.get(rig.key("x86_64-unknown-linux-gnu")), "k");
  CHECK(run.context.best_of == 1u);
  CHECK(run.results.at(0).find(MetricKind::wall_time)->value == 42.0);
  CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.starts_with("google_benchmark: included "); }));

  CHECK_THROWS_WITH(collect::import_results(req, rig.store, {}), Catch::Contains("a result is already stored for this run at "));
  req.policy = storage::CollisionPolicy::skip_existing;
  CHECK(collect::import_results(req, rig.store, {}).message() ==
        "Harvested 1 benchmark case and stored nothing: their result set was already stored, and --skip-existing "
        "keeps it. [google_benchmark: 1 harvested (" + rig.key("x86_64-unknown-linux-gnu") + " already exists)]");
  req.context.git.dirty = true;
  req.policy = storage::CollisionPolicy::refuse;
  collect::import_results(req, rig.store, {});
  CHECK(rig.store.get(codec::dirty_key("textstats", Engine::google_benchmark, "x86_64-unknown-linux-gnu", "4ffd697efb295d32",
                                *rig.git.commit, unix_seconds(req.context.observation))));

  collect::ImportRequest empty;
  CHECK_THROWS_WITH(collect::import_results(empty, rig.store, {}), Catch::Contains("import needs something to harvest"));
}
