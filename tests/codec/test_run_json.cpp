#include <catch2/catch.hpp>

#include <limits>
#include <random>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/error.hpp"
#include "benchhist/version.hpp"
#include "common/test_data.hpp"

using namespace benchhist;

namespace {

Timestamp ts(const char* text) { return *parse_rfc3339(text); }

// The run of docs/formats.md#run-record's example (Callgrind fixture single_unparametrized).
Run spec_example_run() {
  Run run;
  RunContext& c = run.context;
  c.observation = ts("2026-08-20T09:14:03.512Z");
  c.git = {"4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39", "main", false};
  c.env = {CiProvider::github_actions, "16012345678", std::nullopt};
  c.toolchain = {"x86_64-unknown-linux-gnu", "1.91.0"};
  c.tool_version = "0.9.0";
  c.machine = MachineDescription{8, 1, {"Test CPU 3000"}, {{9867, 8}}, "4ffd697efb295d32"};
  c.best_of = 1;
  BenchmarkResult r;
  r.id = BenchmarkId({"fast_time", "fast_time_timestamp_performance_cg::timestamp_capture::timestamp_capture_std_now",
                      "timestamp_capture_std_now"});
  r.metrics = {{MetricKind::conditional_branches, 4.0, std::nullopt, std::nullopt},
               {MetricKind::indirect_branches, 2.0, std::nullopt, std::nullopt},
               {MetricKind::instruction_count, 36.0, std::nullopt, std::nullopt}};
  run.results.push_back(r);
  return run;
}

// Criterion fixture std_instant: a metric carrying every optional member.
Run criterion_run() {
  Run run;
  run.context.observation = ts("2026-08-20T09:14:03Z");
  run.context.git = {"abc", std::nullopt, true};
  run.context.env = {CiProvider::azure_devops, "77", "12"};
  run.context.toolchain = {"x86_64-unknown-linux-gnu", std::nullopt};
  run.context.tool_version = "0.9.0";
  BenchmarkResult r;
  r.id = BenchmarkId({"fast_time_timestamp_performance/timestamp_capture", "std_instant", "now"});
  r.metrics = {{MetricKind::wall_time, 26.92998067163995, 0.4743821543400398,
                Interval{26.672074791998387, 27.182943616630872}}};
  run.results.push_back(r);
  return run;
}

// alloc_tracker with a peak, dispersion fixture shape; machine present without speeds.
Run alloc_run() {
  Run run;
  run.context.observation = ts("2026-01-02T03:04:05.123456789Z");
  run.context.git = {std::nullopt, std::nullopt, false};
  run.context.env = {CiProvider::local, std::nullopt, std::nullopt};
  run.context.toolchain = {"aarch64-apple-darwin", "1.80.0"};
  run.context.tool_version = "1.0.0";
  run.context.machine = MachineDescription{2, 2, {}, {}, "0011223344556677"};
  run.context.best_of = 3;
  BenchmarkResult r;
  r.id = BenchmarkId({"allocate_vec"});
  r.metrics = {{MetricKind::allocated_bytes, 200.0, std::nullopt, Interval{199.3466786718254, 200.6533213281746}},
               {MetricKind::allocation_count, 2.0, std::nullopt, Interval{2.0, 2.0}},
               {MetricKind::peak_outstanding_bytes, 4096.0, std::nullopt, Interval{4000.5, 4100.25}}};
  run.results.push_back(r);
  BenchmarkResult t;
  t.id = BenchmarkId({"read_cell"});
  t.metrics = {{MetricKind::processor_time, 20000000.0, std::nullopt, std::nullopt}};
  run.results.push_back(t);
  return run;
}

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const auto pos = s.find(from);
  REQUIRE(pos != std::string::npos);
  s.replace(pos, from.size(), to);
  return s;
}

