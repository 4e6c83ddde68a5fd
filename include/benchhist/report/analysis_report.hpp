#pragma once
// The renderer's input model: everything an `analyze` report prints, as plain values
// (docs/formats.md#outputs, docs/statistics.md#census, #ranking-and-determinism). The analysis
// pipeline fills one AnalysisReport per pass; every reporter (text, Markdown, JSON, summary,
// outcome) renders from that one value, so the formats can never disagree. Nothing here depends on
// the detection or selection headers (only on the shared vocabulary of model/verdict.hpp): the
// pipeline converts its results into these types.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/model/benchmark_id.hpp"
#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/metric.hpp"
#include "benchhist/model/verdict.hpp"

namespace benchhist::report {

// The tokens (mode, method, direction, reasons, coverage, outcome), the Census and the
// comparison-base lag are the shared vocabulary of model/verdict.hpp.

// ---- Findings -------------------------------------------------------------------------

// A point of a finding's chart: one observation at a first-parent index (docs/formats.md#charts).
// Several points may share an index (several runs at one commit); they are averaged.
struct ChartPoint {
  std::size_t index = 0;
  double value = 0;
  bool dirty = false;  // from a dirty snapshot: the HTML report marks it, the text chart ignores it
  friend bool operator==(const ChartPoint&, const ChartPoint&) = default;
};

// Chart input of one finding. History: the full selected series (pre-blessing context
// included) and the analyzed context commit's index as the trailing target. Branch: the
// comparison baseline (column 0) and the base window levels at their base-ref indices plus
// the context value at base-ref index + 1.
struct FindingChart {
  std::vector<ChartPoint> points;           // ascending by index
  std::size_t target_index = 0;             // history: context commit index (trailing gaps)
  std::optional<std::size_t> attributed_index;  // column of the attributed commit, if known
  std::optional<double> baseline;           // branch only: the first column
  // What the graphical charts mark beyond the text chart (report/chart_spec.hpp):
  std::optional<std::size_t> analysed_from{};     // history: first analysed index (drift window start)
  std::optional<std::size_t> blessed_index{};     // index of the re-baselining blessing's commit
  std::optional<std::size_t> regime_start_index{};  // branch: first index of the current base regime
};

// Branch-excursion details (docs/formats.md#report-formats `branch`,
// docs/statistics.md#excursion-gates).
struct BranchDetails {
  std::uint64_t reference_count = 0;
  double reference_min = 0;
  double reference_max = 0;
  double excess = 0;
  double relative_excess = 0;
  std::optional<std::string> current_regime_start;  // full commit id
  bool matches_previous_regime = false;
  bool included_in_historical_comparison = false;
};

// A change point's window (docs/bisect.md#the-window, bisect::find_window): the series' last
// measured first-parent commit before the attributed one, and how many first-parent commits
// between the two were never measured — the step may sit at any of them or at the attributed one.
struct UnmeasuredGap {
  std::string measured;     // full id of the last measured commit at the old level
  std::size_t commits = 0;  // unmeasured commits strictly between it and the attributed commit (≥ 1)
};

struct Finding {
  DiscriminantSet set;
  BenchmarkId benchmark;
  MetricKind kind = MetricKind::wall_time;
  FindingMethod method = FindingMethod::change_point;
  Direction direction = Direction::regression;
  double baseline = 0;
  double latest = 0;
  double delta = 0;
  double relative_delta = 0;
  std::optional<std::string> commit;          // attributed commit as stored (full id)
  std::optional<std::string> commit_subject;  // its subject line, when known
  std::optional<std::string> window_start;    // drift only
  std::optional<UnmeasuredGap> unmeasured_before;  // history change points with a gap before `commit`
  std::optional<std::string> blessed_at;      // commit of the re-baselining blessing
  std::optional<std::string> blessed_commit_time;  // RFC 3339
  std::optional<double> chance_level;         // history (internal, never printed)
  std::optional<double> adjusted_p;           // history change points (internal)
  std::optional<BranchDetails> branch;        // branch excursions only
  std::optional<FindingChart> chart;

