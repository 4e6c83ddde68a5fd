#include "benchhist/analysis/since.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <variant>

#include "benchhist/error.hpp"
#include "benchhist/model/ascii.hpp"

namespace benchhist::analysis {
namespace {

using namespace std::chrono;
__extension__ typedef __int128 i128;  // spans beyond int64 nanoseconds must not overflow

std::string invalid_message(std::string_view text) {
  return "invalid --since value \"" + std::string(text) +
         "\"; expected an RFC 3339 timestamp, a YYYY-MM-DD date, or a relative duration such as "
         "\"6 months\" or \"30 days ago\"";
}

[[noreturn]] void throw_invalid(std::string_view text) {
  throw Error(ErrorKind::usage, invalid_message(text), std::string(text), {},
              "pass a date (2026-06-01), an instant (2026-06-01T12:00:00Z) or a span (\"6 months\", \"2w\", "
              "P1Y2M); quote a span that contains a space");
}

[[noreturn]] void throw_range(std::string_view text) {
  throw Error(ErrorKind::usage, std::string(text) + " is out of the representable range",
              std::string(text), {}, "choose a later --since instant or a shorter span");
}

// Timestamp holds signed 64-bit nanoseconds; anything outside cannot be represented.
Timestamp from_nanos_checked(i128 ns, std::string_view text) {
  if (ns < i128(std::numeric_limits<std::int64_t>::min()) ||
      ns > i128(std::numeric_limits<std::int64_t>::max()))
    throw_range(text);
  return Timestamp(nanoseconds(static_cast<std::int64_t>(ns)));
}

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A parsed span: calendar part (months) and exact part (nanoseconds).
struct Span {
  i128 months = 0;
  i128 nanos = 0;
  bool any = false;
};

constexpr i128 kNanosPerSecond = 1'000'000'000;
constexpr i128 kDayNanos = 86'400 * kNanosPerSecond;
// Far beyond any representable offset (2^63 ns is 292 years). A count saturates at
// kComponentLimit, so one component is at most 2^64 · 6.05e14 ns (a week) < 2^114, and the
// span's totals saturate at kSpanLimit: no sum or product can overflow __int128, however many
// components a value has (fuzz_since found 2^80 · a week overflowing).
constexpr i128 kComponentLimit = i128(1) << 64;
constexpr i128 kSpanLimit = i128(1) << 100;

void accumulate(i128& total, i128 amount) { total = std::min(total + amount, kSpanLimit); }

// Accumulates `count` of `unit` into the span; false for an unknown unit.
bool add_unit(Span& span, i128 count, std::string_view unit) {
  auto is = [&](std::initializer_list<std::string_view> names) {
    for (auto n : names)
      if (ascii::iequals(unit, n)) return true;
    return false;
  };
  // `M` is a month and `m` a minute (humantime convention); every other unit is
  // case-insensitive.
  if (unit == "M" || is({"months", "month", "mons", "mon", "mo"})) {
    accumulate(span.months, count);
  } else if (unit == "m" || is({"minutes", "minute", "mins", "min"})) {
    accumulate(span.nanos, count * 60 * kNanosPerSecond);
  } else if (is({"years", "year", "yrs", "yr", "y"})) {
    accumulate(span.months, count * 12);
  } else if (is({"weeks", "week", "wks", "wk", "w"})) {
    accumulate(span.nanos, count * 7 * kDayNanos);
  } else if (is({"days", "day", "d"})) {
    accumulate(span.nanos, count * kDayNanos);
  } else if (is({"hours", "hour", "hrs", "hr", "h"})) {
    accumulate(span.nanos, count * 3600 * kNanosPerSecond);
  } else if (is({"seconds", "second", "secs", "sec", "s"})) {
    accumulate(span.nanos, count * kNanosPerSecond);
  } else {
    return false;
  }
  span.any = true;
  return true;
}

// Reads an unsigned decimal integer; nullopt when there is none. Values too large for any
// representable span saturate at kComponentLimit (they are reported as out of range later).
std::optional<i128> read_count(std::string_view s, std::size_t& pos) {
  const std::size_t start = pos;
  i128 v = 0;
  while (pos < s.size() && is_digit(s[pos])) {
    if (v < kComponentLimit) v = v * 10 + (s[pos] - '0');
    ++pos;
  }
  if (pos == start) return std::nullopt;
  return v < kComponentLimit ? v : kComponentLimit;
}

// Friendly form: one or more `<n>[ ]<unit>` components separated by spaces or commas,
// optionally followed by `ago`.
std::optional<Span> parse_friendly(std::string_view s) {
  // `ago` must stand on its own (`2w ago`, not `2wago`); its sign is ignored anyway.
  if (s.size() > 3 && ascii::iequals(s.substr(s.size() - 3), "ago") &&
      ascii::is_space(s[s.size() - 4]))
    s = ascii::trim(s.substr(0, s.size() - 3));
  Span span;
  std::size_t pos = 0;
  while (true) {
    while (pos < s.size() && (ascii::is_space(s[pos]) || s[pos] == ',')) ++pos;
    if (pos == s.size()) break;
    auto count = read_count(s, pos);
    if (!count) return std::nullopt;
    while (pos < s.size() && ascii::is_space(s[pos])) ++pos;
    const std::size_t unit_start = pos;
    while (pos < s.size() && is_alpha(s[pos])) ++pos;
    if (pos == unit_start) return std::nullopt;
    if (!add_unit(span, *count, s.substr(unit_start, pos - unit_start))) return std::nullopt;
  }
  if (!span.any) return std::nullopt;
  return span;
}

// ISO 8601 duration: P[nY][nM][nW][nD][T[nH][nM][n[.f]S]].
std::optional<Span> parse_iso_duration(std::string_view s) {
  if (s.empty() || (s[0] != 'P' && s[0] != 'p')) return std::nullopt;
  Span span;
  std::size_t pos = 1;
  bool time_part = false;
  bool time_component = false;
  // Designators must appear in order; track the last one seen in each part.
  const std::string_view date_order = "YMWD";
  const std::string_view time_order = "HMS";
  std::size_t last = 0;
  while (pos < s.size()) {
    if (s[pos] == 'T' || s[pos] == 't') {
      if (time_part) return std::nullopt;
      time_part = true;
      last = 0;
      ++pos;
      continue;
    }
    auto count = read_count(s, pos);
    if (!count) return std::nullopt;
    i128 frac_nanos = 0;
    if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
      ++pos;
      std::size_t digits = 0;
      while (pos < s.size() && is_digit(s[pos])) {
        if (digits < 9) frac_nanos = frac_nanos * 10 + (s[pos] - '0');
        ++digits;
        ++pos;
      }
      if (digits == 0) return std::nullopt;
      for (std::size_t i = digits; i < 9; ++i) frac_nanos *= 10;
    }
    if (pos == s.size()) return std::nullopt;
    const char designator = ascii::lower(s[pos]) - 'a' + 'A';
    ++pos;
    const std::string_view order = time_part ? time_order : date_order;
    const auto idx = order.find(designator);
    if (idx == std::string_view::npos || idx + 1 <= last) return std::nullopt;
    last = idx + 1;
    // Only seconds may carry a fraction (months and years have no fixed length).
    if (frac_nanos != 0 && !(time_part && designator == 'S')) return std::nullopt;
    if (time_part) {
      time_component = true;
      if (designator == 'H') accumulate(span.nanos, *count * 3600 * kNanosPerSecond);
      if (designator == 'M') accumulate(span.nanos, *count * 60 * kNanosPerSecond);
      if (designator == 'S') accumulate(span.nanos, *count * kNanosPerSecond + frac_nanos);
    } else {
      if (designator == 'Y') accumulate(span.months, *count * 12);
      if (designator == 'M') accumulate(span.months, *count);
      if (designator == 'W') accumulate(span.nanos, *count * 7 * kDayNanos);
      if (designator == 'D') accumulate(span.nanos, *count * kDayNanos);
    }
    span.any = true;
  }
  if (!span.any || (time_part && !time_component)) return std::nullopt;
  return span;
}

std::optional<Timestamp> parse_date_only(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (!is_digit(s[i])) return std::nullopt;
  const int y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  const unsigned m = unsigned((s[5] - '0') * 10 + (s[6] - '0'));
  const unsigned d = unsigned((s[8] - '0') * 10 + (s[9] - '0'));
  const year_month_day ymd{year{y}, month{m}, day{d}};
  if (!ymd.ok()) return std::nullopt;
  const i128 ns = i128(sys_days(ymd).time_since_epoch().count()) * kDayNanos;
  if (ns < i128(std::numeric_limits<std::int64_t>::min()) ||
      ns > i128(std::numeric_limits<std::int64_t>::max()))
    return std::nullopt;
  return Timestamp(nanoseconds(static_cast<std::int64_t>(ns)));
}

Timestamp subtract_months_checked(Timestamp now, i128 months, std::string_view text) {
  const auto day_point = floor<days>(now);
  const auto time_of_day = now - day_point;
  const year_month_day ymd{day_point};
  // Month index counted from year 0; the result must stay within chrono's year range
  // (far wider than Timestamp's, which the final check enforces).
  const i128 index = i128(int(ymd.year())) * 12 + (unsigned(ymd.month()) - 1) - months;
  if (index < i128(-30000) * 12 || index > i128(30000) * 12) throw_range(text);
  const i128 y = index >= 0 ? index / 12 : -((-index + 11) / 12);
  const unsigned m = unsigned(index - y * 12) + 1;
  const year_month_day_last last{year{int(y)}, month_day_last{month{m}}};
  const day d = ymd.day() <= last.day() ? ymd.day() : last.day();  // clamp: 03-31 → 02-29
  const year_month_day target{year{int(y)}, month{m}, d};
  const i128 ns = i128(sys_days(target).time_since_epoch().count()) * kDayNanos +
                  i128(time_of_day.count());
  return from_nanos_checked(ns, text);
}

// The public form: each count saturates at int64, still far outside the timestamp range.
SinceSpan public_span(const Span& span) {
  constexpr i128 max64 = std::numeric_limits<std::int64_t>::max();
  SinceSpan out;
  out.months = static_cast<std::int64_t>(std::min(span.months, max64));
  out.seconds = static_cast<std::int64_t>(std::min(span.nanos / kNanosPerSecond, max64));
  out.nanos = static_cast<std::int32_t>(span.nanos % kNanosPerSecond);
  return out;
}

Timestamp apply_span(Timestamp now, const Span& span, std::string_view text) {
  if (span.months >= kComponentLimit || span.nanos >= kComponentLimit) throw_range(text);
  const Timestamp after_months = span.months != 0 ? subtract_months_checked(now, span.months, text) : now;
  return from_nanos_checked(i128(after_months.time_since_epoch().count()) - span.nanos, text);
}

}  // namespace