Error decode_error(const std::string& json, const std::string& key = "v1/p/objects/criterion/t/m/c/clean.json") {
  try {
    codec::decode_run(json, key);
  } catch (const Error& e) {
    return e;
  }
  FAIL("decoding succeeded: " << json);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("encode_run reproduces the formats.md 2.1 example byte for byte", "[run_json]") {
  const std::string expected = testing::example("formats/run-record-v5.json");
  CHECK(codec::encode_run(spec_example_run()) == expected);
}

TEST_CASE("the formats.md 2.1 example decodes to the run it describes", "[run_json]") {
  const std::string text = testing::example("formats/run-record-v5.json");
  CHECK(codec::decode_run(text, "k") == spec_example_run());
}

TEST_CASE("a Criterion metric writes every optional member in order on one line", "[run_json]") {
  const std::string text = codec::encode_run(criterion_run());
  CHECK_THAT(text, Catch::Contains(
                       "{ \"kind\": \"wall_time\", \"value\": 26.92998067163995, \"std_dev\": 0.4743821543400398, "
                       "\"interval_low\": 26.672074791998387, \"interval_high\": 27.182943616630872 }"));
  CHECK_THAT(text, !Catch::Contains("machine"));
  CHECK_THAT(text, !Catch::Contains("best_of"));
  CHECK_THAT(text, Catch::Contains("\"branch\": null"));
  CHECK_THAT(text, Catch::Contains("\"rustc_version\": null"));
  CHECK_THAT(text, Catch::Contains("\"pull_request\": \"12\""));
}

TEST_CASE("fixture-shaped runs round trip through encode and decode", "[run_json]") {
  for (const Run& run : {spec_example_run(), criterion_run(), alloc_run()}) {
    const Run back = codec::decode_run(codec::encode_run(run), "k");
    CHECK(back == run);
    CHECK(codec::encode_run(back) == codec::encode_run(run));
  }
  const Run back = codec::decode_run(codec::encode_run(alloc_run()), "k");
  REQUIRE(back.context.machine);
  CHECK(back.context.machine->processor_speeds.empty());
  CHECK(back.context.best_of == std::optional<std::uint32_t>(3));
  CHECK(back.results[0].find(MetricKind::peak_outstanding_bytes)->interval->high == 4100.25);
  CHECK(!codec::decode_run(codec::encode_run(criterion_run()), "k").context.machine.has_value());
}

TEST_CASE("encode_run always writes schema_version 5", "[run_json]") {
  Run run = criterion_run();
  run.schema_version = 3;
  CHECK(codec::encode_run(run).starts_with("{\n  \"schema_version\": 5,\n"));
}

TEST_CASE("encode_run refuses a non-finite metric value or deviation as bad input, naming its path", "[run_json]") {
  const auto refusal = [](const Run& run) {
    try {
      (void)codec::encode_run(run);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);  // the caller's input, not a bug of the library
      CHECK(e.hint().find("leave a failed measurement out") != std::string::npos);
      return std::string(e.what()) + " | " + e.subject();
    }
    return std::string("written");
  };
  Run run = criterion_run();
  run.results.push_back(run.results[0]);
  run.results[1].id = BenchmarkId({"second"});
  run.results[1].metrics[0].value = std::numeric_limits<double>::quiet_NaN();
  CHECK(refusal(run) == "cannot store a run whose results[1].metrics[0].value is wrong: the wall_time value is not a "
                        "finite number (nan) | results[1].metrics[0].value");
  run.results[1].metrics[0].value = 1.0;
  run.results[1].metrics[0].std_dev = std::numeric_limits<double>::infinity();
  CHECK(refusal(run).starts_with("cannot store a run whose results[1].metrics[0].std_dev is wrong: the wall_time "
                                 "standard deviation is not a finite number (inf)"));
}

TEST_CASE("decoding accepts any whitespace, field order, integers for numbers and unknown members", "[run_json]") {
  const std::string compact =
      R"({"results":[{"metrics":[{"value":36,"kind":"instruction_count","future":1}],"id":{"segments":["a"]}}],)"
      R"("context":{"tool_version":"0.1","toolchain":{"rustc_version":null,"target_triple":"t"},)"
      R"("env":{"provider":"local"},"git":{"dirty":false},"observation":"2026-08-20T09:14:03Z",)"
      R"("short_commit":"abc"},"schema_version":2,"commit":"2020-01-01T00:00:00Z"})";
  const Run run = codec::decode_run(compact, "k");
  CHECK(run.schema_version == 2);
  CHECK(!run.context.git.commit);
  CHECK(!run.context.env.run_id);
  REQUIRE(run.results.size() == 1);
  CHECK(run.results[0].metrics[0].value == 36.0);
  CHECK(run.results[0].metrics[0].kind == MetricKind::instruction_count);
}

