#include "benchhist/https/retry.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <string>
#include <thread>

namespace benchhist::https {

bool is_transient_status(int status) noexcept {
  switch (status) {
    case 408: case 429: case 500: case 502: case 503: case 504: return true;
    default: return false;
  }
}

std::chrono::milliseconds RetryPolicy::delay_after(int attempt, std::optional<std::chrono::milliseconds> retry_after,
                                                   double unit_random) const {
  using std::chrono::milliseconds;
  if (retry_after) return std::min(*retry_after, max_delay);  // the server knows best, within bounds
  double base = static_cast<double>(initial_delay.count()) * std::pow(2.0, std::max(0, attempt - 1));
  double spread = 1.0 + jitter * (2.0 * unit_random - 1.0);
  double ms = std::min(base * spread, static_cast<double>(max_delay.count()));
  return milliseconds(static_cast<milliseconds::rep>(std::max(0.0, ms)));
}

void RetryPolicy::wait(std::chrono::milliseconds d) const {
  if (d.count() <= 0) return;
  if (sleep) sleep(d);
  else std::this_thread::sleep_for(d);
}

std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now) {
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  if (value.empty()) return std::nullopt;
  long long seconds = 0;
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec == std::errc() && p == value.data() + value.size()) {
    if (seconds < 0) return std::nullopt;
    return std::chrono::milliseconds(std::min<long long>(seconds, 86'400) * 1000);
  }
  // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
  std::tm tm{};
  std::string text(value);
  if (!strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm)) return std::nullopt;
  auto at = std::chrono::system_clock::from_time_t(timegm(&tm));
  auto delta = std::chrono::duration_cast<std::chrono::milliseconds>(at - now);
  return std::max(delta, std::chrono::milliseconds(0));
}

}  // namespace benchhist::https
