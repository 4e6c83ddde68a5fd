// harvest_all over a temporary target root written in the engines' real shapes: output
// locations (docs/formats.md#output-locations), the freshness gate in both directions
// (docs/formats.md#freshness-gate), symlinks, ordering, per-file notes, half-written Criterion
// cases and I/O errors.

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "benchhist/engines/harvest.hpp"
#include "benchhist/engines/output_locations.hpp"
#include "benchhist/error.hpp"
#include "support.hpp"

using namespace benchhist;
using namespace benchhist::engines;
using namespace std::chrono_literals;
using enginetest::fixture;
using enginetest::set_mtime;
using enginetest::write_file;
namespace fs = std::filesystem;
using Segs = std::vector<std::string>;

namespace {

const Timestamp kStart = enginetest::run_start();
const Timestamp kFresh = kStart + 1s;
const Timestamp kStale = kStart - 3s;

// A target root holding every fixture at the paths the producers use, all fresh.
struct Target {
  enginetest::TempDir tmp;
  fs::path root = tmp.path() / "target";

  void put(const fs::path& rel, const std::string& text, Timestamp mtime = kFresh) {
    write_file(root / rel, text);
    set_mtime(root / rel, mtime);
  }
  void criterion_case(const fs::path& rel_dir, const std::string& fixture_dir, Timestamp mtime = kFresh) {
    put(rel_dir / "benchmark.json", fixture("criterion/" + fixture_dir + "/benchmark.json"), mtime);
    put(rel_dir / "estimates.json", fixture("criterion/" + fixture_dir + "/estimates.json"), mtime);
  }
  void populate() {
    put("gungraun/fast_time/bench_cg/timestamp_capture/std_now/summary.json",
        fixture("callgrind/single_unparametrized.summary.json"));
    put("gungraun/fast_time/bench_cg/timestamp_capture/since.two_instants/summary.json",
        fixture("callgrind/parametrized.summary.json"));
    const fs::path group = "criterion/fast_time_timestamp_performance_timestamp_capture";
    criterion_case(group / "std_instant/now/new", "std_instant");
    criterion_case(group / "std_instant/now/base", "std_instant");  // structural copy, skipped
    criterion_case(group / "fast_time_clock/now/new", "fast_time_clock");
    put(group / "report/index.html", "<html></html>");
    put("alloc_tracker/allocate_vec.json", fixture("alloc_tracker/allocate_vec_dispersion.json"));
    put("all_the_time/read_cell.json", fixture("all_the_time/read_cell_dispersion.json"));
  }
};

std::vector<std::string> qualified(const std::vector<BenchmarkResult>& rs) {
  std::vector<std::string> out;
  for (const auto& r : rs) out.push_back(r.id.qualified());
  return out;
}

std::size_t count_notes(const Harvest& h, HarvestDecision d) {
  return std::count_if(h.notes.begin(), h.notes.end(), [&](const HarvestNote& n) { return n.decision == d; });
}

}  // namespace

TEST_CASE("the freshness cutoff is two seconds before the start, saturating at the epoch", "[engines][freshness]") {
  const auto gate = FreshnessGate::for_run_start(kStart);
  REQUIRE(gate.cutoff());
  CHECK(*gate.cutoff() == kStart - 2s);
  CHECK(gate.admits(kStart - 2s));
  CHECK_FALSE(gate.admits(kStart - 2s - 1ns));
  CHECK(gate.admits(kStart + 10s));
  CHECK(*FreshnessGate::for_run_start(from_unix_seconds(1)).cutoff() == Timestamp{});
  CHECK(FreshnessGate::disabled().admits(Timestamp{}));
  CHECK_FALSE(FreshnessGate::disabled().cutoff());
}

TEST_CASE("file times convert to and from UTC instants without loss", "[engines][freshness]") {
  const Timestamp t = kStart + 123456789ns;
  CHECK(to_timestamp(to_file_time(t)) == t);
}

