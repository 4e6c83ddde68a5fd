// The google_benchmark engine on real JSON reports written by real Google Benchmark 1.7.1
// binaries this suite builds (tests/engines/gb/): repetitions on and off, aggregates only, time
// units, counters, an erroring benchmark, complexity rows, a memory manager, a NaN counter,
// two binaries in one output directory; plus malformed and truncated reports naming the file.
// Debian's 1.7.1 cannot write `skipped` (SkipWithMessage arrived in 1.8), so that one case is a
// hand-written report in 1.8's shape (json_reporter.cc writes `"skipped": true` and
// `"skip_message"`).

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include "benchhist/engines/google_benchmark.hpp"
#include "benchhist/engines/harvest.hpp"
#include "benchhist/engines/output_locations.hpp"
#include "benchhist/engines/report_file.hpp"
#include "benchhist/error.hpp"
#include "benchhist/probe/process.hpp"
#include "support.hpp"

using namespace benchhist;
using namespace benchhist::engines;
using enginetest::TempDir;
using enginetest::read_file;
using enginetest::write_file;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// Runs a real benchmark binary; its JSON report goes to `out` (the console output is captured).
void run_binary(const std::string& binary, const fs::path& out, std::vector<std::string> args) {
  probe::ProcessSpec spec;
  spec.argv = {binary, "--benchmark_min_time=0.005", "--benchmark_out=" + out.string(), "--benchmark_out_format=json"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.capture_stdout = true;
  spec.capture_stderr = true;
  fs::create_directories(out.parent_path());  // the reporter does not create directories
  const probe::ProcessResult r = probe::run_process(spec);
  INFO(r.err);
  REQUIRE(r.success());
  REQUIRE(fs::exists(out));
}

std::string qualified(const BenchmarkResult& r) { return r.id.qualified(); }

const BenchmarkResult* find(const GoogleBenchmarkReport& rep, const std::string& id) {
  for (const auto& r : rep.results)
    if (qualified(r) == id) return &r;
  return nullptr;
}

bool has_note(const GoogleBenchmarkReport& rep, const std::string& needle) {
  return std::any_of(rep.notes.begin(), rep.notes.end(), [&](const std::string& n) { return n.find(needle) != std::string::npos; });
}

// The iteration rows of one run_name, read independently with Boost.JSON.
std::vector<json::object> rows_of(const fs::path& file, const std::string& run_name, const std::string& type) {
  std::vector<json::object> out;
  const json::value doc = json::parse(read_file(file));
  for (const auto& b : doc.at("benchmarks").as_array()) {
    const auto& o = b.as_object();
    if (o.at("run_name").as_string() == run_name && o.at("run_type").as_string() == type) out.push_back(o);
  }
  return out;
}

// Boost.JSON's double parser may be one ulp off (lib/engines/json_reader.hpp), so values read
// through it are compared to the engine's exact ones within a few ulps.
Approx num(const json::object& o, const char* key, double scale = 1.0) {
  return Approx(o.at(key).to_number<double>() * scale).epsilon(1e-13);
}
double raw(const json::object& o, const char* key) { return o.at(key).to_number<double>(); }

}  // namespace

