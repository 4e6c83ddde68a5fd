#pragma once
// XML 1.0's predefined entities and character references (§4.1, §4.6; Char in §2.2): the one
// decoder of the Azure listing reader (lib/azure/responses.cpp) and of the report XML reader
// (lib/engines/xml_reader.cpp).

#include <optional>
#include <string>
#include <string_view>

#include "benchhist/codec/utf8.hpp"

namespace benchhist::codec::xml {

// The UTF-8 text that `&ref;` stands for (`ref` is what lies between `&` and `;`: `amp`,
// `#60`, `#x3C`); nullopt with `defect` saying what is wrong: an unknown entity, a malformed
// reference, or one to a code point XML does not allow (NUL, a surrogate, past U+10FFFF).
inline std::optional<std::string> decode_reference(std::string_view ref, std::string& defect) {
  if (ref == "amp") return "&";
  if (ref == "lt") return "<";
  if (ref == "gt") return ">";
  if (ref == "quot") return "\"";
  if (ref == "apos") return "'";
  const std::string shown = "&" + std::string(ref.substr(0, 16)) + ";";
  if (ref.empty() || ref[0] != '#') {
    defect = "the unknown entity " + shown;
    return std::nullopt;
  }
  const bool hex = ref.size() > 1 && ref[1] == 'x';
  const std::string_view digits = ref.substr(hex ? 2 : 1);
  char32_t cp = 0;
  for (const char c : digits) {
    const int d = c >= '0' && c <= '9'          ? c - '0'
                  : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                : -1;
    if (d < 0) {
      defect = "the malformed character reference " + shown;
      return std::nullopt;
    }
    cp = cp * (hex ? 16 : 10) + static_cast<char32_t>(d);
    if (cp > 0x10FFFF) break;
  }
  if (digits.empty()) {
    defect = "the empty character reference " + shown;
    return std::nullopt;
  }
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    defect = "the character reference " + shown + " to a code point XML does not allow";
    return std::nullopt;
  }
  std::string out;
  utf8::append_scalar(out, cp);
  return out;
}

}  // namespace benchhist::codec::xml
