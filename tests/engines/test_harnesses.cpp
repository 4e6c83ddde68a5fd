// The hyperfine, catch2, bmf and libtest engines on the real output of the real tools, produced
// here: Debian's hyperfine timing two small commands (and a failing one), the Catch2 benchmark
// binary this suite builds (tests/engines/harnesses/catch2_bench.cpp, the build's Catch2)
// writing XML, a #[bench] crate run by `cargo bench` offline (RUSTC_BOOTSTRAP=1), and a BMF
// document written by a script. Then broken files of each format fail naming the file, and a
// directory holding one report of each is recognised file by file (docs/harnesses.md).

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <regex>

#include "benchhist/engines/bmf.hpp"
#include "benchhist/engines/catch2.hpp"
#include "benchhist/engines/harvest.hpp"
#include "benchhist/engines/hyperfine.hpp"
#include "benchhist/engines/libtest.hpp"
#include "benchhist/engines/output_locations.hpp"
#include "benchhist/engines/report_file.hpp"
#include "benchhist/error.hpp"
#include "benchhist/probe/process.hpp"
#include "common/libtest_crate.hpp"
#include "support.hpp"

using namespace benchhist;
using namespace benchhist::engines;
using enginetest::expect_parse_error;
using enginetest::read_file;
using enginetest::TempDir;
using enginetest::write_file;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

const fs::path harness_dir = fs::path(BH_SOURCE_DIR) / "tests" / "engines" / "harnesses";

probe::ProcessResult run(std::vector<std::string> argv, const fs::path& cwd = {},
                         std::map<std::string, std::optional<std::string>> env = {}) {
  probe::ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = cwd;
  spec.env_changes = std::move(env);
  spec.capture_stdout = true;
  spec.capture_stderr = true;
  return probe::run_process(spec);
}

std::vector<std::string> ids(const ParsedReport& r) {
  std::vector<std::string> out;
  for (const auto& b : r.results) out.push_back(b.id.qualified());
  return out;
}

// `id` by pointer: a std::string parameter built from a literal is a temporary, and gcc 14's
// -Wdangling-reference then flags every `const BenchmarkResult& x = find(rep, "…")`.
const BenchmarkResult& find(const ParsedReport& r, const char* id) {
  for (const auto& b : r.results)
    if (b.id.qualified() == id) return b;
  FAIL("no benchmark " << id);
  throw std::logic_error("unreachable");
}

bool has_note(const ParsedReport& r, const std::string& needle) {
  return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(needle) != std::string::npos; });
}

