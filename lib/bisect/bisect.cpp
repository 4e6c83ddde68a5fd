// bisect (docs/bisect.md): the analysis, the windows of its change-point findings, and the loop
// with a measurer that replays one commit as backfill does.
#include "benchhist/bisect/bisect.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

#include "benchhist/analysis/shallow.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/engines/output_locations.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/report/closest.hpp"

namespace benchhist::bisect {
namespace {

// The store one measurement writes through: every put is kept (its values are the
// measurement), and forwarded only when the measurement is to be stored.
class CapturingStore final : public storage::ObjectStore {
 public:
  CapturingStore(storage::ObjectStore& inner, bool forward) : inner_(inner), forward_(forward) {}
  storage::PutOutcome put(std::string_view key, std::string_view json, storage::CollisionPolicy policy) override {
    const auto outcome = forward_ ? inner_.put(key, json, policy) : storage::PutOutcome::stored;
    puts_.emplace_back(std::string(key), std::string(json));
    return outcome;
  }
  std::optional<std::string> get(std::string_view key) override { return inner_.get(key); }
  std::vector<std::string> list(std::string_view prefix) override { return inner_.list(prefix); }
  bool remove(std::string_view key) override { return forward_ && inner_.remove(key); }
  void flush() override {
    if (forward_) inner_.flush();
  }
  std::string describe() const override { return inner_.describe(); }
  const std::vector<std::pair<std::string, std::string>>& puts() const noexcept { return puts_; }

 private:
  storage::ObjectStore& inner_;
  bool forward_;
  std::vector<std::pair<std::string, std::string>> puts_;
};

// The value of every series one commit's stored objects give, through the reconstruction's own
// run-to-series rule (analysis::build_series), so a bisect value is what analyze would read.
Measurement measurement_of(const std::vector<std::pair<std::string, std::string>>& puts, std::size_t topo,
                           const std::string& commit) {
  std::vector<Run> runs;
  std::vector<analysis::PlacedRun> placed;
  runs.reserve(puts.size());
  for (const auto& [key, json] : puts) {
    const auto dk = codec::parse_data_key(key);
    if (!dk || dk->kind != codec::ObjectKind::clean) continue;
    runs.push_back(codec::decode_run(json, key));
    placed.push_back({dk->set(), topo, false, placed.size(), commit, nullptr});
  }
  for (std::size_t i = 0; i < placed.size(); ++i) placed[i].run = &runs[i];
  Measurement m;
  for (const auto& s : analysis::build_series(placed))
    if (!s.points.empty()) m.emplace(s.key, s.points.front().value);
  return m;
}

// Measures a first-parent commit with backfill of that one commit. The first measurement of a
// commit with no stored run is stored (refuse policy, like backfill); every other measurement —
// the confirmation of a window's ends, a re-measurement — is kept only in memory unless
// --overwrite, so the history stays append-only.
class BackfillMeasurer final : public Measurer {
 public:
  BackfillMeasurer(const BisectRequest& request, const std::vector<analysis::CommitInfo>& line,
                   std::set<std::string> stored, const probe::Environment& env, storage::ObjectStore& store,
                   const collect::BackfillServices& services)
      : request_(request), line_(line), stored_(std::move(stored)), env_(env), store_(store), services_(services) {}

  MeasureResult measure(std::size_t line_index) override {
    const std::string& id = line_.at(line_index).id;
    if (request_.overwrite) return *attempt(line_index, Mode::overwrite);
    if (!stored_.count(id)) {
      auto r = attempt(line_index, Mode::store_new);
      if (r) return *r;
      stored_.insert(id);  // stored in this partition although the analysis did not select it
    }
    return *attempt(line_index, Mode::in_memory);
  }
  std::size_t stored_count() const noexcept { return newly_stored_; }

 private:
  enum class Mode { store_new, overwrite, in_memory };

