#pragma once
// The split-search correction (docs/statistics.md#selection-correction; the spec calls it the
// "selection adjustment", its gate token is `selection_adjustment`). Given the analysed values it
// returns the Mann-Whitney p at the searched split ("tainted": the most likely split for history
// change points, Pettitt's for branch mode) and an honest chance level for the whole search
// ("adjusted"), via an analytic union bound and, when that is not decisive, the conditional
// permutation orbit of the observed ranks. Its parts live in detect/detail/ (scatter.hpp,
// orbit_group.hpp, split_search.hpp, analytic_bound.hpp, orbit_scorer.hpp): private, exposed only
// so the vectors and tests can pin them.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/detect/departures.hpp"

namespace benchhist::detect {

namespace detail {
class SharedExactTables;
}  // namespace detail

inline constexpr std::size_t min_regime_points = 5;                       // MIN_REGIME
inline constexpr double change_analytic_weight = 0.10;                     // CHANGE_ANALYTIC_WEIGHT
inline constexpr std::uint64_t permutation_order_per_judged_series = 600;
inline constexpr std::uint64_t min_change_permutation_order = 259'200;
inline constexpr std::uint64_t max_change_permutation_order = 500'000;
inline constexpr std::size_t lattice_orbit_max_points = 20;  // 2^20 prefix sets, 20! < 2^64 orderings

struct SplitCalibration {
  std::uint64_t order_budget = min_change_permutation_order;
  double analytic_weight = change_analytic_weight;
  double accept_analytic_below = 0.025;
  double reject_at_or_above = 0.025;
  std::size_t min_regime = min_regime_points;
  // docs/divergences.md#s1--the-analytic-certificate-at-the-unclamped-observed-p: the analytic
  // bound is evaluated at the observed p before clamp_p (history change points). Off = the
  // reference threshold, the clamped p (branch regime search, and the reference behaviour the
  // vectors record).
  bool sharp_certificate = false;
  // docs/divergences.md#s3--the-most-likely-split-is-the-split-search: the split searched and
  // tested, on the observed order and on every rearrangement, is the one with the smallest
  // Mann-Whitney p. Off = Pettitt's split (branch regime search, the reference behaviour).
  bool min_p_search = false;
  // docs/divergences.md#s3b--a-certificate-as-sharp-as-the-evidence: the analytic bound's
  // normal-size tails are exact subset-sum tails where affordable, else the ranks' own
  // moment-generating-function bound. Off = the Chernoff / Serfling tails.
  bool sharp_tails = false;
  // docs/divergences.md#s7--a-short-series-orbit-is-complete: with the min-p search, a series of at
  // most `lattice_orbit_max_points` whose distinct orderings exceed the budget is corrected over its
  // complete orbit, counted on the lattice of its prefix sets instead of enumerated. Off = the
  // fixed subgroup (the reference behaviour).
  bool complete_short_orbit = false;
  // Exact tables shared by the series of one analysis with the same ranks (history_calibration
  // makes one); only speed depends on it.
  std::shared_ptr<const detail::SharedExactTables> shared_tables;
};

// docs/statistics.md#budgets parameters for a history family of `family_size` judged series (>= 1),
// with the departures that change the correction (S1, S3, S3b, S7) as `departures` says; the
// default is the product's (all on), Departures::reference() the reference behaviour (tests and
// the scorecard only).
SplitCalibration history_calibration(std::size_t family_size, detail::Departures departures = {});

struct CorrectedSplit {
  std::size_t index = 0;    // the searched split tau (min-p, or Pettitt's)
  double tainted_p = 1.0;   // Mann-Whitney p at tau
  double adjusted_p = 1.0;  // after the split-search correction (>= tainted_p)
  double superiority = 0.5; // P(after > before), ties 1/2
};

// docs/statistics.md#procedure. nullopt when the observed split is unreportable (shorter side <
// min_regime).
std::optional<CorrectedSplit> split_corrected_change_point(std::span<const double> values,
                                                               const SplitCalibration& calibration);

}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/split_correction_impl.hpp"
#endif
