#include "benchhist/analysis/reconstruction.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <exception>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "benchhist/codec/key.hpp"
#include "benchhist/error.hpp"
#include "benchhist/parallel.hpp"
#include "platform/platform.hpp"

namespace benchhist::analysis {
namespace {

// docs/statistics.md#numeric-conventions: IEEE totalOrder via the bit pattern (−0 before +0, NaN
// never corrupts a sort).
std::int64_t total_order_key(double x) noexcept {
  auto i = std::bit_cast<std::int64_t>(x);
  if (i < 0) i ^= std::numeric_limits<std::int64_t>::max();
  return i;
}

}  // namespace

// docs/pipeline.md#reconstruction order, stable. Sorting (key, index) pairs and moving each point
// once is cheaper than shuffling the points themselves; the key packs (topo, dirty, ordinal) when
// they fit.
void sort_points(std::vector<Point>& points) {
  const std::size_t n = points.size();
  if (std::is_sorted(points.begin(), points.end(), point_before)) return;
  constexpr std::uint64_t limit = std::uint64_t{1} << 31;
  const bool packable = std::all_of(points.begin(), points.end(), [&](const Point& p) {
    return p.topo < limit && p.ordinal < (std::uint64_t{1} << 32);
  });
  if (!packable || n >= (std::uint64_t{1} << 32)) {
    std::stable_sort(points.begin(), points.end(), point_before);
    return;
  }
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Point& p = points[i];
    keyed[i] = {(static_cast<std::uint64_t>(p.topo) << 33) | (static_cast<std::uint64_t>(p.dirty) << 32) | p.ordinal,
                static_cast<std::uint32_t>(i)};
  }
  std::sort(keyed.begin(), keyed.end());  // ties keep input order through the index
  std::vector<Point> sorted;
  sorted.reserve(n);
  for (const auto& [key, i] : keyed) sorted.push_back(std::move(points[i]));
  points = std::move(sorted);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end(), [](double a, double b) { return total_order_key(a) < total_order_key(b); });
  const std::size_t n = v.size();
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();  // callers guard
  if (n % 2 == 1) return v[n / 2];
  return (v[n / 2 - 1] + v[n / 2]) / 2;  // literally (a + b) / 2, docs/statistics.md#numeric-conventions
}

std::vector<double> Series::values() const {
  std::vector<double> out;
  out.reserve(points.size());
  platform::populate_for_writing(out.data(), out.capacity() * sizeof(double));
  for (const auto& p : points) out.push_back(p.value);
  return out;
}

std::vector<std::optional<Interval>> Series::intervals() const {
  std::vector<std::optional<Interval>> out;
  out.reserve(points.size());
  for (const auto& p : points) out.push_back(p.interval);
  return out;
}

std::size_t Series::analysed_first() const noexcept {
  const std::size_t active = active_count();
  return active > max_series_points ? points.size() - max_series_points : active_start;
}

std::vector<double> Series::base_values() const {
  std::vector<double> out;
  for (const auto& l : base_window) out.push_back(l.value);
  return out;
}

std::vector<std::optional<Interval>> Series::base_intervals() const {
  std::vector<std::optional<Interval>> out;
  for (const auto& l : base_window) out.push_back(l.interval);
  return out;
}

bool prefixes_accept(const std::vector<std::string>& prefixes, std::string_view qualified_id) {
  if (prefixes.empty()) return true;
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](const std::string& p) { return qualified_id.starts_with(p); });
}

