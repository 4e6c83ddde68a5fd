#include "benchhist/pipeline/prune.hpp"

#include "json_splice.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "benchhist/analysis/selection.hpp"
#include "benchhist/analysis/since.hpp"
#include "benchhist/codec/blessing_json.hpp"
#include "benchhist/codec/json_writer.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/ascii.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/pipeline/bless.hpp"
#include "benchhist/report/hints.hpp"
#include "benchhist/codec/key.hpp"

namespace benchhist::pipeline {
namespace {



const char* const no_scope_message =
    "prune requires a deletion scope: --clean (clean runs), --dirty (dirty snapshots), --all (both), and/or "
    "--include-blessings (blessing sidecars)";

}  // namespace

PruneResult prune(const PruneRequest& req, const analysis::GitTopology& git, storage::ObjectStore& store, const Hooks& hooks) {
  if (req.runs == PruneRuns::none && !req.include_blessings) throw Error(ErrorKind::usage, no_scope_message);

  // Topology exactly as the analysis family resolves it (docs/pipeline.md#selection).
  const analysis::SelectionRequest& sel = req.selection;
  const std::string context_ref = sel.context();
  const std::string context = analysis::resolve_context(git, context_ref);
  const auto base = analysis::resolve_base(git, sel.base_ref, sel.configured_default_branch, context_ref);
  const std::string merge_base = analysis::require_merge_base(git, context, base.commit, context_ref, base.name);
  const auto line = git.first_parent_history(context);
  const std::size_t split = analysis::split_index(line, merge_base, base.commit, git);
  const std::size_t tip = line.empty() ? 0 : line.size() - 1;
  const auto since = analysis::resolve_prune_since(sel.since, sel.now);

  if (hooks.announce) {
    std::string text = analysis::selection_announcement(req.selection.filters, base.announced(),
                                                        std::nullopt, analysis::AnnouncedSince{since.cutoff, since.reason});
    if (text.starts_with("[bench-history] ")) text.erase(0, 16);
    hooks.announce(text);
  }

  // The context resolves onto the base: everything on its line is base history (docs/prune.md).
  const bool on_base = split >= tip;
  if (on_base && !req.prune_base)
    throw Error(ErrorKind::usage, "pruning will delete benchmark history of the " + base.name +
                                      " branch, which is the base branch. Confirm with --prune-base if this is correct.");

  // Eligible commits: strictly after the fork point (or the whole line with --prune-base),
  // inside the --since window, matching a positional prefix when any was given.
  std::vector<std::string> wanted;
  for (const auto& p : req.commits) wanted.push_back(ascii::to_lower(p));
  std::unordered_map<std::string, std::size_t> eligible;  // commit key segment → line position
  for (std::size_t i = on_base ? 0 : split + 1; i < line.size(); ++i) {
    if (analysis::before_cutoff(line[i].committer_time, since.cutoff)) continue;
    const std::string id = ascii::to_lower(line[i].id);
    if (!wanted.empty() &&
        std::none_of(wanted.begin(), wanted.end(), [&](const std::string& w) { return id.starts_with(w); }))
      continue;
    eligible.emplace(codec::sanitize_segment(line[i].id), i);
  }
  std::vector<std::string> unknown;  // prefixes of no commit on the line at all (a typo, another branch)
  for (const auto& w : wanted)
    if (std::none_of(line.begin(), line.end(), [&](const analysis::CommitInfo& c) { return ascii::to_lower(c.id).starts_with(w); }))
      unknown.push_back(w);
  if (hooks.note)
    for (const auto& w : unknown) hooks.note("commit prefix " + w + " matches no commit on the first-parent line of " + context_ref);

  // docs/prune.md --dirty: only where analysis would admit the snapshot — branch-side commits, and
  // the base tip unconditionally. --all: wherever it sits on an eligible commit.
  auto dirty_admitted = [&](std::size_t pos) { return pos > split || pos == tip; };

  std::map<DiscriminantSet, std::map<std::size_t, report::PrunedCommit>> plan;
  PruneResult out;
  std::set<DiscriminantSet> turned_away;  // for the hint when the filters leave nothing
  bool any_passed = false;
  for (const auto& key : store.list(codec::project_data_prefix(req.selection.project))) {
    const auto data = codec::parse_data_key(key);
    if (!data) continue;
    if (!req.selection.filters.accepts(data->set())) {
      turned_away.insert(data->set());
      continue;
    }
    any_passed = true;
    const auto it = eligible.find(data->commit);
    if (it == eligible.end()) continue;
    const std::size_t pos = it->second;
    bool take = false;
    bool blessing = false;
    switch (data->kind) {
      case codec::ObjectKind::clean: take = req.runs == PruneRuns::clean || req.runs == PruneRuns::all; break;
      case codec::ObjectKind::dirty:
        take = req.runs == PruneRuns::all || (req.runs == PruneRuns::dirty && dirty_admitted(pos));
        break;
      case codec::ObjectKind::partition_blessing: take = blessing = req.include_blessings; break;
    }
    if (!take) continue;
    auto& c = plan[data->set()][pos];
    c.commit = line[pos].id;
    (blessing ? c.blessings : c.runs) += 1;
    c.keys.push_back(key);
    out.keys.push_back(key);
  }

  // docs/blessings.md#list-blessings: project-level records on planned commits whose scope lies
  // within the filters.
  if (req.include_blessings) {
    const BlessingScope filter_scope = scope_of(req.selection.filters);
    for (const auto& key : store.list(codec::project_blessings_prefix(req.selection.project))) {
      const auto commit = codec::parse_project_blessing_key(key);
      if (!commit) continue;
      const auto it = eligible.find(*commit);
      if (it == eligible.end()) continue;
      const auto body = store.get(key);
      if (!body) continue;
      const Blessing record = codec::decode_blessing(*body, key);
      if (!record.scope || !contains(filter_scope, *record.scope)) {
        if (hooks.note) hooks.note("kept " + key + ": its scope reaches outside the selected discriminant sets");
        continue;
      }
      out.scoped.push_back({key, line[it->second].id, *record.scope});
      out.keys.push_back(key);
    }
  }

  // A commit named from a branch that lies on the base line is protected, not missing: say so.
  if (!on_base && out.keys.empty()) {
    std::vector<std::string> protected_commits;
    for (const auto& w : wanted)
      for (std::size_t i = 0; i <= split && i < line.size(); ++i)
        if (ascii::to_lower(line[i].id).starts_with(w)) {
          protected_commits.push_back(w);
          break;
        }
    if (!protected_commits.empty()) {
      out.plan.hint = "Kept " + joined(protected_commits) + ": " + (protected_commits.size() == 1 ? "it is" : "they are") +
                      " base history of " + base.name + " (at or before the fork point " +
                      merge_base.substr(0, 12) + "), which prune keeps when run from a branch. To delete it, run "
                      "prune with --context " + base.name + " --prune-base and the same commit and scope.";
    }
  }
  // Filters no stored run passes (`--machine-key deadbeef`): name them, as analyze's hint does.
  if (out.keys.empty() && !out.plan.hint && !any_passed && !turned_away.empty()) {
    const std::vector<DiscriminantSet> sets(turned_away.begin(), turned_away.end());
    const auto& f = req.selection.filters;
    out.plan.hint = report::hint_nothing_matched(f.engine.describe(), f.target_triple.describe(),
                                                 f.machine_key.describe(), emptying_filters(f, sets));
  }
  if (out.keys.empty() && !out.plan.hint && !unknown.empty())
    out.plan.hint = "No commit on the first-parent line of " + context_ref + " starts with " + joined(unknown) +
                    ": check the id (`git log --first-parent --format=%H " + context_ref +
                    "`), or pass --context with the branch that holds it.";

  out.plan.project = req.selection.project;
  out.plan.target_ref = context_ref;
  out.plan.dry_run = req.dry_run;
  for (auto& [set, commits] : plan) {
    report::PrunedSet s{set, {}};
    for (auto& [pos, c] : commits) {  // oldest first along the line
      std::sort(c.keys.begin(), c.keys.end());
      s.commits.push_back(std::move(c));
    }
    out.plan.sets.push_back(std::move(s));
  }
  std::sort(out.keys.begin(), out.keys.end());

  if (!req.dry_run) {
    // The cache marker must be bumped after ANY delete (docs/formats.md#read-through-cache), also
    // when a later delete fails: mirrors must never keep serving an object that is gone.
    try {
      for (const auto& key : out.keys) {
        if (store.remove(key)) out.removed.push_back(key);
        if (hooks.note) hooks.note("removed " + key);
      }
    } catch (...) {
      if (!out.removed.empty()) store.flush();
      throw;
    }
    store.flush();
  } else if (hooks.note) {
    for (const auto& key : out.keys) hooks.note("would remove " + key);
  }
  return out;
}

// ---- rendering: the report renderers, plus the project-level section ----

std::string PruneResult::text() const {
  std::string out = report::render_prune_text(plan);
  if (scoped.empty()) return out;
  out += "\nProject-level blessings\n";
  for (const auto& s : scoped) out += "    " + s.commit + "  " + s.scope.label() + "\n";
  out += std::string(plan.dry_run ? "Would remove " : "Removed ") + plural(scoped.size(), "project-level blessing") + "\n";
  return out;
}

std::string PruneResult::markdown() const {
  std::string out = report::render_prune_markdown(plan);
  if (scoped.empty()) return out;
  out += "\n## Project-level blessings\n\n| Commit | Scope |\n| --- | --- |\n";
  for (const auto& s : scoped) out += "| " + s.commit + " | " + s.scope.label() + " |\n";
  out += "\n**" + std::string(plan.dry_run ? "Would remove " : "Removed ") + plural(scoped.size(), "project-level blessing") +
         "**\n";
  return out;
}

std::string PruneResult::json() const {
  std::string doc = report::render_prune_json(plan);
  if (scoped.empty()) return doc;
  codec::json::Writer j;
  j.begin_array();
  for (const auto& s : scoped) {
    j.begin_object();
    j.member("commit", s.commit);
    j.member("scope", s.scope.label());
    j.member("key", s.key);
    j.end_object();
  }
  j.end_array();
  return detail::append_member(std::move(doc), "project_blessings", j.str());
}

}  // namespace benchhist::pipeline
