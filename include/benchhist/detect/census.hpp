#pragma once
// The census reason of one series (docs/statistics.md#census): the first that applies, in pipeline
// order. The reasons, the Census that counts them, coverage and outcome are the shared
// vocabulary of model/verdict.hpp.

#include <cstddef>
#include <optional>

#include "benchhist/model/series.hpp"
#include "benchhist/model/verdict.hpp"

namespace benchhist::detect {

// What the pipeline knows about one series when it assigns the census reason.
struct ReasonInputs {
  AnalysisMode mode = AnalysisMode::history;
  bool present_at_context = true;       // false = ghost (docs/pipeline.md#reconstruction)
  bool matches_ignore_prefix = false;   // docs/configuration.md#analysis--benchmark-ignore-prefixes
  // history
  std::size_t active_points = 0;        // points at/after the blessing, before the 1000 cap
  std::size_t active_start = 0;         // > 0 when a blessing moved the start
  // branch
  bool context_point = true;
  std::size_t base_levels = 0;          // retained (capped, blessing-drained) levels
  std::size_t base_levels_before_blessing = 0;
  bool blessed = false;
  bool regime_unresolved = false;
};

// nullopt = judged.
std::optional<UnjudgedReason> unjudged_reason(const ReasonInputs& in) noexcept;

}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/census_impl.hpp"
#endif