TEST_CASE("google_benchmark: a report without repetitions stores real_time and cpu_time in ns, never counters",
          "[engines][google_benchmark]") {
  TempDir t;
  const fs::path file = t.path() / "a.json";
  run_binary(BH_GB_REPORT_A, file, {});
  const GoogleBenchmarkReport rep = read_google_benchmark(file);

  // Identity is the name split on '/', arguments and threads kept.
  std::vector<std::string> ids;
  for (const auto& r : rep.results) ids.push_back(qualified(r));
  CHECK(ids == std::vector<std::string>{"BM_Copy/8/threads:1", "BM_Copy/8/threads:2", "BM_Copy/512/threads:1",
                                        "BM_Copy/512/threads:2", "BM_Join", "BM_Scan/64", "BM_Scan/256",
                                        "BM_Scan/1024"});
  const BenchmarkResult* copy = find(rep, "BM_Copy/512/threads:2");
  REQUIRE(copy);
  CHECK(copy->id.segments() == std::vector<std::string>{"BM_Copy", "512", "threads:2"});
  const auto row = rows_of(file, "BM_Copy/512/threads:2", "iteration").at(0);
  // Only the two times: bytes_per_second, the rate and the user counter are not lower-is-better.
  REQUIRE(copy->metrics.size() == 2);
  CHECK(copy->metrics[0].kind == MetricKind::wall_time);
  CHECK(copy->metrics[0].value == num(row, "real_time"));
  CHECK(copy->metrics[1].kind == MetricKind::processor_time);
  CHECK(copy->metrics[1].value == num(row, "cpu_time"));
  CHECK_FALSE(copy->metrics[0].interval);  // one repetition: no spread to speak of

  // BM_Join reports in microseconds: stored in nanoseconds.
  const auto join_row = rows_of(file, "BM_Join", "iteration").at(0);
  REQUIRE(join_row.at("time_unit").as_string() == "us");
  const BenchmarkResult* join = find(rep, "BM_Join");
  REQUIRE(join);
  CHECK(join->find(MetricKind::wall_time)->value == num(join_row, "real_time", 1e3));
  CHECK(join->find(MetricKind::processor_time)->value == num(join_row, "cpu_time", 1e3));

  // The erroring benchmark stored nothing and is named with its message; complexity rows ignored.
  CHECK_FALSE(find(rep, "BM_Broken"));
  CHECK(has_note(rep, "BM_Broken stored nothing (error: fixture file missing)"));
  CHECK_FALSE(find(rep, "BM_Scan_BigO"));
  CHECK_FALSE(find(rep, "BM_Scan"));
  CHECK(has_note(rep, "ignored 2 complexity row(s) (BigO, RMS)"));
}

TEST_CASE("google_benchmark: repetitions give the median with the [min, max] interval, aggregate rows never stored twice",
          "[engines][google_benchmark]") {
  TempDir t;
  const fs::path file = t.path() / "reps.json";
  run_binary(BH_GB_REPORT_A, file, {"--benchmark_repetitions=3", "--benchmark_filter=BM_Copy/8/|BM_Join|BM_Broken"});
  const GoogleBenchmarkReport rep = read_google_benchmark(file);
  REQUIRE(rows_of(file, "BM_Join", "aggregate").size() == 4);  // mean, median, stddev, cv are in the file

  std::vector<std::string> ids;
  for (const auto& r : rep.results) ids.push_back(qualified(r));
  CHECK(ids == std::vector<std::string>{"BM_Copy/8/threads:1", "BM_Copy/8/threads:2", "BM_Join"});
  for (const std::string name : {"BM_Copy/8/threads:1", "BM_Join"}) {
    INFO(name);
    const auto rows = rows_of(file, name, "iteration");
    REQUIRE(rows.size() == 3);
    const double scale = rows[0].at("time_unit").as_string() == "us" ? 1e3 : 1.0;
    std::vector<double> real;
    for (const auto& r : rows) real.push_back(raw(r, "real_time") * scale);
    std::sort(real.begin(), real.end());
    const MetricValue* wall = find(rep, name)->find(MetricKind::wall_time);
    REQUIRE(wall);
    CHECK(wall->value == Approx(real[1]).epsilon(1e-13));
    REQUIRE(wall->interval);
    CHECK(wall->interval->low == Approx(real[0]).epsilon(1e-13));
    CHECK(wall->interval->high == Approx(real[2]).epsilon(1e-13));
    CHECK(wall->interval->low <= wall->value);
    CHECK(wall->value <= wall->interval->high);
    CHECK(find(rep, name)->find(MetricKind::processor_time)->interval);
  }
  CHECK(has_note(rep, "BM_Broken stored nothing (error: fixture file missing)"));
  CHECK(has_note(rep, "ignored the aggregate rows"));
}