TEST_CASE("metrics of unknown kinds are dropped silently and the rest of the run loads", "[run_json]") {
  std::string text = codec::encode_run(spec_example_run());
  text = replace_once(text, "{ \"kind\": \"indirect_branches\", \"value\": 2.0 }",
                      "{ \"kind\": \"estimated_cycles\", \"value\": \"not even a number\" }");
  const Run run = codec::decode_run(text, "k");
  REQUIRE(run.results[0].metrics.size() == 2);
  CHECK(run.results[0].metrics[0].kind == MetricKind::conditional_branches);
  CHECK(run.results[0].metrics[1].kind == MetricKind::instruction_count);
}

TEST_CASE("a decoding error names the key and the JSON path of the bad field", "[run_json]") {
  Run run = spec_example_run();
  for (int i = 0; i < 3; ++i) {
    run.results.push_back(run.results[0]);
    run.results.back().id = BenchmarkId({"copy", std::to_string(i)});  // one result per benchmark
  }
  std::string text = codec::encode_run(run);
  // Break results[3].metrics[0].value (the fourth occurrence).
  std::size_t pos = 0;
  for (int i = 0; i < 4; ++i) pos = text.find("\"value\": 4.0", pos) + 1;
  text.replace(pos - 1, std::string("\"value\": 4.0").size(), "\"value\": \"4\"");
  const std::string key = "v1/p/objects/callgrind/t/m/c/clean.json";
  const Error e = decode_error(text, key);
  CHECK(e.kind() == ErrorKind::decode);
  CHECK(e.message() == "stored object " + key + " is not a valid result set");
  CHECK(e.cause() == "results[3].metrics[0].value: expected a number");
  CHECK(e.subject() == key);
  CHECK_FALSE(e.hint().empty());
}

TEST_CASE("malformed records are refused with the path of the first defect", "[run_json]") {
  const std::string good = codec::encode_run(criterion_run());
  struct Case {
    std::string from, to, cause;
  };
  const std::vector<Case> cases = {
      {"\"segments\": [\n          \"fast_time_timestamp_performance/timestamp_capture\",\n          \"std_instant\",\n          \"now\"\n        ]",
       "\"segments\": []", "results[0].id.segments: expected at least one segment"},
      {"\"kind\": \"wall_time\", \"value\": 26.92998067163995,", "\"kind\": \"wall_time\",",
       "results[0].metrics[0].value: missing"},
      {"\"value\": 26.92998067163995", "\"value\": null", "results[0].metrics[0].value: expected a number"},
      {"\"kind\": \"wall_time\"", "\"kind\": 3", "results[0].metrics[0].kind: expected a string"},
      {", \"interval_high\": 27.182943616630872", "", "results[0].metrics[0].interval_high: missing (interval bounds come in pairs)"},
      {"\"std_dev\": 0.4743821543400398", "\"std_dev\": \"wide\"", "results[0].metrics[0].std_dev: expected a number"},
      {"\"observation\": \"2026-08-20T09:14:03Z\"", "\"observation\": \"yesterday\"",
       "context.observation: expected an RFC 3339 timestamp, got \"yesterday\""},
      // fuzz_run_json finding 1: a year past 2262 overflowed the nanosecond clock (UB).
      {"\"observation\": \"2026-08-20T09:14:03Z\"", "\"observation\": \"4052-08-20T09:14:03Z\"",
       "context.observation: expected an RFC 3339 timestamp, got \"4052-08-20T09:14:03Z\""},
      {"\"provider\": \"azure_devops\"", "\"provider\": \"jenkins\"",
       "context.env.provider: unknown provider \"jenkins\" (expected local, github_actions or azure_devops)"},
      {"\"dirty\": true", "\"dirty\": \"yes\"", "context.git.dirty: expected true or false"},
      {"\"rustc_version\": null\n    },\n    \"tool_version\": \"0.9.0\"", "\"rustc_version\": null\n    }",
       "context.tool_version: missing"},
      {"\"schema_version\": 5", "\"schema_version\": \"5\"", "schema_version: expected an integer"},
      {"\"schema_version\": 5", "\"schema_version\": 0", "schema_version: unsupported version 0"},
      {"\"tool_version\": \"0.9.0\"", "\"tool_version\": \"0.9.0\", \"best_of\": 0",
       "context.best_of: expected an integer of at least 1"},
      {"\"tool_version\": \"0.9.0\"", "\"tool_version\": \"0.9.0\", \"machine\": {\"processors\": 1.5}",
       "context.machine.processors: expected a non-negative integer"},
      {"\"tool_version\": \"0.9.0\"",
       "\"tool_version\": \"0.9.0\", \"machine\": {\"processors\": 1, \"memory_regions\": 1, \"processor_speeds\": [[1]], \"fingerprint\": \"f\"}",
       "context.machine.processor_speeds[0]: expected a [speed, count] pair"},
      {"\"metrics\": [\n", "\"metrics\": [\n{ \"kind\": \"wall_time\", \"value\": 1.0 },\n",
       "results[0].metrics: metric kind wall_time appears twice"},
      {"\"interval_low\": 26.672074791998387", "\"interval_low\": 27.5",
       "results[0].metrics: the wall_time interval's low bound 27.5 is not at most its high bound 27.182943616630872"},
  };
  for (const auto& c : cases) {
    INFO(c.to);
    const Error e = decode_error(replace_once(good, c.from, c.to));
    CHECK(e.message() == "stored object v1/p/objects/criterion/t/m/c/clean.json is not a valid result set");
    CHECK(e.cause() == c.cause);
  }
}

