// Constructed engine inputs (docs/formats.md#engine-harvest "additional cases") and malformed ones:
// each malformed input is one Error{decode} naming the file, with a cause and a hint.

#include <catch2/catch.hpp>

#include "benchhist/engines/all_the_time.hpp"
#include "benchhist/engines/alloc_tracker.hpp"
#include "benchhist/engines/callgrind.hpp"
#include "benchhist/engines/criterion.hpp"
#include "benchhist/error.hpp"
#include "support.hpp"

using namespace benchhist;
using namespace benchhist::engines;
using Segs = std::vector<std::string>;

namespace {

const std::filesystem::path kDir = "/t/criterion/g/f/p/new";

std::string estimate(double point, double low, double high) {
  return "{\"confidence_interval\":{\"confidence_level\":0.95,\"lower_bound\":" + std::to_string(low) +
         ",\"upper_bound\":" + std::to_string(high) + "},\"point_estimate\":" + std::to_string(point) +
         ",\"standard_error\":0.1}";
}

std::string bench_json(const std::string& function_id, const std::string& value_str) {
  return "{\"group_id\":\"grp\",\"function_id\":" + function_id + ",\"value_str\":" + value_str +
         ",\"throughput\":null,\"full_id\":\"x\",\"directory_name\":\"x\",\"title\":\"x\"}";
}

const std::string kEstimatesWithSlope = "{\"mean\":" + estimate(10, 9, 11) + ",\"slope\":" + estimate(8, 7, 9) +
                                        ",\"std_dev\":" + estimate(0.5, 0.4, 0.6) + "}";

// Asserts `fn` throws the parse error for `file`, with a cause containing `cause_part`.
template <class Fn>
void require_parse_error(Fn&& fn, const std::string& file, const std::string& cause_part) {
  try {
    fn();
    FAIL("expected a parse error for " << file);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::benchmark_output);
    CHECK(e.message() == "failed to parse benchmark output: " + file);
    CHECK(e.subject() == file);
    CHECK_THAT(e.cause(), Catch::Contains(cause_part));
    CHECK_FALSE(e.hint().empty());
  }
}

std::string summary_v6(const std::string& identity, const std::string& callgrind) {
  return "{\"version\":\"6\"," + identity +
         ",\"profiles\":[{\"tool\":\"Callgrind\",\"summaries\":{\"parts\":[],\"total\":{\"regressions\":[],"
         "\"summary\":{\"Callgrind\":" +
         callgrind + "}}}}]}";
}
const std::string kIdentity =
    "\"module_path\":\"crate::m\",\"function_name\":\"f\",\"id\":null,\"package_dir\":\"/src/pkg\"";

std::string summary_v7(const std::string& metrics) {
  return "{\"version\":\"7\"," + kIdentity +
         ",\"profiles\":[{\"tool\":\"Callgrind\",\"data\":{\"total\":{\"metrics\":" + metrics +
         "},\"parts\":[{\"metrics\":{\"Ir\":{\"values\":{\"new\":999}}}}]}}]}";
}

}  // namespace

// ---------------------------------------------------------------- Criterion

TEST_CASE("Criterion without a slope falls back to the mean with its own interval and std_dev",
          "[engines][criterion]") {
  const std::string est = "{\"mean\":" + estimate(10, 9, 11) + ",\"slope\":null,\"std_dev\":" + estimate(0.5, 0.4, 0.6) + "}";
  const auto r = parse_criterion_case(bench_json("\"fn\"", "\"p\""), est, kDir);
  REQUIRE(r.metrics.size() == 1);
  CHECK(r.metrics[0].value == 10.0);
  CHECK(r.metrics[0].interval == Interval{9.0, 11.0});
  CHECK(r.metrics[0].std_dev == 0.5);

  const std::string absent = "{\"mean\":" + estimate(10, 9, 11) + "}";
  const auto r2 = parse_criterion_case(bench_json("\"fn\"", "\"p\""), absent, kDir);
  CHECK(r2.metrics[0].value == 10.0);
  CHECK_FALSE(r2.metrics[0].std_dev);
}

