#pragma once
// Branch mode, SEED version (docs/statistics.md#branch-excursion). See
// include/benchhist/detect/branch.hpp.
// Implementation of detect/branch.hpp, compiled by lib/detect/branch.cpp (or inline
// everywhere with BENCHHIST_HEADER_ONLY, see detect/detail/config.hpp).

#include "benchhist/detect/detail/config.hpp"

#include "benchhist/detect/branch.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "benchhist/detect/history.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/detect/stats.hpp"
#include "benchhist/error.hpp"
#include "benchhist/parallel.hpp"

namespace benchhist::detect {
namespace detail {
BENCHHIST_DETAIL_BEGIN

// docs/statistics.md#current-regime "strongest split of a segment".
struct SegmentSplit {
  std::size_t tau = 0;
  bool supported = false;
};

// The practical half of "supported": relative move, absolute floor, near-complete separation.
BENCHHIST_DETAIL_INLINE bool practically_separated(double before_median, double after_median, double superiority_after_above,
                           double floor) {
  const double d = after_median - before_median;
  const double oriented = d > 0 ? superiority_after_above : 1.0 - superiority_after_above;
  return std::fabs(relative(d, before_median)) >= branch_practical_relative && std::fabs(d) >= floor &&
         oriented >= min_base_split_separation;
}

BENCHHIST_DETAIL_INLINE std::optional<SegmentSplit> strongest_split(std::span<const double> v, MetricKind kind, double alpha) {
  if (v.size() < 2 * branch_min_regime) return std::nullopt;
  // The split location is Pettitt's (docs/statistics.md#scorer step 1); the orbit only decides
  // support, so it runs only when the cheap practical conditions already hold (same verdict, much
  // less work).
  const auto pet = pettitt(v);
  if (!pet) return std::nullopt;
  const std::size_t tau = pet->index;
  if (std::min(tau, v.size() - tau) < branch_min_regime) return std::nullopt;
  const auto before = v.subspan(0, tau);
  const auto after = v.subspan(tau);
  const double b = median(std::vector<double>(before.begin(), before.end()));
  const double a = median(std::vector<double>(after.begin(), after.end()));
  const double floor = absolute_floor(kind);
  SegmentSplit out{tau, false};
  if (!practically_separated(b, a, mann_whitney(before, after).superiority, floor)) return out;

  SplitCalibration cal;
  cal.order_budget = branch_search_budget;
  cal.analytic_weight = change_analytic_weight;
  cal.accept_analytic_below = alpha;
  cal.reject_at_or_above = alpha;
  cal.min_regime = branch_min_regime;
  const auto sel = split_corrected_change_point(v, cal);
  if (!sel) return std::nullopt;
  if (sel->index != tau)
    throw Error(ErrorKind::internal, "branch regime search: Pettitt split disagrees with the selection adjustment",
                "detect/branch", {}, "report this as a bug with the base values");
  out.supported = sel->adjusted_p < alpha && practically_separated(b, a, sel->superiority, floor);
  return out;
}

// docs/statistics.md#current-regime segmentation: recurse on both sides of every split, supported
// or not.
BENCHHIST_DETAIL_INLINE void collect(std::span<const double> v, std::size_t offset, MetricKind kind, double alpha,
             std::vector<std::size_t>& out) {
  const auto split = strongest_split(v, kind, alpha);
  if (!split) return;
  collect(v.subspan(0, split->tau), offset, kind, alpha, out);
  if (split->supported) out.push_back(offset + split->tau);
  collect(v.subspan(split->tau), offset + split->tau, kind, alpha, out);
}

// docs/statistics.md#current-regime unresolved check on selector levels `s` (from the newest
// boundary, or all of them).
BENCHHIST_DETAIL_INLINE bool unresolved_tail(std::span<const double> s, MetricKind kind) {
  const double floor = absolute_floor(kind);
  for (std::size_t trailing = min_unresolved_branch_regime_points; trailing <= max_unresolved_branch_regime_points;
       ++trailing) {
    if (s.size() < trailing + branch_min_regime) continue;  // fewer than 5 levels before the split
    const std::size_t split = s.size() - trailing;
    const auto before = s.subspan(split - branch_min_regime, branch_min_regime);
    const auto after = s.subspan(split);
    const double b = median(std::vector<double>(before.begin(), before.end()));
    const double a = median(std::vector<double>(after.begin(), after.end()));
    if (practically_separated(b, a, mann_whitney(before, after).superiority, floor)) return true;
  }
  return false;
}

BENCHHIST_DETAIL_INLINE double turn_score(const Excursion& e, MetricKind kind) {
  if (!e.passed) return 0.0;
  const double scale = std::max(std::fabs(*e.edge), absolute_floor(kind) / branch_practical_relative);
  return std::fabs(*e.excess) / scale;
}

BENCHHIST_DETAIL_INLINE void check_input(const BranchSeriesInput& in) {
  // Stored values are finite (docs/formats.md); a NaN here would silently read as "outside".
  if (!std::isfinite(in.tip->value))
    throw Error(ErrorKind::usage, "branch tip observation is not a finite number", "context observation", {},
                "pass the context commit's latest run value (docs/branch-mode.md#inputs-one-branchseriesinput-per-series)");
  for (const auto& l : in.base)
    if (!std::isfinite(l.value))
      throw Error(ErrorKind::usage, "branch base level at commit " + l.commit + " is not a finite number", l.commit,
                  {}, "collapse the commit's runs to their median before judging (docs/branch-mode.md#inputs-one-branchseriesinput-per-series)");
  // A NaN bound fails every comparison, so it would pass or fail the disjointness and noise-band
  // gates silently (a +27 % tip went unreported); an inverted one reads as a band of negative width.
  const auto interval_problem = [](const std::optional<Interval>& iv) -> std::optional<std::string> {
    const auto shown = [](double v) {
      std::ostringstream os;
      os << v;
      return os.str();
    };
    const auto defect = iv ? interval_defect(*iv) : std::nullopt;
    if (defect == IntervalDefect::not_finite) return std::string("has a bound that is not a finite number");
    if (defect == IntervalDefect::inverted) return "is inverted (low " + shown(iv->low) + " > high " + shown(iv->high) + ")";
    return std::nullopt;
  };
  const char* interval_hint =
      "pass intervals with finite bounds and low <= high, or none (docs/branch-mode.md#inputs-one-branchseriesinput-per-series)";
  if (const auto problem = interval_problem(in.tip->interval))
    throw Error(ErrorKind::usage, "branch tip observation's interval " + *problem, "context observation", {},
                interval_hint);
  for (const auto& l : in.base)
    if (const auto problem = interval_problem(l.interval))
      throw Error(ErrorKind::usage, "branch base level at commit " + l.commit + ": its interval " + *problem, l.commit,
                  {}, interval_hint);
  for (std::size_t i = 1; i < in.base.size(); ++i)
    if (in.base[i].topo <= in.base[i - 1].topo)
      throw Error(ErrorKind::usage,
                  "branch base window is not in first-parent order at commit " + in.base[i].commit,
                  in.base[i].commit, {}, "pass base levels oldest first, one per commit (docs/branch-mode.md#inputs-one-branchseriesinput-per-series)");
}

BENCHHIST_DETAIL_END
}  // namespace detail

namespace detail {
BENCHHIST_DETECT_INLINE RegimeSelection select_current_regime(std::span<const double> values, std::span<const std::int64_t> topo,
                                      MetricKind kind) {
  if (topo.size() != values.size())
    throw Error(ErrorKind::usage, "branch regime selection: values and topo indices differ in length",
                "detect/branch", {}, "pass one topo index per base level");
  RegimeSelection r;
  const std::size_t n = values.size();
  if (n < min_branch_regime_selection_commits) return r;  // 10-19 levels: the whole window
  r.ran = true;

  // Selector lane = even window positions (observation order, not topo parity).
  std::vector<double> sel;
  for (std::size_t p = 0; p < n; p += 2) sel.push_back(values[p]);
  const std::size_t L = sel.size();
  const std::size_t g = L / 5;
  const std::size_t searches = std::max<std::size_t>(1, g * (g > 0 ? g - 1 : 0) / 2);
  const double alpha = max_branch_regime_chance_level / static_cast<double>(searches);
  r.search_alpha = alpha;

  std::vector<std::size_t>& bounds = r.selector_boundaries;
  const std::span<const double> sv(sel);
  detail::collect(sv, 0, kind, alpha, bounds);
  if (!bounds.empty()) {
    // Revert re-examination: certify an exit against the stretch it ends.
    std::size_t start = bounds.back();
    const std::size_t rounds = g > 0 ? g - 1 : 0;
    for (std::size_t i = 0; i < rounds; ++i) {
      detail::collect(sv.subspan(start), start, kind, alpha, bounds);
      if (bounds.back() == start) break;
      start = bounds.back();
    }
  }

  // A selector boundary j maps to the first window position at or after selector[j]'s topo;
  // the reference level just before it is ambiguous and belongs to neither regime.
  auto map_to_window = [&](std::size_t j) {
    const std::int64_t t = topo[2 * j];
    std::size_t p = 0;
    while (p < n && topo[p] < t) ++p;
    return p;
  };
  if (!bounds.empty()) {
    r.current_start = map_to_window(bounds.back());
    const std::size_t prev_start = bounds.size() >= 2 ? map_to_window(bounds[bounds.size() - 2]) : 0;
    if (r.current_start >= 1 && r.current_start - 1 > prev_start) {
      const auto slice = values.subspan(prev_start, r.current_start - 1 - prev_start);
      const auto [lo, hi] = std::minmax_element(slice.begin(), slice.end(),
                                                [](double a, double b) { return total_less(a, b); });
      r.previous_range = std::pair{*lo, *hi};
    }
  }
  const std::size_t from = bounds.empty() ? 0 : bounds.back();
  r.unresolved = detail::unresolved_tail(sv.subspan(from), kind);
  return r;
}
}  // namespace detail

namespace detail {
BENCHHIST_DETECT_INLINE Excursion evaluate_excursion(double y, const std::optional<Interval>& y_interval, std::span<const double> references,
                             std::span<const std::optional<Interval>> reference_intervals, MetricKind kind) {
  if (references.empty())
    throw Error(ErrorKind::usage, "branch excursion needs at least one reference level", "detect/branch", {},
                "judge only series with base levels (docs/branch-mode.md#flow)");
  Excursion e;
  e.reference_count = references.size();
  const auto [lo, hi] = std::minmax_element(references.begin(), references.end(),
                                            [](double a, double b) { return total_less(a, b); });
  e.reference_min = *lo;
  e.reference_max = *hi;
  GateLadder& l = e.gates;
  // Equality with either edge is inside (docs/statistics.md#excursion-gates step 2).
  if (y >= e.reference_min && y <= e.reference_max) {
    e.relation = Relation::inside;
    l.check("non_zero_delta", 0.0, 0.0, false);
    return e;
  }
  e.relation = y > e.reference_max ? Relation::above : Relation::below;
  const double edge = e.relation == Relation::above ? e.reference_max : e.reference_min;
  const double excess = y - edge;
  const double rel = relative(excess, edge);
  e.edge = edge;
  e.excess = excess;
  e.relative_excess = rel;
  const double abs_excess = std::fabs(excess);
  if (!l.check("non_zero_delta", abs_excess, 0.0, true)) return e;
  if (!l.check("relative_floor", std::fabs(rel), branch_practical_relative,
               std::fabs(rel) >= branch_practical_relative))
    return e;
  const double floor = absolute_floor(kind);
  if (!l.check("absolute_floor", abs_excess, floor, abs_excess >= floor)) return e;

  // Interval gates (docs/statistics.md#excursion-gates steps 6-7): references without intervals are
  // ignored; skipped (not logged) when the statistic cannot be formed.
  bool any_ref_interval = false;
  double max_high = 0, min_low = 0;
  std::vector<std::optional<Interval>> widths;
  for (const auto& iv : reference_intervals) {
    if (!iv) continue;
    if (!any_ref_interval) {
      max_high = iv->high;
      min_low = iv->low;
    } else {
      max_high = std::max(max_high, iv->high);
      min_low = std::min(min_low, iv->low);
    }
    any_ref_interval = true;
    widths.push_back(iv);
  }
  if (y_interval && any_ref_interval) {
    const bool disjoint = e.relation == Relation::above ? y_interval->low > max_high : y_interval->high < min_low;
    if (!l.check("interval_disjoint", std::nullopt, std::nullopt, disjoint)) return e;
  }
  if (y_interval) widths.push_back(y_interval);
  if (const auto h = median_half_width(widths)) {
    const double demand = branch_noise_band_multiple * *h;
    if (!l.check("interval_noise_band", abs_excess, demand, abs_excess > demand)) return e;
  }
  e.passed = true;
  return e;
}
}  // namespace detail

namespace detail {
BENCHHIST_DETECT_INLINE bool is_stable_regime(std::span<const double> regime_values) {
  const auto mk = mann_kendall(regime_values);
  if (!(mk.p_value < mann_kendall_stability_alpha)) return true;
  const auto ts = theil_sen(regime_values);
  if (!ts) return true;
  const double rise = ts->slope * static_cast<double>(regime_values.size() - 1);
  const double mid = median(std::vector<double>(regime_values.begin(), regime_values.end()));
  return !(std::fabs(relative(rise, mid)) >= branch_practical_relative);
}
}  // namespace detail

namespace detail {
BENCHHIST_DETECT_INLINE std::vector<std::int64_t> candidate_commits(std::span<const BranchBaseLevel> base, std::size_t start) {
  std::vector<std::int64_t> out;
  for (std::size_t p = start; p < base.size(); ++p)
    if (p % 2 == 1) out.push_back(base[p].topo);
  return out;
}
}  // namespace detail

BENCHHIST_DETECT_INLINE BranchJudgement judge_branch(const BranchSeriesInput& in) {
  BranchJudgement j;
  // docs/statistics.md#judgment-order judgment order.
  if (!in.tip) {
    j.unjudged = UnjudgedReason::not_measured_on_branch;
    return j;
  }
  if (in.base.size() < min_branch_base_commits) {
    j.unjudged = in.blessed && in.base_history_count >= min_branch_base_commits
                     ? UnjudgedReason::too_few_base_commits_since_blessing
                     : UnjudgedReason::too_few_base_commits;
    return j;
  }
  detail::check_input(in);
  const std::size_t n = in.base.size();
  std::vector<double> values(n);
  std::vector<std::int64_t> topo(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = in.base[i].value;
    topo[i] = in.base[i].topo;
  }
  j.regime = detail::select_current_regime(values, topo, in.kind);
  if (j.regime.unresolved) {
    j.unjudged = UnjudgedReason::current_base_regime_unresolved;
    return j;
  }

  const std::size_t start = j.regime.current_start;
  const std::span<const double> refs = std::span<const double>(values).subspan(start);
  std::vector<std::optional<Interval>> ref_iv;
  bool any_iv = false;
  for (std::size_t p = start; p < n; ++p) {
    ref_iv.push_back(in.base[p].interval);
    any_iv = any_iv || in.base[p].interval.has_value();
  }
  if (!any_iv) ref_iv.clear();
  j.excursion = detail::evaluate_excursion(in.tip->value, in.tip->interval, refs, ref_iv, in.kind);
  j.current_regime_start_index = start;
  if (!j.regime.selector_boundaries.empty()) j.current_regime_start_commit = in.base[start].commit;
  const double y = in.tip->value;
  j.matches_previous_regime =
      j.regime.previous_range && j.regime.previous_range->first <= y && y <= j.regime.previous_range->second;
  j.stable_for_comparison = detail::is_stable_regime(refs);
  j.comparison_base_index = in.base.back().topo;
  j.candidate_commits = detail::candidate_commits(in.base, start);

  if (j.excursion.passed) {
    BranchFinding f;
    const Excursion& e = j.excursion;
    f.direction = direction_of(*e.excess);
    f.relation = e.relation;
    f.baseline = *e.edge;
    f.latest = y;
    f.delta = *e.excess;
    f.relative_delta = *e.relative_excess;
    f.reference_count = e.reference_count;
    f.reference_min = e.reference_min;
    f.reference_max = e.reference_max;
    f.current_regime_start = j.current_regime_start_commit;
    if (!f.current_regime_start && in.blessed) f.current_regime_start = in.blessing_commit;
    f.matches_previous_regime = j.matches_previous_regime;
    f.comparison_base_index = *j.comparison_base_index;
    j.finding = std::move(f);
  }
  return j;
}

BENCHHIST_DETECT_INLINE std::vector<BranchJudgement> judge_branch_batch(std::span<const BranchSeriesInput> inputs, unsigned threads) {
  std::vector<BranchJudgement> out(inputs.size());
  // Each slot is written by exactly one item; the first failing series in input order is reported.
  parallel_for(inputs.size(), threads, [&](std::size_t i) { out[i] = judge_branch(inputs[i]); });
  return out;
}

namespace detail {
BENCHHIST_DETAIL_BEGIN

using Commits = std::vector<std::int64_t>;

BENCHHIST_DETAIL_INLINE Commits intersect(const Commits& a, const Commits& b) {
  Commits out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

struct Group {
  Commits commits;
  std::vector<std::size_t> members;  // global series indices
};

struct Family {
  std::vector<std::size_t> groups;
  std::size_t member_count = 0;
  Commits common;
};

// docs/statistics.md#historical-turn-comparison step 3: the rectangular family search.
class FamilySearch {
 public:
  explicit FamilySearch(const std::vector<Group>& groups) : groups_(groups) {}

  std::optional<Family> run() {
    for (const auto& g : groups_)  // (i) every run of 5 consecutive candidate commits
      for (std::size_t i = 0; i + min_branch_comparison_commits <= g.commits.size(); ++i)
        consider(Commits(g.commits.begin() + static_cast<std::ptrdiff_t>(i),
                         g.commits.begin() + static_cast<std::ptrdiff_t>(i + min_branch_comparison_commits)));
    std::vector<Commits> queue;
    std::set<Commits> queued;
    for (std::size_t a = 0; a < groups_.size(); ++a)  // (ii) pairwise intersections
      for (std::size_t b = a + 1; b < groups_.size(); ++b) {
        Commits s = intersect(groups_[a].commits, groups_[b].commits);
        if (s.size() < min_branch_comparison_commits) continue;
        if (queued.size() < max_branch_pairwise_seeds && queued.insert(s).second) queue.push_back(s);
        consider(s);
      }
    for (std::size_t head = 0; head < queue.size() && queued.size() < max_branch_multiway_seeds; ++head) {
      const Commits seed = queue[head];  // (iii) closure, FIFO
      for (const auto& g : groups_) {
        if (queued.size() >= max_branch_multiway_seeds) break;
        Commits s = intersect(seed, g.commits);
        if (s.size() < min_branch_comparison_commits || !queued.insert(s).second) continue;
        queue.push_back(s);
        consider(s);
      }
    }
    if (best_ && best_->common.size() < min_branch_comparison_commits) return std::nullopt;
    return best_;
  }

 private:
  void consider(const Commits& seed) {
    std::vector<std::size_t> member_groups;
    std::size_t count = 0;
    for (std::size_t g = 0; g < groups_.size(); ++g)
      if (std::includes(groups_[g].commits.begin(), groups_[g].commits.end(), seed.begin(), seed.end())) {
        member_groups.push_back(g);
        count += groups_[g].members.size();
      }
    if (count == 0) return;
    if (best_ && count < best_->member_count) return;
    if (!considered_.insert(member_groups).second) return;
    Commits common = groups_[member_groups.front()].commits;
    for (std::size_t k = 1; k < member_groups.size(); ++k) common = intersect(common, groups_[member_groups[k]].commits);
    if (common.size() < min_branch_comparison_commits) return;
    const bool better = !best_ || count > best_->member_count ||
                        (count == best_->member_count &&
                         (common.size() > best_->common.size() ||
                          (common.size() == best_->common.size() && common.back() > best_->common.back())));
    if (better) best_ = Family{std::move(member_groups), count, std::move(common)};
  }

  const std::vector<Group>& groups_;
  std::optional<Family> best_;
  std::set<std::vector<std::size_t>> considered_;
};

BENCHHIST_DETAIL_INLINE std::optional<HistoricalComparison> compare_indices(std::span<const BranchSeriesInput> inputs,
                                                    std::span<const BranchJudgement> judgements,
                                                    const std::vector<std::size_t>& indices) {
  // Steps 1-2: eligible series grouped by identical candidate-commit sets (first appearance).
  std::vector<Group> groups;
  std::map<Commits, std::size_t> group_of;
  for (std::size_t i : indices) {
    const BranchJudgement& j = judgements[i];
    if (!j.judged() || !j.stable_for_comparison) continue;
    auto [it, fresh] = group_of.try_emplace(j.candidate_commits, groups.size());
    if (fresh) groups.push_back(Group{j.candidate_commits, {}});
    groups[it->second].members.push_back(i);
  }
  const auto family = FamilySearch(groups).run();
  if (!family) return std::nullopt;

  HistoricalComparison c;
  for (std::size_t g : family->groups)
    c.members.insert(c.members.end(), groups[g].members.begin(), groups[g].members.end());
  std::sort(c.members.begin(), c.members.end());
  c.commits = family->common;
  c.base_scores.assign(c.commits.size(), 0.0);

  // Step 4: the real turn and every historical turn, summed over members in series order.
  for (std::size_t m : c.members) {
    const BranchSeriesInput& in = inputs[m];
    const BranchJudgement& j = judgements[m];
    c.branch_score += turn_score(j.excursion, in.kind);
    const std::size_t start = *j.current_regime_start_index;
    const std::size_t n = in.base.size();
    for (std::size_t k = 0; k < c.commits.size(); ++k) {
      std::vector<double> refs;
      std::vector<std::optional<Interval>> ivs;
      const BranchBaseLevel* candidate = nullptr;
      bool any_iv = false;
      for (std::size_t p = start; p < n; ++p) {
        if (in.base[p].topo == c.commits[k] && !candidate) {
          candidate = &in.base[p];
          continue;
        }
        refs.push_back(in.base[p].value);
        ivs.push_back(in.base[p].interval);
        any_iv = any_iv || in.base[p].interval.has_value();
      }
      refs.push_back(in.tip->value);  // the real tip joins the historical references
      ivs.push_back(in.tip->interval);
      any_iv = any_iv || in.tip->interval.has_value();
      if (!any_iv) ivs.clear();
      if (!candidate) continue;  // cannot happen: family commits are every member's candidates
      const Excursion e = evaluate_excursion(candidate->value, candidate->interval, refs, ivs, in.kind);
      c.base_scores[k] += turn_score(e, in.kind);
    }
  }
  // Step 5: ties count as "at least as much".
  for (double s : c.base_scores)
    if (s >= c.branch_score) ++c.at_least_as_much;
  return c;
}

BENCHHIST_DETAIL_END
}  // namespace detail

BENCHHIST_DETECT_INLINE std::optional<HistoricalComparison> compare_historical_turns(std::span<const BranchSeriesInput> inputs,
                                                             std::span<const BranchJudgement> judgements) {
  if (inputs.size() != judgements.size())
    throw Error(ErrorKind::usage, "historical comparison: inputs and judgements differ in length", "detect/branch",
                {}, "pass one judgement per input, in the same order");
  std::vector<std::size_t> all(inputs.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  return detail::compare_indices(inputs, judgements, all);
}

BENCHHIST_DETECT_INLINE std::vector<SetComparison> compare_historical_turns_by_set(std::span<const BranchSeriesInput> inputs,
                                                           std::span<BranchJudgement> judgements,
                                                           std::span<const DiscriminantSet> sets) {
  if (inputs.size() != judgements.size() || inputs.size() != sets.size())
    throw Error(ErrorKind::usage, "historical comparison: inputs, judgements and sets differ in length",
                "detect/branch", {}, "pass one judgement and one discriminant set per input, in the same order");
  std::map<DiscriminantSet, std::vector<std::size_t>> by_set;
  for (std::size_t i = 0; i < sets.size(); ++i) by_set[sets[i]].push_back(i);
  std::vector<SetComparison> out;
  for (const auto& [set, indices] : by_set) {
    SetComparison sc{set, detail::compare_indices(inputs, judgements, indices)};
    if (sc.comparison)
      for (std::size_t m : sc.comparison->members)
        if (judgements[m].finding) judgements[m].finding->included_in_historical_comparison = true;
    out.push_back(std::move(sc));
  }
  return out;
}

BENCHHIST_DETECT_INLINE std::vector<std::size_t> rank_branch_findings(std::span<const BranchJudgement> judgements,
                                              std::span<const SeriesKey> keys) {
  if (!keys.empty() && keys.size() != judgements.size())
    throw Error(ErrorKind::usage, "branch ranking: keys and judgements differ in length", "detect/branch", {},
                "pass one series key per judgement, or none");
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < judgements.size(); ++i)
    if (judgements[i].finding) out.push_back(i);
  std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
    const auto ka = total_order_key(std::fabs(judgements[a].finding->relative_delta));
    const auto kb = total_order_key(std::fabs(judgements[b].finding->relative_delta));
    if (ka != kb) return ka > kb;
    if (!keys.empty() && keys[a] != keys[b]) return keys[a] < keys[b];
    return a < b;
  });
  return out;
}


}  // namespace benchhist::detect
