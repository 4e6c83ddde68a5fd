#pragma once
// Strict UTF-8 scanning (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
// Used by key sanitization (one `_` per scalar, docs/formats.md#segment-sanitisation) and by the
// record decoders (`stored object <key> is not valid UTF-8`, docs/formats.md#read-compatibility);
// append_scalar encodes the code points of XML character references (xml_reference.hpp).

#include <cstddef>
#include <string>
#include <string_view>

namespace benchhist::codec::utf8 {

// Length in bytes of the valid scalar starting at s[pos], or 0 when the bytes there do not
// begin a valid UTF-8 sequence (the caller then treats one byte as invalid).
constexpr std::size_t scalar_length(std::string_view s, std::size_t pos) noexcept {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = b(pos);
  const std::size_t left = s.size() - pos;
  const auto cont = [&](std::size_t i) { return (b(pos + i) & 0xC0) == 0x80; };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return (left >= 2 && cont(1)) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (left < 3 || !cont(1) || !cont(2)) return 0;
    const unsigned char c1 = b(pos + 1);
    if (c == 0xE0 && c1 < 0xA0) return 0;  // overlong
    if (c == 0xED && c1 > 0x9F) return 0;  // surrogates
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (left < 4 || !cont(1) || !cont(2) || !cont(3)) return 0;
    const unsigned char c1 = b(pos + 1);
    if (c == 0xF0 && c1 < 0x90) return 0;  // overlong
    if (c == 0xF4 && c1 > 0x8F) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

constexpr bool is_valid(std::string_view s) noexcept {
  for (std::size_t pos = 0; pos < s.size();) {
    const std::size_t n = scalar_length(s, pos);
    if (n == 0) return false;
    pos += n;
  }
  return true;
}

// Appends the UTF-8 encoding of `cp`, which the caller has checked is a scalar value (not a
// surrogate, at most U+10FFFF).
inline void append_scalar(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace benchhist::codec::utf8
