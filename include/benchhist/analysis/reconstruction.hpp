#pragma once
// Reconstruction (docs/pipeline.md#reconstruction): selected runs become series per (discriminant
// set, benchmark identity, metric kind), ordered by first-parent topology; then ghost
// elimination, configured ignores (docs/configuration.md#analysis--benchmark-ignore-prefixes),
// blessings, the history analysed view (docs/pipeline.md#reconstruction) and the branch base window
// / context observation (docs/branch-mode.md#inputs-one-branchseriesinput-per-series).
//
// The building blocks are pure functions over plain values so they can be checked against
// vectors/reconstruction.json; reconstruct() chains them over a Selection + its loaded runs.

#include <atomic>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/analysis/loading.hpp"
#include "benchhist/analysis/selection.hpp"
#include "benchhist/model/benchmark_id.hpp"
#include "benchhist/model/blessing.hpp"
#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/metric.hpp"
#include "benchhist/model/series.hpp"

namespace benchhist::analysis {

// SeriesKey and the docs/statistics.md#constants size limits (max_series_points,
// max_branch_base_commits) are model/series.hpp.

// One observation of one series (docs/pipeline.md#reconstruction).
// A commit id shared by every point of one run: a large store has a million points and a few
// thousand commits, so points copy a reference, not the 40 characters. Reads as the string. One
// pointer to a counted string (not a shared_ptr's two): the points are the bulk of analyze's
// memory, and every byte of them is written once per point.
class CommitRef {
 public:
  CommitRef() = default;
  CommitRef(std::string id) : rep_(new Rep{{1}, std::move(id)}) {}  // NOLINT: implicit by design
  CommitRef(const char* id) : CommitRef(std::string(id)) {}          // NOLINT
  CommitRef(const CommitRef& o) noexcept : rep_(o.rep_) {
    if (rep_) rep_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  CommitRef(CommitRef&& o) noexcept : rep_(std::exchange(o.rep_, nullptr)) {}
  CommitRef& operator=(CommitRef o) noexcept {
    std::swap(rep_, o.rep_);
    return *this;
  }
  ~CommitRef() {
    if (rep_ && rep_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete rep_;
  }
  const std::string& str() const noexcept { return rep_ ? rep_->text : empty(); }
  operator const std::string&() const noexcept { return str(); }  // NOLINT: reads as the id
  friend bool operator==(const CommitRef& a, const CommitRef& b) noexcept {
    return a.rep_ == b.rep_ || a.str() == b.str();
  }
  friend bool operator==(const CommitRef& a, std::string_view b) noexcept { return a.str() == b; }
  friend bool operator==(const CommitRef& a, const std::string& b) noexcept { return a.str() == b; }
  friend bool operator==(const CommitRef& a, const char* b) noexcept { return a.str() == b; }

 private:
  struct Rep {
    std::atomic<std::size_t> refs;
    const std::string text;
  };
  static const std::string& empty() noexcept {
    static const std::string none;
    return none;
  }
  Rep* rep_ = nullptr;
};

// 32-bit positions keep a point at 56 bytes (a store would need four billion commits on one line,
// or four billion selected objects, to exceed them; reconstruction refuses such a selection).
struct Point {
  std::uint32_t topo = 0;     // topological index of its commit on its line
  bool dirty = false;
  std::uint32_t ordinal = 0;  // rank of its object by storage key
  CommitRef commit;
  double value = 0;
  std::optional<Interval> interval;  // only when the engine reported one
  friend bool operator==(const Point&, const Point&) = default;
};

// docs/pipeline.md#reconstruction order: topo ascending, clean before dirty, object ordinal
// ascending.
inline bool point_before(const Point& a, const Point& b) noexcept {
  if (a.topo != b.topo) return a.topo < b.topo;
  if (a.dirty != b.dirty) return !a.dirty;
  return a.ordinal < b.ordinal;
}
void sort_points(std::vector<Point>& points);

// A branch-mode base level: one base-line commit's clean runs collapsed to their median
// (docs/branch-mode.md#inputs-one-branchseriesinput-per-series).
struct BaseLevel {
  std::size_t topo = 0;
  std::string commit;
  double value = 0;
  std::optional<Interval> interval;
  friend bool operator==(const BaseLevel&, const BaseLevel&) = default;
};

// The blessing that re-baselines a series (docs/pipeline.md#reconstruction).
struct AppliedBlessing {
  std::string key;     // the record's storage key
  std::string commit;
  std::size_t topo = 0;  // on the evidence line
  std::optional<Timestamp> commit_time;
};

struct Series {
  SeriesKey key;
  std::vector<Point> points;  // the full series (charts), docs/pipeline.md#reconstruction order
  std::optional<AppliedBlessing> blessing;
  // History: first point at or after the blessed commit; detection sees points[active_start..].
  std::size_t active_start = 0;
  // Branch (docs/branch-mode.md#inputs-one-branchseriesinput-per-series).
  std::size_t base_history_count = 0;  // base levels before any cap
  std::vector<BaseLevel> base_window;  // newest 128 levels, then the blessing drain
  std::optional<Point> tip;            // the context observation; none → not_measured_on_branch

  bool blessed() const noexcept { return blessing.has_value(); }

  // Inputs of the history detectors, which take the FULL series plus active_start and
  // apply the newest-1000 cap themselves (vectors: history_change_point#ref_newest_1000_points_cap).
  std::vector<double> values() const;
  std::vector<std::optional<Interval>> intervals() const;

  // docs/pipeline.md#reconstruction, for callers that want the capped view directly: active =
  // points[active_start..], analysed = its newest min(len(active), 1000) points.
  std::size_t active_count() const noexcept { return points.size() - active_start; }
  std::size_t analysed_first() const noexcept;
  std::size_t analysed_count() const noexcept { return points.size() - analysed_first(); }

  // Branch detector inputs.
  std::vector<double> base_values() const;
  std::vector<std::optional<Interval>> base_intervals() const;
};

// ---- pure building blocks ----

// One loaded run placed on its line.
struct PlacedRun {
  DiscriminantSet set;
  std::size_t topo = 0;
  bool dirty = false;
  std::size_t ordinal = 0;
  CommitRef commit;  // shared by the run's points
  const Run* run = nullptr;
};

// docs/pipeline.md#reconstruction: one point per (run, result, metric) into its series; only
// benchmarks whose qualified id starts with one of `benchmark_prefixes` (none = all). Series sorted
// by key, points by docs/pipeline.md#reconstruction. Discriminant sets are built in parallel on up
// to `threads` threads; the result does not depend on the count.
std::vector<Series> build_series(const std::vector<PlacedRun>& runs,
                                 const std::vector<std::string>& benchmark_prefixes = {}, unsigned threads = 1);

struct GhostOutcome {
  std::size_t ghost_series = 0;
  std::size_t ghost_benchmarks = 0;  // distinct (set, id) pairs removed
  std::vector<SeriesKey> removed;
};
// docs/pipeline.md#reconstruction: per (set, id), present iff any of its series has a point at
// `context_commit` (a dirty snapshot counts); otherwise every metric series of it is removed.
GhostOutcome eliminate_ghosts(std::vector<Series>& series, std::string_view context_commit);

// docs/configuration.md#analysis--benchmark-ignore-prefixes: removes series whose qualified id
// starts with any prefix (raw); returns them.
std::vector<SeriesKey> remove_ignored(std::vector<Series>& series, const std::vector<std::string>& ignore_prefixes);

// Raw prefix acceptance shared by blessings, ignores and analyze prefixes: empty list
// accepts everything; `foo/bar` accepts `foo/barbaz`; a trailing `/` enforces a boundary.
bool prefixes_accept(const std::vector<std::string>& prefixes, std::string_view qualified_id);

// A blessing as matched against series (already placed on the evidence line).
struct BlessingCandidate {
  std::string key;
  std::string commit;
  std::size_t topo = 0;
  BlessingScope scope;
  std::vector<std::string> prefixes;
};
// docs/pipeline.md#reconstruction: among candidates whose scope matches `set` and whose prefixes
// accept the id, the one at the greatest topological index (ties: the smallest key, for
// determinism; records at one commit are equivalent). nullptr when none matches.
const BlessingCandidate* select_blessing(const std::vector<BlessingCandidate>& candidates,
                                         const DiscriminantSet& set, std::string_view qualified_id);

// History: number of points strictly before the blessed commit's index.
std::size_t history_active_start(const std::vector<Point>& points, std::size_t blessed_topo);

// docs/branch-mode.md#inputs-one-branchseriesinput-per-series: consecutive clean points with equal
// topo collapse to one level (median value; the interval is (median lows, median highs) over the
// points that carry one). Oldest first.
std::vector<BaseLevel> collapse_base_levels(const std::vector<Point>& sorted_clean_points);

struct BaseWindow {
  std::vector<BaseLevel> levels;
  std::size_t history_count = 0;  // before the cap
  std::size_t first_retained = 0; // index into the uncapped levels
};
// The newest `cap` levels, then the blessing drain: levels strictly below the blessed topo
// go, the blessed commit's own level stays.
BaseWindow base_window(const std::vector<BaseLevel>& levels, std::optional<std::size_t> blessed_topo,
                       std::size_t cap = max_branch_base_commits);

// docs/branch-mode.md#inputs-one-branchseriesinput-per-series context observation: the last point
// (docs/pipeline.md#reconstruction order) at the context's topo, if any.
std::optional<Point> context_observation(const std::vector<Point>& sorted_points, std::size_t context_topo);

// docs/statistics.md#numeric-conventions median: total order sort; even count → (a + b) / 2 of the
// middle pair.
double median(std::vector<double> values);

// ---- the whole stage ----

struct ReconstructionOptions {
  std::vector<std::string> benchmark_prefixes;  // analyze positional prefixes
  std::vector<std::string> ignore_prefixes;     // configured ignores
  // examine applies no ghost filter, no ignores and no blessings (docs/cli.md#commands).
  bool eliminate_ghosts = true;
  bool apply_ignores = true;
  bool apply_blessings = true;
  unsigned threads = 1;  // series building, per discriminant set
};

struct Reconstruction {
  AnalysisMode mode = AnalysisMode::history;
  std::vector<Series> series;  // sorted by SeriesKey
  std::size_t ghost_series = 0;
  std::size_t ghost_benchmarks = 0;
  std::vector<SeriesKey> ghosts;
  std::vector<SeriesKey> ignored;
  bool context_has_runs = false;  // no run at the context → everything is a ghost (hint)
};

Reconstruction reconstruct(const Selection& selection, const LoadedSelection& loaded,
                           const ReconstructionOptions& options = {});

// History analysis of a large store in one pass: every selected run is fetched, decoded and
// turned into points by the thread that read it, then dropped, so the runs are never all held
// at once (a million results take a quarter of a gigabyte as Run values). The result equals
// reconstruct(selection, load_selection(store, selection, threads), options), errors included
// (the lowest failing key position is reported). Branch mode, which needs the runs afterwards,
// takes that path itself.
// Throws the errors of load_selection (not_found, decode, the store's errors) for the lowest key.
Reconstruction load_and_reconstruct(storage::ObjectStore& store, const Selection& selection,
                                    const ReconstructionOptions& options, unsigned threads);

// `list runs` series count per discriminant set (every series of the selected runs, before
// ghosts/ignores, which do not apply to list).
std::map<DiscriminantSet, std::size_t> series_per_set(const Selection& selection, const LoadedSelection& loaded);

}  // namespace benchhist::analysis
