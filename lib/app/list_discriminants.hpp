#pragma once
// `list discriminants` (docs/cli.md#commands, docs/formats.md#listings-and-command-messages): the
// partitions present in a store. Needs no repository; omitted filters mean "all" (no
// auto-detection).

#include <string>
#include <string_view>
#include <vector>

#include "app/options.hpp"
#include "benchhist/model/discriminant.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::app {

// Lists `project_data_prefix(project)`, parses every key with parse_data_key (unparseable keys
// are skipped, docs/formats.md#object-kinds), applies the filters and returns the distinct sets,
// sorted.
// Filters resolve with FilterOptions::resolve without auto-detection: an omitted axis means
// all; explicit values match the sanitized key segment ASCII-case-insensitively
// (docs/formats.md#option-groups).
std::vector<DiscriminantSet> list_discriminant_sets(storage::ObjectStore& store, std::string_view project,
                                                    const FilterOptions& filters);

// Rendering: report::render_discriminants_{text,markdown,json} (report/list_output.hpp).

}  // namespace benchhist::app