TEST_CASE("Criterion prefers the slope when both slope and mean are present", "[engines][criterion]") {
  const auto r = parse_criterion_case(bench_json("\"fn\"", "\"p\""), kEstimatesWithSlope, kDir);
  CHECK(r.metrics[0].value == 8.0);
  CHECK(r.metrics[0].interval == Interval{7.0, 9.0});
}

TEST_CASE("Criterion parameter values are trimmed and blank ones dropped", "[engines][criterion]") {
  CHECK(parse_criterion_case(bench_json("\"fn\"", "\"  4096  \""), kEstimatesWithSlope, kDir).id.segments() ==
        Segs{"grp", "fn", "4096"});
  CHECK(parse_criterion_case(bench_json("\"fn\"", "\"\""), kEstimatesWithSlope, kDir).id.segments() == Segs{"grp", "fn"});
  CHECK(parse_criterion_case(bench_json("\"fn\"", "\" \\t \""), kEstimatesWithSlope, kDir).id.segments() ==
        Segs{"grp", "fn"});
  CHECK(parse_criterion_case(bench_json("\"fn\"", "null"), kEstimatesWithSlope, kDir).id.segments() == Segs{"grp", "fn"});
  // Group and function are not trimmed.
  CHECK(parse_criterion_case(bench_json("\" fn \"", "null"), kEstimatesWithSlope, kDir).id.segments() ==
        Segs{"grp", " fn "});
}

TEST_CASE("a null or absent Criterion function_id is an absent segment", "[engines][criterion]") {
  CHECK(parse_criterion_case(bench_json("null", "\"64\""), kEstimatesWithSlope, kDir).id.segments() == Segs{"grp", "64"});
  CHECK(parse_criterion_case("{\"group_id\":\"grp\"}", kEstimatesWithSlope, kDir).id.segments() == Segs{"grp"});
  CHECK(parse_criterion_case("{\"group_id\":\"\",\"function_id\":\"\",\"value_str\":\"\"}", kEstimatesWithSlope, kDir)
            .id.segments() == Segs{""});
}

TEST_CASE("malformed Criterion files are parse errors naming the offending file", "[engines][criterion][errors]") {
  const std::string bench_file = (kDir / "benchmark.json").string();
  const std::string est_file = (kDir / "estimates.json").string();
  const std::string good_bench = bench_json("\"fn\"", "\"p\"");
  require_parse_error([&] { parse_criterion_case("{\"group_id\":", kEstimatesWithSlope, kDir); }, bench_file, "truncated");
  require_parse_error([&] { parse_criterion_case("{\"function_id\":\"f\"}", kEstimatesWithSlope, kDir); }, bench_file,
                      "/group_id is missing");
  require_parse_error([&] { parse_criterion_case("{\"group_id\":7}", kEstimatesWithSlope, kDir); }, bench_file,
                      "must be a string");
  require_parse_error([&] { parse_criterion_case(good_bench, kEstimatesWithSlope.substr(0, 40), kDir); }, est_file,
                      "truncated");
  require_parse_error([&] { parse_criterion_case(good_bench, "{\"slope\":null}", kDir); }, est_file, "/mean is missing");
  require_parse_error([&] { parse_criterion_case(good_bench, "{\"mean\":" + estimate(-1, -2, 0) + "}", kDir); }, est_file,
                      "negative");
  require_parse_error([&] { parse_criterion_case(good_bench, "{\"mean\":{\"point_estimate\":NaN}}", kDir); }, est_file,
                      "NaN");
  require_parse_error(
      [&] {
        parse_criterion_case(good_bench,
                             "{\"mean\":{\"point_estimate\":1e999,\"confidence_interval\":{\"lower_bound\":1,\"upper_bound\":2}}}",
                             kDir);
      },
      est_file, "not a finite number");
  require_parse_error([&] { parse_criterion_case(good_bench, "{\"mean\":{\"point_estimate\":1}}", kDir); }, est_file,
                      "confidence_interval is missing");
  require_parse_error([&] { parse_criterion_case(good_bench, "{\"mean\":" + estimate(5, 6, 4) + "}", kDir); }, est_file,
                      "above upper_bound");
  require_parse_error([&] { parse_criterion_case(good_bench, "{\"mean\":" + estimate(5, 4, 6) + ",\"std_dev\":" +
                                                             estimate(-0.5, 0, 1) + "}", kDir); },
                      est_file, "/std_dev/point_estimate is negative");
  require_parse_error([&] { parse_criterion_case(good_bench, "", kDir); }, est_file, "empty");
}