namespace {

// A series of one set as a lookup key that borrows the benchmark id (the owned SeriesKey is
// built once per series).
struct SeriesSlotKey {
  const BenchmarkId* id = nullptr;
  MetricKind kind = MetricKind::wall_time;
  friend bool operator<(const SeriesSlotKey& a, const SeriesSlotKey& b) {
    if (auto c = *a.id <=> *b.id; c != 0) return c < 0;
    return static_cast<int>(a.kind) < static_cast<int>(b.kind);
  }
};

// The series found so far in (part of) one discriminant set. Slots live in a deque so the index
// can borrow their ids. Runs of one set list their results in much the same order, so each
// (result, metric) position remembers the series it went to last time and finding a point's
// series is usually one comparison.
struct FoundSeries {
  BenchmarkId id;
  MetricKind kind = MetricKind::wall_time;
  std::vector<Point> points;
};
struct FoundSet {
  std::deque<FoundSeries> slots;
  std::map<SeriesSlotKey, std::size_t> index;
  std::vector<std::size_t> hint;
  std::size_t expected_points = 0;  // per series: one per run of the unit, usually
};

// Point keeps its topological index and ordinal in 32 bits (reconstruction.hpp): a run placed
// beyond them is refused, never truncated.
void require_point_position(std::size_t topo, std::size_t ordinal) {
  if (topo >> 32 == 0 && ordinal >> 32 == 0) return;
  throw Error(ErrorKind::usage,
              "a run is placed at topological index " + std::to_string(topo) + ", ordinal " + std::to_string(ordinal) +
                  ", beyond 2^32",
              "analysis/reconstruction", {}, "narrow the selection with --since, --engine, --target-triple or --machine-key");
}

// Appends one point per (result, metric) of `run`, placed at (topo, dirty, ordinal, commit).
void take_points(FoundSet& acc, std::size_t topo, bool dirty, std::size_t ordinal, const CommitRef& commit,
                 const Run& run, const std::vector<std::string>& prefixes) {
  constexpr std::size_t no_hint = std::numeric_limits<std::size_t>::max();
  std::size_t position = 0;
  for (const auto& result : run.results) {
    if (result.id.empty()) continue;
    if (!prefixes.empty() && !prefixes_accept(prefixes, result.id.qualified())) continue;
    for (const auto& metric : result.metrics) {
      std::size_t slot = no_hint;
      if (position < acc.hint.size() && acc.hint[position] != no_hint) {
        const FoundSeries& h = acc.slots[acc.hint[position]];
        if (h.kind == metric.kind && h.id == result.id) slot = acc.hint[position];
      }
      if (slot == no_hint) {
        const auto it = acc.index.find(SeriesSlotKey{&result.id, metric.kind});
        if (it != acc.index.end()) {
          slot = it->second;
        } else {
          slot = acc.slots.size();
          acc.slots.push_back(FoundSeries{result.id, metric.kind, {}});
          auto& points = acc.slots.back().points;
          points.reserve(acc.expected_points);
          // Filled run by run from here: fault its pages in at once (most of analyze's page
          // faults were these first touches, one at a time).
          platform::populate_for_writing(points.data(), points.capacity() * sizeof(Point));
          acc.index.emplace(SeriesSlotKey{&acc.slots.back().id, metric.kind}, slot);
        }
        if (position >= acc.hint.size()) acc.hint.resize(position + 1, no_hint);
        acc.hint[position] = slot;
      }
      // Fits: the caller checked with require_point_position.
      acc.slots[slot].points.push_back(Point{static_cast<std::uint32_t>(topo), dirty, static_cast<std::uint32_t>(ordinal),
                                             commit, metric.value, metric.interval});
      ++position;
    }
  }
}

// The series of one set from its parts, in (id, kind) order: a series found in one part is
// moved whole, one found in several is concatenated in part order; points then take
// docs/pipeline.md#reconstruction's total order, so which thread read which run does not matter.
std::vector<Series> series_of(const DiscriminantSet& set, const std::vector<FoundSet*>& parts) {
  std::map<SeriesSlotKey, std::vector<FoundSeries*>> slots;
  for (FoundSet* part : parts)
    for (auto& slot : part->slots) slots[SeriesSlotKey{&slot.id, slot.kind}].push_back(&slot);
  std::vector<Series> series;
  series.reserve(slots.size());
  for (auto& [key, found] : slots) {
    Series s;
    s.key = SeriesKey{set, found.front()->id, found.front()->kind};
    if (found.size() == 1) {
      s.points = std::move(found.front()->points);
    } else {
      std::size_t total = 0;
      for (const FoundSeries* part : found) total += part->points.size();
      s.points.reserve(total);
      for (FoundSeries* part : found)
        s.points.insert(s.points.end(), std::make_move_iterator(part->points.begin()),
                        std::make_move_iterator(part->points.end()));
    }
    sort_points(s.points);
    series.push_back(std::move(s));
  }
  return series;
}

std::vector<Series> build_set_series(const DiscriminantSet& set, const std::vector<const PlacedRun*>& runs,
                                     const std::vector<std::string>& benchmark_prefixes) {
  FoundSet found;
  found.expected_points = runs.size();
  for (const PlacedRun* placed : runs)
    take_points(found, placed->topo, placed->dirty, placed->ordinal, placed->commit, *placed->run, benchmark_prefixes);
  return series_of(set, {&found});
}

}  // namespace

