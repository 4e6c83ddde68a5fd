// Shared report sentences (docs/formats.md#tokens, #report-formats).

#include "benchhist/report/prose.hpp"

#include "benchhist/model/text.hpp"
#include "benchhist/report/value_format.hpp"

namespace benchhist::report {

std::string verdict_sentence(Coverage c) {
  switch (c) {
    case Coverage::full: return "No notable changes detected.";
    case Coverage::partial: return "No notable changes detected among the series that were judged.";
    case Coverage::nothing_judged: return "Nothing was judged, so no change could be detected either way.";
    case Coverage::nothing_in_scope:
      return "Nothing was in scope at the analyzed context commit, so nothing was judged.";
    case Coverage::no_series: return "Nothing was analyzed, so no change could be detected.";
  }
  return {};
}

std::string breakdown_sentence(const Census& census) {
  std::string out;
  for (auto r : all_unjudged_reasons) {
    const auto n = census.count(r);
    if (n == 0) continue;
    out += out.empty() ? "Not judged: " : "; ";
    out += plural(n, "series");
    out += ' ';
    out += reason_phrase(r);
  }
  if (!out.empty()) out += '.';
  return out;
}

std::string skipped_unreadable_sentence(const std::vector<std::string>& keys) {
  if (keys.empty()) return {};
  std::string out = "Skipped " + plural(keys.size(), "unreadable stored object") + " (--skip-unreadable): ";
  return out + joined(keys) + ".";
}

std::vector<std::string> qualification_sentences(const Census& census) {
  std::vector<std::string> out;
  const auto in_scope = std::to_string(census.in_scope());
  switch (census.coverage()) {
    case Coverage::full:
    case Coverage::partial:
      out.push_back("Judged " + std::to_string(census.judged) + " of " + in_scope +
                    " in-scope series; no reportable move survived the gates.");
      break;
    case Coverage::nothing_judged:
      out.push_back("Judged 0 of " + in_scope +
                    " in-scope series, so nothing was tested: this silence is not evidence that nothing moved.");
      break;
    case Coverage::nothing_in_scope: {
      // Reference wording when nothing is ignored; ignored series are measured, so they are named
      // apart from the ones that are not (docs/reports.md#choices-on-open-items).
      const auto total = census.total();
      const auto ignored = census.count(UnjudgedReason::ignored);
      if (ignored == 0)
        out.push_back("None of the " + std::to_string(total) +
                      " series accounted for is measured at the analyzed context commit, so nothing was tested.");
      else if (ignored >= total)
        out.push_back(std::string(total == 1 ? "The 1 series accounted for is " : "All " + std::to_string(total) +
                                                                                     " series accounted for are ") +
                      std::string(reason_phrase(UnjudgedReason::ignored)) + ", so nothing was tested.");
      else
        out.push_back("Of the " + std::to_string(total) + " series accounted for, " + std::to_string(ignored) + " " +
                      (ignored == 1 ? "is " : "are ") + std::string(reason_phrase(UnjudgedReason::ignored)) +
                      " and none of the other " + std::to_string(total - ignored) +
                      " is measured at the analyzed context commit, so nothing was tested.");
      break;
    }
    case Coverage::no_series: break;
  }
  if (auto b = breakdown_sentence(census); !b.empty()) out.push_back(std::move(b));
  return out;
}

std::string lag_warning(const ComparisonBaseLag& lag) {
  return "Warning: comparison base is " + plural(static_cast<std::uint64_t>(lag.commits_behind), "commit") + " behind base (" +
         std::string(lag_phrase(lag.reason.value_or(LagReason::no_recent_base_data))) + ")";
}

std::string historical_comparison_sentence(const std::optional<BranchComparison>& c,
                                           bool any_included_finding) {
  if (!c) return "There was not enough comparable base history for a report-wide comparison.";
  const auto n = std::to_string(c->evaluated_base_commits);
  const auto series = std::to_string(c->series);
  if (!any_included_finding)
    return "The branch produced no reportable out-of-range movement in this comparison (" + series +
           " series and " + n + " comparable base commits).";
  if (c->at_least_as_much == 0)
    return "None of " + n + " comparable base commits showed as much out-of-range movement as this branch (" +
           series + " series compared).";
  return std::to_string(c->at_least_as_much) + " of " + n +
         " comparable base commits showed at least as much out-of-range movement as this branch (" + series +
         " series compared).";
}

std::string filter_arguments(const DiscriminantSet& s) {
  return "--engine " + std::string(to_string(s.engine)) + " --target-triple " + s.target_triple +
         " --machine-key " + s.machine_key;
}

std::string branch_relation(MetricKind kind, Direction d) {
  const bool time = kind == MetricKind::wall_time || kind == MetricKind::processor_time;
  const bool up = d == Direction::regression;
  if (time) return up ? "slower than all" : "faster than all";
  return up ? "higher than all" : "lower than all";
}

std::string finding_headline(const Finding& f, bool markdown) {
  const std::string kind(to_string(f.kind));
  if (f.branch) {
    const std::string rest = " - " + branch_relation(f.kind, f.direction) + " " +
                             std::to_string(f.branch->reference_count) + " current-base observations";
    if (markdown) return "**" + format_value(f.latest) + "** `" + kind + "`" + rest;
    return format_value(f.latest) + " " + kind + rest;
  }
  if (markdown) return "**" + format_percent(f.relative_delta) + "** `" + kind + "`";
  return format_percent(f.relative_delta) + " " + kind;
}

std::string finding_detail(const Finding& f) {
  static const std::string dot = " \u00b7 ";
  static const std::string arrow = " \u2192 ";
  if (f.branch) {
    std::string s = "current base range: " + format_value(f.branch->reference_min) + "-" +
                    format_value(f.branch->reference_max) + dot +
                    "branch excess: " + format_signed_value(f.branch->excess) + " / " +
                    format_percent(f.branch->relative_excess);
    if (f.commit) s += dot + "@ " + *f.commit;
    return s;
  }
  std::string s = std::string(to_string(f.direction)) + " via " + std::string(method_label(f.method)) + dot +
                  format_value(f.baseline) + arrow + format_value(f.latest) + dot;
  if (!f.commit) return s + "across the analyzed window";
  if (f.method == FindingMethod::drift) {
    if (f.window_start) return s + "accumulated " + *f.window_start + arrow + *f.commit;
    return s + "accumulated ending at " + *f.commit;
  }
  return s + "somewhere near " + *f.commit;
}

std::string unmeasured_line(const Finding& f, const std::function<std::string(std::string_view)>& code) {
  if (!f.unmeasured_before || !f.commit) return {};
  const auto c = [&](std::string_view s) { return code ? code(s) : std::string(s); };
  return "between " + c(short_id(f.unmeasured_before->measured)) + " and " + c(short_id(*f.commit)) + ": " +
         plural(f.unmeasured_before->commits, "unmeasured commit") + " \u2014 " + c("cargo bench-history bisect") +
         " pins it";
}

std::string blessing_line(const Finding& f) {
  if (!f.blessed_at) return {};
  std::string s = "blessed at " + std::string(short_id(*f.blessed_at));
  if (f.blessed_commit_time) s += " (" + *f.blessed_commit_time + ")";
  return s;
}

std::string previous_regime_line(const Finding& f) {
  if (!f.branch || !f.branch->matches_previous_regime) return {};
  const std::string where = f.branch->current_regime_start
                                ? std::string(short_id(*f.branch->current_regime_start))
                                : std::string("the current boundary");
  return "The branch value matches the regime preceding base commit " + where + ".";
}

}  // namespace benchhist::report
