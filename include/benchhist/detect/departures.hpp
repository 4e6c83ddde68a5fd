#pragma once
// Switches for history detection's departures from the reference detector: read by the
// split-search calibration (detect/split_correction.hpp) and by the history ladders
// (detect/history.hpp).

namespace benchhist::detect {

namespace detail {
// The deliberate departures from the reference detector (docs/divergences.md): S1 and S2
// (detection-sharp), S3, S3b, S4 and S5 (fresh regressions), S6 and S7 (ours: a drift is a
// slope, not a step; a short series' orbit is complete). All are on everywhere the product
// judges a series. Switching them off reproduces the reference behaviour the shared vectors record;
// only the vector tests and the accuracy scorecard do that, and no command, option or
// configuration key reaches it.
struct Departures {
  bool sharp_certificate = true;  // S1: the analytic bound at the unclamped observed p
  bool level_start_split = true;  // S2: the reported split is the new level's estimated start
  bool min_p_search = true;       // S3: the split searched and tested is the most likely one
  bool sharp_tails = true;        // S3b: the certificate's tails are exact, or the ranks' own MGF bound
  bool wander_guard = true;       // S4: autocorrelated noise raises the residual demands
  bool current_level = true;      // S5: the last five points must still be on the new level
  bool drift_shape = true;        // S6: a drift keeps rising within the two levels the change point found
  bool complete_short_orbit = true;  // S7: a short series' orbit is complete, counted on its prefix sets
  static constexpr Departures reference() noexcept { return {false, false, false, false, false, false, false, false}; }
  friend bool operator==(const Departures&, const Departures&) = default;
};
}  // namespace detail

}  // namespace benchhist::detect