std::vector<Series> build_series(const std::vector<PlacedRun>& runs, const std::vector<std::string>& benchmark_prefixes,
                                 unsigned threads) {
  // Sets first (sorted), so concatenating per-set series keeps SeriesKey order: (set, id, kind).
  std::map<DiscriminantSet, std::vector<const PlacedRun*>> by_set;
  for (const auto& placed : runs) {
    require_point_position(placed.topo, placed.ordinal);
    if (placed.run) by_set[placed.set].push_back(&placed);
  }
  std::vector<std::pair<const DiscriminantSet*, const std::vector<const PlacedRun*>*>> sets;
  for (const auto& [set, set_runs] : by_set) sets.emplace_back(&set, &set_runs);
  // Sets are independent: built in parallel, each into its own place.
  std::vector<std::vector<Series>> per_set(sets.size());
  parallel_for(sets.size(), threads, [&](std::size_t i) {
    per_set[i] = build_set_series(*sets[i].first, *sets[i].second, benchmark_prefixes);
  });
  std::size_t total = 0;
  for (const auto& v : per_set) total += v.size();
  std::vector<Series> out;
  out.reserve(total);
  for (auto& v : per_set)
    for (auto& s : v) out.push_back(std::move(s));
  return out;
}

GhostOutcome eliminate_ghosts(std::vector<Series>& series, std::string_view context_commit) {
  // Presence is decided per (set, id) over every metric series of it.
  std::set<std::pair<DiscriminantSet, BenchmarkId>> present;
  for (const auto& s : series)
    // The context's points sort last (newest topo), so look from the end.
    if (std::any_of(s.points.rbegin(), s.points.rend(), [&](const Point& p) { return p.commit == context_commit; }))
      present.emplace(s.key.set, s.key.id);
  GhostOutcome out;
  std::set<std::pair<DiscriminantSet, BenchmarkId>> ghost_benchmarks;
  std::vector<Series> kept;
  kept.reserve(series.size());
  for (auto& s : series) {
    if (present.count({s.key.set, s.key.id})) {
      kept.push_back(std::move(s));
    } else {
      ghost_benchmarks.emplace(s.key.set, s.key.id);
      out.removed.push_back(s.key);
    }
  }
  series = std::move(kept);
  out.ghost_series = out.removed.size();
  out.ghost_benchmarks = ghost_benchmarks.size();
  return out;
}

std::vector<SeriesKey> remove_ignored(std::vector<Series>& series, const std::vector<std::string>& ignore_prefixes) {
  std::vector<SeriesKey> removed;
  if (ignore_prefixes.empty()) return removed;
  std::vector<Series> kept;
  kept.reserve(series.size());
  for (auto& s : series) {
    // Unlike blessings, an empty ignore list ignores nothing.
    if (prefixes_accept(ignore_prefixes, s.key.id.qualified()))
      removed.push_back(s.key);
    else
      kept.push_back(std::move(s));
  }
  series = std::move(kept);
  return removed;
}