TEST_CASE("google_benchmark: --benchmark_report_aggregates_only stores the median aggregate without an interval",
          "[engines][google_benchmark]") {
  TempDir t;
  const fs::path file = t.path() / "aggregates.json";
  run_binary(BH_GB_REPORT_A, file,
             {"--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true", "--benchmark_filter=BM_Copy/8/threads:1"});
  REQUIRE(rows_of(file, "BM_Copy/8/threads:1", "iteration").empty());
  const auto median = rows_of(file, "BM_Copy/8/threads:1", "aggregate");
  const auto it = std::find_if(median.begin(), median.end(), [](const json::object& o) { return o.at("aggregate_name").as_string() == "median"; });
  REQUIRE(it != median.end());

  const GoogleBenchmarkReport rep = read_google_benchmark(file);
  REQUIRE(rep.results.size() == 1);  // one benchmark, not one per aggregate row
  const auto& r = rep.results[0];
  CHECK(qualified(r) == "BM_Copy/8/threads:1");
  CHECK(r.find(MetricKind::wall_time)->value == num(*it, "real_time"));
  CHECK(r.find(MetricKind::processor_time)->value == num(*it, "cpu_time"));
  CHECK_FALSE(r.find(MetricKind::wall_time)->interval);
  CHECK(has_note(rep, "only aggregate rows were written; stored the median aggregate"));
}

TEST_CASE("google_benchmark: the memory manager's allocation count and peak are stored; a bare NaN counter is read",
          "[engines][google_benchmark]") {
  TempDir t;
  const fs::path file = t.path() / "b.json";
  run_binary(BH_GB_REPORT_B, file, {});
  const std::string text = read_file(file);
  REQUIRE(text.find("\"undefined\": NaN") != std::string::npos);  // not JSON: the reporter writes it bare

  const GoogleBenchmarkReport rep = read_google_benchmark(file);
  const BenchmarkResult* vec = find(rep, "BM_Vector/100");
  const BenchmarkResult* reserve = find(rep, "BM_Reserve/100");
  REQUIRE(vec);
  REQUIRE(reserve);
  std::vector<MetricKind> kinds;
  for (const auto& m : vec->metrics) kinds.push_back(m.kind);
  CHECK(kinds == std::vector<MetricKind>{MetricKind::wall_time, MetricKind::processor_time, MetricKind::allocation_count,
                                         MetricKind::peak_outstanding_bytes});
  // Growing a vector 100 times allocates more often and reaches a higher peak than reserving.
  CHECK(vec->find(MetricKind::allocation_count)->value > reserve->find(MetricKind::allocation_count)->value);
  CHECK(reserve->find(MetricKind::peak_outstanding_bytes)->value >= 400.0);  // 100 ints at least
}

TEST_CASE("google_benchmark: a skipped benchmark (1.8's shape, hand-written) stores nothing and is noted",
          "[engines][google_benchmark]") {
  // Debian's 1.7.1 has no SkipWithMessage; this is the row 1.8's json_reporter.cc writes.
  const std::string report = R"({
  "context": {"date": "2026-12-03T12:00:00+00:00", "library_version": "v1.8.3", "json_schema_version": 1},
  "benchmarks": [
    {"name": "BM_Gpu", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_Gpu",
     "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
     "skipped": true, "skip_message": "no GPU on this machine",
     "iterations": 0, "real_time": 0.0, "cpu_time": 0.0, "time_unit": "ns"},
    {"name": "BM_Cpu", "family_index": 1, "per_family_instance_index": 0, "run_name": "BM_Cpu",
     "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
     "iterations": 10, "real_time": 2.5e+01, "cpu_time": 2.0e+01, "time_unit": "ns"}
  ]
})";
  const GoogleBenchmarkReport rep = parse_google_benchmark(report, "skipped.json");
  REQUIRE(rep.results.size() == 1);
  CHECK(qualified(rep.results[0]) == "BM_Cpu");
  CHECK(rep.results[0].find(MetricKind::wall_time)->value == 25.0);
  CHECK(has_note(rep, "BM_Gpu stored nothing (skipped: no GPU on this machine)"));
}

