// Selection announcement, verbose notes, hints and warnings (docs/formats.md#streams,
// #listings-and-command-messages).

#include "benchhist/report/hints.hpp"

#include <algorithm>

#include "benchhist/model/text.hpp"
#include "benchhist/report/notes.hpp"
#include "benchhist/report/value_format.hpp"

namespace benchhist::report {

std::string selection_announcement(const SelectionFacts& s) {
  std::string out(note_prefix);
  out += "selection: engine=" + s.engine_filter + ", target-triple=" + s.target_triple_filter +
         ", machine-key=" + s.machine_key_filter;
  if (s.base_name) {
    out += "; base=" + *s.base_name;
    if (s.base_auto_detected) out += " (auto-detected)";
  }
  if (s.context) {
    out += "; context=" + std::string(short_id(*s.context));
    if (s.context_defaulted) out += " (defaulted to HEAD)";
  }
  if (s.show_since) {
    out += "; since=" + (s.since ? *s.since : std::string("none"));
    if (!s.since_reason.empty()) out += " (" + s.since_reason + ")";
  }
  return out;
}

namespace {

std::string series_name(const DiscriminantSet& set, const BenchmarkId& id, MetricKind kind) {
  return set.label() + " " + id.qualified() + " " + std::string(to_string(kind));
}

std::string optional_number(const std::optional<double>& v) {
  return v ? format_value(*v) : std::string("-");
}

}  // namespace

std::vector<std::string> verbose_notes(const AnalysisReport& r) {
  const std::string p(note_prefix);
  std::vector<std::string> out;
  for (const auto& u : r.verbose.unjudged) {
    std::string s = p + "unjudged " + series_name(u.set, u.benchmark, u.kind) + ": " +
                    std::string(to_string(u.reason)) + " (" + std::string(reason_phrase(u.reason));
    if (!u.evidence.empty()) s += "; " + u.evidence;
    out.push_back(s + ")");
  }
  for (const auto& d : r.verbose.declined) {
    std::string at;
    for (const auto& g : d.gates)
      if (g.verdict == GateVerdict::declined) at = g.gate;
    out.push_back(p + "declined " + std::string(to_string(d.ladder)) + " candidate for " +
                  series_name(d.set, d.benchmark, d.kind) + (at.empty() ? std::string(":") : " at " + at + ":"));
    for (const auto& g : d.gates) {
      // Branch ladders log "outside the observed range" under the non_zero_delta token
      // (docs/statistics.md#excursion-gates); say what it means.
      const std::string name = d.ladder == FindingMethod::branch_excursion && g.gate == "non_zero_delta"
                                   ? g.gate + " (outside range)"
                                   : g.gate;
      out.push_back(p + "  " + name + ": computed " + optional_number(g.computed) + " \u00b7 demand " +
                    optional_number(g.demand) + " \u00b7 " + std::string(to_string(g.verdict)));
    }
  }
  return out;
}

std::string dirty_base_warning() {
  // Worded for every command that selects runs (analyze, examine, list runs), not analysis only.
  return "Warning: the selected runs include dirty (uncommitted) runs recorded on top of the base branch. "
         "They may be excluded from later analyses once the base branch moves on; to keep this history, "
         "switch to a new branch before collecting.";
}

std::string dirty_context_note(std::string_view context_commit, std::string_view observed, bool clean_run) {
  const std::string judged = "Note: commit " + std::string(context_commit) +
                             " was judged by its newest dirty snapshot (uncommitted changes measured at " +
                             std::string(observed) + ")";
  if (!clean_run)
    return judged + "; it has no clean run. Collect on a clean checkout of it to judge the committed state.";
  return judged + ", not by its clean run. Pass --no-dirty to judge the committed state, or collect again to measure "
                  "the working tree as it is now.";
}

namespace {

// "--machine-key x matches no stored <what> (stored: a, b and 3 more)", one per emptying filter.
std::string emptying_parts(const std::vector<EmptyingFilter>& emptying, std::string_view what) {
  std::vector<std::string> parts;
  for (const auto& f : emptying) {
    std::vector<std::string> shown(f.stored.begin(), f.stored.begin() + std::min<std::size_t>(f.stored.size(), 5));
    if (f.stored.size() > shown.size()) shown.push_back(std::to_string(f.stored.size() - 5) + " more");
    parts.push_back(f.option + " " + f.filter + " matches no stored " + std::string(what) + " (stored: " +
                    joined(shown, "and") + ")");
  }
  return joined(parts, "and");
}

}  // namespace

std::string CommandSpelling::options() const {
  std::string c;
  if (!config.empty()) c += " " + config;
  if (!storage.empty()) c += " " + storage;
  if (bench_command) c += " --bench-command " + shell_word(*bench_command);
  return c;
}

std::string CommandSpelling::collect() const { return "cargo bench-history collect" + options(); }

std::string CommandSpelling::backfill(std::string_view to) const {
  return "cargo bench-history backfill <FROM> " + std::string(to) + options();
}

std::string hint_nothing_stored(std::string_view project, std::string_view store, const CommandSpelling& spelling,
                                const std::vector<std::string>& other_projects) {
  // The project id defaults to the repository directory's name, so a clone under another name
  // looks at an empty project: say which one, which ones the store holds, and how to point it at
  // the stored history.
  std::string h = "No runs are stored for project \"" + std::string(project) + "\" yet" +
                  (store.empty() ? std::string() : " (looked in the " + std::string(store) + ")") + ".";
  if (!other_projects.empty()) {
    std::vector<std::string> quoted;
    for (const auto& p : other_projects) quoted.push_back("\"" + p + "\"");
    h += " The store holds runs of " + std::string(other_projects.size() == 1 ? "project " : "projects ") +
         joined(quoted, "and") + ": if this repository's runs are " +
         (other_projects.size() == 1 ? "those" : "among them") + ", set `id` in the `[project]` table of " +
         spelling.config_file + " to " + (other_projects.size() == 1 ? "that id" : "their id") + ". Otherwise run `" +
         spelling.collect() + "` on a commit (or `" + spelling.backfill() + "` to seed history) first.";
    return h;
  }
  return h + " Run `" + spelling.collect() + "` on a commit (or `" + spelling.backfill() +
         "` to seed history) first. If this repository's runs are stored under another project id (a clone in a "
         "directory of another name, say), set `id` in the `[project]` table of " + spelling.config_file +
         " to that id instead.";
}

std::string hint_nothing_matched(std::string_view engine, std::string_view target_triple,
                                 std::string_view machine_key, const std::vector<EmptyingFilter>& emptying) {
  std::string h = "No stored run matches the effective partition engine=" + std::string(engine) +
                  ", target-triple=" + std::string(target_triple) + ", machine-key=" + std::string(machine_key);
  if (emptying.empty())
    return h + ": each filter matches some stored run, but no run matches all of them at once. See which "
               "combinations are stored with `cargo bench-history list discriminants`.";
  // Name the filter that emptied the selection, with what is stored instead: widening an axis
  // the user never constrained (`--target-triple all` when only --engine was given) helps nobody.
  std::vector<std::string> widen;
  for (const auto& f : emptying) widen.push_back("`" + f.option + " all`");
  return h + ": " + emptying_parts(emptying, "run") + ". Pass one of the stored values, or widen it with " +
         joined(widen, "and") + "; `cargo bench-history list discriminants` shows what is stored.";
}

std::string hint_no_set_matched(const std::vector<EmptyingFilter>& emptying) {
  if (emptying.empty())
    return "Each filter matches some stored discriminant set, but no set matches all of them at once. Leave "
           "one of the options out to see which combinations are stored.";
  return "No stored discriminant set passes the filters: " + emptying_parts(emptying, "set") +
         ". Pass one of the stored values, or leave the option out to list every set.";
}

std::string hint_none_entered(const UnenteredRuns& u) {
  std::string s = "Found " + plural(u.stored, "stored run") + " for this project, but none entered the analysis:";
  if (u.dirty_on_base) s += "\n  - " + plural(u.dirty_on_base, "dirty snapshot") + " on base-branch commits";
  if (u.outside_history)
    s += "\n  - " + plural(u.outside_history, "run") + " on commits outside the context commit's history";
  if (u.older_than_since) s += "\n  - " + plural(u.older_than_since, "run") + " older than the --since cutoff";
  s += "\nRe-run with --verbose to see the selection decision for each stored run.";
  return s;
}

std::string hint_all_ghosts(std::string_view context_commit, std::string_view newest_measured,
                            const CommandSpelling& spelling, bool dirty_at_context) {
  const std::string c(short_id(context_commit));
  const std::string collect = spelling.collect();
  std::string s = "Every benchmark in the analyzed runs is a ghost: none was measured at the context commit " + c + ".";
  if (dirty_at_context)
    return s + " The run stored at " + c +
           " is a dirty snapshot (measured with uncommitted changes), which history analysis does not read: "
           "collect at " + c + " with a clean working tree (commit or stash any changes first; `" + collect +
           "`) and analyze again.";
  if (!newest_measured.empty()) {
    const std::string m(short_id(newest_measured));
    return s + " The newest measured commit on this line is " + m + ": analyze it with `--context " + m +
           "`, or collect at " + c + " (`" + collect + "`) and analyze again.";
  }
  return s + " Collect at " + c + " (`" + collect + "`) and analyze again.";
}

std::string hint_too_few_points(std::size_t longest, std::size_t min_points, const CommandSpelling& spelling) {
  const std::string backfill = spelling.backfill("HEAD");
  return "History judges a series once it has " + std::to_string(min_points) +
         " points in the analyzed window (a change needs five on each side of it); the longest here has " +
         plural(longest, "point") + ". Measure more commits (`" + backfill +
         "` fills in past ones) or widen --since, and analyze again.";
}

}  // namespace benchhist::report
