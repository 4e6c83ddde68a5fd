#pragma once
// Comparison-base lag (docs/statistics.md#comparison-base-lag): advisory metadata for branch
// findings. It never changes findings or the exit code; history mode never lags. Pure: the caller
// supplies the sibling evidence (already loaded series first, then an optional lazy fetch). The lag
// value, its reasons and their report order (ordered_lags) are in model/verdict.hpp; the warning
// the reports print is report::lag_warning (report/prose.hpp).

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/verdict.hpp"

namespace benchhist::detect {

// A clean base-line run of some discriminant set at base-line topo index `topo`.
struct SiblingCleanPoint {
  DiscriminantSet set;
  std::int64_t topo = 0;
  bool has_same_benchmark_and_metric = false;  // its payload carries the finding's id and kind
};

// Same engine and target triple, different machine key.
bool is_sibling_set(const DiscriminantSet& finding_set, const DiscriminantSet& other) noexcept;

// Lazy evidence: returns sibling clean runs fetched on demand; nullopt (or a thrown
// benchhist::Error) = the fetch/parse failed, which degrades to no_recent_base_data.
using SiblingFetch = std::function<std::optional<std::vector<SiblingCleanPoint>>()>;

// docs/statistics.md#comparison-base-lag for one finding: loaded evidence first, then `fetch`
// (called only when needed).
ComparisonBaseLag comparison_base_lag(std::int64_t base_ref_index, std::int64_t comparison_base_index,
                                      const DiscriminantSet& finding_set,
                                      std::span<const SiblingCleanPoint> loaded_evidence,
                                      const SiblingFetch& fetch = {});

}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/lag_impl.hpp"
#endif
