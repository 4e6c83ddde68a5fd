#pragma once
// History selection adjustment — the split-search correction (detection.md §5). Given the
// analysed values it returns the Mann-Whitney p at the Pettitt split ("tainted") and an
// honest chance level for the whole search ("adjusted"), via an analytic union bound and, when
// that is not decisive, the conditional permutation orbit of the observed ranks.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace benchhist::detect {

inline constexpr std::size_t min_regime_points = 5;                       // MIN_REGIME
inline constexpr double change_analytic_weight = 0.10;                     // CHANGE_ANALYTIC_WEIGHT
inline constexpr std::uint64_t permutation_order_per_judged_series = 600;
inline constexpr std::uint64_t min_change_permutation_order = 259'200;
inline constexpr std::uint64_t max_change_permutation_order = 500'000;

struct SelectionCalibration {
  std::uint64_t order_budget = min_change_permutation_order;
  double analytic_weight = change_analytic_weight;
  double accept_analytic_below = 0.025;
  double reject_at_or_above = 0.025;
  std::size_t min_regime = min_regime_points;
  // detection-sharp.md S1: the analytic bound is evaluated at the observed p before clamp_p
  // (history change points). Off = the reference threshold, the clamped p (branch regime
  // search, and the reference behaviour the vectors record).
  bool sharp_certificate = false;
};

// §5.1 parameters for a history family of `family_size` judged series (>= 1), with S1 on
// unless `sharp_certificate` is false (the reference behaviour; tests and the scorecard only).
SelectionCalibration history_calibration(std::size_t family_size, bool sharp_certificate = true);

struct SelectionResult {
  std::size_t index = 0;    // Pettitt split tau
  double tainted_p = 1.0;   // Mann-Whitney p at tau
  double adjusted_p = 1.0;  // after the split-search correction (>= tainted_p)
  double superiority = 0.5; // P(after > before), ties 1/2
};

// §5.3. nullopt when the observed split is unreportable (shorter side < min_regime).
std::optional<SelectionResult> selection_adjusted_change_point(std::span<const double> values,
                                                               const SelectionCalibration& calibration);

// ---- internals, exposed so the vectors can pin them (§5.4, §5.5) ----

std::uint64_t splitmix64_finalize(std::uint64_t v) noexcept;
std::uint64_t scatter_key(std::uint64_t bucket) noexcept;   // finalize(b + golden gamma)
std::uint64_t fnv1a64(std::string_view text) noexcept;

// The reference's deterministic scatter generator (vectors/README.md "generator").
std::vector<double> scattered_series(std::span<const std::pair<double, std::size_t>> levels_rle, double cv,
                                     std::string_view seed_name);
std::vector<double> scattered_levels(std::span<const double> levels, double cv, std::string_view seed_name);

struct Factorization {
  std::vector<std::size_t> factors;  // non-increasing; factors[0] is the least significant digit
  std::size_t grid = 1;
  std::uint64_t order = 1;
};
Factorization best_factorization(std::size_t n, std::uint64_t budget);

// The fixed subgroup of §5.5(b): a product of symmetric groups, or the balanced A6 x S6.
struct FallbackGroup {
  bool balanced = false;
  std::vector<std::size_t> factors;     // product group coordinates (empty when balanced)
  std::size_t grid = 1;
  std::uint64_t order = 1;
  std::vector<std::size_t> positions;   // series position of each bucket
};
FallbackGroup fallback_group(std::size_t n, std::uint64_t budget);
std::vector<std::size_t> scattered_positions(std::size_t n, std::size_t grid);

// All permutations of 0..f-1 in lexicographic order (only the even ones when asked).
std::vector<std::vector<std::size_t>> permutations(std::size_t f, bool even_only);

// Calls `visit` with every element of `group` applied to `observed` (multiplicities kept);
// stops when `visit` returns false.
void for_each_group_element(std::span<const std::int64_t> observed, const FallbackGroup& group,
                            const std::function<bool(std::span<const std::int64_t>)>& visit);

// Number of distinct orderings of a multiset, or nullopt once it exceeds `budget`.
std::optional<std::uint64_t> distinct_orderings(std::span<const std::int64_t> sorted, std::uint64_t budget);

// Calls `visit` with every element of the conditional orbit of §5.5 applied to `observed`
// (doubled ranks in observed order); stops early when `visit` returns false. Returns the
// orbit order G. Reference implementation for tests; the adjustment itself uses a faster
// incremental scorer over the same multiset of orderings.
std::uint64_t for_each_orbit_element(std::span<const std::int64_t> observed, std::uint64_t budget,
                                     const std::function<bool(std::span<const std::int64_t>)>& visit);

// §5.4 pieces.
double binary_kl(double o, double e) noexcept;
double serfling_bound(std::size_t n, std::size_t k, double deviation) noexcept;
double rank_sum_tail_bound(std::span<const std::int64_t> sorted, std::size_t k, double sum, bool upper) noexcept;
// Largest lower / smallest upper doubled sum whose normal-approximation p reaches p_obs.
std::optional<std::int64_t> closest_rejection_sum(std::span<const std::int64_t> sorted, std::size_t k,
                                                  double p_obs, bool upper);
double analytic_bound(std::span<const std::int64_t> doubled, double p_obs, std::size_t min_regime);
// Largest s in [min_regime, n/2] with every size min_regime..s exact-feasible (0 if none).
std::size_t max_exact_size(std::size_t n, std::size_t min_regime) noexcept;

}  // namespace benchhist::detect