TEST_CASE("harvest_all collects every engine in its output location, in engine and path order",
          "[engines][harvest]") {
  Target t;
  t.populate();
  const Harvest h = harvest_all(t.root, kStart);
  REQUIRE(h.engines.size() == 9);
  CHECK(h.engines[0].engine == Engine::callgrind);
  CHECK(h.engines[1].engine == Engine::criterion);
  CHECK(h.engines[2].engine == Engine::alloc_tracker);
  CHECK(h.engines[3].engine == Engine::all_the_time);
  // Then the report engines; no report paths: nothing looked for.
  CHECK(h.engines[4].engine == Engine::google_benchmark);
  CHECK(h.engines[5].engine == Engine::hyperfine);
  CHECK(h.engines[6].engine == Engine::catch2);
  CHECK(h.engines[7].engine == Engine::bmf);
  CHECK(h.engines[8].engine == Engine::libtest);
  for (std::size_t i = 4; i < h.engines.size(); ++i) CHECK(h.engines[i].results.empty());
  CHECK(h.cutoff == kStart - 2s);

  // Sorted by path: "since.two_instants" < "std_now".
  CHECK(qualified(h.results(Engine::callgrind)) ==
        Segs{"fast_time/fast_time_timestamp_performance_cg::timestamp_capture::timestamp_capture_instant_saturating_"
             "duration_since/timestamp_capture_instant_saturating_duration_since/two_instants",
             "fast_time/fast_time_timestamp_performance_cg::timestamp_capture::timestamp_capture_std_now/"
             "timestamp_capture_std_now"});
  CHECK(qualified(h.results(Engine::criterion)) ==
        Segs{"fast_time_timestamp_performance/timestamp_capture/fast_time_clock/now",
             "fast_time_timestamp_performance/timestamp_capture/std_instant/now"});
  CHECK(h.results(Engine::criterion)[1].metrics[0].value == 26.92998067163995);
  CHECK(qualified(h.results(Engine::alloc_tracker)) == Segs{"allocate_vec"});
  CHECK(qualified(h.results(Engine::all_the_time)) == Segs{"read_cell"});
  CHECK(h.case_count() == 6);
  CHECK(count_notes(h, HarvestDecision::included) == 6);
  CHECK(count_notes(h, HarvestDecision::no_output) == 0);
}

TEST_CASE("files older than start minus two seconds are ignored as stale, with a note", "[engines][harvest][freshness]") {
  Target t;
  t.populate();
  const fs::path stale_summary = t.root / "gungraun/fast_time/bench_cg/timestamp_capture/std_now/summary.json";
  set_mtime(stale_summary, kStale);
  const fs::path case_dir = t.root / "criterion/fast_time_timestamp_performance_timestamp_capture/std_instant/now/new";
  set_mtime(case_dir / "estimates.json", kStale);
  set_mtime(t.root / "alloc_tracker/allocate_vec.json", kStart - 2s - 1ms);
  set_mtime(t.root / "all_the_time/read_cell.json", kStart - 2s);  // exactly the cutoff: admitted

  const Harvest h = harvest_all(t.root, kStart);
  CHECK(h.results(Engine::callgrind).size() == 1);
  CHECK(qualified(h.results(Engine::criterion)) == Segs{"fast_time_timestamp_performance/timestamp_capture/fast_time_clock/now"});
  CHECK(h.results(Engine::alloc_tracker).empty());
  CHECK(h.results(Engine::all_the_time).size() == 1);
  CHECK(count_notes(h, HarvestDecision::stale) == 3);

  const auto stale = std::find_if(h.notes.begin(), h.notes.end(), [](const HarvestNote& n) {
    return n.decision == HarvestDecision::stale && n.engine == Engine::callgrind;
  });
  REQUIRE(stale != h.notes.end());
  CHECK(stale->path == stale_summary);
  CHECK(stale->modified == kStale);
  CHECK_THAT(stale->text(), Catch::Contains("ignored stale " + stale_summary.string()) &&
                                Catch::Contains(format_rfc3339(kStart - 2s)));
}

TEST_CASE("the Criterion estimates.json time decides for the whole case", "[engines][harvest][freshness]") {
  Target t;
  t.criterion_case("criterion/g/f/new", "std_instant");
  set_mtime(t.root / "criterion/g/f/new/benchmark.json", kStale);  // old benchmark.json, fresh estimates
  CHECK(harvest_all(t.root, kStart).results(Engine::criterion).size() == 1);
  set_mtime(t.root / "criterion/g/f/new/benchmark.json", kFresh);
  set_mtime(t.root / "criterion/g/f/new/estimates.json", kStale);
  CHECK(harvest_all(t.root, kStart).results(Engine::criterion).empty());
}

TEST_CASE("with the gate disabled every file is admitted", "[engines][harvest][freshness]") {
  Target t;
  t.populate();
  for (const auto& e : fs::recursive_directory_iterator(t.root))
    if (e.is_regular_file()) set_mtime(e.path(), kStale);
  CHECK(harvest_all(t.root, kStart).case_count() == 0);
  HarvestOptions opts;
  opts.freshness_gate = false;
  const Harvest h = harvest_all(t.root, kStart, opts);
  CHECK(h.case_count() == 6);
  CHECK_FALSE(h.cutoff);
}