TEST_CASE("read_criterion_case names the missing file of a half-written case", "[engines][criterion][errors]") {
  enginetest::TempDir tmp;
  const auto dir = tmp.path() / "criterion" / "g" / "new";
  enginetest::write_file(dir / "estimates.json", kEstimatesWithSlope);
  require_parse_error([&] { read_criterion_case(dir); }, (dir / "benchmark.json").string(), "no benchmark.json");
  std::filesystem::remove(dir / "estimates.json");
  enginetest::write_file(dir / "benchmark.json", bench_json("\"fn\"", "null"));
  require_parse_error([&] { read_criterion_case(dir); }, (dir / "estimates.json").string(), "no estimates.json");
}

// ---------------------------------------------------------------- Callgrind

TEST_CASE("the package segment is the last non-empty component of package_dir", "[engines][callgrind]") {
  CHECK(package_from_dir("/a/b/pkg/") == "pkg");
  CHECK(package_from_dir("/a/b/pkg") == "pkg");
  CHECK(package_from_dir("C:\\x\\pkg") == "pkg");
  CHECK(package_from_dir("C:\\x\\pkg\\\\") == "pkg");
  CHECK(package_from_dir("packages/fast_time") == "fast_time");
  CHECK(package_from_dir("pkg") == "pkg");
  CHECK_FALSE(package_from_dir(""));
  CHECK_FALSE(package_from_dir("/"));
  CHECK_FALSE(package_from_dir("\\/"));
}

TEST_CASE("Gungraun identity drops absent package and case id and empty strings", "[engines][callgrind]") {
  const std::string cg = "{\"Ir\":{\"metrics\":{\"Left\":{\"Int\":5}}}}";
  CHECK(parse_gungraun_summary(summary_v6("\"module_path\":\"m\",\"function_name\":\"f\",\"id\":null", cg), "s.json")
            .id.segments() == Segs{"m", "f"});
  CHECK(parse_gungraun_summary(summary_v6("\"module_path\":\"m\",\"function_name\":\"f\",\"package_dir\":\"/\"", cg),
                               "s.json")
            .id.segments() == Segs{"m", "f"});
  CHECK(parse_gungraun_summary(
            summary_v6("\"module_path\":\"\",\"function_name\":\"f\",\"id\":\"case\",\"package_dir\":\"C:\\\\w\\\\p\"", cg),
            "s.json")
            .id.segments() == Segs{"p", "f", "case"});
  CHECK(parse_gungraun_summary(summary_v6("\"module_path\":\"\",\"function_name\":\"\",\"id\":\"\"", cg), "s.json")
            .id.segments() == Segs{""});
}