TEST_CASE("a benchmark listed twice in a stored run is refused at its earliest repeat", "[run_json]") {
  Run run = criterion_run();
  for (const char* name : {"first", "other", "third", "fourth"}) {
    run.results.push_back(criterion_run().results[0]);
    run.results.back().id = BenchmarkId({name});
  }
  run.results.erase(run.results.begin());
  // A hand-edited object: "other" again at results[2], "first" again at results[3].
  std::string text = replace_once(codec::encode_run(run), "\"third\"", "\"other\"");
  text = replace_once(text, "\"fourth\"", "\"first\"");
  const Error e = decode_error(text);
  CHECK(e.kind() == ErrorKind::decode);
  CHECK(e.message() == "stored object v1/p/objects/criterion/t/m/c/clean.json is not a valid result set");
  CHECK(e.cause() == "results[2].id: benchmark \"other\" is listed twice (first at results[1])");
  CHECK_FALSE(e.hint().empty());
}

TEST_CASE("a run the reader would refuse is never written", "[run_json]") {
  const Run good = criterion_run();
  const auto refusal = [](const Run& run) {
    try {
      (void)codec::encode_run(run);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK_FALSE(e.hint().empty());
      return e.subject() + " | " + e.message();
    }
    return std::string("written");
  };
  Run twice = good;
  twice.results.push_back(good.results[0]);
  CHECK(refusal(twice) ==
        "results[1].id | cannot store a run whose results[1].id is wrong: benchmark \"" +
            good.results[0].id.qualified() + "\" is listed twice (first at results[0])");
  Run no_id = good;
  no_id.results[0].id = BenchmarkId();
  CHECK(refusal(no_id) ==
        "results[0].id.segments | cannot store a run whose results[0].id.segments is wrong: expected at least one segment");
  Run kind_twice = good;
  kind_twice.results[0].metrics.push_back(good.results[0].metrics[0]);
  CHECK(refusal(kind_twice) ==
        "results[0].metrics | cannot store a run whose results[0].metrics is wrong: metric kind wall_time appears twice");
  Run inverted = good;
  inverted.results[0].metrics[0].interval = Interval{2.5, 1.5};
  CHECK(refusal(inverted) == "results[0].metrics | cannot store a run whose results[0].metrics is wrong: the wall_time "
                             "interval's low bound 2.5 is not at most its high bound 1.5");
  // A value outside its interval is kept: a bootstrap interval need not contain its estimate.
  Run outside = good;
  outside.results[0].metrics[0].interval = Interval{1e9, 2e9};
  CHECK(refusal(outside) == "written");
  CHECK(codec::decode_run(codec::encode_run(outside), "k") == outside);
}

TEST_CASE("structurally wrong documents are not valid result sets", "[run_json]") {
  CHECK(decode_error("[]").cause() == "(top level): expected an object");
  CHECK(decode_error("{}").cause() == "schema_version: missing");
  CHECK(decode_error(R"({"schema_version":5})").cause() == "context: missing");
  const Error syntax = decode_error("{\n  \"schema_version\": 5,\n  oops\n}");
  CHECK(syntax.message() == "stored object v1/p/objects/criterion/t/m/c/clean.json is not a valid result set");
  CHECK_THAT(syntax.cause(), Catch::StartsWith("invalid JSON at line 3, column 3"));
  CHECK_THAT(decode_error("").cause(), Catch::StartsWith("invalid JSON"));
  CHECK_THAT(decode_error(codec::encode_run(criterion_run()) + " {}").cause(), Catch::StartsWith("invalid JSON"));
}