TEST_CASE("an engine without an output root contributes nothing and is noted", "[engines][harvest]") {
  Target t;
  t.put("criterion/g/new/benchmark.json", fixture("criterion/std_instant/benchmark.json"));
  t.put("criterion/g/new/estimates.json", fixture("criterion/std_instant/estimates.json"));
  const Harvest h = harvest_all(t.root, kStart);
  CHECK(h.results(Engine::criterion).size() == 1);
  CHECK(h.results(Engine::callgrind).empty());
  CHECK(count_notes(h, HarvestDecision::no_output) == 3);
  CHECK_THAT(h.notes.front().text(), Catch::Contains("callgrind: no output") && Catch::Contains("gungraun"));
  // A target root that does not exist at all is not an error either.
  CHECK(harvest_all(t.root / "missing", kStart).case_count() == 0);
}

TEST_CASE("only directories named exactly new holding both files are Criterion cases", "[engines][harvest][criterion]") {
  Target t;
  t.criterion_case("criterion/g/f/base", "std_instant");
  t.criterion_case("criterion/g/f/New", "std_instant");
  t.criterion_case("criterion/g/f/new_", "std_instant");
  t.put("criterion/g/f/new/sample.json", "{}");   // a `new/` with neither file: structural
  t.put("criterion/g/report/new/index.html", "x");
  t.criterion_case("criterion/new/new", "fast_time_clock");  // a benchmark itself named `new`
  const Harvest h = harvest_all(t.root, kStart);
  CHECK(qualified(h.results(Engine::criterion)) == Segs{"fast_time_timestamp_performance/timestamp_capture/fast_time_clock/now"});
}

TEST_CASE("a fresh Criterion case missing one of its files fails the harvest naming the missing file",
          "[engines][harvest][criterion][errors]") {
  Target t;
  t.criterion_case("criterion/g/a/new", "std_instant");
  t.put("criterion/g/b/new/estimates.json", fixture("criterion/std_instant/estimates.json"));
  const fs::path missing = t.root / "criterion/g/b/new/benchmark.json";
  try {
    harvest_all(t.root, kStart);
    FAIL("a half-written case must fail the harvest");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::benchmark_output);
    CHECK(e.message() == "failed to parse benchmark output: " + missing.string());
    CHECK_THAT(e.cause(), Catch::Contains("has estimates.json but no benchmark.json"));
    CHECK_FALSE(e.hint().empty());
  }
}

TEST_CASE("a stale half-written Criterion case is left over from an earlier run and skipped with a note",
          "[engines][harvest][criterion]") {
  Target t;
  t.criterion_case("criterion/g/a/new", "std_instant");
  t.put("criterion/g/b/new/benchmark.json", fixture("criterion/std_instant/benchmark.json"), kStale);
  const Harvest h = harvest_all(t.root, kStart);
  CHECK(h.results(Engine::criterion).size() == 1);
  REQUIRE(count_notes(h, HarvestDecision::incomplete) == 1);
  HarvestOptions opts;
  opts.freshness_gate = false;
  CHECK_THROWS_WITH(harvest_all(t.root, kStart, opts), Catch::Contains("no estimates.json"));
}

TEST_CASE("flat engines take only immediate regular .json files", "[engines][harvest]") {
  Target t;
  const std::string op = fixture("all_the_time/read_cell.json");
  t.put("all_the_time/b.json", op);
  t.put("all_the_time/a.json", "{\"operation\":\"first\",\"slope_processor_time_nanos\":1.0}");
  t.put("all_the_time/nested/c.json", op);
  t.put("all_the_time/d.json.bak", op);
  t.put("all_the_time/e.JSON", op);
  t.put("all_the_time/.json", op);
  fs::create_directories(t.root / "all_the_time/dir.json");
  const Harvest h = harvest_all(t.root, kStart);
  CHECK(qualified(h.results(Engine::all_the_time)) == Segs{"first", "read_cell"});
}

