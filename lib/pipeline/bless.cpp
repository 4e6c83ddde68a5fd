#include "benchhist/pipeline/bless.hpp"

#include <algorithm>
#include <chrono>

#include "benchhist/codec/blessing_json.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/ascii.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/report/closest.hpp"
#include "benchhist/version.hpp"

namespace benchhist::pipeline {
namespace {

std::vector<std::string> axis_of(const analysis::DiscriminantFilter& f) {
  if (f.unconstrained()) return {};
  return f.matched;
}

void announce(const Hooks& hooks, std::string text) {
  if (!hooks.announce) return;
  if (text.starts_with("[bench-history] ")) text.erase(0, 16);  // hooks get bare text
  hooks.announce(text);
}

analysis::ResolvedBase resolve_bless_base(const analysis::GitTopology& git, const BlessRequest& req,
                                          std::string_view context_ref) {
  if (req.base_ref) return analysis::resolve_base(git, req.base_ref, req.configured_default_branch, context_ref);
  try {
    return analysis::resolve_base(git, std::nullopt, req.configured_default_branch, context_ref);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::git && e.kind() != ErrorKind::not_found && e.kind() != ErrorKind::usage) throw;
    throw Error(ErrorKind::git, "bless could not determine the base branch; specify it with --base", {},
                e.message(), "pass --base <branch>, or set project.default_branch in the configuration");
  }
}

// The keys of the clean run objects at `commit` in partitions the filters accept (warning 2);
// `any_run`: whether the project has any run at all (a mistyped store path has none).
std::vector<std::string> clean_runs_at(storage::ObjectStore& store, const std::string& project, const std::string& commit,
                                       const analysis::DiscriminantFilters& filters, bool& any_run) {
  const std::string segment = codec::sanitize_segment(commit);
  std::vector<std::string> keys;
  for (auto& key : store.list(codec::project_data_prefix(project))) {
    const auto data = codec::parse_data_key(key);
    if (data && (data->kind == codec::ObjectKind::clean || data->kind == codec::ObjectKind::dirty)) any_run = true;
    if (data && data->kind == codec::ObjectKind::clean && data->commit == segment && filters.accepts(data->set()))
      keys.push_back(std::move(key));
  }
  return keys;
}

// Warning 3: a prefix that matches none of the benchmarks stored at the blessed commit is most
// likely mistyped (an engine-qualified id as reports print it, a typo), and its record would
// re-baseline nothing. It is still recorded, as the other warnings' cases are, and the warning
// names the closest stored ids and how to revoke it.
void warn_unmatched_prefixes(storage::ObjectStore& store, const std::vector<std::string>& run_keys,
                             const BlessRequest& req, const std::string& short_ctx, std::vector<std::string>& warnings) {
  std::vector<std::string> ids;
  for (const auto& key : run_keys) {
    try {
      if (const auto body = store.get(key))
        for (const auto& result : codec::decode_run(*body, key).results) ids.push_back(result.id.qualified());
    } catch (const Error&) {
      return;  // an unreadable run: analyze reports it; no guess about the prefixes here
    }
  }
  if (ids.empty()) return;
  for (const auto& prefix : req.prefixes) {
    if (std::any_of(ids.begin(), ids.end(), [&](const std::string& id) { return id.starts_with(prefix); })) continue;
    warnings.push_back("Warning: the prefix \"" + prefix + "\" matches none of the benchmarks stored at " + short_ctx +
                       " (closest: " + joined(report::closest_names(prefix, ids, 3, report::Compare::prefix)) +
                       "); blessing anyway — prefixes match the id without its engine. `cargo bench-history "
                       "unbless --context " + short_ctx + "` revokes every blessing at that commit, so bless the "
                       "prefixes you meant again after it.");
  }
}

bool on_first_parent_line(const analysis::GitTopology& git, const std::string& commit, const std::string& tip) {
  // Cheap exits first: not an ancestor at all means not on the line either.
  if (!git.is_ancestor(commit, tip)) return false;
  for (const auto& c : git.first_parent_history(tip))
    if (c.id == commit) return true;
  return false;
}

}  // namespace

// docs/blessings.md#bless: neither prefixes nor --all, --all with prefixes, and an empty prefix are
// usage errors.
void validate_bless_prefixes(const BlessRequest& req) {
  if (req.all && !req.prefixes.empty())
    throw Error(ErrorKind::usage, "--all cannot be combined with benchmark-id prefixes", "--all", {},
                "pass either --all or one or more prefixes");
  if (!req.all && req.prefixes.empty())
    throw Error(ErrorKind::usage,
                "bless requires at least one benchmark-id prefix (or pass --all); for example "
                "`bless read_cell`");
  for (const auto& p : req.prefixes)
    if (p.empty())
      throw Error(ErrorKind::usage, "a benchmark-id prefix must not be empty", {}, {},
                  "drop the empty argument, or pass --all to bless every benchmark");
}


