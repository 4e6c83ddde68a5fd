// The private JSON reader: exact doubles, strict grammar, positions in problems.

#include <catch2/catch.hpp>
#include <cmath>

#include "json_reader.hpp"

using namespace benchhist::engines::detail;

TEST_CASE("numbers convert to the correctly rounded double of their text", "[engines][json]") {
  const JsonValue v = parse_json("[26.92998067163995, 0.1, 1e-320, 2.5E0, -0, 18446744073709551615, 1e400, -1e400, 1e-400]");
  const auto& it = v.items();
  CHECK(it[0].number() == 26.92998067163995);
  CHECK(it[1].number() == 0.1);
  CHECK(it[2].number() == 1e-320);
  CHECK(it[3].number() == 2.5);
  CHECK(it[4].number() == 0.0);
  CHECK(it[5].unsigned_integer() == 18446744073709551615ull);
  CHECK(std::isinf(it[6].number()));
  CHECK(it[6].number() > 0);
  CHECK(std::isinf(it[7].number()));
  CHECK(it[7].number() < 0);
  CHECK(it[8].number() == 0.0);
  CHECK_FALSE(it[3].unsigned_integer());
}

TEST_CASE("strings decode escapes and surrogate pairs to UTF-8", "[engines][json]") {
  const JsonValue v = parse_json(R"({"s":"a\"b\\c\/\n\u00e9\ud83d\ude00"})");
  CHECK(v.find("s")->text() == "a\"b\\c/\n\xc3\xa9\xf0\x9f\x98\x80");
}

TEST_CASE("invalid or truncated JSON is a problem with its line and column", "[engines][json]") {
  CHECK_THROWS_WITH(parse_json("{\n  \"a\": tru"), Catch::Contains("line 2") && Catch::Contains("truncated"));
  CHECK_THROWS_WITH(parse_json("{\"a\":1,}"), Catch::Contains("member name"));
  CHECK_THROWS_WITH(parse_json("[01]"), Catch::Contains("leading zero"));
  CHECK_THROWS_WITH(parse_json("{} x"), Catch::Contains("after the JSON document"));
  CHECK_THROWS_WITH(parse_json("[Infinity]"), Catch::Contains("non-finite"));
  CHECK_THROWS_WITH(parse_json("\"\xff\""), Catch::Contains("UTF-8"));
  CHECK_THROWS_WITH(parse_json("\"\\ud800\""), Catch::Contains("surrogate"));
  CHECK_THROWS_WITH(parse_json("\"a\tb\""), Catch::Contains("control character"));
  CHECK_THROWS_WITH(parse_json(std::string(200, '[') + std::string(200, ']')), Catch::Contains("nesting"));
  CHECK_THROWS_WITH(parse_json("   "), Catch::Contains("empty"));
}

TEST_CASE("the first of duplicate members wins", "[engines][json]") {
  CHECK(parse_json(R"({"a":1,"a":2})").find("a")->number() == 1.0);
}
