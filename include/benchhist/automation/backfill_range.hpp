#pragma once
// Range preparation for the backfill workflow (the guide's "Fill gaps with backfill"): turns
// the caller's inputs into a frozen first-parent range of full commit ids, or into the
// explanation of why there is nothing to do. The inputs keep the workflow's spelling: an
// empty string means "not given", exactly as an omitted `with:` value arrives.
//
// * Rolling selection — `lookback` and `minimum-age`, both required, both durations
//   (`24 hours`, `24 hours ago`, `P14D`; calendar units included) resolved against one UTC
//   clock snapshot `now`: the end is the newest first-parent commit of `head` committed at
//   least `minimum-age` before `now` (`to` overrides that choice); the start is the end's
//   oldest first-parent ancestor reached without passing a commit older than `now −
//   lookback` — the lookback runs from `now`, not from the end. An end older than that horizon
//   is backfilled alone. `lookback` must be nonzero; `minimum-age` may be zero; neither may be
//   negative (a leading `-`, which the shared parser would drop). No eligible end is not an
//   error: the plan says why and is not eligible.
// * Explicit range — `from` and `to`, each a nonblank single-line commit reference, `from` a
//   first-parent ancestor of `to`; `from` is never combined with a duration.
// * `max-commits` — empty (unlimited) or a positive integer; `ignore-errors` — empty, `true`
//   or `false`. Both are validated here and handed on to `backfill`.
//
// prepare_backfill_range throws Error{usage} (subject = the input's name) for an invalid input,
// Error{git} (subject = the ref) for a ref that does not resolve, a `from` that is not a
// first-parent ancestor of `to`, or a repository that cannot be read, and Error{git} (subject =
// the boundary commit) when rolling selection's walk reaches a shallow clone's boundary while
// the range may still go on (docs/backfill.md "In a shallow clone").

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/model/timestamp.hpp"

namespace benchhist::automation {

struct BackfillRangeRequest {
  std::string lookback;
  std::string minimum_age;
  std::string from;
  std::string to;
  std::string max_commits;
  std::string ignore_errors;
  std::string head = "HEAD";  // whose first-parent history rolling selection searches
  Timestamp now{};            // the one clock snapshot every duration resolves against
};

enum class RangeSelection { rolling, explicit_range };

struct BackfillRangePlan {
  RangeSelection selection = RangeSelection::rolling;
  bool eligible = false;      // false: nothing to backfill (see explanation)
  std::string from;           // full id of the oldest commit (eligible only)
  std::string to;             // full id of the newest commit (eligible only)
  std::size_t commits = 0;    // commits in the inclusive range
  std::optional<std::uint32_t> max_commits;  // nullopt = unlimited
  bool ignore_errors = false;
  std::optional<Timestamp> lookback_cutoff;  // rolling: now − lookback
  std::optional<Timestamp> age_cutoff;       // rolling: now − minimum-age
  std::string explanation;    // one line, for logs and the job summary
};

BackfillRangePlan prepare_backfill_range(const analysis::GitTopology& git, const BackfillRangeRequest& request);

}  // namespace benchhist::automation