  // Primary = listed in its set's main block; a branch finding outside a formed
  // historical comparison goes under "additional excursions" (docs/formats.md#tokens).
  bool is_primary(bool set_has_comparison) const noexcept {
    return !branch || !set_has_comparison || branch->included_in_historical_comparison;
  }
};

// ---- Sets -----------------------------------------------------------------------------

// Inputs of the historical-turn sentence (docs/formats.md#tokens,
// docs/statistics.md#historical-turn-comparison).
struct BranchComparison {
  std::uint64_t evaluated_base_commits = 0;
  std::uint64_t at_least_as_much = 0;
  std::uint64_t series = 0;
};

struct SetReport {
  DiscriminantSet set;
  std::uint64_t runs = 0;    // stored runs loaded for this set
  std::uint64_t series = 0;  // in-scope series of this set
  // Lags as computed; reporters deduplicate and order them (ordered_lags,
  // docs/statistics.md#comparison-base-lag) so callers need not.
  std::vector<ComparisonBaseLag> lags;
  // Branch mode: the report-wide comparison, nullopt when it could not be formed.
  std::optional<BranchComparison> comparison;
};

// ---- Verbose details (docs/formats.md#streams: free-form notes on stderr) ----------------------

struct UnjudgedSeries {
  DiscriminantSet set;
  BenchmarkId benchmark;
  MetricKind kind = MetricKind::wall_time;
  UnjudgedReason reason = UnjudgedReason::too_few_points;
  std::string evidence;  // e.g. `7 points`, free-form
};

enum class GateVerdict { passed, declined, not_run, skipped };
std::string_view to_string(GateVerdict) noexcept;

struct GateRow {
  std::string gate;                  // gate token, e.g. `residual_noise` (docs/statistics.md#change-point-ladder)
  std::optional<double> demand;      // threshold
  std::optional<double> computed;    // the candidate's value
  GateVerdict verdict = GateVerdict::passed;
};

struct DeclinedCandidate {
  DiscriminantSet set;
  BenchmarkId benchmark;
  MetricKind kind = MetricKind::wall_time;
  FindingMethod ladder = FindingMethod::change_point;
  std::vector<GateRow> gates;  // in ladder order, the declining gate included
};

struct VerboseDetails {
  std::vector<UnjudgedSeries> unjudged;
  std::vector<DeclinedCandidate> declined;
};

// ---- Selection facts --------------------------------------------------------------------

// What the analysis selected; rendered in the selection announcement and hints.
struct SelectionFacts {
  std::string engine_filter = "all";         // `all`, `<v> (auto-detected)` or `a|b`
  std::string target_triple_filter = "all";
  std::string machine_key_filter = "all";
  std::optional<std::string> base_name;      // e.g. `main`
  bool base_auto_detected = false;
  std::optional<std::string> context;        // short context commit, when the command has one
  bool context_defaulted = false;            // `(defaulted to HEAD)`
  bool show_since = true;                    // commands without a since segment set false
  std::optional<std::string> since;          // RFC 3339 cutoff, nullopt = none
  std::string since_reason;                  // e.g. `history-mode default six-month look-back`
};

// ---- Chart data (graphical reports only) ------------------------------------------------

// A first-parent commit as the graphical reports label it (tooltips, axis labels).
struct LineCommit {
  std::string id;                        // full id
  std::optional<std::string> committed;  // committer time, RFC 3339
  std::string subject;
};

// One judged series as the HTML report's series table draws it.
struct SeriesSketch {
  DiscriminantSet set;
  BenchmarkId benchmark;
  MetricKind kind = MetricKind::wall_time;
  std::vector<ChartPoint> points;     // history: every point; branch: base levels, then the tip
  std::size_t target_index = 0;       // the analyzed context commit's index (trailing gap)
  std::optional<std::size_t> finding; // index into AnalysisReport::findings
};

// What only the graphical reports need: the commit line the chart indices refer to and every
// judged series. Text, Markdown and JSON never read it, so the pipeline fills it on request
// (pipeline::chart_data) rather than on every analysis.
struct ChartData {
  // Index = chart index. History: the context's first-parent line. Branch: the base ref's
  // first-parent line, then the context commit (at base-ref index + 1, where its value sits).
  std::vector<LineCommit> line;
  std::vector<SeriesSketch> judged;  // in series key order
};

// ---- The report ------------------------------------------------------------------------

struct RunSpan {
  std::uint64_t runs = 0;
  std::optional<std::string> oldest;  // full commit ids; absent when nothing was analyzed
  std::optional<std::string> newest;
};

struct AnalysisReport {
  std::string project;  // raw project id
  AnalysisMode mode = AnalysisMode::history;
  std::string context_commit;             // full id
  std::optional<std::string> context_name;  // e.g. `HEAD`
  bool context_dirty = false;             // `+ uncommitted changes`
  std::optional<std::string> base_commit;
  std::optional<std::string> base_name;
  SelectionFacts selection;
  RunSpan runs;
  std::uint64_t ghosts_excluded = 0;  // distinct (set, benchmark) ghosts — benchmarks, not series
  Census census;
  std::vector<SetReport> sets;      // ordered by engine, triple, machine key
  std::vector<Finding> findings;    // globally ranked (docs/statistics.md#ranking-and-determinism)
  std::optional<std::string> hint;     // empty-outcome hint (docs/formats.md#listings-and-command-messages)
  std::optional<std::string> warning;  // dirty-base-tip warning (docs/formats.md#listings-and-command-messages)
  VerboseDetails verbose;
  std::optional<ChartData> charts{};  // graphical reports only (see ChartData)

  Outcome outcome() const noexcept { return census.outcome(findings.size()); }
  bool notable() const noexcept { return !findings.empty(); }
  // Improvements are reported only in branch mode (history reports regressions only).
  bool reports_improvements() const noexcept { return mode == AnalysisMode::branch; }
  std::uint64_t regressions() const noexcept;
  std::uint64_t improvements() const noexcept;
  std::uint64_t regressions_in(const DiscriminantSet&) const noexcept;
  std::uint64_t improvements_in(const DiscriminantSet&) const noexcept;
  // Findings of one set, keeping the global order (docs/formats.md#outputs).
  std::vector<const Finding*> findings_in(const DiscriminantSet&) const;
  // Every reporter calls this first: a report built by hand whose finding's set is not in
  // `sets` would be dropped by the set-grouped formats (text, Markdown, HTML) and kept by the
  // others. Throws Error{usage} naming the finding and its set.
  void check() const;
};

}  // namespace benchhist::report
