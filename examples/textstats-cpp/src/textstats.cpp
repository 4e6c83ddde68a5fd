#include "textstats/textstats.hpp"

#include <algorithm>
#include <unordered_map>

namespace textstats {
namespace {

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\'';
}

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::size_t word_count(std::string_view text) {
  std::size_t n = 0;
  bool in_word = false;
  for (char c : text) {
    const bool w = word_char(c);
    if (w && !in_word) ++n;
    in_word = w;
  }
  return n;
}

std::size_t line_count(std::string_view text) {
  if (text.empty()) return 0;
  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  return newlines + (text.back() == '\n' ? 0 : 1);
}

std::vector<std::pair<std::string, std::size_t>> top_words(std::string_view text, std::size_t k) {
  std::unordered_map<std::string, std::size_t> counts;
  std::string word;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && word_char(text[i])) {
      word += lower(text[i]);
    } else if (!word.empty()) {
      ++counts[word];
      word.clear();
    }
  }
  std::vector<std::pair<std::string, std::size_t>> out(counts.begin(), counts.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (out.size() > k) out.resize(k);
  return out;
}

std::string sample_text(std::size_t bytes) {
  static const char* const words[] = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
                                      "history", "benchmark", "commit", "regression", "drift", "median"};
  std::string out;
  out.reserve(bytes + 16);
  unsigned state = 12345;
  std::size_t on_line = 0;
  while (out.size() < bytes) {
    state = state * 1103515245u + 12345u;  // a fixed LCG: the same text on every machine
    out += words[(state >> 16) % (sizeof words / sizeof *words)];
    out += (++on_line % 12 == 0) ? '\n' : ' ';
  }
  return out;
}

}  // namespace textstats