// hyperfine's export of `commands` (3 runs each, no intermediate shell) into `file`.
void hyperfine(const fs::path& file, std::vector<std::string> args) {
  std::vector<std::string> argv{"hyperfine", "--runs", "3", "-N", "--style", "none", "--export-json", file.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto r = run(argv);
  INFO(r.err);
  REQUIRE(r.success());
}

// The Catch2 binary's XML report of the test cases matching `filter`.
void catch2_xml(const fs::path& file, const std::string& filter, const fs::path& cwd = fs::current_path()) {
  const auto r = run({BH_CATCH2_BENCH, filter, "-r", "xml", "-o", file.string(), "--benchmark-samples", "10",
                      "--benchmark-resamples", "1000"},
                     cwd);
  INFO(r.out << r.err);
  REQUIRE(r.exited);
  REQUIRE(fs::exists(file));
}

// One real `cargo bench` per suite run: its output is the same whichever test reads it.
const std::string& cargo_bench_libtest() {
  static const std::string out = benchhist::testing::cargo_bench_libtest();
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// hyperfine

TEST_CASE("hyperfine: a real export stores the median of times with its [min, max] and user+system",
          "[engines][hyperfine]") {
  TempDir t;
  const fs::path file = t.path() / "hf.json";
  hyperfine(file, {"--command-name", "sleep/short", "sleep 0.01", "sleep   0.02"});
  const ParsedReport rep = read_hyperfine(file);
  // --command-name is split on '/'; the text of an unnamed command has its whitespace collapsed.
  CHECK(ids(rep) == std::vector<std::string>{"sleep/short", "sleep 0.02"});
  CHECK(find(rep, "sleep/short").id.segments() == std::vector<std::string>{"sleep", "short"});

  const json::array results = json::parse(read_file(file)).at("results").as_array();
  for (std::size_t i = 0; i < 2; ++i) {
    const json::object& o = results[i].as_object();
    std::vector<double> times;
    for (const auto& v : o.at("times").as_array()) times.push_back(v.to_number<double>() * 1e9);
    std::sort(times.begin(), times.end());
    const BenchmarkResult& b = rep.results[i];
    REQUIRE(b.metrics.size() == 2);
    CHECK(b.metrics[0].kind == MetricKind::wall_time);
    CHECK(b.metrics[0].value == Approx(times[1]).epsilon(1e-12));  // three runs: the middle one, in ns
    REQUIRE(b.metrics[0].interval);
    CHECK(b.metrics[0].interval->low == Approx(times.front()).epsilon(1e-12));
    CHECK(b.metrics[0].interval->high == Approx(times.back()).epsilon(1e-12));
    CHECK(b.metrics[0].value > 0.9e7);  // a 10 ms sleep, in nanoseconds
    CHECK(b.metrics[1].kind == MetricKind::processor_time);
    CHECK(b.metrics[1].value ==
          Approx((o.at("user").to_number<double>() + o.at("system").to_number<double>()) * 1e9).epsilon(1e-12));
    CHECK_FALSE(b.metrics[1].interval);  // hyperfine writes only the mean
  }
}

TEST_CASE("hyperfine: a failed run (--ignore-failure) fails the file naming the command", "[engines][hyperfine]") {
  TempDir t;
  const fs::path file = t.path() / "hf.json";
  // Without --ignore-failure hyperfine itself refuses (the bench command then fails).
  CHECK_FALSE(run({"hyperfine", "--runs", "2", "-N", "--export-json", file.string(), "false"}).success());
  hyperfine(file, {"--ignore-failure", "true", "false"});
  expect_parse_error(read_hyperfine, file, "command \"false\" failed in run 1 (exit code 1)");
}

TEST_CASE("hyperfine: truncated, empty, foreign, mistyped, negative and NaN exports fail naming the file",
          "[engines][hyperfine]") {
  TempDir t;
  const fs::path real = t.path() / "real.json";
  hyperfine(real, {"true"});
  const std::string text = read_file(real);
  write_file(t.path() / "truncated.json", text.substr(0, text.size() / 2));
  expect_parse_error(read_hyperfine, t.path() / "truncated.json", "truncated");
  write_file(t.path() / "empty.json", "");
  expect_parse_error(read_hyperfine, t.path() / "empty.json", "the file is empty");
  write_file(t.path() / "foreign.json", R"({"name": "not an export"})");
  expect_parse_error(read_hyperfine, t.path() / "foreign.json", "required member /results is missing");
  write_file(t.path() / "typed.json", R"({"results": [{"command": "a", "times": ["0.1"], "user": 0, "system": 0}]})");
  expect_parse_error(read_hyperfine, t.path() / "typed.json", "/results/0/times/0 must be a number");
  write_file(t.path() / "negative.json", R"({"results": [{"command": "a", "times": [0.1, -0.1]}]})");
  expect_parse_error(read_hyperfine, t.path() / "negative.json", "/results/0/times/1 is negative");
  write_file(t.path() / "huge.json", R"({"results": [{"command": "a", "times": [0.1, 1e300]}]})");
  expect_parse_error(read_hyperfine, t.path() / "huge.json", "/results/0/times/1 is 1e+300 s, too large to store as nanoseconds");
  write_file(t.path() / "huge-cpu.json", R"({"results": [{"command": "a", "times": [0.1], "user": 1e300, "system": 1e300}]})");
  expect_parse_error(read_hyperfine, t.path() / "huge-cpu.json", "/results/0/user + /system is 2e+300 s");
  // One exit code per timed run, as hyperfine writes them (a real export, one code removed).
  json::object doctored = json::parse(text).as_object();
  json::object& first = doctored.at("results").as_array()[0].as_object();
  REQUIRE(first.at("exit_codes").as_array().size() == first.at("times").as_array().size());
  first.at("exit_codes").as_array().pop_back();
  write_file(t.path() / "codes.json", json::serialize(doctored));
  expect_parse_error(read_hyperfine, t.path() / "codes.json",
                     "/results/0/exit_codes has " + std::to_string(first.at("times").as_array().size() - 1) +
                         " entries but /results/0/times has " + std::to_string(first.at("times").as_array().size()));
  write_file(t.path() / "nan.json", R"({"results": [{"command": "a", "times": [NaN]}]})");
  expect_parse_error(read_hyperfine, t.path() / "nan.json", "line 1");
  write_file(t.path() / "twice.json", R"({"results": [{"command": "a  b", "times": [0.1]}, {"command": "a b", "times": [0.2]}]})");
  expect_parse_error(read_hyperfine, t.path() / "twice.json", "command \"a b\" is reported twice");
  // A real parameter scan under one --command-name: the fix names the parameter.
  hyperfine(t.path() / "scan.json", {"-P", "n", "1", "2", "--command-name", "nap", "sleep 0.00{n}"});
  expect_parse_error(read_hyperfine, t.path() / "scan.json",
                     "command \"nap\" is reported twice (/results/1); give each command its own --command-name: in a "
                     "parameter scan, name the parameter in it (--command-name 'nap {n}')");
}

// ---------------------------------------------------------------------------------------------
// catch2

TEST_CASE("catch2: the XML reporter's mean with its bootstrap bounds, identity test case/sections/benchmark",
          "[engines][catch2]") {
  TempDir t;
  const fs::path file = t.path() / "c2.xml";
  catch2_xml(file, "[shapes]");
  const ParsedReport rep = read_catch2(file);
  CHECK(ids(rep) == std::vector<std::string>{"vector push/push 64", "vector push/reserved/push 64"});
  // The figures as written (nanoseconds): read independently from the XML text.
  const std::string xml = read_file(file);
  const std::regex mean_re(R"re(<mean value="([^"]+)" lowerBound="([^"]+)" upperBound="([^"]+)")re");
  const std::regex sd_re(R"re(<standardDeviation value="([^"]+)")re");
  std::vector<std::array<double, 3>> means;
  for (std::sregex_iterator it(xml.begin(), xml.end(), mean_re), end; it != end; ++it)
    means.push_back({std::stod((*it)[1]), std::stod((*it)[2]), std::stod((*it)[3])});
  std::vector<double> sds;
  for (std::sregex_iterator it(xml.begin(), xml.end(), sd_re), end; it != end; ++it) sds.push_back(std::stod((*it)[1]));
  REQUIRE(means.size() == 2);
  REQUIRE(sds.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const BenchmarkResult& b = rep.results[i];
    REQUIRE(b.metrics.size() == 1);
    CHECK(b.metrics[0].kind == MetricKind::wall_time);
    CHECK(b.metrics[0].value == means[i][0]);
    REQUIRE(b.metrics[0].interval);
    CHECK(b.metrics[0].interval->low == means[i][1]);
    CHECK(b.metrics[0].interval->high == means[i][2]);
    CHECK(b.metrics[0].std_dev == sds[i]);
  }
  // The benchmark that threw stored nothing and is named with its message.
  CHECK(has_note(rep, "broken/throws stored nothing (failed: fixture missing)"));
}

TEST_CASE("catch2: truncated, empty, foreign, mistyped, negative and NaN reports fail naming the file",
          "[engines][catch2]") {
  TempDir t;
  const fs::path real = t.path() / "real.xml";
  catch2_xml(real, "[shapes]");
  const std::string text = read_file(real);
  write_file(t.path() / "truncated.xml", text.substr(0, text.size() / 2));
  expect_parse_error(read_catch2, t.path() / "truncated.xml", "truncated");
  write_file(t.path() / "empty.xml", "");
  expect_parse_error(read_catch2, t.path() / "empty.xml", "no root element");
  write_file(t.path() / "foreign.xml", R"(<?xml version="1.0"?><testsuites><testsuite name="x"/></testsuites>)");
  expect_parse_error(read_catch2, t.path() / "foreign.xml", "the root element is <testsuites>");
  const auto with_mean = [&](const std::string& file, const std::string& mean) {
    write_file(t.path() / file, R"(<Catch2TestRun name="b"><TestCase name="t"><BenchmarkResults name="b">)" + mean +
                                    R"(</BenchmarkResults><OverallResult success="true"/></TestCase></Catch2TestRun>)");
    return t.path() / file;
  };
  expect_parse_error(read_catch2, with_mean("typed.xml", R"(<mean value="fast" lowerBound="1" upperBound="2"/>)"),
                     "value=\"fast\" is not a number");
  expect_parse_error(read_catch2, with_mean("nan.xml", R"(<mean value="nan" lowerBound="1" upperBound="2"/>)"),
                     "value=\"nan\" is not a finite number");
  expect_parse_error(read_catch2, with_mean("negative.xml", R"(<mean value="-3" lowerBound="1" upperBound="2"/>)"),
                     "value=\"-3\" is negative");
  expect_parse_error(read_catch2, with_mean("nomean.xml", ""), "has no <mean>");
  // v3's root is read like v2's.
  CHECK(read_catch2(with_mean("v3.xml", R"(<mean value="2.5" lowerBound="2" upperBound="3"/>)")).results.size() == 1);
}

// ---------------------------------------------------------------------------------------------
// bmf

TEST_CASE("bmf: a document written by a script: latency and instructions, bounds as the interval",
          "[engines][bmf]") {
  TempDir t;
  const fs::path file = t.path() / "bmf.json";
  const auto w = run({(harness_dir / "write_bmf.sh").string(), file.string()});
  INFO(w.err);
  REQUIRE(w.success());
  const ParsedReport rep = read_bmf(file);
  CHECK(ids(rep) == std::vector<std::string>{"sleep/10ms", "true"});
  const json::object doc = json::parse(read_file(file)).as_object();
  const BenchmarkResult& sleep = find(rep, "sleep/10ms");
  REQUIRE(sleep.metrics.size() == 1);
  CHECK(sleep.metrics[0].kind == MetricKind::wall_time);
  CHECK(sleep.metrics[0].value == doc.at("sleep/10ms").at("latency").at("value").to_number<double>());
  CHECK(sleep.metrics[0].value > 0.9e7);  // nanoseconds
  REQUIRE(sleep.metrics[0].interval);
  CHECK(sleep.metrics[0].interval->high == doc.at("sleep/10ms").at("latency").at("upper_value").to_number<double>());
  const BenchmarkResult& tr = find(rep, "true");
  REQUIRE(tr.metrics.size() == 2);
  CHECK(tr.metrics[0].kind == MetricKind::wall_time);
  CHECK_FALSE(tr.metrics[0].interval);  // no bounds given: none invented
  CHECK(tr.metrics[1].kind == MetricKind::instruction_count);
  CHECK(tr.metrics[1].value == 12345);
  // This tool's own metric names are measures too.
  write_file(t.path() / "own.json", R"({"parse": {"allocated_bytes": {"value": 4096}, "processor_time": {"value": 1.5}}})");
  const ParsedReport own = read_bmf(t.path() / "own.json");
  REQUIRE(own.results.at(0).metrics.size() == 2);
  CHECK(own.results[0].metrics[0].kind == MetricKind::processor_time);  // canonical order
  CHECK(own.results[0].metrics[1].kind == MetricKind::allocated_bytes);
}

TEST_CASE("bmf: throughput and unknown measures are refused by name, never stored inverted", "[engines][bmf]") {
  TempDir t;
  write_file(t.path() / "rate.json", R"({"parse": {"latency": {"value": 10}, "throughput": {"value": 1e6}}})");
  expect_parse_error(read_bmf, t.path() / "rate.json", "benchmark \"parse\" has the measure \"throughput\", which is not stored");
  write_file(t.path() / "custom.json", R"({"parse": {"widgets": {"value": 3}}})");
  expect_parse_error(read_bmf, t.path() / "custom.json", "the measure \"widgets\"");
  CHECK_FALSE(bmf_measure_metric("throughput"));
  CHECK(bmf_measure_metric("latency") == MetricKind::wall_time);
}

TEST_CASE("bmf: truncated, empty, foreign, mistyped, negative and NaN documents fail naming the file", "[engines][bmf]") {
  TempDir t;
  const std::string good = R"({"a/b": {"latency": {"value": 10, "lower_value": 9, "upper_value": 12}}})";
  write_file(t.path() / "truncated.json", good.substr(0, good.size() / 2));
  expect_parse_error(read_bmf, t.path() / "truncated.json", "truncated");
  write_file(t.path() / "empty.json", "");
  expect_parse_error(read_bmf, t.path() / "empty.json", "the file is empty");
  write_file(t.path() / "foreign.json", "[1, 2]");
  expect_parse_error(read_bmf, t.path() / "foreign.json", "must be an object of benchmarks");
  write_file(t.path() / "typed.json", R"({"a": {"latency": {"value": "10"}}})");
  expect_parse_error(read_bmf, t.path() / "typed.json", "/a/latency/value must be a number");
  write_file(t.path() / "negative.json", R"({"a": {"latency": {"value": -10}}})");
  expect_parse_error(read_bmf, t.path() / "negative.json", "/a/latency/value is negative");
  write_file(t.path() / "nan.json", R"({"a": {"latency": {"value": NaN}}})");
  expect_parse_error(read_bmf, t.path() / "nan.json", "line 1");
  write_file(t.path() / "onebound.json", R"({"a": {"latency": {"value": 10, "lower_value": 9}}})");
  expect_parse_error(read_bmf, t.path() / "onebound.json", "lower_value is given without upper_value");
  write_file(t.path() / "outside.json", R"({"a": {"latency": {"value": 10, "lower_value": 11, "upper_value": 12}}})");
  expect_parse_error(read_bmf, t.path() / "outside.json", "do not enclose the value");
  // A member the format does not define would change the value's meaning unseen (a unit).
  write_file(t.path() / "unit.json", R"({"a": {"latency": {"value": 10, "unit": "ms"}}})");
  expect_parse_error(read_bmf, t.path() / "unit.json",
                     "/a/latency/unit is not a member of a Bencher Metric Format measure (value, lower_value, upper_value)");
  // An empty name is an id no report could show.
  write_file(t.path() / "unnamed.json", R"({"": {"latency": {"value": 10}}})");
  expect_parse_error(read_bmf, t.path() / "unnamed.json", "a benchmark name is empty");
  write_file(t.path() / "same.json", R"({"a/b": {"latency": {"value": 1}}, "a//b": {"latency": {"value": 2}}})");
  expect_parse_error(read_bmf, t.path() / "same.json",
                     "two benchmarks in this file, 'a/b' and 'a//b', become the same benchmark id 'a/b'");
}

TEST_CASE("two names of one file that become one benchmark id fail the file naming both, whatever the engine",
          "[engines][identity]") {
  TempDir t;
  const auto expect_collision = [&](auto read, const std::string& name, const std::string& text, const std::string& a,
                                    const std::string& b, const std::string& id) {
    write_file(t.path() / name, text);
    try {
      read(t.path() / name);
      FAIL("no error for " << name);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::benchmark_output);
      CHECK(e.subject() == (t.path() / name).string());
      CHECK_THAT(e.cause(), Catch::StartsWith("two benchmarks in this file, '" + a + "' and '" + b +
                                              "', become the same benchmark id '" + id + "' (a name is split on"));
      CHECK_THAT(e.cause(), Catch::Contains("empty segments are dropped"));
      // The fix is a rename, not the parse error's "re-run the benchmarks".
      CHECK_THAT(e.hint(), Catch::StartsWith("rename one of them"));
      CHECK_THAT(e.cause() + e.hint(), !Catch::Contains("also reported by"));
    }
  };
  expect_collision(
      [](const fs::path& f) { return read_report_file(f); }, "gb.json",
      R"({"context":{"date":"x"},"benchmarks":[)"
      R"({"name":"BM_A/64","run_type":"iteration","repetition_index":0,"iterations":1,"real_time":10,"cpu_time":10,"time_unit":"ns"},)"
      R"({"name":"BM_A//64","run_type":"iteration","repetition_index":0,"iterations":1,"real_time":5000,"cpu_time":5000,"time_unit":"ns"}]})",
      "BM_A/64", "BM_A//64", "BM_A/64");
  expect_collision(read_bmf, "bmf.json", R"({"x/y": {"latency": {"value": 1}}, "x/y/": {"latency": {"value": 2}}})",
                   "x/y", "x/y/", "x/y");
  expect_collision(read_hyperfine, "hf.json",
                   R"({"results": [{"command": "a/b", "times": [0.1, 0.2]}, {"command": "a//b", "times": [0.1, 0.2]}]})",
                   "a/b", "a//b", "a/b");
  expect_collision(read_libtest, "bench.txt",
                   "test m::f ... bench: 10 ns/iter (+/- 1)\ntest m::::f ... bench: 20 ns/iter (+/- 1)\n", "m::f",
                   "m::::f", "m/f");
  // Catch2 keeps every name whole: a '/' inside a test case name can still print like a section.
  write_file(t.path() / "slash.xml",
             R"(<Catch name="b"><Group name="b">)"
             R"(<TestCase name="a/b"><BenchmarkResults name="c"><mean value="5" lowerBound="4" upperBound="6"/></BenchmarkResults><OverallResult success="true"/></TestCase>)"
             R"(<TestCase name="a"><Section name="b"><BenchmarkResults name="c"><mean value="500" lowerBound="400" upperBound="600"/></BenchmarkResults></Section><OverallResult success="true"/></TestCase>)"
             R"(</Group></Catch>)");
  try {
    read_catch2(t.path() / "slash.xml");
    FAIL("no error for slash.xml");
  } catch (const Error& e) {
    CHECK(e.subject() == (t.path() / "slash.xml").string());
    CHECK_THAT(e.cause(), Catch::StartsWith(R"(two benchmarks, ["a/b", "c"] and ["a", "b", "c"] (<BenchmarkResults> at XML line 1))"));
    CHECK_THAT(e.cause(), Catch::EndsWith(R"(are both shown as "a/b/c")"));
    CHECK_THAT(e.hint(), Catch::StartsWith("rename a test case, section or benchmark"));
  }
  // The same two in two files of one collection: the second file fails naming the first.
  write_file(t.path() / "dir" / "one.xml",
             R"(<Catch name="b"><Group name="b"><TestCase name="a/b"><BenchmarkResults name="c"><mean value="5" lowerBound="4" upperBound="6"/></BenchmarkResults><OverallResult success="true"/></TestCase></Group></Catch>)");
  write_file(t.path() / "dir" / "two.xml",
             R"(<Catch name="b"><Group name="b"><TestCase name="a"><Section name="b"><BenchmarkResults name="c"><mean value="500" lowerBound="400" upperBound="600"/></BenchmarkResults></Section><OverallResult success="true"/></TestCase></Group></Catch>)");
  std::vector<HarvestNote> notes;
  try {
    harvest_reports({t.path() / "dir"}, FreshnessGate::disabled(), notes);
    FAIL("no error for two files printing one id");
  } catch (const Error& e) {
    CHECK(e.subject() == (t.path() / "dir" / "two.xml").string());
    CHECK(e.cause() == "catch2 benchmark 'a/b/c' is also reported by " + (t.path() / "dir" / "one.xml").string());
  }
  // One name twice keeps its engine's own message (a re-registration, not a collapse).
  write_file(t.path() / "twice.txt", "test m::f ... bench: 10 ns/iter (+/- 1)\ntest m::f ... bench: 20 ns/iter (+/- 1)\n");
  expect_parse_error(read_libtest, t.path() / "twice.txt", "benchmark \"m::f\" is reported twice");
}

// ---------------------------------------------------------------------------------------------
// libtest

TEST_CASE("libtest: cargo bench's #[bench] lines: ns/iter as wall_time, no interval, rates and tests ignored",
          "[engines][libtest]") {
  TempDir t;
  const std::string out = cargo_bench_libtest();
  const fs::path file = t.path() / "cargo-bench.txt";
  write_file(file, out);
  const ParsedReport rep = read_libtest(file);
  CHECK(ids(rep) == std::vector<std::string>{"tests/bench_copy", "tests/bench_spin"});
  CHECK(rep.results[0].id.segments() == std::vector<std::string>{"tests", "bench_copy"});
  // The figure as printed, commas removed, read independently.
  const std::regex line_re(R"(test tests::bench_spin +\.\.\. bench: +([0-9,.]+) ns/iter \(\+/- [0-9,.]+\))");
  std::smatch m;
  REQUIRE(std::regex_search(out, m, line_re));
  std::string digits = m[1];
  digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
  const BenchmarkResult& spin = find(rep, "tests/bench_spin");
  REQUIRE(spin.metrics.size() == 1);
  CHECK(spin.metrics[0].kind == MetricKind::wall_time);
  CHECK(spin.metrics[0].value == std::stod(digits));
  CHECK_FALSE(spin.metrics[0].interval);  // +/- is max − min, not a bound (docs/harnesses.md#libtest)
  CHECK(find(rep, "tests/bench_copy").metrics.size() == 1);  // its MB/s rate is not stored
  CHECK(has_note(rep, "tests::bench_ignored stored nothing (ignored)"));
}

TEST_CASE("libtest: truncated, empty, foreign, mistyped, negative, NaN and failed output fails naming the file",
          "[engines][libtest]") {
  TempDir t;
  const std::string line = "test tests::bench_spin ... bench:       1,234.56 ns/iter (+/- 78.90)\n";
  const auto put = [&](const std::string& name, const std::string& text) {
    write_file(t.path() / name, text);
    return t.path() / name;
  };
  expect_parse_error(read_libtest, put("truncated.txt", line.substr(0, 45)), "line 1");
  expect_parse_error(read_libtest, put("empty.txt", ""), "no `test <name> ... bench:");
  expect_parse_error(read_libtest, put("foreign.txt", "running 1 test\ntest a ... ok\n"), "no `test <name> ... bench:");
  expect_parse_error(read_libtest, put("typed.txt", "test a ... bench: fast ns/iter (+/- 1)\n"), "not a non-negative number");
  expect_parse_error(read_libtest, put("negative.txt", "test a ... bench: -5 ns/iter (+/- 1)\n"), "not a non-negative number");
  expect_parse_error(read_libtest, put("nan.txt", "test a ... bench: NaN ns/iter (+/- 1)\n"), "not a non-negative number");
  expect_parse_error(read_libtest, put("unit.txt", "test a ... bench: 5 us/iter (+/- 1)\n"), "the unit is not ns/iter");
  expect_parse_error(read_libtest, put("failed.txt", line + "test tests::bench_x ... FAILED\n"),
                     "benchmark \"tests::bench_x\" FAILED");
  // Older toolchains printed whole numbers.
  CHECK(read_libtest(put("old.txt", "test a::b ... bench:       1,234 ns/iter (+/- 56)\n")).results.at(0).metrics.at(0).value == 1234);
}

// ---------------------------------------------------------------------------------------------
// recognition

TEST_CASE("report files are recognised by content: one harvest per engine, a foreign file fails naming it",
          "[engines][recognition][harvest]") {
  TempDir t;
  const fs::path out = t.path() / "out";
  fs::create_directories(out / "nested");
  hyperfine(out / "hf.json", {"--command-name", "nap", "sleep 0.001"});
  catch2_xml(out / "nested" / "catch2-report", "[shapes]");  // no extension: content decides
  REQUIRE(run({(harness_dir / "write_bmf.sh").string(), (out / "bmf.json").string()}).success());
  write_file(out / "bench.log", cargo_bench_libtest());

  std::vector<HarvestNote> notes;
  const auto h = harvest_reports({out}, FreshnessGate::for_run_start(enginetest::run_start()), notes);
  REQUIRE(h.size() == report_engines.size());
  auto results = [&](Engine e) {
    for (const auto& x : h)
      if (x.engine == e) return x.results.size();
    return std::size_t{99};
  };
  CHECK(results(Engine::google_benchmark) == 0);
  CHECK(results(Engine::hyperfine) == 1);
  CHECK(results(Engine::catch2) == 2);
  CHECK(results(Engine::bmf) == 2);
  CHECK(results(Engine::libtest) == 2);
  std::vector<std::string> texts;
  for (const auto& n : notes) texts.push_back(n.text());
  CHECK(std::any_of(texts.begin(), texts.end(), [&](const std::string& s) {
    return s.starts_with("catch2: included " + (out / "nested" / "catch2-report").string());
  }));
  CHECK(std::any_of(texts.begin(), texts.end(), [](const std::string& s) { return s.starts_with("hyperfine: included "); }));
  CHECK(std::any_of(texts.begin(), texts.end(), [](const std::string& s) { return s.starts_with("libtest: included "); }));

  // A stale file is recognised, then ignored by the gate like any engine's.
  enginetest::set_mtime(out / "hf.json", enginetest::run_start() - std::chrono::hours(1));
  notes.clear();
  CHECK(harvest_reports({out}, FreshnessGate::for_run_start(enginetest::run_start()), notes).at(1).results.empty());
  CHECK(std::any_of(notes.begin(), notes.end(), [](const HarvestNote& n) {
    return n.engine == Engine::hyperfine && n.decision == HarvestDecision::stale;
  }));

  // Anything else fails the harvest naming it: empty, foreign JSON, foreign text.
  for (const auto& [name, text, why] : std::vector<std::array<std::string, 3>>{
           {"empty.json", "", "it is empty"},
           {"config.json", R"({"threads": 4})", "it is a JSON object of none of the known shapes (its member \"threads\" is a number)"},
           {"notes.txt", "benchmarks ran fine\n", "it is neither JSON, XML nor libtest bench output"},
           {"catch2.txt",
            "benchmark name                       samples       iterations    est run time\n"
            "                                     mean          low mean      high mean\n"
            "sum                                          100             1     1.2 ms\n",
            "it is Catch2's console output, not its XML report: run the test binary with -r xml -o <file>"},
           {"cut.json", R"({"results": [{"comm)", "it is not complete JSON"},
           // An object of objects whose measures are not {value…}: no BMF document.
           {"nested.json", R"({"mean": {"point": 3, "spread": {"low": 1}}})",
            "it is a JSON object of none of the known shapes (read as Bencher Metric Format, \"/mean/point\" would be "
            "a measure, an object with \"value\", but it is a number)"},
           {"novalue.json", R"({"parse": {"latency": {"median": 3}}})",
            "it is a JSON object of none of the known shapes (read as Bencher Metric Format, \"/parse/latency\" would be a measure, an object with \"value\", but it "
            "is an object without \"value\")"}}) {
    write_file(out / name, text);
    expect_parse_error([&](const fs::path&) { harvest_reports({out}, FreshnessGate::disabled(), notes); }, out / name,
                       "no engine recognises this file: " + why);
    fs::remove(out / name);
  }
  // libtest output whose only benchmark FAILED has no bench line: still libtest's, and the
  // failure is named rather than the file called foreign.
  write_file(out / "failed.txt", "\nrunning 1 test\ntest tests::bench_x ... FAILED\n");
  expect_parse_error([&](const fs::path&) { harvest_reports({out}, FreshnessGate::disabled(), notes); },
                     out / "failed.txt", "benchmark \"tests::bench_x\" FAILED");
  fs::remove(out / "failed.txt");
}

TEST_CASE("Criterion's per-benchmark files given as reports are named as such, with --target-dir as the fix",
          "[engines][recognition][criterion]") {
  TempDir t;
  const fs::path fixtures = enginetest::fixture_path("criterion");
  std::vector<std::pair<fs::path, std::string>> files;  // the file, the Criterion file it is
  for (const char* c : {"std_instant", "fast_time_clock"})
    for (const char* f : {"estimates.json", "benchmark.json"}) files.emplace_back(fixtures / c / f, f);
  // Criterion 0.3 capitalised the estimates ("Mean"); sample.json is {sampling_mode, iters,
  // times} since 0.4 and [iters, times] before; tukey.json holds the four fences.
  write_file(t.path() / "old-estimates.json",
             R"({"Mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":4.6,"upper_bound":4.7},)"
             R"("point_estimate":4.7,"standard_error":0.01}})");
  files.emplace_back(t.path() / "old-estimates.json", "estimates.json");
  write_file(t.path() / "sample.json", R"({"sampling_mode":"Linear","iters":[1.0,2.0],"times":[20.0,41.0]})");
  files.emplace_back(t.path() / "sample.json", "sample.json");
  write_file(t.path() / "old-sample.json", "[[1.0,2.0,3.0],[20.0,41.0,60.0]]");
  files.emplace_back(t.path() / "old-sample.json", "sample.json");
  write_file(t.path() / "tukey.json", "[4.25,4.44,4.92,5.10]");
  files.emplace_back(t.path() / "tukey.json", "tukey.json");
  for (const auto& [file, what] : files) {
    INFO(file);
    try {
      read_report_file(file);
      FAIL("read as a report");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::benchmark_output);
      CHECK(e.subject() == file.string());
      CHECK(e.cause() == "no engine recognises this file: it is Criterion's per-benchmark output (its " + what +
                             "), not a report");
      CHECK_THAT(e.hint(), Catch::StartsWith("import a Criterion run with --target-dir <target dir>"));
    }
    std::string why;
    CHECK_FALSE(recognise_report(read_file(file), &why));
    CHECK_THAT(why, Catch::Contains("Criterion"));
  }
  // Other arrays stay foreign JSON.
  write_file(t.path() / "list.json", "[1, 2]");
  expect_parse_error(read_report_file, t.path() / "list.json", "no engine recognises this file: it is JSON but not an object");
}

TEST_CASE("libtest: plain cargo bench's captured stdout is harvested when it has bench lines", "[engines][libtest][harvest]") {
  TempDir t;
  HarvestOptions options;
  options.captured_stdout = cargo_bench_libtest();
  const Harvest h = harvest_all(t.path() / "no-target", enginetest::run_start(), options);
  CHECK(ids(ParsedReport{h.results(Engine::libtest), {}}) == std::vector<std::string>{"tests/bench_copy", "tests/bench_spin"});
  CHECK(std::any_of(h.notes.begin(), h.notes.end(), [](const HarvestNote& n) {
    return n.text() == "libtest: included <cargo bench standard output>";
  }));
  // Output without #[bench] lines (a Criterion-only crate) is not a report: nothing, no error.
  options.captured_stdout = "running 0 tests\n\ntest result: ok. 0 passed; 0 failed\n";
  CHECK(harvest_all(t.path() / "no-target", enginetest::run_start(), options).case_count() == 0);
  // Printed and also written to a file of the output directory: one would be silently lost.
  options.captured_stdout = cargo_bench_libtest();
  write_file(t.path() / "out" / "bench.txt", cargo_bench_libtest());
  options.report_paths = {t.path() / "out"};
  expect_parse_error([&](const fs::path&) { harvest_all(t.path() / "no-target", enginetest::run_start(), options); },
                     fs::path(std::string(captured_stdout_name)), "is also reported by a file in the output directory");
}
