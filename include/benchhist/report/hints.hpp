#pragma once
// Empty-outcome hints and the dirty-base warning (docs/formats.md#listings-and-command-messages).
// Wording is not a contract; each hint says what happened and what to do next.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchhist::report {

// How a hint spells a command for this project, so the line it suggests can be pasted as is:
// the configuration option the user gave (`--config ../ci.toml`; empty for the default file),
// the storage option (`--local=./store`; empty when the configuration chooses the store) and the
// configured `[collect] bench_command`; `config_file` names the file a hint asks to edit.
struct CommandSpelling {
  std::string config;
  std::string storage;
  std::optional<std::string> bench_command;
  std::string config_file = ".cargo/bench_history.toml";

  // `cargo bench-history collect --local=./store --bench-command '…'`
  std::string collect() const;
  // `cargo bench-history backfill <FROM> <TO> --local=./store --bench-command '…'`
  std::string backfill(std::string_view to = "<TO>") const;
  // The options both repeat, each after a space: ` --config … --local=… --bench-command '…'`.
  std::string options() const;
};

// Begins with `Warning: ` (report body, rendered last).
std::string dirty_base_warning();

// Branch mode judged the context commit by a dirty snapshot (its newest, observed at
// `observed`), not by its clean run (`clean_run`: the commit has one): the report's header names
// the commit and the working tree as they are now, so say which state was judged. Begins with
// `Note: `.
std::string dirty_context_note(std::string_view context_commit, std::string_view observed, bool clean_run);

// Nothing stored for `project` and every filter unconstrained; `store` (ObjectStore::describe(),
// optional) names where the tool looked, so a mistyped store path shows; `other_projects` the
// project ids the store does hold (sorted), so a mistyped or defaulted id shows.
std::string hint_nothing_stored(std::string_view project, std::string_view store = {},
                                const CommandSpelling& spelling = {},
                                const std::vector<std::string>& other_projects = {});

// A constrained filter that no stored run passes on its own: the option that sets it
// (`--engine`), the filter as announced, and the values the store does hold on that axis.
struct EmptyingFilter {
  std::string option;
  std::string filter;
  std::vector<std::string> stored;
};

// Constrained filters matched nothing: names the effective partition and the filters that emptied
// it (`emptying`; none when each filter matches some run, only not together).
std::string hint_nothing_matched(std::string_view engine, std::string_view target_triple,
                                 std::string_view machine_key, const std::vector<EmptyingFilter>& emptying);

// `list discriminants` listed nothing although the store holds sets: the filters that emptied the
// listing, with the values stored on their axes (`emptying`; none when each filter matches some
// set, only not together).
std::string hint_no_set_matched(const std::vector<EmptyingFilter>& emptying);

// Runs existed but none entered; only non-zero bullets are listed.
struct UnenteredRuns {
  std::uint64_t stored = 0;
  std::uint64_t dirty_on_base = 0;        // dirty snapshots on base-branch commits
  std::uint64_t outside_history = 0;      // runs on commits outside the context's history
  std::uint64_t older_than_since = 0;     // runs older than the --since cutoff
};
std::string hint_none_entered(const UnenteredRuns&);

// Runs analyzed but every benchmark was a ghost at the context commit. `newest_measured`: the
// newest commit of the context line with a selected run, when older than the context (a
// replayed range whose HEAD was never measured); `dirty_at_context`: a dirty snapshot is stored
// at the context commit, which history does not read; `spelling`: how the suggested collect
// line measures this project.
std::string hint_all_ghosts(std::string_view context_commit, std::string_view newest_measured = {},
                            const CommandSpelling& spelling = {}, bool dirty_at_context = false);

// History mode judged nothing because every series it could judge is shorter than
// `min_points` (the longest has `longest`): how many points a series needs, and how to get them.
std::string hint_too_few_points(std::size_t longest, std::size_t min_points, const CommandSpelling& spelling = {});

}  // namespace benchhist::report
