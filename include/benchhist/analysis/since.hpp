#pragma once
// `--since <WHEN>` parsing and the effective look-back cutoff (docs/formats.md#option-groups,
// docs/pipeline.md#selection). Pure: "now" is always passed in, never read from a clock.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "benchhist/model/timestamp.hpp"

namespace benchhist::analysis {

// A look-back span as --since writes it (`6 months`, `P1Y2M3DT4H`): calendar months, taken
// first, then an exact duration. Counts saturate at these types' limits, far outside the
// timestamp range, so a saturated span is still reported as out of range when resolved.
struct SinceSpan {
  std::int64_t months = 0;
  std::int64_t seconds = 0;
  std::int32_t nanos = 0;  // [0, 1e9)
};

// An explicit --since value, parsed once where it is given (the command line): an instant, or
// a span that stays a span until the selection resolves it against its own `now`
// (SelectionRequest::now) — so the value means the same whenever the request runs, and nothing
// after the command line parses text again.
struct Since {
  std::variant<Timestamp, SinceSpan> value;
  std::string text;  // as given, named by the out-of-range error

  // The instant itself, or `now` minus the span (calendar-correct, as parse_since documents).
  // Throws Error{usage} `<text> is out of the representable range`.
  Timestamp cutoff(Timestamp now) const;
};

// Parses an explicit --since value, tried in order (docs/formats.md#option-groups):
//   1. an RFC 3339 timestamp;
//   2. `YYYY-MM-DD` (UTC midnight);
//   3. a friendly relative span (`6 months`, `30 days ago`, `2w`, `1 year 2 months`);
//   4. an ISO 8601 duration (`P6M`, `P1Y2M3DT4H`, `PT90M`).
// Spans are always "that far before now" (a leading sign and a trailing `ago` are ignored)
// using calendar-correct UTC arithmetic: years and months first with the day clamped to
// the target month's length (2024-03-31 − 1 month = 2024-02-29), then weeks/days/time.
// Throws Error{usage} `invalid --since value "<v>"; expected an RFC 3339 timestamp, a
// YYYY-MM-DD date, or a relative duration such as "6 months" or "30 days ago"`, with a hint
// showing one of each form.
Since parse_since(std::string_view text);
// parse_since(text).cutoff(now): also throws Error{usage} `<v> is out of the representable
// range` for spans past the timestamp range.
inline Timestamp parse_since(std::string_view text, Timestamp now) { return parse_since(text).cutoff(now); }

// A relative span alone — the friendly and ISO 8601 forms parse_since accepts (a leading sign
// and a trailing `ago` ignored) — resolved as `now` minus the span with the same
// calendar-correct arithmetic. nullopt when `text` is not a span (timestamps and dates are
// instants, not spans).
// Throws Error{usage} `<v> is out of the representable range` as parse_since does.
// A zero span (`0 hours`, `P0D`) gives `now` itself. Used where an input must be a duration,
// such as backfill's lookback and minimum age (docs/github.md).
std::optional<Timestamp> parse_span_before(std::string_view text, Timestamp now);

// `now` minus `months` calendar months (UTC, day clamped to the month's length).
// Throws Error{usage} when the result is outside the representable range.
Timestamp subtract_calendar_months(Timestamp now, long long months);

// Why the effective cutoff is what it is; each renders as the announcement's reason
// (docs/formats.md#streams).
enum class SinceReason {
  explicit_option,         // "from the --since option"
  history_default,         // "history-mode default six-month look-back"
  no_default_outside_history,  // "no default look-back window outside history mode"
  no_default_prune,        // "no default look-back" (prune)
};

std::string_view to_string(SinceReason reason) noexcept;

struct SinceWindow {
  std::optional<Timestamp> cutoff;  // nullopt = no cutoff
  SinceReason reason = SinceReason::no_default_outside_history;
};

// The effective window for analyze/list/examine (docs/pipeline.md#selection): an explicit value
// always wins; otherwise history mode looks back six calendar months, branch mode not at all.
// Throws Error{usage} for an explicit span past the timestamp range (Since::cutoff).
SinceWindow resolve_since(const std::optional<Since>& explicit_since, bool history_mode, Timestamp now);

// prune: an explicit value or no cutoff at all (docs/formats.md#streams "no default look-back").
// Throws Error{usage} for an explicit span past the timestamp range (Since::cutoff).
inline SinceWindow resolve_prune_since(const std::optional<Since>& explicit_since, Timestamp now) {
  if (explicit_since) return {explicit_since->cutoff(now), SinceReason::explicit_option};
  return {std::nullopt, SinceReason::no_default_prune};
}

// docs/pipeline.md#selection: a run is dropped iff its commit's committer time is known and
// strictly earlier than the cutoff (an instant exactly at the cutoff stays; unknown never drops).
inline bool before_cutoff(const std::optional<Timestamp>& committer_time,
                          const std::optional<Timestamp>& cutoff) noexcept {
  return cutoff && committer_time && *committer_time < *cutoff;
}

}  // namespace benchhist::analysis
