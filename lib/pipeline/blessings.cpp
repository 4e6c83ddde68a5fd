#include "benchhist/pipeline/blessings.hpp"

#include "json_splice.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "benchhist/analysis/loading.hpp"
#include "benchhist/analysis/reconstruction.hpp"
#include "benchhist/codec/blessing_json.hpp"
#include "benchhist/codec/json_writer.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/pipeline/bless.hpp"
#include "benchhist/report/markdown_text.hpp"
#include "benchhist/codec/key.hpp"

namespace benchhist::pipeline {
namespace {

void write_axis(codec::json::Writer& j, std::string_view k, const std::vector<std::string>& axis) {
  j.key(k).begin_array();
  for (const auto& v : axis) j.value(v);
  j.end_array();
}

// HEAD view (docs/formats.md#listings-and-command-messages, docs/blessings.md#list-blessings).
BlessingsListing head_view(const ListBlessingsRequest& req, const analysis::GitTopology& git, storage::ObjectStore& store,
                           const Hooks& hooks) {
  BlessingsListing out;
  out.listing.project = req.selection.project;
  out.listing.window = false;
  const std::string commit = analysis::resolve_context(git, req.selection.context());
  out.listing.head_commit = commit;
  const std::string segment = codec::sanitize_segment(commit);
  const auto& filters = req.selection.filters;

  std::vector<std::pair<std::string, codec::DataKey>> sidecars;
  std::size_t outside = 0;  // recorded at the commit, turned away by the filters
  for (const auto& key : store.list(codec::project_data_prefix(req.selection.project))) {
    auto data = codec::parse_data_key(key);
    if (!data || data->kind != codec::ObjectKind::partition_blessing || data->commit != segment) continue;
    if (filters.accepts(data->set()))
      sidecars.emplace_back(key, std::move(*data));
    else
      ++outside;
  }
  // Group by set in set order, then by key (issue seconds) within a set.
  std::sort(sidecars.begin(), sidecars.end(), [](const auto& a, const auto& b) {
    if (a.second.set() != b.second.set()) return a.second.set() < b.second.set();
    return a.first < b.first;
  });
  for (const auto& [key, data] : sidecars) {
    auto body = store.get(key);
    if (!body) continue;  // removed since listing
    const Blessing b = codec::decode_blessing(*body, key);
    out.listing.blessings.push_back({data.set(), std::nullopt, commit, std::nullopt, format_rfc3339(b.issued_at), b.prefixes});
  }

  const BlessingScope request_scope = scope_of(filters);
  for (const auto& key : store.list(codec::project_blessings_prefix(req.selection.project) + segment + "/")) {
    const auto c = codec::parse_project_blessing_key(key);
    if (!c || *c != segment) continue;
    auto body = store.get(key);
    if (!body) continue;
    const Blessing b = codec::decode_blessing(*body, key);
    if (!b.scope || !intersects(*b.scope, request_scope)) {
      if (hooks.note) hooks.note("not listed " + key + ": its scope lies outside the selection");
      ++outside;
      continue;
    }
    out.scoped.push_back({key, commit, *b.scope, b.prefixes, format_rfc3339(b.issued_at)});
  }
  // "No blessings recorded" would be wrong when the filters hid them: say so, and how to see them.
  if (outside != 0 && out.listing.blessings.empty() && out.scoped.empty() && hooks.announce)
    hooks.announce(std::to_string(outside) + (outside == 1 ? " blessing" : " blessings") + " recorded at commit " +
                   std::string(short_id(commit)) + (outside == 1 ? " lies" : " lie") +
                   " outside the selection engine=" + filters.engine.describe() + ", target-triple=" +
                   filters.target_triple.describe() + ", machine-key=" + filters.machine_key.describe() +
                   "; pass `--engine all --target-triple all --machine-key all` to list them.");
  return out;
}

// Window view: the blessing reconstruction would apply to each benchmark
// (docs/pipeline.md#reconstruction).
BlessingsListing window_view(const ListBlessingsRequest& req, const analysis::GitTopology& git, storage::ObjectStore& store,
                             const Hooks& hooks) {
  BlessingsListing out;
  out.listing.project = req.selection.project;
  out.listing.window = true;
  const auto sel = analysis::select_objects(req.selection, git, store);
  announce_selection(hooks, req.selection.filters, sel);
  // "No blessings in the analysis window" over an empty window says why it is empty.
  if (const auto hint = empty_selection_hint(sel, req.selection, store); hint && hooks.announce) hooks.announce(*hint);
  out.listing.head_commit = sel.context_commit;
  const auto loaded = analysis::load_selection(store, sel, req.threads);

  std::vector<analysis::BlessingCandidate> candidates;
  for (const auto& lb : loaded.blessings)
    candidates.push_back({lb.ref.key, lb.ref.commit, lb.ref.topo, lb.scope, lb.record.prefixes});

  std::map<DiscriminantSet, std::set<std::string>> benchmarks;
  auto collect = [&](const std::vector<analysis::SelectedObject>& objects,
                     const std::vector<std::shared_ptr<const Run>>& runs) {
    for (std::size_t i = 0; i < objects.size() && i < runs.size(); ++i)
      for (const auto& r : runs[i]->results) benchmarks[objects[i].data.set()].insert(r.id.qualified());
  };
  collect(sel.objects, loaded.runs);
  if (sel.mode == AnalysisMode::branch) collect(sel.base_objects, loaded.base_runs);

  const auto& line = sel.evidence_line();
  for (const auto& [set, ids] : benchmarks) {
    for (const auto& id : ids) {
      const auto* b = analysis::select_blessing(candidates, set, id);
      if (!b) continue;
      std::optional<std::string> time;
      if (b->topo < line.size() && line[b->topo].committer_time)
        time = format_rfc3339(*line[b->topo].committer_time);
      out.listing.blessings.push_back({set, id, b->commit, time, std::nullopt, {}});
    }
  }
  // A record in the window whose prefixes accept no benchmark of its sets has no row here (the
  // view lists benchmarks): say so, or "No blessings in the analysis window" would be untrue of
  // the store. One that a later blessing supersedes is the view working as meant.
  // (A record scoped to other sets is outside the selection, not unmatched.)
  std::vector<std::string> unmatched;
  for (const auto& c : candidates) {
    bool in_scope = false, accepts = false;
    for (const auto& [set, ids] : benchmarks) {
      if (!c.scope.matches(set)) continue;
      in_scope = true;
      accepts = std::any_of(ids.begin(), ids.end(), [&](const std::string& id) { return analysis::prefixes_accept(c.prefixes, id); });
      if (accepts) break;
    }
    if (in_scope && !accepts && std::find(unmatched.begin(), unmatched.end(), c.commit) == unmatched.end())
      unmatched.push_back(c.commit);
  }
  if (!unmatched.empty() && hooks.announce) {
    std::vector<std::string> names;
    for (const auto& c : unmatched) names.push_back(std::string(short_id(c)));
    hooks.announce(std::to_string(unmatched.size()) +
                   (unmatched.size() == 1 ? " blessing record in the window accepts" : " blessing records in the window accept") +
                   " no benchmark of the selected runs, so " + (unmatched.size() == 1 ? "it has" : "they have") +
                   " no row here: at " + joined(names) + "; `list blessings --context <commit>` shows a commit's records, "
                   "`unbless --context <commit>` removes them");
  }
  return out;
}

}  // namespace

BlessingsListing list_blessings(const ListBlessingsRequest& req, const analysis::GitTopology& git, storage::ObjectStore& store,
                                const Hooks& hooks) {
  return req.all ? window_view(req, git, store, hooks) : head_view(req, git, store, hooks);
}

// ---- rendering: the report renderers, plus the scoped section ----

std::string BlessingsListing::text() const {
  if (scoped.empty()) return report::render_blessings_text(listing);
  const std::string head = short_id(listing.head_commit);
  std::string out = listing.blessings.empty()
                        ? "Blessings for project " + listing.project + " at commit " + head + "\n"
                        : report::render_blessings_text(listing);
  out += "\nScoped blessings\n";
  for (const auto& s : scoped)
    out += "  " + short_id(s.commit) + " accepts " + report::blessed_prefixes_text(s.prefixes) + " in " +
           s.scope.label() + " (issued " + s.issued_at + ")\n";
  return out;
}

std::string BlessingsListing::markdown() const {
  std::string out = report::render_blessings_markdown(listing);
  if (scoped.empty()) return out;
  if (listing.blessings.empty()) out = "# Blessings for " + listing.project + " at " + short_id(listing.head_commit) + "\n";
  out += "\n## Scoped blessings\n\n| Commit | Scope | Prefixes | Issued |\n| --- | --- | --- | --- |\n";
  for (const auto& s : scoped)
    out += "| " + short_id(s.commit) + " | " + report::markdown_cell(s.scope.label()) + " | " +
           report::markdown_cell(report::blessed_prefixes_text(s.prefixes)) + " | " + s.issued_at + " |\n";
  return out;
}

std::string BlessingsListing::json() const {
  std::string doc = report::render_blessings_json(listing);
  if (scoped.empty()) return doc;
  codec::json::Writer j;
  j.begin_array();
  for (const auto& s : scoped) {
    j.begin_object();
    j.member("scope", s.scope.label());
    j.key("blessing_scope").begin_object();
    write_axis(j, "engine", s.scope.engine);
    write_axis(j, "target_triple", s.scope.target_triple);
    write_axis(j, "machine_key", s.scope.machine_key);
    j.end_object();
    j.member("commit", s.commit);
    j.member("issued_at", s.issued_at);
    if (!s.prefixes.empty()) write_axis(j, "prefixes", s.prefixes);
    j.member("key", s.key);
    j.end_object();
  }
  j.end_array();
  return detail::append_member(std::move(doc), "scoped_blessings", j.str());
}

}  // namespace benchhist::pipeline