TEST_CASE("schema 6 takes the new side of Both, Left values, Floats, and skips Right and empty metrics",
          "[engines][callgrind]") {
  const std::string cg =
      "{\"Ir\":{\"metrics\":{\"Both\":[{\"Int\":10},{\"Int\":9}]}},"
      "\"Bc\":{\"metrics\":{\"Left\":{\"Float\":1.5}}},"
      "\"Bi\":{\"metrics\":{\"Right\":{\"Int\":3}}},"
      "\"EstimatedCycles\":{\"metrics\":{\"Left\":{\"Int\":100}}},"
      "\"Bcm\":{\"metrics\":{\"Left\":{\"Int\":1}}}}";
  const auto r = parse_gungraun_summary(summary_v6(kIdentity, cg), "s.json");
  CHECK(r.id.segments() == Segs{"pkg", "crate::m", "f"});
  REQUIRE(r.metrics.size() == 2);
  CHECK(r.metrics[0].kind == MetricKind::conditional_branches);
  CHECK(r.metrics[0].value == 1.5);
  CHECK(r.metrics[1].kind == MetricKind::instruction_count);
  CHECK(r.metrics[1].value == 10.0);

  const auto empty = parse_gungraun_summary(summary_v6(kIdentity, "{\"Ir\":{\"metrics\":{}}}"), "s.json");
  CHECK(empty.metrics.empty());
}

TEST_CASE("a schema 6 summary without a Callgrind total yields an empty metric list", "[engines][callgrind]") {
  const std::string doc = "{\"version\":\"6\"," + kIdentity +
                          ",\"profiles\":[{\"tool\":\"DHAT\",\"summaries\":{\"parts\":[],\"total\":{\"summary\":{\"Dhat\":{}}}}}]}";
  CHECK(parse_gungraun_summary(doc, "s.json").metrics.empty());
  const std::string none = "{\"version\":\"6\"," + kIdentity + ",\"profiles\":[]}";
  CHECK(parse_gungraun_summary(none, "s.json").metrics.empty());
}

TEST_CASE("integer counts above 2^53 convert to the nearest double", "[engines][callgrind]") {
  const auto r = parse_gungraun_summary(
      summary_v6(kIdentity, "{\"Ir\":{\"metrics\":{\"Left\":{\"Int\":18446744073709551615}}}}"), "s.json");
  REQUIRE(r.metrics.size() == 1);
  CHECK(r.metrics[0].value == 18446744073709551615.0);
}

TEST_CASE("a repeated kind across Callgrind profiles keeps the first profile's value", "[engines][callgrind]") {
  const std::string profile_a =
      "{\"summaries\":{\"total\":{\"summary\":{\"Callgrind\":{\"Ir\":{\"metrics\":{\"Left\":{\"Int\":1}}}}}}}}";
  const std::string profile_b =
      "{\"summaries\":{\"total\":{\"summary\":{\"Callgrind\":{\"Ir\":{\"metrics\":{\"Left\":{\"Int\":2}}},"
      "\"Bc\":{\"metrics\":{\"Left\":{\"Int\":3}}}}}}}}";
  const std::string doc = "{\"version\":\"6\"," + kIdentity + ",\"profiles\":[" + profile_a + "," + profile_b + "]}";
  const auto r = parse_gungraun_summary(doc, "s.json");
  REQUIRE(r.metrics.size() == 2);
  CHECK(r.metrics[0].kind == MetricKind::instruction_count);
  CHECK(r.metrics[0].value == 1.0);
  CHECK(r.metrics[1].kind == MetricKind::conditional_branches);
  CHECK(r.metrics[1].value == 3.0);
}

TEST_CASE("schema 7 reads values.new of the Callgrind total and ignores parts and old-only events",
          "[engines][callgrind]") {
  const auto r = parse_gungraun_summary(
      summary_v7("{\"Ir\":{\"values\":{\"new\":87,\"old\":90},\"change\":null},"
                 "\"Bi\":{\"values\":{\"old\":1}},"
                 "\"Bc\":{\"values\":{\"new\":2.5}},"
                 "\"EstimatedCycles\":{\"values\":{\"new\":303}}}"),
      "s.json");
  CHECK(r.id.segments() == Segs{"pkg", "crate::m", "f"});
  REQUIRE(r.metrics.size() == 2);
  CHECK(r.metrics[0].kind == MetricKind::conditional_branches);
  CHECK(r.metrics[0].value == 2.5);
  CHECK(r.metrics[1].kind == MetricKind::instruction_count);
  CHECK(r.metrics[1].value == 87.0);
}