const BlessingCandidate* select_blessing(const std::vector<BlessingCandidate>& candidates,
                                         const DiscriminantSet& set, std::string_view qualified_id) {
  const BlessingCandidate* best = nullptr;
  for (const auto& c : candidates) {
    if (!c.scope.matches(set) || !prefixes_accept(c.prefixes, qualified_id)) continue;
    if (!best || c.topo > best->topo || (c.topo == best->topo && c.key < best->key)) best = &c;
  }
  return best;
}

std::size_t history_active_start(const std::vector<Point>& points, std::size_t blessed_topo) {
  return static_cast<std::size_t>(std::count_if(points.begin(), points.end(),
                                                [&](const Point& p) { return p.topo < blessed_topo; }));
}

std::vector<BaseLevel> collapse_base_levels(const std::vector<Point>& points) {
  std::vector<BaseLevel> levels;
  std::size_t i = 0;
  while (i < points.size()) {
    std::size_t j = i;
    std::vector<double> values, lows, highs;
    while (j < points.size() && points[j].topo == points[i].topo) {
      values.push_back(points[j].value);
      if (points[j].interval) {
        lows.push_back(points[j].interval->low);
        highs.push_back(points[j].interval->high);
      }
      ++j;
    }
    BaseLevel level{points[i].topo, points[i].commit, median(values), std::nullopt};
    if (!lows.empty() && !highs.empty()) level.interval = Interval{median(lows), median(highs)};
    levels.push_back(std::move(level));
    i = j;
  }
  return levels;
}

BaseWindow base_window(const std::vector<BaseLevel>& levels, std::optional<std::size_t> blessed_topo,
                       std::size_t cap) {
  BaseWindow out;
  out.history_count = levels.size();
  out.first_retained = levels.size() > cap ? levels.size() - cap : 0;
  for (std::size_t i = out.first_retained; i < levels.size(); ++i) {
    if (blessed_topo && levels[i].topo < *blessed_topo) continue;  // the hard evidence boundary
    out.levels.push_back(levels[i]);
  }
  return out;
}

std::optional<Point> context_observation(const std::vector<Point>& points, std::size_t context_topo) {
  std::optional<Point> last;
  for (const auto& p : points)
    if (p.topo == context_topo) last = p;
  return last;
}

namespace {

std::vector<PlacedRun> place(const std::vector<SelectedObject>& objects,
                             const std::vector<std::shared_ptr<const Run>>& runs) {
  std::vector<PlacedRun> placed;
  placed.reserve(objects.size());
  for (std::size_t i = 0; i < objects.size() && i < runs.size(); ++i) {
    const auto& o = objects[i];
    placed.push_back(PlacedRun{o.data.set(), o.topo, o.dirty(), o.ordinal, o.data.commit, runs[i].get()});
  }
  return placed;
}

}  // namespace

