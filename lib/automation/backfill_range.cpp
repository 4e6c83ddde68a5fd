// Range preparation for the backfill workflow (docs/github.md "Backfill range").

#include "benchhist/automation/backfill_range.hpp"

#include <algorithm>
#include <charconv>

#include "benchhist/analysis/since.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/ascii.hpp"
#include "benchhist/model/text.hpp"
#include "shallow_history.hpp"

namespace benchhist::automation {
namespace {

[[noreturn]] void usage(std::string message, const std::string& input, std::string hint) {
  throw Error(ErrorKind::usage, std::move(message), input, {}, std::move(hint));
}

const char* kDurationExamples = "a duration such as \"14 days\", \"24 hours ago\", \"2 weeks\" or \"P14D\"";

// A duration input resolved as `now − span`. A bare `0` is the zero span the guide allows for
// minimum-age (lookback refuses it as zero afterwards); any other number needs its unit.
Timestamp duration_cutoff(const std::string& text, const char* input, Timestamp now) {
  if (ascii::trim(text) == "0") return now;
  // The shared parser ignores a sign because --since also reads `-3 days` as a look-back; here
  // the span is a window's length, and a minus sign is a mistake to point out, not to drop.
  if (ascii::trim(text).starts_with('-'))
    usage("invalid " + std::string(input) + " \"" + text + "\": a span cannot be negative", input,
          "give " + std::string(input) + " without the minus sign, such as \"14 days\": it always counts back "
          "from now");
  std::optional<Timestamp> cutoff;
  try {
    cutoff = analysis::parse_span_before(text, now);
  } catch (const Error&) {
    usage(std::string(input) + " \"" + text + "\" is out of the representable range", input,
          "choose a shorter " + std::string(input));
  }
  if (!cutoff)
    usage("invalid " + std::string(input) + " \"" + text + "\": expected " + kDurationExamples +
              (parse_rfc3339(ascii::trim(text)) ? " (a span back from now, not an instant)" : ""),
          input, "give " + std::string(input) + " as a span such as \"14 days\" (or 0 for minimum-age)");
  return *cutoff;
}

// A commit-reference input: nonblank and a single line (validated before it reaches git).
void check_ref_input(const std::string& value, const char* input) {
  if (value.find('\n') != std::string::npos || value.find('\r') != std::string::npos)
    usage(std::string(input) + " must be a single-line commit reference", input,
          "pass one commit id, tag or branch name");
  if (ascii::trim(value).empty())
    usage(std::string(input) + " must not be blank", input, "pass a commit id, tag or branch name, or omit " +
                                                               std::string(input));
}

std::string resolve_ref(const analysis::GitTopology& git, const std::string& ref, const char* input) {
  auto id = git.resolve(ascii::trim(ref));
  if (!id)
    throw Error(ErrorKind::git, "cannot resolve " + std::string(input) + " (" + ref + ") to a commit", ref, {},
                "check that the reference exists in the checkout; fetch full history (actions/checkout with "
                "`fetch-depth: 0`)");
  return *id;
}

std::string when(const std::optional<Timestamp>& t) { return t ? format_rfc3339_seconds(*t) : std::string("an unknown time"); }

// A walk that ran out of history in a shallow clone stopped at the clone's boundary, not at
// the history's start: whatever it concluded about older commits would be made up.
[[noreturn]] void history_cut_off(const analysis::CommitInfo& oldest, const std::string& why) {
  throw Error(ErrorKind::git,
              "this shallow clone's history ends at " + short_id(oldest.id) + " (committed " +
                  when(oldest.committer_time) + "), " + why,
              oldest.id, {}, shallow_history_hint);
}

}  // namespace

BackfillRangePlan prepare_backfill_range(const analysis::GitTopology& git, const BackfillRangeRequest& r) {
  BackfillRangePlan plan;

  // Settings handed on to backfill, validated first so a bad value never waits for git.
  if (!ascii::trim(r.max_commits).empty()) {
    const auto text = ascii::trim(r.max_commits);
    std::uint32_t n = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || p != text.data() + text.size() || n == 0)
      usage("invalid max-commits \"" + r.max_commits + "\": expected a positive integer, or nothing for no limit",
            "max-commits", "give max-commits a positive integer such as 1, or leave it empty to replay without a limit");
    plan.max_commits = n;
  }
  {
    const auto text = ascii::trim(r.ignore_errors);
    if (text == "true") plan.ignore_errors = true;
    else if (!text.empty() && text != "false")
      usage("invalid ignore-errors \"" + r.ignore_errors + "\": expected true or false", "ignore-errors",
            "set ignore-errors to true to continue past failing commits");
  }

  const bool has_lookback = !r.lookback.empty(), has_age = !r.minimum_age.empty();
  const bool has_from = !r.from.empty(), has_to = !r.to.empty();