TEST_CASE("schema 7 skips profiles of other tools", "[engines][callgrind]") {
  const std::string doc = "{\"version\":\"7\"," + kIdentity +
                          ",\"profiles\":[{\"tool\":\"DHAT\",\"data\":{\"total\":{\"metrics\":{\"Ir\":{\"values\":"
                          "{\"new\":5}}}}}},{\"tool\":\"Callgrind\",\"data\":{\"total\":{\"metrics\":{\"Ir\":{\"values\":"
                          "{\"new\":6}}}}}}]}";
  const auto r = parse_gungraun_summary(doc, "s.json");
  REQUIRE(r.metrics.size() == 1);
  CHECK(r.metrics[0].value == 6.0);
}

TEST_CASE("a version 7 file in the schema 6 shape is rejected", "[engines][callgrind][errors]") {
  std::string text = enginetest::fixture("callgrind/single_unparametrized.summary.json");
  const auto pos = text.find("\"version\": \"6\"");
  REQUIRE(pos != std::string::npos);
  text.replace(pos, 14, "\"version\": \"7\"");
  require_parse_error([&] { parse_gungraun_summary(text, "/t/gungraun/x/summary.json"); }, "/t/gungraun/x/summary.json",
                      "/profiles/0/data is missing");
}

TEST_CASE("a version 6 file in the schema 7 shape is rejected", "[engines][callgrind][errors]") {
  std::string doc = summary_v7("{\"Ir\":{\"values\":{\"new\":87}}}");
  doc.replace(doc.find("\"7\""), 3, "\"6\"");
  require_parse_error([&] { parse_gungraun_summary(doc, "s.json"); }, "s.json", "/profiles/0/summaries is missing");
}

TEST_CASE("unsupported or missing Gungraun schema versions are rejected with the version named",
          "[engines][callgrind][errors]") {
  const std::string cg = "{\"Ir\":{\"metrics\":{\"Left\":{\"Int\":5}}}}";
  std::string v5 = summary_v6(kIdentity, cg);
  v5.replace(v5.find("\"6\""), 3, "\"5\"");
  require_parse_error([&] { parse_gungraun_summary(v5, "s.json"); }, "s.json",
                      "unsupported Gungraun summary schema version \"5\" (expected \"6\" or \"7\")");
  std::string numeric = summary_v6(kIdentity, cg);
  numeric.replace(numeric.find("\"6\""), 3, "6");
  require_parse_error([&] { parse_gungraun_summary(numeric, "s.json"); }, "s.json", "/version must be a string");
  require_parse_error([&] { parse_gungraun_summary("{\"profiles\":[]}", "s.json"); }, "s.json", "/version is missing");
}

TEST_CASE("malformed Gungraun values and truncated summaries are parse errors", "[engines][callgrind][errors]") {
  require_parse_error(
      [&] { parse_gungraun_summary(summary_v6(kIdentity, "{\"Ir\":{\"metrics\":{\"Left\":{\"Int\":-3}}}}"), "s.json"); },
      "s.json", "unsigned integer");
  require_parse_error(
      [&] { parse_gungraun_summary(summary_v6(kIdentity, "{\"Ir\":{\"metrics\":{\"Left\":{\"Float\":-1.5}}}}"), "s.json"); },
      "s.json", "negative");
  require_parse_error(
      [&] { parse_gungraun_summary(summary_v6(kIdentity, "{\"Ir\":{\"metrics\":{\"Left\":{\"Text\":\"1\"}}}}"), "s.json"); },
      "s.json", "{\"Int\": n} or {\"Float\": x}");
  require_parse_error(
      [&] { parse_gungraun_summary(summary_v6(kIdentity, "{\"Ir\":{\"metrics\":{\"Both\":[{\"Int\":1}]}}}"), "s.json"); },
      "s.json", "array of two values");
  require_parse_error([&] { parse_gungraun_summary(summary_v7("{\"Ir\":{\"values\":{\"new\":-4}}}"), "s.json"); }, "s.json",
                      "negative");
  const std::string full = enginetest::fixture("callgrind/parametrized.summary.json");
  require_parse_error([&] { parse_gungraun_summary(full.substr(0, full.size() / 2), "s.json"); }, "s.json", "truncated");
  require_parse_error([&] { parse_gungraun_summary("{\"version\":\"6\",\"function_name\":\"f\",\"profiles\":[]}", "s.json"); },
                      "s.json", "/module_path is missing");
  require_parse_error(
      [&] { parse_gungraun_summary("{\"version\":\"6\",\"module_path\":\"m\",\"function_name\":\"f\",\"profiles\":{}}", "s.json"); },
      "s.json", "/profiles must be an array");
}