  // Nullopt when store_new found the commit already stored (backfill's pre-check).
  std::optional<MeasureResult> attempt(std::size_t line_index, Mode mode) {
    const std::string& id = line_.at(line_index).id;
    collect::BackfillRequest b = request_.measuring;
    b.from = id;
    b.to = id;
    b.max_commits = 1;
    b.overwrite = mode != Mode::store_new;
    CapturingStore capture(store_, mode != Mode::in_memory);
    const auto result = collect::backfill(b, env_, capture, services_);
    // backfill's own summary would speak of a backfill range and count an in-memory
    // re-measurement as stored: say what the bisect did instead.
    if (result.stop == collect::BackfillStop::interrupted) {
      // A signal to the tool alone lets the commit's measurement finish (and be stored) first.
      const bool this_one = mode != Mode::in_memory && !result.outcomes.empty() &&
                            result.outcomes.front().kind == collect::BackfillOutcomeKind::stored;
      const std::size_t kept = newly_stored_ + (this_one ? 1 : 0);
      throw Error(ErrorKind::io,
                  "bisect was interrupted while measuring " + short_id(id) + " " + line_.at(line_index).subject + ": " +
                      plural(kept, "new measurement") +
                      (kept == 1 ? " was stored and is kept" : " were stored and are kept") + "; no report was written",
                  id, result.error().cause(),
                  "run the same bisect again: commits it stored are not measured again (the window ends are)");
    }
    if (result.outcomes.empty()) return MeasureResult{std::nullopt, "the commit was not measured"};
    const auto& o = result.outcomes.front();
    switch (o.kind) {
      case collect::BackfillOutcomeKind::skipped_existing:
        if (mode == Mode::store_new) return std::nullopt;
        return MeasureResult{std::nullopt, "the commit was skipped as already stored"};
      case collect::BackfillOutcomeKind::skipped_empty:
        return MeasureResult{std::nullopt, "the benchmark command produced no benchmark results"};
      case collect::BackfillOutcomeKind::failed: return MeasureResult{std::nullopt, o.reason};
      case collect::BackfillOutcomeKind::stored: break;
    }
    if (mode != Mode::in_memory && !stored_.count(id)) {
      stored_.insert(id);
      ++newly_stored_;
    }
    return MeasureResult{measurement_of(capture.puts(), line_index, id), {}};
  }