BlessingScope scope_of(const analysis::DiscriminantFilters& filters) {
  return BlessingScope{axis_of(filters.engine), axis_of(filters.target_triple), axis_of(filters.machine_key)};
}

BlessResult bless(const BlessRequest& req, const analysis::GitTopology& git, storage::ObjectStore& store, const Hooks& hooks) {
  validate_bless_prefixes(req);
  const std::string context_ref = req.context_ref.value_or("HEAD");
  BlessResult out;
  out.context_commit = analysis::resolve_context(git, context_ref);
  out.base = resolve_bless_base(git, req, context_ref);
  const std::string short_ctx = short_id(out.context_commit);
  announce(hooks, analysis::selection_announcement(req.filters,
                                                   out.base.announced(),
                                                   analysis::AnnouncedContext{short_ctx, !req.context_ref}));

  // Warnings in the order of docs/blessings.md#bless.
  if (!on_first_parent_line(git, out.context_commit, out.base.commit))
    out.warnings.push_back("Warning: the context commit " + short_ctx + " is not on the base branch " + out.base.name +
                           "; the blessing is recorded now but takes effect only once this commit is part of the base "
                           "branch's first-parent history (for example after a fast-forward or rebase merge).");
  bool project_has_runs = false;
  const auto runs_at_context = clean_runs_at(store, req.project, out.context_commit, req.filters, project_has_runs);
  if (!project_has_runs)
    out.warnings.push_back("Warning: " + store.describe() + " holds no runs of project \"" + req.project +
                           "\" at all; blessing anyway — check --local (or the configured storage) and the project "
                           "id before relying on it.");
  else if (runs_at_context.empty())
    out.warnings.push_back("Warning: no stored result at the context commit " + short_ctx +
                           "; blessing anyway — double-check the commit id. The blessing still re-baselines "
                           "matching series from this commit on.");
  else if (!req.all)
    warn_unmatched_prefixes(store, runs_at_context, req, short_ctx, out.warnings);
  if (!req.context_ref && git.working_tree_dirty())
    out.warnings.push_back("Warning: uncommitted changes present. Blessing was applied to the existing commit at HEAD (" +
                           short_ctx + ").");

  Blessing& b = out.record;
  b.schema_version = blessing_schema_version;
  b.commit = out.context_commit;
  b.issued_at = req.now;
  b.prefixes = req.all ? std::vector<std::string>{} : req.prefixes;
  b.tool_version = req.tool_version.empty() ? std::string(tool_version) : req.tool_version;
  b.scope = scope_of(req.filters);

  // The same acceptance recorded twice would be two records for one decision: an identical
  // record at this commit (same prefixes, same scope) is reported and nothing is stored; a
  // different one is stored beside the earlier records, with a word.
  const std::string commit_segment = codec::sanitize_segment(b.commit);
  std::size_t earlier = 0;
  for (const auto& key : store.list(codec::project_blessings_prefix(req.project) + commit_segment + "/")) {
    const auto c = codec::parse_project_blessing_key(key);
    if (!c || *c != commit_segment) continue;
    const auto body = store.get(key);
    if (!body) continue;
    const Blessing existing = codec::decode_blessing(*body, key);
    ++earlier;
    if (existing.prefixes == b.prefixes && existing.scope == b.scope) {
      out.key = key;
      for (const auto& w : out.warnings) out.message += w + "\n";
      out.message += "Already blessed: " + key + " records the same " +
                     (b.prefixes.empty() ? std::string("benchmarks (all)") : "prefix filters") + " in blessing scope " +
                     b.scope->label() + " at commit " + short_ctx +
                     "; nothing stored. To record a different acceptance, change the prefixes or filters; "
                     "to revoke it, run `cargo bench-history unbless --context " + short_ctx + "`.\n";
      return out;
    }
  }
  if (earlier > 0)
    out.warnings.push_back("Note: commit " + short_ctx + " already has " + plural(earlier, "blessing record") +
                           " with other prefixes or scope; this one is stored beside " +
                           (earlier == 1 ? "it" : "them") + " (`cargo bench-history list blessings --context " + short_ctx +
                           "` with this command's storage options shows them; `unbless --context " + short_ctx +
                           "` removes them all).");

  // Write-once (docs/formats.md#blessing-records): a colliding nanosecond must never overwrite
  // another acceptance, so the issue time moves on by one nanosecond and the put is retried.
  for (int attempt = 0;; ++attempt) {
    const auto nanos = static_cast<std::int64_t>(b.issued_at.time_since_epoch().count());
    out.key = codec::project_blessing_key(req.project, b.commit, nanos);
    try {
      store.put(out.key, codec::encode_blessing(b), storage::CollisionPolicy::refuse);
      break;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::already_exists || attempt >= 16) throw;
      b.issued_at += std::chrono::nanoseconds(1);
    }
  }
  store.flush();
  if (hooks.note) hooks.note("stored project-level blessing " + out.key + " with scope " + b.scope->label());

  for (const auto& w : out.warnings) out.message += w + "\n";
  out.message += "Blessed " +
                 (b.prefixes.empty() ? std::string("all benchmarks")
                                     : plural(b.prefixes.size(), "prefix filter") + " (" + joined(b.prefixes) + ")") +
                 " in blessing scope " + b.scope->label() + " at commit " + short_ctx + ".\n";
  return out;
}