// ---------------------------------------------------------------- alloc_tracker

TEST_CASE("alloc_tracker with a null or absent required slope drops the whole operation",
          "[engines][alloc_tracker]") {
  CHECK_FALSE(parse_alloc_tracker(
      "{\"operation\":\"op\",\"total_iterations\":0,\"span_count\":1,\"slope_bytes_per_iteration\":null,"
      "\"slope_allocations_per_iteration\":null}",
      "a.json"));
  CHECK_FALSE(parse_alloc_tracker("{\"operation\":\"op\",\"slope_bytes_per_iteration\":5.0,"
                                  "\"slope_allocations_per_iteration\":null,\"slope_peak_bytes\":10.0}",
                                  "a.json"));
  CHECK_FALSE(parse_alloc_tracker("{\"operation\":\"op\",\"slope_allocations_per_iteration\":1.0}", "a.json"));
  // Non-finite (a literal beyond the double range) drops it too.
  CHECK_FALSE(parse_alloc_tracker("{\"operation\":\"op\",\"slope_bytes_per_iteration\":1e400,"
                                  "\"slope_allocations_per_iteration\":1.0}",
                                  "a.json"));
}

TEST_CASE("alloc_tracker peaks become peak_outstanding_bytes with their interval; an unavailable peak drops only that metric",
          "[engines][alloc_tracker]") {
  const auto with_peak = parse_alloc_tracker(
      "{\"operation\":\"op\",\"span_count\":3,\"slope_bytes_per_iteration\":64.0,"
      "\"interval_low_bytes_per_iteration\":60.0,\"interval_high_bytes_per_iteration\":68.0,"
      "\"slope_allocations_per_iteration\":1.0,\"interval_low_allocations_per_iteration\":1.0,"
      "\"interval_high_allocations_per_iteration\":1.0,\"slope_peak_bytes\":128.5,"
      "\"interval_low_peak_bytes\":120.25,\"interval_high_peak_bytes\":130.75}",
      "a.json");
  REQUIRE(with_peak);
  REQUIRE(with_peak->metrics.size() == 3);
  CHECK(with_peak->metrics[2].kind == MetricKind::peak_outstanding_bytes);
  CHECK(with_peak->metrics[2].value == 128.5);
  CHECK(with_peak->metrics[2].interval == Interval{120.25, 130.75});
  CHECK_FALSE(with_peak->metrics[2].std_dev);

  const auto null_peak = parse_alloc_tracker(
      "{\"operation\":\"op\",\"slope_bytes_per_iteration\":64.0,\"slope_allocations_per_iteration\":1.0,"
      "\"slope_peak_bytes\":null}",
      "a.json");
  REQUIRE(null_peak);
  CHECK(null_peak->metrics.size() == 2);
  CHECK_FALSE(null_peak->find(MetricKind::peak_outstanding_bytes));

  const auto huge_peak = parse_alloc_tracker(
      "{\"operation\":\"op\",\"slope_bytes_per_iteration\":64.0,\"slope_allocations_per_iteration\":1.0,"
      "\"slope_peak_bytes\":1e999}",
      "a.json");
  REQUIRE(huge_peak);
  CHECK(huge_peak->metrics.size() == 2);
}

