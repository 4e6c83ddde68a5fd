#include "benchhist/pipeline/examine.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "benchhist/analysis/loading.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/report/closest.hpp"
#include "benchhist/report/hints.hpp"
#include "benchhist/report/prose.hpp"

namespace benchhist::pipeline {
namespace {

analysis::Selection select_and_announce(const analysis::SelectionRequest& req, const analysis::GitTopology& git,
                                        storage::ObjectStore& store, const Hooks& hooks) {
  auto sel = analysis::select_objects(req, git, store);
  announce_selection(hooks, req.filters, sel);
  return sel;
}

// What the selected runs hold of each benchmark id: its engines and its metrics.
struct StoredBenchmark {
  std::set<std::string> engines;
  std::set<std::string> metrics;
};

// `examine --benchmark` names one exact id; one the selected runs do not hold is an error that
// says which ids (or metrics) they do hold, closest first.
[[noreturn]] void fail_unknown_benchmark(const ExamineRequest& req, std::size_t runs,
                                         const std::map<std::string, StoredBenchmark>& stored) {
  const std::string metric(to_string(req.metric));
  const std::string where = " in the " + std::to_string(runs) + (runs == 1 ? " selected run" : " selected runs");
  if (auto it = stored.find(req.benchmark); it != stored.end())
    throw Error(ErrorKind::not_found, "benchmark \"" + req.benchmark + "\" has no " + metric + " metric" + where,
                req.benchmark, {},
                "pass --metric with one of its metrics: " +
                    joined(std::vector<std::string>(it->second.metrics.begin(), it->second.metrics.end())));
  // Reports print `<engine>/<id>`: take that form for the id it names.
  if (const auto q = report::split_engine_qualified(req.benchmark)) {
    const std::string engine(to_string(q->engine)), id(q->id);
    if (auto it = stored.find(id); it != stored.end() && it->second.engines.count(engine))
      throw Error(ErrorKind::not_found, "no benchmark \"" + req.benchmark + "\"" + where + "; its id is \"" + id +
                                            "\" (reports print the engine " + engine + "/ before it)",
                  req.benchmark, {}, "pass --benchmark " + id + " (and --engine " + engine + " to keep to that engine)");
  }
  std::vector<std::string> ids;
  for (const auto& [id, _] : stored) ids.push_back(id);
  const auto closest = report::closest_names(req.benchmark, std::move(ids));
  throw Error(ErrorKind::not_found, "no benchmark \"" + req.benchmark + "\"" + where, req.benchmark, {},
              closest.empty() ? "the selected runs hold no benchmark results; check the filters and --context"
                              : "pass an exact id to --benchmark; the closest stored ids are: " + joined(closest) +
                                    " (of " + std::to_string(stored.size()) + ")");
}

}  // namespace

report::ExamineData examine(const ExamineRequest& req, const analysis::GitTopology& git, storage::ObjectStore& store,
                            const Hooks& hooks) {
  auto sel = select_and_announce(req.selection, git, store, hooks);
  analysis::LoadedSelection loaded;
  const auto unreadable = analysis::load_or_skip_unreadable(
      store, sel, req.skip_unreadable, req.threads, [&] { loaded = analysis::load_selection(store, sel, req.threads); });
  std::vector<std::string> skipped;
  for (const auto& u : unreadable) {
    skipped.push_back(u.key);
    if (hooks.announce) hooks.announce("skipped (--skip-unreadable): " + u.reason);
  }

  struct Observation {
    std::size_t topo;
    bool dirty;
    std::size_t ordinal;
    double value;
  };
  std::map<DiscriminantSet, std::vector<Observation>> by_set;
  std::map<DiscriminantSet, std::set<BenchmarkId>> ids_by_set;  // the ids printed as req.benchmark
  for (std::size_t i = 0; i < sel.objects.size(); ++i) {
    const auto& obj = sel.objects[i];
    for (const auto& result : loaded.runs[i]->results) {
      if (result.id.qualified() != req.benchmark) continue;
      if (const auto* m = result.find(req.metric)) {
        by_set[obj.data.set()].push_back({obj.topo, obj.dirty(), obj.ordinal, m->value});
        ids_by_set[obj.data.set()].insert(result.id);
      }
    }
  }
  // Two ids whose segments join to the same name (["a/b", "c"] and ["a", "b", "c"]) are two
  // series: one chart of both would interleave them.
  for (const auto& [set, ids] : ids_by_set)
    if (ids.size() > 1) {
      std::vector<std::string> shown;
      for (const auto& id : ids) {
        std::string s;
        for (const auto& seg : id.segments()) s += (s.empty() ? "[\"" : ", \"") + seg + "\"";
        shown.push_back(s + "]");
      }
      throw Error(ErrorKind::usage,
                  "benchmark \"" + req.benchmark + "\" names " + std::to_string(ids.size()) +
                      " different stored benchmarks in " + std::string(to_string(set.engine)) + " (id segments " +
                      joined(shown, "and") + ")",
                  req.benchmark, {},
                  "examine cannot chart them apart: the JSON report of analyze (--json) shows each series with its "
                  "segments; rename one of the benchmarks so that their names differ");
    }

  report::ExamineData data;
  data.project = req.selection.project;
  data.benchmark = req.benchmark;
  data.metric = req.metric;
  if (auto hint = empty_selection_hint(sel, req.selection, store, req.spelling))
    data.hint = hint;
  else if (by_set.empty()) {
    std::map<std::string, StoredBenchmark> stored;
    for (std::size_t i = 0; i < sel.objects.size(); ++i)
      for (const auto& result : loaded.runs[i]->results) {
        auto& b = stored[result.id.qualified()];
        b.engines.insert(std::string(to_string(sel.objects[i].data.set().engine)));
        for (const auto& m : result.metrics) b.metrics.insert(std::string(to_string(m.kind)));
      }
    fail_unknown_benchmark(req, sel.objects.size(), stored);
  }
  if (sel.dirty_base_tip_admitted) data.warning = report::dirty_base_warning();
  if (!skipped.empty())
    data.warning = (data.warning ? *data.warning + "\n" : std::string()) + report::skipped_unreadable_sentence(skipped);
  if (by_set.empty()) return data;

  // The shared range: from the earliest commit at which any matching set has the series.
  std::size_t first = sel.context_topo();
  for (const auto& [set, obs] : by_set)
    for (const auto& o : obs) first = std::min(first, o.topo);

  for (auto& [set, obs] : by_set) {
    std::sort(obs.begin(), obs.end(), [](const Observation& a, const Observation& b) {
      if (a.topo != b.topo) return a.topo < b.topo;
      if (a.dirty != b.dirty) return !a.dirty;
      return a.ordinal < b.ordinal;
    });
    report::ExamineSet es;
    es.set = set;
    es.target_index = sel.context_topo();
    auto it = obs.begin();
    for (std::size_t topo = first; topo <= sel.context_topo() && topo < sel.line.size(); ++topo) {
      const auto& commit = sel.line[topo];
      const auto committed =
          commit.committer_time ? std::optional<std::string>(format_rfc3339(*commit.committer_time)) : std::nullopt;
      bool any = false;
      for (; it != obs.end() && it->topo == topo; ++it) {
        es.rows.push_back({commit.id, topo, it->value, it->dirty, commit.subject, committed});
        any = true;
      }
      if (!any) es.rows.push_back({commit.id, topo, std::nullopt, false, commit.subject, committed});
    }
    data.sets.push_back(std::move(es));
  }
  return data;
}

report::RunListing list_runs(const analysis::SelectionRequest& req, const analysis::GitTopology& git,
                             storage::ObjectStore& store, unsigned threads, const Hooks& hooks,
                             bool skip_unreadable, const report::CommandSpelling& spelling) {
  auto sel = select_and_announce(req, git, store, hooks);
  analysis::LoadedSelection loaded;
  const auto unreadable = analysis::load_or_skip_unreadable(
      store, sel, skip_unreadable, threads, [&] { loaded = analysis::load_selection(store, sel, threads); });
  std::vector<std::string> skipped;
  for (const auto& u : unreadable) {
    skipped.push_back(u.key);
    if (hooks.announce) hooks.announce("skipped (--skip-unreadable): " + u.reason);
  }
  const auto series = analysis::series_per_set(sel, loaded);

  report::RunListing listing;
  listing.project = req.project;
  for (const auto& counts : sel.run_counts()) {
    report::ListedSet ls;
    ls.set = counts.set;
    if (auto it = series.find(counts.set); it != series.end()) ls.series = it->second;
    for (const auto& c : counts.commits) ls.commits.push_back({c.commit, c.clean, c.dirty});
    listing.sets.push_back(std::move(ls));
  }
  listing.hint = empty_selection_hint(sel, req, store, spelling);
  if (sel.dirty_base_tip_admitted) listing.warning = report::dirty_base_warning();
  if (!skipped.empty())
    listing.warning =
        (listing.warning ? *listing.warning + "\n" : std::string()) + report::skipped_unreadable_sentence(skipped);
  return listing;
}

}  // namespace benchhist::pipeline
