#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "benchhist/report/list_output.hpp"
#include "benchhist/report/value_format.hpp"

using namespace benchhist;
using namespace benchhist::report;

TEST_CASE("values print with magnitude-dependent decimals as the spec's examples show", "[value]") {
  CHECK(format_value(0.20970324) == "0.2097");
  CHECK(format_value(96.7664) == "96.77");
  CHECK(format_value(0.000001234) == "0.000001234");
  CHECK(format_value(1234567.89) == "1234568");
  CHECK(format_value(100.36830218253652) == "100.4");
  CHECK(format_value(36.0) == "36");
  CHECK(format_value(130.05171405014943) == "130.1");
  CHECK(format_value(98.50313347697937) == "98.5");
  CHECK(format_value(108.7433855201543) == "108.7");
}

TEST_CASE("values strip trailing zeros and the trailing point", "[value]") {
  CHECK(format_value(1.5) == "1.5");
  CHECK(format_value(2.5000001) == "2.5");
  CHECK(format_value(10.001) == "10");  // 2 decimals → 10.00 → 10
  CHECK(format_value(-24.6) == "-24.6");
  CHECK(format_value(0.0) == "0");
  CHECK(format_value(-7.0) == "-7");
}

TEST_CASE("values round half to even on the exact binary value", "[value]") {
  // 0.125 is exact in binary: a true tie, rounds to even.
  CHECK(format_value(0.125) == "0.125");      // e = -1 → 4 decimals, no rounding needed
  CHECK(format_value(1.0625) == "1.062");     // e = 0 → 3 decimals: tie → even (2)
  CHECK(format_value(1.1875) == "1.188");     // tie → even (8)
  CHECK(format_value(12.125) == "12.12");     // e = 1 → 2 decimals: tie → even
  CHECK(format_value(12.375) == "12.38");
  CHECK(format_value(106.25) == "106.2");     // e = 2 → 1 decimal
  CHECK(format_value(106.75) == "106.8");
  CHECK(format_value(2.675) == "2.675");      // not a tie in binary, already 3 decimals
  CHECK(format_value(1.0005) == "1");         // 1.000499999… in binary rounds down
}

TEST_CASE("huge and tiny values keep their magnitude", "[value]") {
  CHECK(format_value(123456789012345.6) == "123456789012346");
  CHECK(format_value(1e15 + 0.5) == "1000000000000000");
  CHECK(format_value(1.5e-13) == "0.00000000000015");  // below 1e-12: e = -12, 15 decimals, zeros stripped
  CHECK(format_value(1.23e-12) == "0.00000000000123");
}

TEST_CASE("signed values take the sign from the sign bit", "[value]") {
  CHECK(format_signed_value(20.0) == "+20");
  CHECK(format_signed_value(-24.65) == "-24.65");
  CHECK(format_signed_value(-0.0) == "-0");
  CHECK(format_signed_value(0.0) == "+0");
}

TEST_CASE("percentages carry an explicit sign and two decimals", "[value]") {
  CHECK(format_percent(0.29574488381430086) == "+29.57%");
  CHECK(format_percent(-0.031) == "-3.10%");
  CHECK(format_percent(0.10395864254986495) == "+10.40%");
  CHECK(format_percent(0.0) == "+0.00%");
  CHECK(format_percent(1.5) == "+150.00%");
}

TEST_CASE("run spans name the oldest and newest short commits", "[value]") {
  const std::string a = "4d17b0c93ea2c0ffee00112233445566778899aa";
  const std::string b = "9f2c4a1d3b5e708aab12cd34ef5678901234567a";
  CHECK(format_run_span(128, a, b) == "128 (4d17b0c93ea2 \u2192 9f2c4a1d3b5e)");
  CHECK(format_run_span(1, b, b) == "1 (9f2c4a1d3b5e)");
  CHECK(format_run_span(0, std::nullopt, std::nullopt) == "0");
  CHECK(short_id("abc") == "abc");
}

TEST_CASE("plurals add s except for series", "[value]") {
  CHECK(plural(1, "run") == "1 run");
  CHECK(plural(0, "run") == "0 runs");
  CHECK(plural(2, "commit") == "2 commits");
  CHECK(plural(1, "series") == "1 series");
  CHECK(plural(3, "series") == "3 series");
}

TEST_CASE("lists are joined with a comma and a space, a blessing's empty prefix list in words", "[value]") {
  CHECK(joined({}) == "");
  CHECK(joined({"parse/large"}) == "parse/large");
  CHECK(joined({"a", "b", "c"}) == "a, b, c");
  CHECK(blessed_prefixes_text({}) == "all benchmarks");
  CHECK(blessed_prefixes_text({"read_cell", "parse/"}) == "read_cell, parse/");
}

TEST_CASE("JSON numbers use the shortest round trip with a fraction or exponent", "[value][json]") {
  CHECK(json_number(36.0) == "36.0");
  CHECK(json_number(100.36830218253652) == "100.36830218253652");
  CHECK(json_number(0.29574488381430086) == "0.29574488381430086");
  CHECK(json_number(26.92998067163995) == "26.92998067163995");
  CHECK(json_number(0.001234) == "0.001234");
  CHECK(json_number(1e-7) == "1e-7");
  CHECK(json_number(1.5e-7) == "1.5e-7");
  CHECK(json_number(1e15) == "1000000000000000.0");
  CHECK(json_number(1e16) == "1e16");
  CHECK(json_number(1e17) == "1e17");
  CHECK(json_number(1.5e20) == "1.5e20");
  CHECK(json_number(-2.5) == "-2.5");
  CHECK(json_number(0.0) == "0.0");
  CHECK(json_number(std::numeric_limits<double>::quiet_NaN()) == "null");
}

TEST_CASE("titles truncate on Unicode scalars, not bytes", "[value]") {
  CHECK(truncate_scalars("h\u00e9llo", 2) == "h\u00e9");
  CHECK(truncate_scalars("abc", 50) == "abc");
  CHECK(truncate_scalars("\u2192\u2192\u2192", 1) == "\u2192");
}