UnblessResult unbless(const UnblessRequest& req, const analysis::GitTopology& git, storage::ObjectStore& store,
                      const Hooks& hooks) {
  const std::string context_ref = req.context_ref.value_or("HEAD");
  UnblessResult out;
  out.context_commit = analysis::resolve_context(git, context_ref);
  const std::string short_ctx = short_id(out.context_commit);
  announce(hooks, analysis::selection_announcement(req.filters, std::nullopt,
                                                   analysis::AnnouncedContext{short_ctx, !req.context_ref}));
  const std::string segment = codec::sanitize_segment(out.context_commit);

  // Legacy sidecars: their scope is their own partition.
  for (const auto& key : store.list(codec::project_data_prefix(req.project))) {
    const auto data = codec::parse_data_key(key);
    if (data && data->kind == codec::ObjectKind::partition_blessing && data->commit == segment &&
        req.filters.accepts(data->set()))
      out.removed.push_back(key);
  }
  // Project-level records: only those the request's scope contains entirely
  // (docs/formats.md#blessing-scope, docs/blessings.md#unbless).
  const BlessingScope request_scope = scope_of(req.filters);
  std::vector<std::string> kept_scopes;
  const std::string prefix = codec::project_blessings_prefix(req.project) + segment + "/";
  for (const auto& key : store.list(prefix)) {
    const auto commit = codec::parse_project_blessing_key(key);
    if (!commit || *commit != segment) continue;
    const auto body = store.get(key);
    if (!body) continue;  // vanished between list and get: nothing left to revoke
    const Blessing record = codec::decode_blessing(*body, key);
    if (record.scope && contains(request_scope, *record.scope)) {
      out.removed.push_back(key);
    } else {
      const std::string label = record.scope ? record.scope->label() : std::string("?");
      out.kept.push_back(key);
      if (std::find(kept_scopes.begin(), kept_scopes.end(), label) == kept_scopes.end()) kept_scopes.push_back(label);
      if (hooks.note)
        hooks.note("kept " + key + ": its scope " + label + " is not contained in the request's scope " +
                   request_scope.label());
    }
  }
  std::sort(out.removed.begin(), out.removed.end());
  std::vector<std::string> gone;
  try {
    for (const auto& key : out.removed) {
      if (store.remove(key)) gone.push_back(key);
      if (hooks.note) hooks.note("removed " + key);
    }
  } catch (...) {
    if (!gone.empty()) store.flush();  // a partial revocation still invalidates mirrors
    throw;
  }
  out.removed = std::move(gone);
  if (!out.removed.empty()) store.flush();
  // A request keeps every record its scope does not contain (docs/blessings.md#unbless); saying only "no
  // blessings" would hide the record that still re-baselines the series.
  if (out.removed.empty() && !out.kept.empty())
    out.message = "No blessing at commit " + short_ctx + " lies within this request's scope " + request_scope.label() + ".\n";
  else
    out.message = out.removed.empty() ? "No blessings recorded at commit " + short_ctx + ".\n"
                                      : "Removed " + plural(out.removed.size(), "blessing") + " at commit " + short_ctx + ".\n";
  if (!out.kept.empty())
    out.message += "Kept " + plural(out.kept.size(), "blessing") + " whose scope (" + joined(kept_scopes) +
                   ") is not contained in this request's: unbless revokes only the blessings its filters cover. To revoke " +
                   (out.kept.size() == 1 ? "it" : "them") + ", run `cargo bench-history unbless --context " + short_ctx +
                   "` with filters at least as wide as that scope (the --engine, --target-triple and --machine-key the "
                   "blessing was given, or `all`).\n";
  return out;
}

}  // namespace benchhist::pipeline
