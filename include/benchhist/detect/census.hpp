#pragma once
// Census, coverage and outcome (detection.md §12): one reason per series, first applicable in
// pipeline order, and the report-level tokens derived from the counts.

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace benchhist::detect {

// Declaration order = pipeline order = report order (§12.1).
enum class UnjudgedReason {
  ghost,
  ignored,
  too_few_points,
  too_few_points_since_blessing,
  not_measured_on_branch,
  too_few_base_commits,
  too_few_base_commits_since_blessing,
  current_base_regime_unresolved,
};
inline constexpr std::size_t unjudged_reason_count = 8;

std::string_view to_string(UnjudgedReason r) noexcept;
std::optional<UnjudgedReason> parse_unjudged_reason(std::string_view token) noexcept;

enum class AnalysisMode { history, branch };

inline constexpr std::size_t min_series_points = 10;  // MIN_SERIES_POINTS (§0.3)

// What the pipeline knows about one series when it assigns the census reason.
struct ReasonInputs {
  AnalysisMode mode = AnalysisMode::history;
  bool present_at_context = true;       // false = ghost (§2.3)
  bool matches_ignore_prefix = false;   // §2.4
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

enum class Coverage { no_series, nothing_in_scope, nothing_judged, partial, full };
enum class Outcome { findings, nothing_in_scope, insufficient_baseline, partial, clean };
std::string_view to_string(Coverage c) noexcept;
std::string_view to_string(Outcome o) noexcept;

struct CensusCounts {
  std::size_t judged = 0;
  std::array<std::size_t, unjudged_reason_count> unjudged{};
  std::size_t findings = 0;

  void add(std::optional<UnjudgedReason> reason) noexcept {
    if (reason) ++unjudged[static_cast<std::size_t>(*reason)];
    else ++judged;
  }
};

struct Census {
  std::size_t total = 0;
  std::size_t in_scope = 0;
  std::size_t judged = 0;
  std::size_t unjudged = 0;
  Coverage coverage = Coverage::no_series;
  Outcome outcome = Outcome::nothing_in_scope;
  bool notable = false;
  std::vector<std::pair<UnjudgedReason, std::size_t>> reasons;  // pipeline order, zeros omitted
};

Census summarize_census(const CensusCounts& counts);

}  // namespace benchhist::detect