Timestamp subtract_calendar_months(Timestamp now, long long months) {
  return subtract_months_checked(now, months, std::to_string(months) + " months");
}

Timestamp Since::cutoff(Timestamp now) const {
  if (const auto* instant = std::get_if<Timestamp>(&value)) return *instant;
  const auto& s = std::get<SinceSpan>(value);
  return apply_span(now, Span{s.months, i128(s.seconds) * kNanosPerSecond + s.nanos, true}, text);
}

Since parse_since(std::string_view raw) {
  const std::string_view text = ascii::trim(raw);
  if (text.empty()) throw_invalid(raw);
  if (auto t = parse_rfc3339(text)) return {*t, std::string(text)};
  if (auto t = parse_date_only(text)) return {*t, std::string(text)};
  // Relative spans: a sign is ignored, the span is always a look-back.
  std::string_view unsigned_text = text;
  if (unsigned_text.front() == '-' || unsigned_text.front() == '+')
    unsigned_text = ascii::trim(unsigned_text.substr(1));
  if (unsigned_text.empty()) throw_invalid(raw);
  if (auto span = parse_friendly(unsigned_text)) return {public_span(*span), std::string(text)};
  if (auto span = parse_iso_duration(unsigned_text)) return {public_span(*span), std::string(text)};
  throw_invalid(raw);
}

