#include "benchhist/pipeline/examine.hpp"

#include <algorithm>
#include <map>

#include "benchhist/analysis/loading.hpp"
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
  for (std::size_t i = 0; i < sel.objects.size(); ++i) {
    const auto& obj = sel.objects[i];
    for (const auto& result : loaded.runs[i]->results) {
      if (result.id.qualified() != req.benchmark) continue;
      if (const auto* m = result.find(req.metric))
        by_set[obj.data.set()].push_back({obj.topo, obj.dirty(), obj.ordinal, m->value});
    }
  }

  report::ExamineData data;
  data.project = req.selection.project;
  data.benchmark = req.benchmark;
  data.metric = req.metric;
  if (auto hint = empty_selection_hint(sel, req.selection))
    data.hint = hint;
  else if (by_set.empty())
    data.hint = report::hint_examine_no_pair(sel.objects.size(), req.benchmark, to_string(req.metric));
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
                             storage::ObjectStore& store, unsigned threads, const Hooks& hooks) {
  const auto sel = select_and_announce(req, git, store, hooks);
  const auto loaded = analysis::load_selection(store, sel, threads);
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
  listing.hint = empty_selection_hint(sel, req);
  if (sel.dirty_base_tip_admitted) listing.warning = report::dirty_base_warning();
  return listing;
}

}  // namespace benchhist::pipeline
