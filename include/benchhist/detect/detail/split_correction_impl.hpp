#pragma once
// The split-search correction (docs/statistics.md#budgets, #procedure): calibration and the
// procedure.
// Implementation of detect/split_correction.hpp: compiled into libbenchhist by
// lib/detect/split_correction.cpp, or inline in every including translation unit when
// BENCHHIST_HEADER_ONLY is defined (detect/detail/config.hpp).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/detail/orbit_scorer.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/detect/stats.hpp"

namespace benchhist::detect {

BENCHHIST_DETECT_INLINE SplitCalibration history_calibration(std::size_t family_size, detail::Departures departures) {
  const std::size_t m = std::max<std::size_t>(family_size, 1);
  SplitCalibration c;
  c.order_budget = std::clamp<std::uint64_t>(permutation_order_per_judged_series * m, min_change_permutation_order,
                                             max_change_permutation_order);
  c.analytic_weight = change_analytic_weight;
  c.reject_at_or_above = 0.05 / 2;
  c.accept_analytic_below = std::min(0.10 / (2.0 * static_cast<double>(m)), 0.025);
  c.min_regime = min_regime_points;
  c.sharp_certificate = departures.sharp_certificate;
  c.min_p_search = departures.min_p_search;
  c.sharp_tails = departures.sharp_tails;
  c.complete_short_orbit = departures.complete_short_orbit;
  c.shared_tables = std::make_shared<const detail::SharedExactTables>();
  return c;
}

BENCHHIST_DETECT_INLINE std::optional<CorrectedSplit> split_corrected_change_point(std::span<const double> values,
                                                               const SplitCalibration& cal) {
  using namespace detail;  // the correction's parts (detail/orbit_scorer.hpp)
  const std::size_t n = values.size();
  if (n < 2) return std::nullopt;
  const std::vector<std::int64_t> ranks = doubled_ranks(values);
  Scorer sc = make_scorer(ranks, cal.min_regime, max_exact_size(n, cal.min_regime), cal.shared_tables.get());
  // The split searched and tested: the most likely one (S3), or Pettitt's.
  std::size_t split_index = 0;
  std::int64_t split_d = 0;
  double p_sharp = 1.0;
  if (cal.min_p_search) {
    if (n < 2 * cal.min_regime) return std::nullopt;  // no admissible split
    const SearchedSplit split = most_likely_split(sc, ranks);
    split_index = split.index, split_d = split.d_tau, p_sharp = split.p_sharp;
  } else {
    const PettittSplit split = pettitt_from_ranks(ranks);
    const std::size_t k = std::min(split.index, n - split.index);
    if (k < cal.min_regime) return std::nullopt;  // unreportable observed order
    if (k <= sc.max_exact) sc.ensure_tables();  // the observed score is an exact one
    split_index = split.index, split_d = split.d_tau, p_sharp = sc.sharp_p_at(split_index, split_d);
  }

  CorrectedSplit out;
  out.index = split_index;
  out.tainted_p = clamp_p(p_sharp);
  {
    const auto tau = static_cast<double>(split_index);
    const auto rest = static_cast<double>(n - split_index);
    const double u_left = static_cast<double>(split_d) / 2 - tau * (tau + 1) / 2;
    out.superiority = (tau * rest - u_left) / (tau * rest);
  }
  const double p_obs = out.tainted_p;
  if (p_obs >= cal.reject_at_or_above) {
    out.adjusted_p = 1.0;
    return out;
  }
  if (n == 2 * cal.min_regime && exact_mw_feasible(cal.min_regime, cal.min_regime)) {
    out.adjusted_p = p_obs;  // a single admissible split: nothing was searched
    return out;
  }
  // S1: the union bound holds at any threshold; the clamp only protects the reported value.
  const double certificate_p = cal.sharp_certificate ? p_sharp : p_obs;
  const double a = cal.sharp_tails
                       ? analytic_bound_sharp_tails(sc.sorted, certificate_p, cal.min_regime, sc.max_exact, sc.tie_term)
                       : analytic_bound_sorted(sc.sorted, certificate_p, cal.min_regime, sc.max_exact, sc.tie_term);
  const double wa = std::min(a / cal.analytic_weight, 1.0);
  if (wa < cal.accept_analytic_below) {
    out.adjusted_p = std::max(wa, p_obs);
    return out;
  }
  OrbitCounter counter;
  counter.weight = cal.analytic_weight;
  counter.wa = wa;
  counter.reject = cal.reject_at_or_above;
  counter.p_obs = p_obs;
  if (0.0 >= wa) {
    out.adjusted_p = std::max(wa, p_obs);
    return out;
  }
  if (exact_sizes_can_be_extreme(n, cal.min_regime, sc.max_exact, p_obs)) sc.ensure_tables();
  const ExtremeTest is_extreme(sc, p_obs, cal.min_p_search);
  if (auto distinct = distinct_orderings(sc.sorted, cal.order_budget)) {
    counter.order = static_cast<double>(*distinct);
    run_distinct_orbit(sc, is_extreme, counter);
  } else if (cal.min_p_search && cal.complete_short_orbit && n <= lattice_orbit_max_points) {
    // S7: the complete orbit, counted instead of enumerated (docs/divergences.md).
    run_lattice_orbit(sc, is_extreme, counter);
  } else {
    const FallbackGroup group = fallback_group(n, cal.order_budget);
    counter.order = static_cast<double>(group.order);
    run_subgroup_orbit(sc, ranks, split_index, group, is_extreme, counter);
  }
  out.adjusted_p = counter.finish();
  return out;
}

}  // namespace benchhist::detect