TEST_CASE("symlinked directories and files are not followed", "[engines][harvest][symlinks]") {
  Target t;
  enginetest::TempDir outside;
  write_file(outside.path() / "cases/new/benchmark.json", fixture("criterion/std_instant/benchmark.json"));
  write_file(outside.path() / "cases/new/estimates.json", fixture("criterion/std_instant/estimates.json"));
  write_file(outside.path() / "summary.json", fixture("callgrind/parametrized.summary.json"));
  write_file(outside.path() / "op.json", fixture("all_the_time/read_cell.json"));
  fs::create_directories(t.root / "criterion/g");
  fs::create_directories(t.root / "gungraun/p");
  fs::create_directories(t.root / "all_the_time");
  fs::create_directory_symlink(outside.path() / "cases", t.root / "criterion/g/linked");
  fs::create_symlink(outside.path() / "summary.json", t.root / "gungraun/p/summary.json");
  fs::create_symlink(outside.path() / "op.json", t.root / "all_the_time/op.json");
  fs::create_directory_symlink(outside.path(), t.root / "alloc_tracker");  // the root itself a symlink
  const Harvest h = harvest_all(t.root, kStart);
  CHECK(h.case_count() == 0);
}

TEST_CASE("a dropped operation is noted with the path and the zero-iteration wording", "[engines][harvest]") {
  Target t;
  t.put("alloc_tracker/zero.json",
        "{\"operation\":\"zero\",\"total_iterations\":0,\"total_bytes_allocated\":0,\"total_allocations_count\":0,"
        "\"span_count\":1,\"slope_bytes_per_iteration\":null,\"slope_allocations_per_iteration\":null}");
  const Harvest h = harvest_all(t.root, kStart);
  CHECK(h.results(Engine::alloc_tracker).empty());
  const auto it = std::find_if(h.notes.begin(), h.notes.end(),
                               [](const HarvestNote& n) { return n.decision == HarvestDecision::dropped; });
  REQUIRE(it != h.notes.end());
  CHECK(it->text() == (t.root / "alloc_tracker/zero.json").string() +
                          ": no usable per-iteration measurement (zero-iteration operation); skipping");
}

TEST_CASE("a malformed file anywhere aborts the harvest with the parse error naming it", "[engines][harvest][errors]") {
  Target t;
  t.populate();
  const std::string full = fixture("callgrind/parametrized.summary.json");
  t.put("gungraun/p/x/summary.json", full.substr(0, 100));
  CHECK_THROWS_WITH(harvest_all(t.root, kStart),
                    Catch::Contains("failed to parse benchmark output: " + (t.root / "gungraun/p/x/summary.json").string()));
  // The same file, stale, is ignored rather than parsed.
  set_mtime(t.root / "gungraun/p/x/summary.json", kStale);
  CHECK(harvest_all(t.root, kStart).case_count() == 6);
}

namespace {
// Runs `fn` in a child process without root privileges (root reads everything, so a
// permission failure can only be produced unprivileged); returns the child's exit code.
template <class Fn>
int exit_code_unprivileged(Fn&& fn) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(90);
    _exit(fn());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}
}  // namespace

TEST_CASE("an unreadable output directory aborts with the harvest I/O error", "[engines][harvest][errors]") {
  Target t;
  t.populate();
  fs::permissions(t.tmp.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                    fs::perms::others_read | fs::perms::others_exec);
  const fs::path dir = t.root / "gungraun/fast_time";
  fs::permissions(dir, fs::perms::none);
  const int code = exit_code_unprivileged([&] {
    try {
      harvest_all(t.root, kStart);
      return 1;
    } catch (const Error& e) {
      const bool ok = e.kind() == ErrorKind::io && e.message() == "failed to harvest callgrind benchmark output" &&
                      e.subject() == dir.string() && e.cause().find("cannot read directory") != std::string::npos;
      return ok ? 0 : 2;
    } catch (...) {
      return 3;
    }
  });
  fs::permissions(dir, fs::perms::owner_all);
  CHECK(code == 0);
}

TEST_CASE("an engine root that cannot be inspected is an I/O error, not \"no output\"", "[engines][harvest][errors]") {
  if (geteuid() != 0) {
    SUCCEED("needs root to drop to another user; the directory test above covers unreadable trees");
    return;
  }
  Target t;
  t.populate();
  // The temp dir stays 0700: an unprivileged process cannot even stat the engine roots.
  fs::permissions(t.tmp.path(), fs::perms::owner_all);
  const int code = exit_code_unprivileged([&] {
    try {
      harvest_all(t.root, kStart);
      return 1;
    } catch (const Error& e) {
      return e.kind() == ErrorKind::io && e.subject() == (t.root / "gungraun").string() ? 0 : 2;
    } catch (...) {
      return 3;
    }
  });
  CHECK(code == 0);
}
