#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "benchhist/codec/xml_reference.hpp"

using benchhist::codec::xml::decode_reference;

namespace {

std::optional<std::string> decode(std::string_view ref, std::string* defect = nullptr) {
  std::string d;
  auto out = decode_reference(ref, d);
  if (defect) *defect = d;
  return out;
}

}  // namespace

TEST_CASE("decode_reference: the five entities and character references become UTF-8", "[xml]") {
  CHECK(decode("amp") == "&");
  CHECK(decode("lt") == "<");
  CHECK(decode("gt") == ">");
  CHECK(decode("quot") == "\"");
  CHECK(decode("apos") == "'");
  CHECK(decode("#65") == "A");
  CHECK(decode("#x41") == "A");
  CHECK(decode("#xe9") == "\xC3\xA9");                   // 2 bytes
  CHECK(decode("#x20AC") == "\xE2\x82\xAC");             // 3 bytes
  CHECK(decode("#x1F680") == "\xF0\x9F\x9A\x80");        // 4 bytes
  CHECK(decode("#x10FFFF") == "\xF4\x8F\xBF\xBF");       // the last scalar
}

TEST_CASE("decode_reference: unknown entities, malformed references and disallowed code points name the defect",
          "[xml]") {
  std::string defect;
  CHECK_FALSE(decode("nbsp", &defect));
  CHECK(defect == "the unknown entity &nbsp;");
  CHECK_FALSE(decode("", &defect));
  CHECK(defect == "the unknown entity &;");
  CHECK_FALSE(decode("#xZZ", &defect));
  CHECK(defect == "the malformed character reference &#xZZ;");
  CHECK_FALSE(decode("#X41", &defect));  // XML spells the hexadecimal form with a lower-case x
  CHECK(defect == "the malformed character reference &#X41;");
  CHECK_FALSE(decode("#", &defect));
  CHECK(defect == "the empty character reference &#;");
  CHECK_FALSE(decode("#x", &defect));
  CHECK(defect == "the empty character reference &#x;");
  for (const char* bad : {"#0", "#xD800", "#xDFFF", "#x110000", "#99999999999999999999"}) {
    CAPTURE(bad);
    CHECK_FALSE(decode(bad, &defect));
    CHECK_THAT(defect, Catch::Contains("to a code point XML does not allow"));
  }
}