std::optional<Timestamp> parse_span_before(std::string_view raw, Timestamp now) {
  std::string_view text = ascii::trim(raw);
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text = ascii::trim(text.substr(1));
  if (text.empty()) return std::nullopt;
  if (auto span = parse_friendly(text)) return apply_span(now, *span, ascii::trim(raw));
  if (auto span = parse_iso_duration(text)) return apply_span(now, *span, ascii::trim(raw));
  return std::nullopt;
}

std::string_view to_string(SinceReason reason) noexcept {
  switch (reason) {
    case SinceReason::explicit_option: return "from the --since option";
    case SinceReason::history_default: return "history-mode default six-month look-back";
    case SinceReason::no_default_outside_history: return "no default look-back window outside history mode";
    case SinceReason::no_default_prune: return "no default look-back";
  }
  return "from the --since option";
}

SinceWindow resolve_since(const std::optional<Since>& explicit_since, bool history_mode, Timestamp now) {
  // A request whose `now` was never set is the epoch: its six-month window (or a span's) would
  // end in 1970 and silently admit every run.
  const bool needs_now = explicit_since ? std::holds_alternative<SinceSpan>(explicit_since->value) : history_mode;
  if (needs_now && now == Timestamp{})
    throw Error(ErrorKind::usage, "the selection's `now` is not set (it is the Unix epoch)", "SelectionRequest::now", {},
                "set SelectionRequest::now to the current time (std::chrono::system_clock::now(), in nanoseconds): the "
                "look-back window and --since spans count back from it");
  if (explicit_since) return {explicit_since->cutoff(now), SinceReason::explicit_option};
  if (history_mode)
    return {subtract_months_checked(now, 6, "6 months"), SinceReason::history_default};
  return {std::nullopt, SinceReason::no_default_outside_history};
}

}  // namespace benchhist::analysis
