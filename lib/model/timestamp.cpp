#include "benchhist/model/timestamp.hpp"

#include <cstdio>
#include <limits>

namespace benchhist {
namespace {

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) noexcept {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  return true;
}

}  // namespace

std::optional<Timestamp> parse_rfc3339(std::string_view s) noexcept {
  using namespace std::chrono;
  int y, mo, d, h, mi, se;
  if (!digits(s, 0, 4, y) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s, 11, 2, h) ||
      s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, se))
    return std::nullopt;
  const year_month_day ymd{year{y}, month{unsigned(mo)}, day{unsigned(d)}};
  if (!ymd.ok() || h > 23 || mi > 59 || se > 60) return std::nullopt;
  std::size_t pos = 19;
  std::int64_t frac = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::size_t n = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (n < 9) frac = frac * 10 + (s[pos] - '0');
      ++n;
      ++pos;
    }
    if (n == 0) return std::nullopt;
    for (std::size_t i = n; i < 9; ++i) frac *= 10;
  }
  if (pos >= s.size()) return std::nullopt;
  std::int64_t offset_seconds = 0;
  if (s[pos] == 'Z' || s[pos] == 'z') {
    ++pos;
  } else if (s[pos] == '+' || s[pos] == '-') {
    int oh, om;
    if (!digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' || !digits(s, pos + 4, 2, om) ||
        oh > 23 || om > 59)
      return std::nullopt;
    offset_seconds = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  // Whole seconds first (no overflow for any 4-digit year), then the range check: a
  // nanosecond Timestamp spans only 1677-09-21..2262-04-11, and converting an instant outside
  // it would overflow (found by fuzz_run_json).
  const std::int64_t secs = std::int64_t{sys_days(ymd).time_since_epoch().count()} * 86400 + h * 3600 + mi * 60 +
                            se - offset_seconds;
  constexpr std::int64_t limit = std::numeric_limits<std::int64_t>::max() / 1'000'000'000 - 1;
  if (secs < -limit || secs > limit) return std::nullopt;
  return Timestamp(seconds(secs)) + nanoseconds(frac);
}

std::string format_rfc3339_seconds(Timestamp t) {
  using namespace std::chrono;
  const auto secs = floor<seconds>(t);
  const auto day_point = floor<days>(secs);
  const year_month_day ymd{day_point};
  const hh_mm_ss hms{secs - day_point};
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", int(ymd.year()), unsigned(ymd.month()),
                unsigned(ymd.day()), int(hms.hours().count()), int(hms.minutes().count()),
                int(hms.seconds().count()));
  return buf;
}

std::string format_rfc3339(Timestamp t) {
  using namespace std::chrono;
  std::string whole = format_rfc3339_seconds(t);
  auto frac = (t - floor<seconds>(t)).count();  // 0..999999999
  if (frac == 0) return whole;
  char buf[16];
  std::snprintf(buf, sizeof buf, ".%09lld", static_cast<long long>(frac));
  std::string f(buf);
  while (f.back() == '0') f.pop_back();
  whole.insert(whole.size() - 1, f);
  return whole;
}

}  // namespace benchhist