TEST_CASE("google_benchmark: a report before 1.5 (no run_type, no aggregate_name) names its aggregates by suffix",
          "[engines][google_benchmark]") {
  // Hand-written in the shape of 1.4's json_reporter.cc: aggregates are rows named
  // `<run>_mean`, `_median`, `_stddev`; complexity rows `<family>_BigO` (big_o) and `_RMS` (rms).
  const std::string report = R"({"context": {"date": "2018-05-01 12:00:00", "num_cpus": 2},
  "benchmarks": [
    {"name": "BM_X/repeats:3", "iterations": 1000, "real_time": 100, "cpu_time": 100, "time_unit": "ns"},
    {"name": "BM_X/repeats:3", "iterations": 1000, "real_time": 120, "cpu_time": 120, "time_unit": "ns"},
    {"name": "BM_X/repeats:3", "iterations": 1000, "real_time": 110, "cpu_time": 110, "time_unit": "ns"},
    {"name": "BM_X/repeats:3_mean", "iterations": 3, "real_time": 110, "cpu_time": 110, "time_unit": "ns"},
    {"name": "BM_X/repeats:3_median", "iterations": 3, "real_time": 110, "cpu_time": 110, "time_unit": "ns"},
    {"name": "BM_X/repeats:3_stddev", "iterations": 3, "real_time": 10, "cpu_time": 10, "time_unit": "ns"},
    {"name": "BM_Only_mean", "iterations": 3, "real_time": 7, "cpu_time": 7, "time_unit": "us"},
    {"name": "BM_Only_median", "iterations": 3, "real_time": 6, "cpu_time": 6, "time_unit": "us"},
    {"name": "BM_Only_stddev", "iterations": 3, "real_time": 1, "cpu_time": 1, "time_unit": "us"},
    {"name": "BM_Sort/8", "iterations": 10, "real_time": 80, "cpu_time": 80, "time_unit": "ns"},
    {"name": "BM_Sort/64", "iterations": 10, "real_time": 640, "cpu_time": 640, "time_unit": "ns"},
    {"name": "BM_Sort_BigO", "cpu_coefficient": 10, "real_coefficient": 10, "big_o": "N", "time_unit": "ns"},
    {"name": "BM_Sort_RMS", "rms": 0.01},
    {"name": "BM_Pick_median", "iterations": 5, "real_time": 42, "cpu_time": 42, "time_unit": "ns"}
  ]})";
  const GoogleBenchmarkReport rep = parse_google_benchmark(report, "old.json");
  std::vector<std::string> ids;
  for (const auto& r : rep.results) ids.push_back(qualified(r));
  // BM_Pick_median has no _mean and _stddev beside it: a benchmark that happens to be named so.
  CHECK(ids == std::vector<std::string>{"BM_X/repeats:3", "BM_Only", "BM_Sort/8", "BM_Sort/64", "BM_Pick_median"});
  const MetricValue& x = *find(rep, "BM_X/repeats:3")->find(MetricKind::wall_time);
  CHECK(x.value == 110.0);
  REQUIRE(x.interval);
  CHECK(x.interval->low == 100.0);
  CHECK(x.interval->high == 120.0);
  const MetricValue& only = *find(rep, "BM_Only")->find(MetricKind::wall_time);
  CHECK(only.value == 6000.0);
  CHECK_FALSE(only.interval);
  CHECK(has_note(rep, "BM_Only: only aggregate rows were written"));
  CHECK(has_note(rep, "ignored 2 complexity row(s) (BigO, RMS)"));
  CHECK(find(rep, "BM_Pick_median")->find(MetricKind::wall_time)->value == 42.0);
}

TEST_CASE("google_benchmark: a non-finite measurement drops that metric only, with a note",
          "[engines][google_benchmark]") {
  const std::string report = R"({"context": {}, "benchmarks": [
    {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
     "iterations": 1, "real_time": -Infinity, "cpu_time": 3.0, "time_unit": "ms"},
    {"name": "BM_B", "run_name": "BM_B", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
     "iterations": 1, "real_time": NaN, "cpu_time": Infinity, "time_unit": "ns"}]})";
  const GoogleBenchmarkReport rep = parse_google_benchmark(report, "nonfinite.json");
  REQUIRE(rep.results.size() == 1);
  CHECK(qualified(rep.results[0]) == "BM_A");
  REQUIRE(rep.results[0].metrics.size() == 1);
  CHECK(rep.results[0].metrics[0].kind == MetricKind::processor_time);
  CHECK(rep.results[0].metrics[0].value == 3e6);
  CHECK(has_note(rep, "BM_A: real_time is not a finite number; wall_time not stored"));
  CHECK(has_note(rep, "BM_B stored nothing (no finite real_time or cpu_time)"));
}

