// `list discriminants`, formats.md §7.10.

#include "benchhist/app/list_discriminants.hpp"

#include <algorithm>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/storage/key.hpp"

namespace benchhist::app {
namespace {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char* hex = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xf];
          out += hex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace

std::vector<DiscriminantSet> list_discriminant_sets(ObjectStore& store, std::string_view project,
                                                    const DiscriminantFilters& filters) {
  // Resolved before touching storage so an engine typo fails fast; no auto-detection here.
  const auto resolved = analysis::resolve_filters(filters.engines, filters.target_triples,
                                                  filters.machine_keys, std::nullopt, std::nullopt);
  std::vector<DiscriminantSet> sets;
  for (const auto& key : store.list(project_data_prefix(project))) {
    auto parsed = parse_data_key(key);
    if (!parsed) continue;  // cache marker, project-level blessings, stray files (§1.3)
    DiscriminantSet set = parsed->set();
    if (resolved.accepts(set)) sets.push_back(std::move(set));
  }
  std::sort(sets.begin(), sets.end());
  sets.erase(std::unique(sets.begin(), sets.end()), sets.end());
  return sets;
}

std::string render_discriminants_text(const std::vector<DiscriminantSet>& sets) {
  if (sets.empty()) return "No discriminant sets found.\n";
  std::string out = "Discriminant sets:\n";
  for (const auto& s : sets) out += "  - " + s.label() + "\n";
  return out;
}

std::string render_discriminants_markdown(const std::vector<DiscriminantSet>& sets) {
  std::string out = "# Discriminant sets\n\n";
  if (sets.empty()) return out + "No discriminant sets found.\n";
  out += "| Engine | Target triple | Machine key |\n";
  out += "| --- | --- | --- |\n";
  for (const auto& s : sets)
    out += "| " + std::string(to_string(s.engine)) + " | " + s.target_triple + " | " + s.machine_key + " |\n";
  return out;
}

std::string render_discriminants_json(const std::vector<DiscriminantSet>& sets) {
  if (sets.empty()) return "[]";
  std::string out = "[\n";
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const auto& s = sets[i];
    out += "  {\n";
    out += "    \"engine\": " + json_string(to_string(s.engine)) + ",\n";
    out += "    \"target_triple\": " + json_string(s.target_triple) + ",\n";
    out += "    \"machine_key\": " + json_string(s.machine_key) + "\n";
    out += i + 1 < sets.size() ? "  },\n" : "  }\n";
  }
  return out + "]";
}

}  // namespace benchhist::app