  const BisectRequest& request_;
  const std::vector<analysis::CommitInfo>& line_;
  std::set<std::string> stored_;  // commits with a stored clean run (full ids)
  const probe::Environment& env_;
  storage::ObjectStore& store_;
  const collect::BackfillServices& services_;
  std::size_t newly_stored_ = 0;
};

std::string duration(double seconds) {
  char buf[32];
  const long s = std::lround(std::max(0.0, seconds));
  if (s >= 60)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%lds", s);
  return buf;
}

bool wanted(const BisectRequest& r, const BenchmarkId& id, MetricKind kind) {
  return (!r.benchmark || id.qualified() == *r.benchmark) && (!r.metric || kind == *r.metric);
}

}  // namespace

BisectReport bisect(const BisectRequest& request, const analysis::GitTopology& git, storage::ObjectStore& store,
                    const probe::Environment& env, const collect::BackfillServices& services,
                    const BisectHooks& hooks) {
  check_options(request.options, request.dry_run);

  const auto analysed = pipeline::analyze(request.analysis, git, store, hooks.analysis);
  const auto& rep = analysed.report;
  if (rep.mode != AnalysisMode::history)
    throw Error(ErrorKind::usage,
                "bisect works on the history of the analysed context, but " + short_id(rep.context_commit) +
                    " is analysed in branch mode (it is not on the base's first-parent history)",
                rep.context_commit, {}, "pass --context <the default branch> (or --base) so the history is analysed");

  BisectReport out;
  out.project = rep.project;
  out.line = analysed.selection.line;
  out.max_builds = request.options.max_builds;
  out.repeat = request.options.repeat;
  out.dry_run = request.dry_run;
  if (auto note = analysis::shallow_clone_note(analysed.selection, git, analysis::ShallowNoteFor::bisect))
    out.notes.push_back(std::move(*note));
  const auto& series = analysed.reconstruction->series;

  if (request.benchmark || request.metric) {
    const bool any = std::any_of(series.begin(), series.end(),
                                 [&](const analysis::Series& s) { return wanted(request, s.key.id, s.key.kind); });
    if (!any) {
      // Name what the analysis does hold, closest first; an id copied from a report starts
      // with its engine, which the id itself does not.
      std::vector<std::string> ids;
      for (const auto& s : series)
        if (!request.metric || s.key.kind == *request.metric) ids.push_back(s.key.id.qualified());
      std::string hint;
      const auto q = report::split_engine_qualified(request.benchmark.value_or(""));
      if (q && std::any_of(series.begin(), series.end(), [&](const analysis::Series& s) {
            return s.key.set.engine == q->engine && s.key.id.qualified() == q->id;
          })) {
        hint = "its id is \"" + std::string(q->id) + "\" (reports print the engine " + std::string(to_string(q->engine)) +
               "/ before it): pass --benchmark " + std::string(q->id);
      } else if (!ids.empty()) {
        hint = "pass one of the analysed ids (closest: " +
               joined(report::closest_names(request.benchmark.value_or(""), ids)) +
               "), with the metric token `analyze` prints";
      } else if (request.metric) {
        hint = "drop --metric, or pass one of the metrics `analyze` prints";
      } else {
        hint = "the analysis holds no series: check the filters, --context and --since";
      }
      throw Error(ErrorKind::not_found,
                  "no analysed series matches" +
                      (request.benchmark ? " --benchmark " + *request.benchmark : std::string()) +
                      (request.metric ? " --metric " + std::string(to_string(*request.metric)) : std::string()),
                  request.benchmark.value_or(""), {}, hint);
    }
  }

  std::set<std::string> stored;  // commits with a clean run in the analysis
  for (const auto& s : series)
    for (const auto& p : s.points)
      if (!p.dirty) stored.insert(p.commit.str());

  const std::string machine_key = codec::sanitize_segment(services.machine_key());
  std::vector<Target> targets;
  std::vector<std::size_t> target_entry;
  for (const auto& f : rep.findings) {
    if (!wanted(request, f.benchmark, f.kind)) continue;
    FindingEntry e;
    e.finding = f;
    e.finding.chart.reset();
    if (f.method == FindingMethod::drift) {
      e.kind = EntryKind::drift;
      out.entries.push_back(std::move(e));
      continue;
    }
    const SeriesKey key{f.set, f.benchmark, f.kind};
    const auto it = std::lower_bound(series.begin(), series.end(), key,
                                     [](const analysis::Series& s, const SeriesKey& k) { return s.key < k; });
    e.kind = EntryKind::skipped;
    if (f.set.machine_key != machine_key) {
      e.note = "measured on machine key " + f.set.machine_key + ", this machine is " + machine_key +
               ": run bisect on that machine";
    } else if (it == series.end() || it->key != key || !f.commit) {
      e.note = "the finding's series is not in the analysis";
    } else {
      try {
        if (const auto w = find_window(*it, *f.commit); !w) {
          e.note = "nothing is measured before " + short_id(*f.commit) +
                   " in this series, so there is no old level to bisect from: backfill an older commit first";
        } else {
          std::size_t point = 0;
          while (it->points[point].dirty || it->points[point].topo != w->new_end) ++point;
          const StepLevels levels = step_levels(*it, f.baseline, f.latest, point);
          e.window = *w;
          e.kind = request.dry_run ? EntryKind::planned : EntryKind::bisected;
          target_entry.push_back(out.entries.size());
          targets.push_back(Target{key, *w, levels});
        }
      } catch (const Error& err) {
        e.note = err.message();
      }
    }
    out.entries.push_back(std::move(e));
  }
  // Nothing to bisect: say why, as analyze would (no runs for this project, nothing selected),
  // or which findings --benchmark/--metric left out.
  if (out.entries.empty()) {
    if (rep.hint) {
      out.notes.push_back(*rep.hint);
    } else if (!rep.findings.empty()) {
      std::vector<std::string> others;  // in the report's order, each once, five at most
      for (const auto& f : rep.findings) {
        std::string name = f.benchmark.qualified() + " " + std::string(to_string(f.kind));
        if (f.method == FindingMethod::change_point && others.size() < 5 &&
            std::find(others.begin(), others.end(), name) == others.end())
          others.push_back(std::move(name));
      }
      if (!others.empty())
        out.notes.push_back("the analysis reports change points only for series --benchmark/--metric leave out: " +
                            joined(others) + "; bisect one of them, or drop the filter");
    }
  }
  if (request.dry_run || targets.empty()) return out;

  auto svc = services;
  svc.progress = nullptr;  // bisect announces its own steps
  BackfillMeasurer measurer(request, out.line, std::move(stored), env, store, svc);
  const auto start = svc.clock();
  const auto progress = [&](const Progress& p) {
    if (!hooks.progress) return;
    const auto& t = targets[p.target];
    const auto& c = out.line.at(p.line_index);
    const double elapsed = std::chrono::duration<double>(svc.clock() - start).count();
    hooks.progress("finding " + std::to_string(p.target + 1) + " of " + std::to_string(targets.size()) + " (" +
                   t.key.id.qualified() + " " + std::string(to_string(t.key.kind)) + ", window " +
                   short_id(out.line.at(t.window.old_end).id) + ".." + short_id(out.line.at(t.window.new_end).id) +
                   "): " + (p.confirming ? "re-measuring the end " : "measuring ") + short_id(c.id) + " " + c.subject +
                   " (build " + std::to_string(p.builds_done + 1) + " of " + std::to_string(request.options.max_builds) +
                   ", elapsed " + duration(elapsed) + ")");
  };
  const auto result = run_bisection(targets, measurer, request.options, progress);
  store.flush();
  for (std::size_t t = 0; t < targets.size(); ++t) {
    auto& outcome = out.entries[target_entry[t]].outcome = result.outcomes[t];
    // History collected with a benchmark command, bisected without one: `cargo bench` ran and
    // wrote nothing of the series' harness.
    const Engine engine = targets[t].key.set.engine;
    if (outcome->verdict == Verdict::failed && !request.measuring.bench_command && engine != Engine::libtest &&
        std::find(engines::report_engines.begin(), engines::report_engines.end(), engine) != engines::report_engines.end())
      outcome->reason += " (the series is " + std::string(to_string(engine)) +
                         " output, which `cargo bench` does not write: pass the --bench-command that collected it, or "
                         "set [collect] bench_command)";
  }
  out.builds = result.builds;
  out.stored = measurer.stored_count();
  out.budget_exhausted = result.budget_exhausted;
  return out;
}

}  // namespace benchhist::bisect