TEST_CASE("google_benchmark: malformed and truncated reports fail naming the file", "[engines][google_benchmark]") {
  TempDir t;
  const fs::path real = t.path() / "real.json";
  run_binary(BH_GB_REPORT_A, real, {"--benchmark_filter=BM_Join"});
  const std::string text = read_file(real);

  auto expect_error = [](const fs::path& file, const std::string& cause) {
    try {
      read_google_benchmark(file);
      FAIL("no error for " << file);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::benchmark_output);
      CHECK(e.message() == "failed to parse benchmark output: " + file.string());
      CHECK(e.subject() == file.string());
      CHECK_THAT(e.cause(), Catch::Contains(cause));
      CHECK_FALSE(e.hint().empty());
    }
  };
  write_file(t.path() / "truncated.json", text.substr(0, text.size() / 2));
  expect_error(t.path() / "truncated.json", "truncated");
  write_file(t.path() / "empty.json", "");
  expect_error(t.path() / "empty.json", "the file is empty");
  write_file(t.path() / "other.json", R"({"name": "not a report"})");
  expect_error(t.path() / "other.json", "required member /context is missing");
  write_file(t.path() / "unit.json", R"({"context": {}, "benchmarks": [{"name": "B", "real_time": 1, "cpu_time": 1, "time_unit": "fortnights"}]})");
  expect_error(t.path() / "unit.json", "/benchmarks/0/time_unit is \"fortnights\"");
  write_file(t.path() / "negative.json", R"({"context": {}, "benchmarks": [{"name": "B", "real_time": -1, "cpu_time": 1, "time_unit": "ns"}]})");
  expect_error(t.path() / "negative.json", "/benchmarks/0/real_time is negative");
  // A valid JSON number that is no nanosecond count once converted: refused here, naming the
  // file, not by the store's writer after other engines' objects were written.
  write_file(t.path() / "huge.json", R"({"context": {}, "benchmarks": [{"name": "B", "real_time": 1e300, "cpu_time": 1, "time_unit": "s"}]})");
  expect_error(t.path() / "huge.json", "/benchmarks/0/real_time is 1e+300 s, too large to store as nanoseconds");
  write_file(t.path() / "typed.json", R"({"context": {}, "benchmarks": [{"name": "B", "real_time": "1", "cpu_time": 1}]})");
  expect_error(t.path() / "typed.json", "/benchmarks/0/real_time must be a number");
  write_file(t.path() / "twice.json", R"({"context": {}, "benchmarks": [
      {"name": "B", "run_type": "iteration", "repetition_index": 0, "real_time": 1, "cpu_time": 1},
      {"name": "B", "run_type": "iteration", "repetition_index": 0, "real_time": 2, "cpu_time": 2}]})");
  expect_error(t.path() / "twice.json", "benchmark \"B\" reports repetition 0 twice");
}

TEST_CASE("google_benchmark harvest: two binaries' reports in one output directory are all kept; a shared identity fails",
          "[engines][google_benchmark][harvest]") {
  TempDir t;
  const fs::path out = t.path() / "out";
  run_binary(BH_GB_REPORT_A, out / "a.json", {"--benchmark_filter=BM_Join|BM_Broken"});
  run_binary(BH_GB_REPORT_B, out / "nested" / "b.json", {});

  std::vector<HarvestNote> notes;
  const std::vector<EngineHarvest> reports = harvest_reports({out}, FreshnessGate::for_run_start(enginetest::run_start()), notes);
  REQUIRE(reports.size() == report_engines.size());
  REQUIRE(reports[0].engine == Engine::google_benchmark);
  const EngineHarvest& h = reports[0];
  std::vector<std::string> ids;
  for (const auto& r : h.results) ids.push_back(qualified(r));
  CHECK(ids == std::vector<std::string>{"BM_Join", "BM_Vector/100", "BM_Reserve/100"});
  std::vector<std::string> texts;
  for (const auto& n : notes) texts.push_back(n.text());
  CHECK(std::count_if(texts.begin(), texts.end(), [](const std::string& s) { return s.starts_with("google_benchmark: included "); }) == 2);
  CHECK(std::any_of(texts.begin(), texts.end(), [&](const std::string& s) {
    return s == "google_benchmark: " + (out / "a.json").string() + ": BM_Broken stored nothing (error: fixture file missing)";
  }));

  // The whole harvest carries the engine as the fifth entry, after the four target-root engines.
  const Harvest all = harvest_all(t.path() / "no-target", enginetest::run_start(), HarvestOptions{true, {out}, std::nullopt});
  REQUIRE(all.engines.size() == harvest_order.size());
  CHECK(all.engines[4].engine == Engine::google_benchmark);
  CHECK(all.results(Engine::google_benchmark).size() == 3);

  // Every file in the directory must be a report: the console output beside them is not.
  write_file(out / "console.txt", "not a report\n");
  try {
    harvest_reports({out}, FreshnessGate::disabled(), notes);
    FAIL("a file no engine recognises was accepted");
  } catch (const Error& e) {
    CHECK(e.message() == "failed to parse benchmark output: " + (out / "console.txt").string());
    CHECK_THAT(e.cause(), Catch::Contains("no engine recognises this file"));
  }
  fs::remove(out / "console.txt");

  // The same benchmark in two files: neither may silently replace the other.
  run_binary(BH_GB_REPORT_A, out / "z.json", {"--benchmark_filter=BM_Join"});
  notes.clear();
  try {
    harvest_reports({out}, FreshnessGate::disabled(), notes);
    FAIL("a benchmark reported by two files was accepted");
  } catch (const Error& e) {
    CHECK(e.message() == "failed to parse benchmark output: " + (out / "z.json").string());
    CHECK_THAT(e.cause(), Catch::Contains("google_benchmark benchmark 'BM_Join' is also reported by " + (out / "a.json").string()));
  }
}