namespace {

// Everything after the raw series (docs/pipeline.md#reconstruction,
// docs/configuration.md#analysis--benchmark-ignore-prefixes,
// docs/branch-mode.md#inputs-one-branchseriesinput-per-series): ghosts, ignores, blessings, the
// branch window. `base_runs` is read in branch mode only.
void finish_reconstruction(Reconstruction& out, const Selection& selection, const std::vector<LoadedBlessing>& blessings,
                           const std::vector<std::shared_ptr<const Run>>& base_runs,
                           const ReconstructionOptions& options) {
  const std::size_t context_topo = selection.context_topo();
  out.context_has_runs = std::any_of(selection.objects.begin(), selection.objects.end(),
                                     [&](const SelectedObject& o) { return o.topo == context_topo; });

  if (options.eliminate_ghosts) {  // docs/pipeline.md#reconstruction: first, on raw points
    auto ghosts = eliminate_ghosts(out.series, selection.context_commit);
    out.ghost_series = ghosts.ghost_series;
    out.ghost_benchmarks = ghosts.ghost_benchmarks;
    out.ghosts = std::move(ghosts.removed);
  }
  if (options.apply_ignores) out.ignored = remove_ignored(out.series, options.ignore_prefixes);  // docs/configuration.md#analysis--benchmark-ignore-prefixes

  std::vector<BlessingCandidate> candidates;
  if (options.apply_blessings) {
    for (const auto& b : blessings) candidates.push_back({b.ref.key, b.ref.commit, b.ref.topo, b.scope, b.record.prefixes});
  }
  const auto& evidence = selection.evidence_line();

  // Branch: base series from the base line's clean runs
  // (docs/branch-mode.md#inputs-one-branchseriesinput-per-series).
  std::map<SeriesKey, std::vector<BaseLevel>> base_levels;
  if (selection.mode == AnalysisMode::branch) {
    for (auto& s : build_series(place(selection.base_objects, base_runs), options.benchmark_prefixes, options.threads))
      base_levels.emplace(s.key, collapse_base_levels(s.points));
  }

  for (auto& s : out.series) {
    const std::string qualified = s.key.id.qualified();
    const BlessingCandidate* blessing = candidates.empty() ? nullptr : select_blessing(candidates, s.key.set, qualified);
    if (blessing) {
      AppliedBlessing applied{blessing->key, blessing->commit, blessing->topo, std::nullopt};
      if (blessing->topo < evidence.size()) applied.commit_time = evidence[blessing->topo].committer_time;
      s.blessing = std::move(applied);
    }
    if (selection.mode == AnalysisMode::history) {
      if (blessing) s.active_start = history_active_start(s.points, blessing->topo);
    } else {
      static const std::vector<BaseLevel> none;
      const auto it = base_levels.find(s.key);
      auto window = base_window(it == base_levels.end() ? none : it->second,
                                blessing ? std::optional<std::size_t>(blessing->topo) : std::nullopt);
      s.base_history_count = window.history_count;
      s.base_window = std::move(window.levels);
      s.tip = context_observation(s.points, context_topo);
    }
  }
}

}  // namespace

Reconstruction reconstruct(const Selection& selection, const LoadedSelection& loaded,
                           const ReconstructionOptions& options) {
  // The runs are matched to the selection by position: a shorter list would silently drop the
  // newest points (and a longer one belongs to another selection).
  const auto aligned = [](std::size_t objects, std::size_t runs, const char* which) {
    if (objects != runs)
      throw Error(ErrorKind::usage,
                  std::string("the loaded runs do not match the selection: ") + std::to_string(runs) + " " + which +
                      " for " + std::to_string(objects) + " selected objects",
                  std::string("LoadedSelection::") + which, {},
                  "pass the LoadedSelection that load_selection returned for this same Selection, unchanged");
  };
  aligned(selection.objects.size(), loaded.runs.size(), "runs");
  if (selection.mode == AnalysisMode::branch) aligned(selection.base_objects.size(), loaded.base_runs.size(), "base_runs");
  Reconstruction out;
  out.mode = selection.mode;
  out.series = build_series(place(selection.objects, loaded.runs), options.benchmark_prefixes, options.threads);
  finish_reconstruction(out, selection, loaded.blessings, loaded.base_runs, options);
  return out;
}