  if (has_from) {
    plan.selection = RangeSelection::explicit_range;
    if (has_lookback || has_age)
      usage("from cannot be combined with lookback or minimum-age", "from",
            "choose either a rolling window (lookback and minimum-age, optionally to) or an explicit range (from "
            "and to)");
    if (!has_to) usage("from needs to: an explicit range names both ends", "to", "add to (e.g. the branch name)");
    check_ref_input(r.from, "from");
    check_ref_input(r.to, "to");
    plan.from = resolve_ref(git, r.from, "from");
    plan.to = resolve_ref(git, r.to, "to");
    const auto history = git.first_parent_history(plan.to);
    auto it = std::find_if(history.begin(), history.end(), [&](const auto& c) { return c.id == plan.from; });
    if (it == history.end())
      throw Error(ErrorKind::git, "from (" + r.from + ") is not a first-parent ancestor of to (" + r.to + ")", r.from,
                  {}, "pick a start on the first-parent line of to (a commit of the branch itself, not of a merged "
                      "branch), and fetch full history");
    plan.commits = static_cast<std::size_t>(history.end() - it);
    plan.eligible = true;
    plan.explanation = "backfilling the explicit range " + short_id(plan.from) + " → " + short_id(plan.to) + ": " +
                       plural(plan.commits, "first-parent commit") + ", newest first";
    return plan;
  }

  plan.selection = RangeSelection::rolling;
  if (!has_lookback || !has_age)
    usage(std::string("rolling selection needs both lookback and minimum-age (") +
              (has_lookback ? "minimum-age" : has_age ? "lookback" : "both are") + " missing)",
          has_lookback ? "minimum-age" : "lookback",
          "set lookback (e.g. \"14 days\") and minimum-age (e.g. \"24 hours\", or 0), or give an explicit range with "
          "from and to");
  plan.lookback_cutoff = duration_cutoff(r.lookback, "lookback", r.now);
  plan.age_cutoff = duration_cutoff(r.minimum_age, "minimum-age", r.now);
  if (*plan.lookback_cutoff == r.now)
    usage("lookback must be a nonzero duration (got \"" + r.lookback + "\")", "lookback",
          "give the window to backfill, e.g. lookback \"14 days\"");

  // The end: `to` when given, else the newest first-parent commit old enough.
  if (has_to) {
    check_ref_input(r.to, "to");
    plan.to = resolve_ref(git, r.to, "to");
  } else {
    const std::string head = resolve_ref(git, r.head, "the checked-out branch");
    const auto history = git.first_parent_history(head);
    auto it = std::find_if(history.rbegin(), history.rend(), [&](const analysis::CommitInfo& c) {
      return c.committer_time && *c.committer_time <= *plan.age_cutoff;
    });
    if (it == history.rend()) {
      if (git.is_shallow() && !history.empty())
        history_cut_off(history.front(), "and no first-parent commit of " + r.head + " from there on was committed " +
                                             "at least " + std::string(ascii::trim(r.minimum_age)) + " before " +
                                             format_rfc3339_seconds(r.now) + ": the range's end may lie beyond it");
      plan.eligible = false;
      plan.explanation = "nothing to backfill: no first-parent commit of " + r.head + " (" + short_id(head) +
                         ") was committed at least " + std::string(ascii::trim(r.minimum_age)) + " before " +
                         format_rfc3339_seconds(r.now) + " (the oldest, " +
                         (history.empty() ? std::string("none") : short_id(history.front().id) + ", dates from " +
                                                                       when(history.front().committer_time)) +
                         "), so no benchmark job starts";
      return plan;
    }
    plan.to = it->id;
  }

  // The start: walk back from the end while commits stay within the lookback horizon.
  const auto history = git.first_parent_history(plan.to);  // oldest first, the end last
  const auto within = [&](const analysis::CommitInfo& c) {
    return c.committer_time && *c.committer_time >= *plan.lookback_cutoff;
  };
  std::size_t start = history.size() - 1;
  while (start > 0 && within(history[start - 1])) --start;
  if (start == 0 && within(history.front()) && git.is_shallow())
    history_cut_off(history.front(), "within " + std::string(ascii::trim(r.lookback)) + " of " +
                                         format_rfc3339_seconds(r.now) + ": the range's start may lie beyond it");
  plan.from = history[start].id;
  plan.commits = history.size() - start;
  plan.eligible = true;
  const auto& end = history.back();
  const bool zero_age = *plan.age_cutoff == r.now;
  plan.explanation =
      "backfilling " +
      (plan.commits == 1 ? "1 first-parent commit, " + short_id(plan.to)
                         : plural(plan.commits, "first-parent commit") + " " + short_id(plan.from) + " → " +
                               short_id(plan.to) + ", newest first") +
      ": the end " +
      (has_to     ? std::string("given by to")
       : zero_age ? std::string("is the newest commit (minimum-age 0)")
                  : "is the newest at least " + std::string(ascii::trim(r.minimum_age)) + " old") +
      " (committed " + when(end.committer_time) + "), the start the oldest of its first-parent ancestors within " +
      std::string(ascii::trim(r.lookback)) + " of " + format_rfc3339_seconds(r.now) +
      (plan.commits > 1        ? ""
       : !within(end)         ? " (the end is already older than that horizon, so it is measured alone)"
       : history.size() == 1  ? " (the end is the first commit of the history, so it is measured alone)"
                              : " (the history before the end is older than that horizon, so the end is measured alone)");
  return plan;
}

}  // namespace benchhist::automation