TEST_CASE("google_benchmark harvest: a report older than the run is stale and ignored", "[engines][google_benchmark][harvest]") {
  TempDir t;
  const fs::path file = t.path() / "old.json";
  run_binary(BH_GB_REPORT_A, file, {"--benchmark_filter=BM_Join"});
  enginetest::set_mtime(file, enginetest::run_start() - std::chrono::hours(1));
  std::vector<HarvestNote> notes;
  const EngineHarvest h = harvest_reports({t.path()}, FreshnessGate::for_run_start(enginetest::run_start()), notes).at(0);
  CHECK(h.results.empty());
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].decision == HarvestDecision::stale);
  // import disables the gate: the same file is read.
  notes.clear();
  CHECK(harvest_reports({file}, FreshnessGate::disabled(), notes).at(0).results.size() == 1);
}

TEST_CASE("list_report_files: a file as given, or every regular file below a directory; a symlink there fails",
          "[engines][google_benchmark][harvest]") {
  TempDir t;
  write_file(t.path() / "d" / "b.json", "{}");
  write_file(t.path() / "d" / "a.json", "{}");
  write_file(t.path() / "d" / "sub" / "c.json", "{}");
  write_file(t.path() / "d" / "notes.txt", "x");
  write_file(t.path() / "elsewhere" / "e.json", "{}");
  const auto files = list_report_files(t.path() / "d");
  CHECK(files == std::vector<fs::path>{t.path() / "d" / "a.json", t.path() / "d" / "b.json", t.path() / "d" / "notes.txt",
                                       t.path() / "d" / "sub" / "c.json"});
  CHECK(list_report_files(t.path() / "d" / "notes.txt") == std::vector<fs::path>{t.path() / "d" / "notes.txt"});
  CHECK(list_report_files(t.path() / "missing").empty());
  // Named explicitly, a symlink to a report is the user's choice and is read.
  fs::create_symlink(t.path() / "elsewhere" / "e.json", t.path() / "named.json");
  CHECK(list_report_files(t.path() / "named.json") == std::vector<fs::path>{t.path() / "named.json"});
  // Below a directory it is never followed, and never skipped in silence: its benchmarks would
  // be missing from the run without a word.
  const auto expect_refused = [&](const fs::path& entry) {
    try {
      list_report_files(t.path() / "d");
      FAIL("no error for " << entry);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::benchmark_output);
      CHECK(e.subject() == entry.string());
      CHECK(e.cause() == "it is a symbolic link, which is not followed below a report directory");
      CHECK_THAT(e.hint(), Catch::StartsWith("name the report itself"));
    }
  };
  fs::create_symlink(t.path() / "elsewhere" / "e.json", t.path() / "d" / "e.json");
  expect_refused(t.path() / "d" / "e.json");
  fs::remove(t.path() / "d" / "e.json");
  fs::create_directory_symlink(t.path() / "elsewhere", t.path() / "d" / "sub" / "link");
  expect_refused(t.path() / "d" / "sub" / "link");
}
