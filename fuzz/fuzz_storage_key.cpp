// Storage keys (docs/formats.md#key-grammar, #segment-sanitisation, #object-kinds): validate_key
// and is_valid_key agree; a parsed data key spells itself back (str) and parses to the same value;
// sanitize_segment is idempotent and yields one valid segment; builders given raw values make keys
// that parse back.

#include <cstring>

#include "benchhist/codec/key.hpp"
#include "fuzz_support.hpp"

namespace {

bool ascii_iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto l = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (l(a[i]) != l(b[i])) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto key = fuzz::as_view(data, size);

  bool threw = false;
  try {
    benchhist::codec::validate_key(key);
  } catch (const benchhist::Error& e) {
    threw = true;
    fuzz::check(e.kind() == benchhist::ErrorKind::invalid_key, "validate_key failed with a kind other than invalid_key");
    // The message shows a NUL byte as `\0` (it goes to a terminal).
    std::string shown;
    for (char c : key) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
    fuzz::check_names(e, shown);
  }
  fuzz::check(threw != benchhist::codec::is_valid_key(key), "validate_key and is_valid_key disagree");

  if (const auto parsed = benchhist::codec::parse_data_key(key)) {
    const std::string back = parsed->str();
    // Only the engine segment may change spelling (case), docs/formats.md#object-kinds.
    fuzz::check(ascii_iequal(back, key), "parse_data_key(k)->str() is not k", back);
    fuzz::check(benchhist::codec::is_valid_key(back), "a parsed data key spells an invalid key", back);
    const auto again = benchhist::codec::parse_data_key(back);
    fuzz::check(again && *again == *parsed, "a data key does not parse back to itself", back);
  }
  if (const auto commit = benchhist::codec::parse_project_blessing_key(key)) {
    fuzz::check(benchhist::codec::is_valid_key(key), "parse_project_blessing_key accepted an invalid key");
    fuzz::check(!commit->empty() && commit->find('/') == std::string::npos, "a blessing key's commit is not one segment");
  }

  const std::string seg = benchhist::codec::sanitize_segment(key);
  fuzz::check(!seg.empty() && benchhist::codec::is_valid_key(seg) && seg.find('/') == std::string::npos,
              "sanitize_segment did not make one valid segment", seg);
  fuzz::check(benchhist::codec::sanitize_segment(seg) == seg, "sanitize_segment is not idempotent", seg);

  // The raw bytes as every raw value of a key: the builders sanitize, so the key is valid
  // and parses back to the sanitized values.
  const std::int64_t ts = size >= 8 ? [&] { std::int64_t v; std::memcpy(&v, data, 8); return v; }() : 0;
  for (auto engine : benchhist::all_engines) {
    const std::string dirty = benchhist::codec::dirty_key(key, engine, key, key, key, ts);
    const auto parsed = benchhist::codec::parse_data_key(dirty);
    fuzz::check(parsed.has_value(), "a built dirty key does not parse", dirty);
    fuzz::check(parsed->str() == dirty && parsed->engine == engine && parsed->timestamp == ts &&
                    parsed->kind == benchhist::codec::ObjectKind::dirty && parsed->commit == seg,
                "a built dirty key parses to other values", dirty);
    const std::string clean = benchhist::codec::clean_key(key, engine, key, key, key);
    fuzz::check(benchhist::codec::parse_data_key(clean).has_value(), "a built clean key does not parse", clean);
  }
  const std::string bless = benchhist::codec::project_blessing_key(key, key, ts);
  const auto commit = benchhist::codec::parse_project_blessing_key(bless);
  fuzz::check(commit && *commit == seg, "a built project blessing key does not parse back", bless);
  return 0;
}
