// `list discriminants`, docs/formats.md#listings-and-command-messages.

#include "app/list_discriminants.hpp"

#include <algorithm>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/codec/key.hpp"

namespace benchhist::app {
std::vector<DiscriminantSet> list_discriminant_sets(storage::ObjectStore& store, std::string_view project,
                                                    const FilterOptions& filters) {
  const auto resolved = filters.resolve();  // no auto-detection here
  std::vector<DiscriminantSet> sets;
  for (const auto& key : store.list(codec::project_data_prefix(project))) {
    auto parsed = codec::parse_data_key(key);
    if (!parsed) continue;  // cache marker, project-level blessings, stray files (docs/formats.md#object-kinds)
    DiscriminantSet set = parsed->set();
    if (resolved.accepts(set)) sets.push_back(std::move(set));
  }
  std::sort(sets.begin(), sets.end());
  sets.erase(std::unique(sets.begin(), sets.end()), sets.end());
  return sets;
}

}  // namespace benchhist::app
