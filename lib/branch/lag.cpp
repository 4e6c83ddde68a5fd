// Comparison-base lag (detection.md §11). See include/benchhist/detect/lag.hpp.

#include "benchhist/detect/lag.hpp"

#include <algorithm>

#include "benchhist/error.hpp"

namespace benchhist::detect {

std::string_view to_string(LagReason r) noexcept {
  return r == LagReason::discriminant_set_mismatch ? "discriminant_set_mismatch" : "no_recent_base_data";
}

std::optional<LagReason> parse_lag_reason(std::string_view token) noexcept {
  if (token == "discriminant_set_mismatch") return LagReason::discriminant_set_mismatch;
  if (token == "no_recent_base_data") return LagReason::no_recent_base_data;
  return std::nullopt;
}

std::string_view lag_reason_phrase(LagReason r) noexcept {
  return r == LagReason::discriminant_set_mismatch ? "discriminant set mismatch"
                                                   : "no base data at more recent commits";
}

bool is_sibling_set(const DiscriminantSet& finding_set, const DiscriminantSet& other) noexcept {
  return other.engine == finding_set.engine && other.target_triple == finding_set.target_triple &&
         other.machine_key != finding_set.machine_key;
}

namespace {

bool shows_mismatch(std::int64_t base_ref_index, std::int64_t comparison_base_index, const DiscriminantSet& set,
                    std::span<const SiblingCleanPoint> points) {
  return std::any_of(points.begin(), points.end(), [&](const SiblingCleanPoint& p) {
    return is_sibling_set(set, p.set) && p.has_same_benchmark_and_metric && comparison_base_index < p.topo &&
           p.topo <= base_ref_index;
  });
}

}  // namespace

ComparisonBaseLag comparison_base_lag(std::int64_t base_ref_index, std::int64_t comparison_base_index,
                                      const DiscriminantSet& finding_set,
                                      std::span<const SiblingCleanPoint> loaded_evidence, const SiblingFetch& fetch) {
  ComparisonBaseLag lag;
  lag.commits_behind = base_ref_index - comparison_base_index;
  if (lag.commits_behind <= 0) return lag;
  if (shows_mismatch(base_ref_index, comparison_base_index, finding_set, loaded_evidence)) {
    lag.reason = LagReason::discriminant_set_mismatch;
    return lag;
  }
  lag.reason = LagReason::no_recent_base_data;
  if (!fetch) return lag;
  // Advisory only: a failed fetch or parse degrades to the other reason, never to an error.
  try {
    const auto fetched = fetch();
    if (fetched && shows_mismatch(base_ref_index, comparison_base_index, finding_set, *fetched))
      lag.reason = LagReason::discriminant_set_mismatch;
  } catch (const Error&) {
  }
  return lag;
}

std::vector<std::pair<std::int64_t, LagReason>> set_lags(std::span<const ComparisonBaseLag> lags) {
  std::vector<std::pair<std::int64_t, LagReason>> out;
  for (const auto& l : lags)
    if (l.lags() && l.reason) out.emplace_back(l.commits_behind, *l.reason);
  // Larger gap first, then mismatch (declared first) before no-data.
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first > b.first;
    return a.second < b.second;
  });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string lag_warning_text(std::int64_t commits_behind, LagReason reason) {
  return "Warning: comparison base is " + std::to_string(commits_behind) +
         (commits_behind == 1 ? " commit" : " commits") + " behind base (" + std::string(lag_reason_phrase(reason)) +
         ")";
}

}  // namespace benchhist::detect