TEST_CASE("a body that is not UTF-8 gets its own message naming the key", "[run_json]") {
  std::string text = codec::encode_run(criterion_run());
  text = replace_once(text, "0.9.0", "0.9.\xFF");
  const Error e = decode_error(text, "v1/p/objects/criterion/t/m/c/dirty-5.json");
  CHECK(e.message() == "stored object v1/p/objects/criterion/t/m/c/dirty-5.json is not valid UTF-8");
  CHECK(e.kind() == ErrorKind::decode);
}

TEST_CASE("schema versions above 5 are refused with an upgrade hint while 1 to 5 decode", "[run_json]") {
  const std::string good = codec::encode_run(criterion_run());
  for (int v = 1; v <= 5; ++v)
    CHECK(codec::decode_run(replace_once(good, "\"schema_version\": 5", "\"schema_version\": " + std::to_string(v)), "k")
              .schema_version == v);
  const Error e = decode_error(replace_once(good, "\"schema_version\": 5", "\"schema_version\": 6"), "v1/p/k.json");
  CHECK(e.kind() == ErrorKind::decode);
  CHECK(e.message() ==
        "stored object v1/p/k.json was written by a newer cargo-bench-history (schema_version 6; this version reads 1 to 5)");
  CHECK_THAT(e.hint(), Catch::Contains("upgrade"));
}

TEST_CASE("numbers outside the double range are refused rather than read as infinity", "[run_json]") {
  const std::string good = codec::encode_run(criterion_run());
  const Error e = decode_error(replace_once(good, "\"value\": 26.92998067163995", "\"value\": 1e400"));
  CHECK(e.message() == "stored object v1/p/objects/criterion/t/m/c/clean.json is not a valid result set");
  CHECK(e.cause() == "results[0].metrics[0].value: expected a finite number");
  // Integers beyond 64 bits are numbers too (Boost.JSON reads them as doubles).
  const Run big = codec::decode_run(replace_once(good, "\"value\": 26.92998067163995", "\"value\": 123456789012345678901234567890"), "k");
  CHECK(big.results[0].metrics[0].value == Approx(1.2345678901234568e29));
}

TEST_CASE("every double survives encode and decode exactly", "[run_json]") {
  // Boost.JSON 1.81's own number conversion is off by one ULP for about one value in ten;
  // the decoder must not inherit that.
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> ns(0.0, 1e7);
  Run run = criterion_run();
  run.results[0].metrics.clear();
  BenchmarkResult proto = run.results[0];
  run.results.clear();
  for (int i = 0; i < 2000; ++i) {
    BenchmarkResult r = proto;
    r.id = BenchmarkId({"b" + std::to_string(i)});
    const double v = ns(rng);
    r.metrics = {{MetricKind::wall_time, v, v / 97.0, Interval{v * 0.99, v * 1.01}}};
    run.results.push_back(r);
  }
  CHECK(codec::decode_run(codec::encode_run(run), "k") == run);
}

TEST_CASE("a repeated member is refused rather than silently resolved", "[run_json]") {
  const std::string good = codec::encode_run(criterion_run());
  const Error e = decode_error(replace_once(good, "\"value\": 26.92998067163995", "\"value\": 1.0, \"value\": 26.92998067163995"));
  CHECK(e.message() == "stored object v1/p/objects/criterion/t/m/c/clean.json is not a valid result set");
  CHECK_THAT(e.cause(), Catch::StartsWith("invalid JSON at line ") && Catch::EndsWith(": duplicate member \"value\""));
  // The same name at different levels or in sibling objects is fine.
  Run two = criterion_run();
  two.results.push_back(two.results[0]);
  two.results[1].id = BenchmarkId({"other"});
  CHECK(codec::decode_run(codec::encode_run(two), "k") == two);
}

TEST_CASE("the tool version recorded in runs is meson's project version", "[version]") {
  CHECK(benchhist::tool_version == BH_PROJECT_VERSION);
}
