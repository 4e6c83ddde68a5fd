#pragma once
// `list discriminants` (formats.md §6.5.6, §7.10): the partitions present in a store. Needs no
// repository; omitted filters mean "all" (no auto-detection).

#include <string>
#include <string_view>
#include <vector>

#include "benchhist/app/options.hpp"
#include "benchhist/model/discriminant.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::app {

// Lists `project_data_prefix(project)`, parses every key with parse_data_key (unparseable keys
// are skipped, formats.md §1.3), applies the filters and returns the distinct sets, sorted.
// Filters resolve with analysis::resolve_filters without auto-detection: an omitted axis means
// all; explicit values match the sanitized key segment ASCII-case-insensitively (§6.4).
// Throws Error{usage} for an unknown `--engine` name.
std::vector<DiscriminantSet> list_discriminant_sets(ObjectStore& store, std::string_view project,
                                                    const FilterOptions& filters);

// Rendering: report::render_discriminants_{text,markdown,json} (report/list_output.hpp).

}  // namespace benchhist::app
