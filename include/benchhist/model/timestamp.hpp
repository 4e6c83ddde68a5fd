#pragma once
// UTC instants with nanosecond precision and their RFC 3339 spelling. Records keep
// provenance timestamps (run observation, blessing issue time); analysis never orders by them.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace benchhist {

using Timestamp = std::chrono::sys_time<std::chrono::nanoseconds>;

// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (also lower-case t/z and a space for T).
// Returns nullopt on anything else, and for instants outside what a nanosecond Timestamp
// holds (about 1677-09-22 to 2262-04-10).
std::optional<Timestamp> parse_rfc3339(std::string_view text) noexcept;

// `YYYY-MM-DDTHH:MM:SS[.f]Z` with the shortest fraction that keeps every non-zero digit
// (".512", ".123456789", none for whole seconds). Pure function of the instant.
std::string format_rfc3339(Timestamp t);

// `YYYY-MM-DDTHH:MM:SSZ` (whole seconds, truncated toward the past).
std::string format_rfc3339_seconds(Timestamp t);

inline std::int64_t unix_seconds(Timestamp t) noexcept {
  return std::chrono::floor<std::chrono::seconds>(t).time_since_epoch().count();
}
inline std::int64_t unix_nanos(Timestamp t) noexcept { return t.time_since_epoch().count(); }
inline Timestamp from_unix_seconds(std::int64_t s) noexcept {
  return Timestamp(std::chrono::seconds(s));
}

}  // namespace benchhist
