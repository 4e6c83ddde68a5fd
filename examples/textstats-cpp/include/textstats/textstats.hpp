#pragma once
// textstats: small text statistics — the library the example benchmarks measure.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace textstats {

// Words are maximal runs of ASCII letters, digits and apostrophes.
std::size_t word_count(std::string_view text);

// Lines end at '\n'; a last line without one still counts.
std::size_t line_count(std::string_view text);

// The `k` most frequent words (lower-cased), most frequent first, ties in byte order.
std::vector<std::pair<std::string, std::size_t>> top_words(std::string_view text, std::size_t k);

// Deterministic sample text of about `bytes` bytes (for benchmarks and tests).
std::string sample_text(std::size_t bytes);

}  // namespace textstats