Reconstruction load_and_reconstruct(storage::ObjectStore& store, const Selection& selection,
                                    const ReconstructionOptions& options, unsigned threads) {
  if (selection.mode != AnalysisMode::history) return reconstruct(selection, load_selection(store, selection, threads), options);

  // Keys in byte order, as load_selection fetches them; the lowest failing position wins.
  // Selection::objects is sorted by key already, which one pass confirms.
  const auto& objects = selection.objects;
  std::vector<std::size_t> order(objects.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto by_key = [&](std::size_t a, std::size_t b) { return objects[a].key < objects[b].key; };
  if (!std::is_sorted(order.begin(), order.end(), by_key)) std::sort(order.begin(), order.end(), by_key);
  const auto same_set = [&](std::size_t a, std::size_t b) {
    const codec::DataKey &x = objects[a].data, &y = objects[b].data;
    return x.engine == y.engine && x.target_triple == y.target_triple && x.machine_key == y.machine_key;
  };
  // Units of work: runs of consecutive keys of one set (keys group by set), at most `cap` long
  // so even a single set keeps every thread busy. A unit gathers its own series; with many
  // sets a series then lives in one unit and is moved, not merged.
  const unsigned workers = std::max(1u, threads);
  const std::size_t cap = std::max<std::size_t>(1, (order.size() + 4 * workers - 1) / (4 * workers));
  struct Unit {
    std::size_t begin = 0, end = 0;  // positions in `order`
    FoundSet found;
  };
  std::vector<Unit> units;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t e = i + 1;
    while (e < order.size() && e - i < cap && same_set(order[i], order[e])) ++e;
    units.push_back(Unit{i, e, {}});
    i = e;
  }
  // A unit reads its runs in docs/pipeline.md#reconstruction order (topo, clean before dirty,
  // ordinal), so a series found in one unit comes out sorted and series_of has nothing to move.
  // Units cover ascending key ranges and each reports its lowest failing key (a failure stops
  // it from reading any higher key), so parallel_for's lowest failing unit reports the lowest
  // failing key, as load_selection does.
  parallel_for(units.size(), workers, [&](std::size_t u) {
    Unit& unit = units[u];
    unit.found.expected_points = unit.end - unit.begin;
    std::vector<std::size_t> reading(order.begin() + static_cast<std::ptrdiff_t>(unit.begin),
                                     order.begin() + static_cast<std::ptrdiff_t>(unit.end));
    std::sort(reading.begin(), reading.end(), [&](std::size_t a, std::size_t b) {
      const SelectedObject &x = objects[a], &y = objects[b];
      if (x.topo != y.topo) return x.topo < y.topo;
      if (x.dirty() != y.dirty()) return !x.dirty();
      return x.ordinal < y.ordinal;
    });
    std::exception_ptr failure;
    std::size_t failed_at = 0;  // the failure's key position
    for (const std::size_t at : reading) {
      if (failure && !by_key(at, failed_at)) continue;  // cannot be the lowest failure any more
      const SelectedObject& o = objects[at];
      try {
        require_point_position(o.topo, o.ordinal);
        try {
          const Run run = fetch_run(store, o.key);  // dropped here, by the thread that read it
          take_points(unit.found, o.topo, o.dirty(), o.ordinal, CommitRef(o.data.commit), run, options.benchmark_prefixes);
        } catch (...) {
          rethrow_naming_key(o.key);
        }
      } catch (...) {
        failure = std::current_exception();
        failed_at = at;
      }
    }
    if (failure) std::rethrow_exception(failure);
  });

  // Series per set, sets in order (series_of merges a set's units).
  std::map<DiscriminantSet, std::vector<FoundSet*>> by_set;
  for (auto& unit : units) by_set[objects[order[unit.begin]].data.set()].push_back(&unit.found);
  std::vector<std::pair<const DiscriminantSet*, const std::vector<FoundSet*>*>> sets;
  for (const auto& [set, parts] : by_set) sets.emplace_back(&set, &parts);
  std::vector<std::vector<Series>> per_set(sets.size());
  parallel_for(sets.size(), options.threads, [&](std::size_t i) { per_set[i] = series_of(*sets[i].first, *sets[i].second); });
  Reconstruction out;
  out.mode = selection.mode;
  for (auto& part : per_set)
    for (auto& s : part) out.series.push_back(std::move(s));
  const auto blessings = load_blessings(store, selection, threads);
  finish_reconstruction(out, selection, blessings, {}, options);
  return out;
}

std::map<DiscriminantSet, std::size_t> series_per_set(const Selection& selection, const LoadedSelection& loaded) {
  std::map<DiscriminantSet, std::size_t> out;
  for (const auto& s : build_series(place(selection.objects, loaded.runs))) ++out[s.key.set];
  return out;
}

}  // namespace benchhist::analysis
