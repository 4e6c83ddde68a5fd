#pragma once
// Gate ladders (docs/statistics.md#change-point-ladder): every rung records what it demanded, what
// it computed and its verdict, so `--verbose` output and tests can show exactly where a candidate
// stopped.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchhist::detect {

struct Gate {
  std::string name;                  // token, e.g. "residual_noise" (docs/statistics.md#change-point-ladder, #drift-ladder)
  std::optional<double> value;       // what the detector computed (null for yes/no gates)
  std::optional<double> threshold;   // the demand (for selection_adjustment: the tainted p)
  bool passed = false;
  friend bool operator==(const Gate&, const Gate&) = default;
};

class GateLadder {
 public:
  // Appends a rung and returns its verdict, so a ladder reads `if (!l.check(...)) return`.
  bool check(std::string_view name, std::optional<double> value, std::optional<double> threshold, bool passed) {
    gates_.push_back(Gate{std::string(name), value, threshold, passed});
    return passed;
  }
  const std::vector<Gate>& gates() const noexcept { return gates_; }
  bool empty() const noexcept { return gates_.empty(); }
  // The first declining gate, or nullopt when every logged gate passed.
  std::optional<std::string> first_declined() const {
    for (const auto& g : gates_)
      if (!g.passed) return g.name;
    return std::nullopt;
  }
  bool passed() const { return !first_declined().has_value(); }
  const Gate* find(std::string_view name) const {
    for (const auto& g : gates_)
      if (g.name == name) return &g;
    return nullptr;
  }
  friend bool operator==(const GateLadder&, const GateLadder&) = default;

 private:
  std::vector<Gate> gates_;
};

}  // namespace benchhist::detect
