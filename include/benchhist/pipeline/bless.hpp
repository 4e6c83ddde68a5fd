#pragma once
// `bless` and `unbless` as library operations (docs/formats.md#blessing-records, #blessing-scope,
// #listings-and-command-messages, docs/blessings.md#bless, #unbless). bless writes ONE
// project-level scoped record (the seed's current write form); its scope is matched at query time,
// so it also covers partitions that do not exist yet. unbless removes the legacy partition-local
// sidecars and the scoped records the request's scope contains.
// The CLI prints `message` on stdout; announcements go through Hooks (without the prefix).

#include <optional>
#include <string>
#include <vector>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/model/blessing.hpp"
#include "benchhist/model/timestamp.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::pipeline {

// The scope a request's resolved filters stand for
// (docs/blessings.md#scope-mapping-recommended-default-adopted): an unconstrained axis (`all`, or
// an omitted --engine) → `[]`; explicit values → those values; an omitted triple / machine key →
// `[auto-detected value]`. Values are the sanitized key segments the filters match with, so the
// record matches exactly the partitions the announcement names.
BlessingScope scope_of(const analysis::DiscriminantFilters& filters);

struct BlessRequest {
  std::string project;                        // raw project id
  std::vector<std::string> prefixes;          // positional benchmark-id prefixes
  bool all = false;                           // --all (every benchmark; conflicts with prefixes)
  std::optional<std::string> context_ref;     // --context; nullopt = HEAD ("defaulted to HEAD")
  std::optional<std::string> base_ref;        // --base
  std::optional<std::string> configured_default_branch;  // project.default_branch
  analysis::DiscriminantFilters filters;      // resolved with the host triple / machine key
  Timestamp now{};                            // becomes issued_at (and the key's nanoseconds)
  std::string tool_version;                   // empty = this library's version
};

// The usage checks of docs/blessings.md#bless (neither prefixes nor --all, both, an empty prefix);
// bless() runs them too, callers may run them before touching storage.
// Throws Error{usage} for neither prefixes nor --all, both, or an empty prefix.
void validate_bless_prefixes(const BlessRequest& request);

struct BlessResult {
  std::string key;                       // the project-level record written
  Blessing record;
  std::string context_commit;
  analysis::ResolvedBase base;
  // docs/blessings.md#bless order: off the base line, no clean run (or unmatched prefixes), dirty tree
  std::vector<std::string> warnings;
  std::string message;                   // warnings (one per line) then the `Blessed …` sentence, `\n`-terminated
};

// Validates the request (usage errors of docs/blessings.md#bless), resolves context and base,
// announces the selection (base and context segments), computes the warnings, writes the record
// with a write-once put (a colliding nanosecond moves the issue time on by 1 ns, never overwrites)
// and flushes the store.
// Throws Error{usage} as validate_bless_prefixes; Error{git} for an unresolvable context or base
// (`bless could not determine the base branch; specify it with --base` when none was given);
// Error{already_exists} only after 16 colliding issue times; the store's errors.
BlessResult bless(const BlessRequest& request, const analysis::GitTopology& git, storage::ObjectStore& store,
                  const Hooks& hooks = {});

struct UnblessRequest {
  std::string project;
  std::optional<std::string> context_ref;  // nullopt = HEAD
  std::optional<std::string> base_ref;     // accepted, unused (docs/blessings.md#unbless)
  analysis::DiscriminantFilters filters;
};

struct UnblessResult {
  std::string context_commit;
  std::vector<std::string> removed;  // storage keys, sorted
  std::vector<std::string> kept;     // project-level records at the commit whose scope the request's does not contain
  // `Removed <n blessing[s]> at commit <short>.` or `No blessings recorded at commit <short>.`; when
  // records were kept, a sentence naming their scopes and how to revoke them follows
  // (docs/blessings.md#unbless).
  std::string message;
};

// Removes, at the context commit: every partition-local sidecar of a partition the filters
// accept, and every project-level record whose scope is contained in scope_of(filters)
// (docs/formats.md#blessing-scope contains), so a narrowed unbless never revokes acceptance outside
// its selection.
// Announces the selection with the context segment only. Flushes the store after removals.
// Throws Error{git} for an unresolvable context, and the store's list/remove/flush errors (the
// store is still flushed when a removal fails after others succeeded).
UnblessResult unbless(const UnblessRequest& request, const analysis::GitTopology& git, storage::ObjectStore& store,
                      const Hooks& hooks = {});

}  // namespace benchhist::pipeline
