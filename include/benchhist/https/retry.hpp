#pragma once
// Retry policy for HTTPS requests (Azure Blob, Entra ID tokens, GitHub REST): transient
// failures (connection errors, timeouts and the statuses 408/429/500/502/503/504) are retried
// with bounded exponential backoff plus jitter, honouring Retry-After; authentication/permission
// rejections and every other 4xx are final.

#include <chrono>
#include <functional>
#include <optional>
#include <string_view>

namespace benchhist::https {

struct RetryPolicy {
  int max_attempts = 4;                            // total tries, including the first
  std::chrono::milliseconds initial_delay{800};    // delay before the 2nd try
  std::chrono::milliseconds max_delay{30'000};     // cap for backoff and Retry-After alike
  double jitter = 0.25;                            // +-25 % spread so clients do not align
  // How to wait; empty = std::this_thread::sleep_for. Tests may record instead of sleeping.
  std::function<void(std::chrono::milliseconds)> sleep;

  // Delay before try `attempt + 1` after try `attempt` (1-based) failed. `retry_after`
  // (already parsed) wins over the exponential schedule; both are capped at max_delay.
  // `unit_random` in [0,1) drives the jitter.
  std::chrono::milliseconds delay_after(int attempt, std::optional<std::chrono::milliseconds> retry_after,
                                        double unit_random) const;
  void wait(std::chrono::milliseconds d) const;

  // docs/azure.md#retries: GitHub OIDC token requests, 3 attempts, exponential from 1 s.
  static RetryPolicy token_default() {
    RetryPolicy p;
    p.max_attempts = 3;
    p.initial_delay = std::chrono::milliseconds(1000);
    p.max_delay = std::chrono::milliseconds(8000);
    return p;
  }
};

// 408, 429, 500, 502, 503, 504.
bool is_transient_status(int status) noexcept;

// Retry-After as delta-seconds (the only form Azure and most proxies send) or an IMF-fixdate
// relative to `now`. nullopt when absent or unparsable.
std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now);

}  // namespace benchhist::https