TEST_CASE("malformed alloc_tracker files are parse errors naming the file", "[engines][alloc_tracker][errors]") {
  require_parse_error([] { parse_alloc_tracker("{\"operation\":\"op\",\"slope_bytes_per_iteration\":", "/r/a.json"); },
                      "/r/a.json", "truncated");
  require_parse_error([] { parse_alloc_tracker("{\"slope_bytes_per_iteration\":1,\"slope_allocations_per_iteration\":1}", "/r/a.json"); },
                      "/r/a.json", "/operation is missing");
  require_parse_error(
      [] { parse_alloc_tracker("{\"operation\":\"op\",\"slope_bytes_per_iteration\":-1,\"slope_allocations_per_iteration\":1}", "/r/a.json"); },
      "/r/a.json", "negative");
  require_parse_error(
      [] { parse_alloc_tracker("{\"operation\":\"op\",\"slope_bytes_per_iteration\":\"1\",\"slope_allocations_per_iteration\":1}", "/r/a.json"); },
      "/r/a.json", "must be a number or null");
  require_parse_error(
      [] {
        parse_alloc_tracker("{\"operation\":\"op\",\"slope_bytes_per_iteration\":1,\"interval_low_bytes_per_iteration\":0.5,"
                            "\"slope_allocations_per_iteration\":1}",
                            "/r/a.json");
      },
      "/r/a.json", "an interval needs both bounds");
  require_parse_error(
      [] {
        parse_alloc_tracker("{\"operation\":\"op\",\"slope_bytes_per_iteration\":1,\"interval_low_bytes_per_iteration\":2,"
                            "\"interval_high_bytes_per_iteration\":1,\"slope_allocations_per_iteration\":1}",
                            "/r/a.json");
      },
      "/r/a.json", "is above");
  require_parse_error([] { parse_alloc_tracker("[1,2]", "/r/a.json"); }, "/r/a.json", "must be an object");
}

// ---------------------------------------------------------------- all_the_time

TEST_CASE("all_the_time with a null, absent or non-finite slope drops the operation", "[engines][all_the_time]") {
  CHECK_FALSE(parse_all_the_time("{\"operation\":\"op\",\"total_iterations\":0,\"slope_processor_time_nanos\":null}", "t.json"));
  CHECK_FALSE(parse_all_the_time("{\"operation\":\"op\"}", "t.json"));
  CHECK_FALSE(parse_all_the_time("{\"operation\":\"op\",\"slope_processor_time_nanos\":-1e999}", "t.json"));
}

TEST_CASE("all_the_time ignores totals and span counts and keeps the slope as written", "[engines][all_the_time]") {
  const auto r = parse_all_the_time("{\"operation\":\"a/b\",\"total_iterations\":3,\"total_processor_time_nanos\":999,"
                                    "\"span_count\":1,\"slope_processor_time_nanos\":0.1}",
                                    "t.json");
  REQUIRE(r);
  CHECK(r->id.segments() == Segs{"a/b"});
  CHECK(r->metrics[0].value == 0.1);
}

TEST_CASE("malformed all_the_time files are parse errors naming the file", "[engines][all_the_time][errors]") {
  require_parse_error([] { parse_all_the_time("", "/r/t.json"); }, "/r/t.json", "empty");
  require_parse_error([] { parse_all_the_time("{\"operation\":\"op\",\"slope_processor_time_nanos\":NaN}", "/r/t.json"); },
                      "/r/t.json", "NaN");
  require_parse_error([] { parse_all_the_time("{\"operation\":5,\"slope_processor_time_nanos\":1}", "/r/t.json"); },
                      "/r/t.json", "/operation must be a string");
  require_parse_error(
      [] { parse_all_the_time("{\"operation\":\"op\",\"slope_processor_time_nanos\":1,\"interval_high_processor_time_nanos\":2}", "/r/t.json"); },
      "/r/t.json", "an interval needs both bounds");
  require_parse_error([] { parse_all_the_time("{\"operation\":\"op\",\"slope_processor_time_nanos\":-0.5}", "/r/t.json"); },
                      "/r/t.json", "negative");
}
