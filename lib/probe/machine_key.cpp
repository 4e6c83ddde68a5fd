// Machine key mk3 (docs/formats.md#machine-key) and its verbose components line.

#include "probe/machine_key.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <memory>

#include "benchhist/error.hpp"

namespace benchhist::probe {
namespace {

// Decodes one UTF-8 sequence at s[i]; returns the code point and its length. Invalid bytes
// decode as themselves (length 1) so they are kept verbatim, never treated as whitespace.
std::pair<char32_t, std::size_t> decode_utf8(std::string_view s, std::size_t i) {
  auto b0 = static_cast<unsigned char>(s[i]);
  auto cont = [&](std::size_t k) {
    return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
  };
  auto bits = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(s[i + k]) & 0x3F); };
  if (b0 < 0x80) return {b0, 1};
  if ((b0 & 0xE0) == 0xC0 && cont(1)) return {(static_cast<char32_t>(b0 & 0x1F) << 6) | bits(1), 2};
  if ((b0 & 0xF0) == 0xE0 && cont(1) && cont(2))
    return {(static_cast<char32_t>(b0 & 0x0F) << 12) | (bits(1) << 6) | bits(2), 3};
  if ((b0 & 0xF8) == 0xF0 && cont(1) && cont(2) && cont(3))
    return {(static_cast<char32_t>(b0 & 0x07) << 18) | (bits(1) << 12) | (bits(2) << 6) | bits(3), 4};
  return {0xFFFD0000u | b0, 1};  // not a valid scalar: never whitespace
}

// Unicode White_Space property (what Rust's char::is_whitespace tests).
bool is_unicode_whitespace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
         c == 0x205F || c == 0x3000;
}

std::string join_models(const std::vector<std::string>& models) {
  std::string out;
  for (const auto& m : models) {
    if (!out.empty()) out += ',';
    out += m;
  }
  return out;
}

}  // namespace

std::string normalize_processor_model(std::string_view model) {
  std::string out;
  bool pending_space = false;
  for (std::size_t i = 0; i < model.size();) {
    auto [cp, len] = decode_utf8(model, i);
    if (is_unicode_whitespace(cp)) {
      pending_space = !out.empty();
    } else {
      if (pending_space) out += ' ';
      pending_space = false;
      out.append(model.substr(i, len));
    }
    i += len;
  }
  return out;
}

std::vector<std::string> normalize_processor_models(const std::vector<std::string>& models) {
  std::vector<std::string> out;
  out.reserve(models.size());
  for (const auto& m : models) {
    auto n = normalize_processor_model(m);
    if (!n.empty()) out.push_back(std::move(n));
  }
  // std::string compares by char; byte order needs unsigned comparison for non-ASCII.
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return std::lexicographical_compare(
        a.begin(), a.end(), b.begin(), b.end(),
        [](char x, char y) { return static_cast<unsigned char>(x) < static_cast<unsigned char>(y); });
  });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string machine_key_canonical(const MachineKeyInputs& inputs) {
  std::string s(machine_key_version);
  s += "\nprocessors=" + std::to_string(inputs.processors);
  s += "\nmemory_regions=" + std::to_string(inputs.memory_regions);
  s += "\nprocessor_models=" + join_models(normalize_processor_models(inputs.processor_models));
  return s;
}

std::string compute_machine_key(const MachineKeyInputs& inputs) {
  const std::string canonical = machine_key_canonical(inputs);
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int len = 0;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), canonical.data(), canonical.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest.data(), &len) != 1 || len < 8) {
    throw Error(ErrorKind::internal, "could not compute the machine key", {},
                "OpenSSL SHA-256 digest failed");
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string key;
  key.reserve(16);
  for (std::size_t i = 0; i < 8; ++i) {
    key += hex[digest[i] >> 4];
    key += hex[digest[i] & 0x0F];
  }
  return key;
}

std::string machine_key_components_line(const MachineKeyInputs& inputs) {
  auto models = join_models(normalize_processor_models(inputs.processor_models));
  std::string s = "version=" + std::string(machine_key_version);
  s += ", processors=" + std::to_string(inputs.processors);
  s += ", memory_regions=" + std::to_string(inputs.memory_regions);
  s += ", processor_models=" + (models.empty() ? std::string("<none>") : models);
  return s;
}

}  // namespace benchhist::probe
