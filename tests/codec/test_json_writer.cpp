#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

#include "benchhist/codec/json_writer.hpp"
#include "benchhist/error.hpp"

using namespace benchhist;
using codec::json::format_double;

TEST_CASE("numbers are written shortest round trip and always with a fraction or exponent", "[json]") {
  CHECK(format_double(36.0) == "36.0");
  CHECK(format_double(4.0) == "4.0");
  CHECK(format_double(0.0) == "0.0");
  CHECK(format_double(-0.0) == "-0.0");
  CHECK(format_double(2.5) == "2.5");  // not Boost.JSON's 2.5E0
  CHECK(format_double(-2.5) == "-2.5");
  CHECK(format_double(0.1) == "0.1");
  CHECK(format_double(26.92998067163995) == "26.92998067163995");
  CHECK(format_double(0.4743821543400398) == "0.4743821543400398");
  CHECK(format_double(20000000.0) == "20000000.0");
  CHECK(format_double(1e15) == "1000000000000000.0");
  CHECK(format_double(1e16) == "1e16");
  CHECK(format_double(1.5e16) == "1.5e16");
  CHECK(format_double(123456789012345680000.0) == "1.2345678901234568e20");
  CHECK(format_double(0.0001) == "0.0001");
  CHECK(format_double(0.00001234) == "0.00001234");
  CHECK(format_double(1e-6) == "1e-6");
  CHECK(format_double(-1.5e-7) == "-1.5e-7");
  CHECK(format_double(5e-324) == "5e-324");
  CHECK(format_double(1.7976931348623157e308) == "1.7976931348623157e308");
}

TEST_CASE("formatted numbers parse back to the identical double", "[json]") {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::uint64_t> bits;
  for (int i = 0; i < 20000; ++i) {
    std::uint64_t b = bits(rng);
    double d;
    std::memcpy(&d, &b, sizeof d);
    if (!std::isfinite(d)) continue;
    const std::string s = format_double(d);
    INFO(s);
    CHECK((s.find('.') != std::string::npos || s.find('e') != std::string::npos));
    CHECK(std::strtod(s.c_str(), nullptr) == d);
  }
}

TEST_CASE("non-finite numbers are never written", "[json]") {
  CHECK_THROWS_AS(format_double(std::numeric_limits<double>::quiet_NaN()), Error);
  CHECK_THROWS_AS(format_double(std::numeric_limits<double>::infinity()), Error);
  codec::json::Writer w;
  w.begin_object().key("value");
  CHECK_THROWS_WITH(w.value(-std::numeric_limits<double>::infinity()), Catch::Contains("value"));
}

TEST_CASE("the writer indents by two spaces and keeps the caller's member order", "[json]") {
  codec::json::Writer w;
  w.begin_object();
  w.member("zeta", 1);
  w.member("alpha", "x");
  w.null_member("none");
  w.key("empty_array").begin_array().end_array();
  w.key("empty_object").begin_object().end_object();
  w.key("list").begin_array().value(true).value(2.0).end_array();
  w.key("pairs").begin_array();
  w.begin_array().value(std::uint64_t{9867}).value(std::uint64_t{8}).end_array();
  w.end_array();
  w.key("metric").begin_inline_object().member("kind", "x").member("value", 4.0).end_object();
  w.key("inline_list").begin_inline_array().value(1).value(2).end_array();
  w.end_object();
  CHECK(w.str() ==
        "{\n"
        "  \"zeta\": 1,\n"
        "  \"alpha\": \"x\",\n"
        "  \"none\": null,\n"
        "  \"empty_array\": [],\n"
        "  \"empty_object\": {},\n"
        "  \"list\": [\n"
        "    true,\n"
        "    2.0\n"
        "  ],\n"
        "  \"pairs\": [\n"
        "    [\n"
        "      9867,\n"
        "      8\n"
        "    ]\n"
        "  ],\n"
        "  \"metric\": { \"kind\": \"x\", \"value\": 4.0 },\n"
        "  \"inline_list\": [1, 2]\n"
        "}");
}

TEST_CASE("strings are escaped like serde_json and non-ASCII text is kept", "[json]") {
  CHECK(codec::json::quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(codec::json::quote("\n\r\t\b\f") == "\"\\n\\r\\t\\b\\f\"");
  CHECK(codec::json::quote(std::string_view("\x01\x1f", 2)) == "\"\\u0001\\u001f\"");
  CHECK(codec::json::quote("caf\xC3\xA9 /") == "\"caf\xC3\xA9 /\"");
}

TEST_CASE("the writer refuses malformed call sequences", "[json]") {
  {
    codec::json::Writer w;
    w.begin_object();
    CHECK_THROWS_AS(w.value(1), Error);  // value without key
  }
  {
    codec::json::Writer w;
    w.begin_array();
    CHECK_THROWS_AS(w.key("k"), Error);
    CHECK_THROWS_AS(w.str(), Error);  // still open
    CHECK_THROWS_AS(w.end_object(), Error);
  }
  {
    codec::json::Writer w;
    w.value(1);
    CHECK(w.str() == "1");
    CHECK_THROWS_AS(w.value(2), Error);
  }
}

TEST_CASE("every integer type is written as an integer", "[json]") {
  codec::json::Writer w;
  w.begin_inline_array();
  w.value(-1).value(2u).value(3L).value(4LL).value(5UL).value(6ULL).value(std::size_t{7}).value(short{-8});
  w.value(std::numeric_limits<std::int64_t>::min()).value(std::numeric_limits<std::uint64_t>::max());
  w.end_array();
  CHECK(w.str() == "[-1, 2, 3, 4, 5, 6, 7, -8, -9223372036854775808, 18446744073709551615]");
}
