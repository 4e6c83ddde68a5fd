#pragma once
// The names a hint suggests for one the user mistyped: the stored names closest to it, and the id
// inside one copied from a report, for every "no such benchmark" message (examine, analyze's
// prefixes, bisect, bless). Header-only.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/model/ascii.hpp"
#include "benchhist/model/engine.hpp"

namespace benchhist::report {

// Levenshtein distance: insertions, deletions and substitutions of one byte each.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// How a query is compared with a name: as a whole id (examine's --benchmark), or as a prefix
// of one (analyze's and bless's prefixes, ignore prefixes), which is compared with the name's
// beginning of the same length: `prase/` is then two edits from `parse/large`, not nine.
enum class Compare { whole, prefix };

// Up to `count` of `names`, closest to `query` first: a name that contains the query or is
// contained in it comes before any other (an engine-qualified id, a prefix one level too deep),
// then by edit distance, ties in name order. Case is ignored in the ranking (`PARSE` finds
// `parse/small` first), never in the names returned. `names` need not be sorted or distinct.
inline std::vector<std::string> closest_names(std::string_view query, std::vector<std::string> names,
                                              std::size_t count = 5, Compare compare = Compare::whole) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  const std::string q = ascii::to_lower(query);
  std::vector<std::pair<std::size_t, std::string>> ranked;
  ranked.reserve(names.size());
  for (auto& n : names) {
    const std::string lower = ascii::to_lower(n);
    const bool related = lower.find(q) != std::string::npos || q.find(lower) != std::string::npos;
    const std::string_view against =
        compare == Compare::prefix ? std::string_view(lower).substr(0, q.size()) : std::string_view(lower);
    ranked.emplace_back(related ? 0 : edit_distance(q, against), std::move(n));
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ranked.size() && i < count; ++i) out.push_back(std::move(ranked[i].second));
  return out;
}

// Reports print a benchmark as `<engine>/<id>`, while ids (and the prefixes and --benchmark values
// that select them) never carry the engine: the engine and the id of `text` when it starts with an
// engine name and a slash.
struct EngineQualified {
  Engine engine;
  std::string_view id;
};
inline std::optional<EngineQualified> split_engine_qualified(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  if (const auto engine = parse_engine(text.substr(0, slash))) return EngineQualified{*engine, text.substr(slash + 1)};
  return std::nullopt;
}

}  // namespace benchhist::report
