#include "benchhist/analysis/selection.hpp"

#include <algorithm>
#include <future>
#include <system_error>
#include <unordered_map>

#include "benchhist/storage/object_store.hpp"

namespace benchhist::analysis {

DirtyAdmission dirty_admission(const std::vector<std::string>& line,
                               const std::optional<std::string>& split_commit, bool allow_dirty,
                               bool working_tree_dirty) {
  DirtyAdmission out;
  out.admits.assign(line.size(), allow_dirty);
  if (!split_commit) return out;
  const auto it = std::find(line.begin(), line.end(), *split_commit);
  if (it == line.end()) return out;  // off the line: everything target-side (raw helper)
  const auto split = static_cast<std::size_t>(it - line.begin());
  for (std::size_t i = 0; i <= split; ++i) out.admits[i] = false;
  // The base-tip exception: the context itself is base-side (an official base-branch view)
  // and the working tree is dirty right now.
  if (split + 1 == line.size() && allow_dirty && working_tree_dirty) {
    out.admits[split] = true;
    out.base_exception = split;
  }
  return out;
}

std::size_t split_index(const std::vector<CommitInfo>& line, std::string_view merge_base,
                        std::string_view base_commit, const GitTopology& git) {
  for (std::size_t i = line.size(); i-- > 0;)
    if (line[i].id == merge_base) return i;
  // Ancestry is downward closed, so "is an ancestor of B" holds for a prefix of the line:
  // binary-search its end (docs/pipeline.md#selection step 5).
  std::size_t lo = 0, hi = line.size();  // invariant: [0, lo) ancestors, [hi, n) not
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (git.is_ancestor(line[mid].id, base_commit))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return line.empty() ? 0 : line.size() - 1;  // none: whole line base-side
  return lo - 1;
}

namespace {

struct ListedRun {
  std::string key;
  codec::DataKey data;
};

std::unordered_map<std::string, std::size_t> index_line(const std::vector<CommitInfo>& line) {
  std::unordered_map<std::string, std::size_t> topo;
  topo.reserve(line.size() * 2);
  for (std::size_t i = 0; i < line.size(); ++i) topo.emplace(line[i].id, i);
  return topo;
}

void sort_and_number(std::vector<SelectedObject>& objects) {
  const auto by_key = [](const SelectedObject& a, const SelectedObject& b) { return a.key < b.key; };
  // A store lists its keys sorted already; checking is one pass.
  if (!std::is_sorted(objects.begin(), objects.end(), by_key)) std::sort(objects.begin(), objects.end(), by_key);
  for (std::size_t i = 0; i < objects.size(); ++i) objects[i].ordinal = i;
}

bool accepted(const DiscriminantFilters& filters, const codec::DataKey& data) noexcept {
  return filters.accepts(data.engine, data.target_triple, data.machine_key);
}

// The funnel; `take_listing()` hands over the listing once the topology is known. A listing
// error is reported before a git error (the store is asked first).
template <class TakeListing>
Selection select_with(const SelectionRequest& request, const GitTopology& git, TakeListing take_listing) {
  Selection sel;
  try {
    sel.context_ref = request.context();
    sel.context_commit = resolve_context(git, sel.context_ref);
    sel.base = resolve_base(git, request.base_ref, request.configured_default_branch, sel.context_ref);
    sel.merge_base = require_merge_base(git, sel.context_commit, sel.base.commit, sel.context_ref, sel.base.name);
    sel.context_is_merge_base = sel.merge_base == sel.context_commit;
    sel.line = git.first_parent_history(sel.context_commit);
    sel.split = split_index(sel.line, sel.merge_base, sel.base.commit, git);
    // The working tree belongs to the checked-out commit: only when the context is that commit
    // can it be "the context + uncommitted changes" (the report's marker) or admit a dirty run
    // through the base-tip exception. Another context was not measured with these changes.
    if (git.resolve("HEAD") == sel.context_commit) sel.working_tree_dirty = git.working_tree_dirty();
  } catch (...) {
    (void)take_listing();  // throws the listing's own error, if any
    throw;
  }
  std::vector<std::string> listing = take_listing();
  const auto line_topo = index_line(sel.line);

  // Funnel step 1 classifies every key; blessings are set aside (docs/pipeline.md#selection).
  std::vector<ListedRun> runs;
  std::vector<ListedRun> partition_blessings;
  std::vector<std::pair<std::string, std::string>> project_blessings;  // key, commit
  // The keys and their parsed parts move from here into the selection: copying 20,000 keys
  // and their segments (and faulting in the copies) was most of selection's own time.
  runs.reserve(listing.size());
  for (auto& key : listing) {
    if (auto data = codec::parse_data_key(key)) {
      if (data->kind == codec::ObjectKind::partition_blessing)
        partition_blessings.push_back({std::move(key), std::move(*data)});
      else
        runs.push_back({std::move(key), std::move(*data)});
    } else if (auto commit = codec::parse_project_blessing_key(key)) {
      project_blessings.emplace_back(std::move(key), std::move(*commit));
    }
  }

  std::vector<std::string> line_ids;
  line_ids.reserve(sel.line.size());
  for (const auto& c : sel.line) line_ids.push_back(c.id);
  const DirtyAdmission admission =
      dirty_admission(line_ids, sel.line[sel.split].id, request.allow_dirty, sel.working_tree_dirty.value_or(false));

  // Mode (docs/pipeline.md#selection) is decided before the window: a dirty run at T admitted by
  // the exception.
  if (admission.base_exception) {
    sel.dirty_run_admitted_on_context = std::any_of(runs.begin(), runs.end(), [&](const ListedRun& r) {
      return r.data.kind == codec::ObjectKind::dirty && r.data.commit == sel.context_commit &&
             accepted(request.filters, r.data);
    });
  }
  sel.mode = derive_mode(sel.context_is_merge_base, sel.dirty_run_admitted_on_context);
  sel.since = resolve_since(request.since, sel.mode == AnalysisMode::history, request.now);

  // Steps 1–4 on the context line, counting each removal once. Branch mode reads `runs` again
  // for the base line, so only history mode moves the survivors out.
  const bool runs_read_again = sel.mode == AnalysisMode::branch && request.include_base_line;
  sel.objects.reserve(runs.size());
  for (auto& r : runs) {
    ++sel.counts.stored_runs;
    if (!accepted(request.filters, r.data)) {
      ++sel.counts.outside_filters;
      sel.excluded.push_back({r.key, FunnelStage::discriminant_filter});
      continue;
    }
    const auto it = line_topo.find(r.data.commit);
    if (it == line_topo.end()) {
      ++sel.counts.off_history;
      sel.excluded.push_back({r.key, FunnelStage::off_history});
      continue;
    }
    const std::size_t topo = it->second;
    if (r.data.kind == codec::ObjectKind::dirty && !admission.admits[topo]) {
      ++sel.counts.dirty_not_admitted;
      if (topo <= sel.split) ++sel.counts.dirty_on_base_side;
      sel.excluded.push_back({r.key, FunnelStage::dirty_admission});
      continue;
    }
    if (before_cutoff(sel.line[topo].committer_time, sel.since.cutoff)) {
      ++sel.counts.before_since;
      sel.excluded.push_back({r.key, FunnelStage::since_window});
      continue;
    }
    if (runs_read_again) sel.objects.push_back({r.key, r.data, 0, topo});
    else sel.objects.push_back({std::move(r.key), std::move(r.data), 0, topo});
  }
  std::sort(sel.excluded.begin(), sel.excluded.end(),
            [](const ExcludedObject& a, const ExcludedObject& b) { return a.key < b.key; });
  sort_and_number(sel.objects);  // step 5: ordinals by storage key, before any fetch
  sel.counts.selected = sel.objects.size();
  sel.dirty_base_tip_admitted =
      admission.base_exception && std::any_of(sel.objects.begin(), sel.objects.end(), [&](const SelectedObject& o) {
        return o.dirty() && o.topo == *admission.base_exception;
      });

  // Branch mode: the base ref's own first-parent line, clean runs only, same filter and
  // cutoff, its own topological indices and ordinals (docs/pipeline.md#selection,
  // docs/branch-mode.md#inputs-one-branchseriesinput-per-series).
  std::unordered_map<std::string, std::size_t> base_topo;
  if (sel.mode == AnalysisMode::branch) {
    sel.base_line = git.first_parent_history(sel.base.commit);
    base_topo = index_line(sel.base_line);
    if (request.include_base_line) {
      for (const auto& r : runs) {
        if (r.data.kind != codec::ObjectKind::clean) continue;
        const bool in_filter = accepted(request.filters, r.data);
        const bool sibling = !in_filter && request.filters.engine.accepts(to_string(r.data.engine)) &&
                             request.filters.target_triple.accepts(r.data.target_triple);
        if (!in_filter && !sibling) continue;
        const auto it = base_topo.find(r.data.commit);
        if (it == base_topo.end()) continue;
        if (before_cutoff(sel.base_line[it->second].committer_time, sel.since.cutoff)) continue;
        (in_filter ? sel.base_objects : sel.sibling_base_objects).push_back({r.key, r.data, 0, it->second});
      }
      sort_and_number(sel.base_objects);
      sort_and_number(sel.sibling_base_objects);
    }
  }

  // Blessings on the mode's evidence line (docs/pipeline.md#reconstruction step 3); others are
  // never fetched.
  const auto& evidence = sel.mode == AnalysisMode::history ? line_topo : base_topo;
  for (const auto& b : partition_blessings) {
    if (!request.filters.accepts(b.data.set())) continue;  // its scope is its own partition
    if (auto it = evidence.find(b.data.commit); it != evidence.end())
      sel.blessings.push_back({b.key, b.data.commit, it->second, b.data.set()});
  }
  for (const auto& [key, commit] : project_blessings)
    if (auto it = evidence.find(commit); it != evidence.end())
      sel.blessings.push_back({key, commit, it->second, std::nullopt});
  std::sort(sel.blessings.begin(), sel.blessings.end(),
            [](const SelectedBlessing& a, const SelectedBlessing& b) { return a.key < b.key; });
  return sel;
}

}  // namespace

Selection select_objects(const SelectionRequest& request, const GitTopology& git, std::vector<std::string> listing) {
  return select_with(request, git, [&listing] { return std::move(listing); });
}

Selection select_objects(const SelectionRequest& request, const GitTopology& git, storage::ObjectStore& store) {
  // Listing a large store and walking the git history are independent: the listing runs on a
  // thread of its own meanwhile (on the synthetic store the walk and the working-tree status
  // take about 20 ms of a single-threaded selection).
  const std::string prefix = codec::project_data_prefix(request.project);
  std::future<std::vector<std::string>> listing;
  try {
    listing = std::async(std::launch::async, [&store, &prefix] { return store.list(prefix); });
  } catch (const std::system_error&) {  // no thread to spare: one after the other
    return select_objects(request, git, store.list(prefix));
  }
  return select_with(request, git, [&listing] { return listing.get(); });
}

std::map<DiscriminantSet, std::vector<std::size_t>> Selection::objects_by_set() const {
  std::map<DiscriminantSet, std::vector<std::size_t>> out;
  for (std::size_t i = 0; i < objects.size(); ++i) out[objects[i].data.set()].push_back(i);
  return out;
}

std::vector<SetRunCounts> Selection::run_counts() const {
  std::vector<SetRunCounts> out;
  for (const auto& [set, indices] : objects_by_set()) {
    SetRunCounts counts{set, indices.size(), {}};
    std::map<std::size_t, CommitRunCounts> by_topo;
    for (std::size_t i : indices) {
      const auto& o = objects[i];
      auto& c = by_topo[o.topo];
      c.commit = line[o.topo].id;
      c.topo = o.topo;
      (o.dirty() ? c.dirty : c.clean) += 1;
    }
    for (auto& [topo, c] : by_topo) counts.commits.push_back(std::move(c));
    out.push_back(std::move(counts));
  }
  return out;
}

}  // namespace benchhist::analysis
