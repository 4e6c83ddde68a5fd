#pragma once
// Comparison-base lag (detection.md §11): advisory metadata for branch findings. It never
// changes findings or the exit code; history mode never lags. Pure: the caller supplies the
// sibling evidence (already loaded series first, then an optional lazy fetch).

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/model/discriminant.hpp"

namespace benchhist::detect {

// Declaration order = report order for equal gaps (mismatch before no-data).
enum class LagReason { discriminant_set_mismatch, no_recent_base_data };

std::string_view to_string(LagReason r) noexcept;
std::optional<LagReason> parse_lag_reason(std::string_view token) noexcept;
std::string_view lag_reason_phrase(LagReason r) noexcept;  // "discriminant set mismatch", ...

// A clean base-line run of some discriminant set at base-line topo index `topo`.
struct SiblingCleanPoint {
  DiscriminantSet set;
  std::int64_t topo = 0;
  bool has_same_benchmark_and_metric = false;  // its payload carries the finding's id and kind
};

// Same engine and target triple, different machine key.
bool is_sibling_set(const DiscriminantSet& finding_set, const DiscriminantSet& other) noexcept;

struct ComparisonBaseLag {
  std::int64_t commits_behind = 0;  // base_ref_index - comparison_base_index
  std::optional<LagReason> reason;  // nullopt when not lagging
  bool lags() const noexcept { return commits_behind > 0; }
};

// Lazy evidence: returns sibling clean runs fetched on demand; nullopt (or a thrown
// benchhist::Error) = the fetch/parse failed, which degrades to no_recent_base_data.
using SiblingFetch = std::function<std::optional<std::vector<SiblingCleanPoint>>()>;

// §11 for one finding: loaded evidence first, then `fetch` (called only when needed).
ComparisonBaseLag comparison_base_lag(std::int64_t base_ref_index, std::int64_t comparison_base_index,
                                      const DiscriminantSet& finding_set,
                                      std::span<const SiblingCleanPoint> loaded_evidence,
                                      const SiblingFetch& fetch = {});

// Per set: lagging entries deduplicated, ordered by commits_behind descending then mismatch
// before no-data. Non-lagging entries are dropped.
std::vector<std::pair<std::int64_t, LagReason>> set_lags(std::span<const ComparisonBaseLag> lags);

// "Warning: comparison base is N commit(s) behind base (<reason phrase>)".
std::string lag_warning_text(std::int64_t commits_behind, LagReason reason);

}  // namespace benchhist::detect
