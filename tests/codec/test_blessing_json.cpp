#include <catch2/catch.hpp>

#include "benchhist/codec/blessing_json.hpp"
#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"
#include "common/test_data.hpp"

using namespace benchhist;

namespace {

const std::string project_key = "v1/p/objects/blessings/4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39/bless-1787306400123456789.json";
const std::string sidecar_key = "v1/p/objects/criterion/t/m/4f2a/bless-1787306400.json";

Blessing spec_example_blessing() {
  Blessing b;
  b.commit = "4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39";
  b.issued_at = *parse_rfc3339("2026-08-21T10:00:00.123456789Z");
  b.prefixes = {"http_parse/"};
  b.tool_version = "0.9.0";
  b.scope = BlessingScope{{}, {"x86_64-unknown-linux-gnu"}, {"a1b2c3d4e5f60718"}};
  return b;
}

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const auto pos = s.find(from);
  REQUIRE(pos != std::string::npos);
  s.replace(pos, from.size(), to);
  return s;
}

Error decode_error(const std::string& json, const std::string& key) {
  try {
    codec::decode_blessing(json, key);
  } catch (const Error& e) {
    return e;
  }
  FAIL("decoding succeeded: " << json);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("encode_blessing reproduces the formats.md 2.5 project-level example byte for byte", "[blessing_json]") {
  CHECK(codec::encode_blessing(spec_example_blessing()) == testing::example("formats/blessing-record.json"));
}

TEST_CASE("the formats.md 2.5 example decodes under its project-level key", "[blessing_json]") {
  const std::string text = testing::example("formats/blessing-record.json");
  CHECK(unix_nanos(spec_example_blessing().issued_at) == 1787306400123456789);
  CHECK(codec::decode_blessing(text, project_key) == spec_example_blessing());
}

TEST_CASE("a partition-local sidecar round trips without a scope", "[blessing_json]") {
  Blessing b = spec_example_blessing();
  b.scope.reset();
  b.prefixes.clear();  // bless --all
  const std::string text = codec::encode_blessing(b);
  CHECK_THAT(text, !Catch::Contains("scope"));
  CHECK_THAT(text, Catch::Contains("\"prefixes\": [],"));
  CHECK(codec::decode_blessing(text, sidecar_key) == b);
}

TEST_CASE("a sidecar's scope comes from its key, never from its body", "[blessing_json]") {
  const std::string text = codec::encode_blessing(spec_example_blessing());
  CHECK(!codec::decode_blessing(text, sidecar_key).scope.has_value());
}

TEST_CASE("a project-level record without scope is not a valid blessing", "[blessing_json]") {
  Blessing b = spec_example_blessing();
  b.scope.reset();
  const Error e = decode_error(codec::encode_blessing(b), project_key);
  CHECK(e.kind() == ErrorKind::decode);
  CHECK(e.message() == "stored object " + project_key + " is not a valid blessing");
  CHECK_THAT(e.cause(), Catch::StartsWith("scope: missing"));
  CHECK(e.subject() == project_key);
}

TEST_CASE("scope is strict: unknown or misspelled members and missing axes are rejected", "[blessing_json]") {
  const std::string good = codec::encode_blessing(spec_example_blessing());
  CHECK(decode_error(replace_once(good, "\"engine\": []", "\"engines\": []"), project_key).cause() ==
        "scope.engines: unknown scope member (expected engine, target_triple and machine_key)");
  CHECK(decode_error(replace_once(good, "\"engine\": [],", ""), project_key).cause() == "scope.engine: missing");
  CHECK(decode_error(replace_once(good, "\"engine\": []", "\"engine\": \"all\""), project_key).cause() ==
        "scope.engine: expected an array");
  CHECK(decode_error(replace_once(good, "\"engine\": []", "\"engine\": [1]"), project_key).cause() ==
        "scope.engine[0]: expected a string");
  CHECK(decode_error(replace_once(good, "\"scope\": {", "\"scope\": null, \"x\": {"), project_key).cause() ==
        "scope: expected an object");
}

TEST_CASE("common payload defects are reported with their path", "[blessing_json]") {
  const std::string good = codec::encode_blessing(spec_example_blessing());
  CHECK(decode_error(replace_once(good, "\"http_parse/\"", "\"http_parse/\", \"\""), sidecar_key).cause() ==
        "prefixes[1]: an empty prefix is invalid (an empty prefixes array means every benchmark)");
  CHECK(decode_error(replace_once(good, "\"issued_at\": \"2026-08-21T10:00:00.123456789Z\"", "\"issued_at\": 5"),
                     sidecar_key)
            .cause() == "issued_at: expected an RFC 3339 timestamp string");
  CHECK(decode_error(replace_once(good, "\"commit\": \"4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39\",", ""), sidecar_key)
            .cause() == "commit: missing");
  CHECK(decode_error("{", sidecar_key).message() == "stored object " + sidecar_key + " is not a valid blessing");
  CHECK(decode_error("{\"schema_version\": \"\xC3\"}", sidecar_key).message() ==
        "stored object " + sidecar_key + " is not valid UTF-8");
}

TEST_CASE("blessing schema 1 with commit_time decodes and versions above 2 are refused", "[blessing_json]") {
  Blessing b = spec_example_blessing();
  b.scope.reset();
  const std::string v2 = codec::encode_blessing(b);
  const std::string v1 = replace_once(replace_once(v2, "\"schema_version\": 2", "\"schema_version\": 1"),
                                      "\"tool_version\"", "\"commit_time\": \"2026-01-01T00:00:00Z\",\n  \"tool_version\"");
  CHECK(codec::decode_blessing(v1, sidecar_key).schema_version == 1);
  const Error e = decode_error(replace_once(v2, "\"schema_version\": 2", "\"schema_version\": 3"), sidecar_key);
  CHECK_THAT(e.message(), Catch::Contains("newer cargo-bench-history"));
  CHECK_THAT(e.hint(), Catch::Contains("upgrade"));
}
