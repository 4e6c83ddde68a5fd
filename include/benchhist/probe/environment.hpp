#pragma once
// Environment variables behind a small interface: library code never reads the process
// environment directly, so tests (and embedding harnesses) can pass their own.

#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace benchhist::probe {

class Environment {
 public:
  virtual ~Environment() = default;
  // The variable's value, or nullopt when unset.
  virtual std::optional<std::string> get(std::string_view name) const = 0;

  // The value when set and non-empty.
  std::optional<std::string> non_empty(std::string_view name) const {
    auto v = get(name);
    if (v && v->empty()) return std::nullopt;
    return v;
  }
};

// The real process environment.
class ProcessEnvironment final : public Environment {
 public:
  std::optional<std::string> get(std::string_view name) const override {
    const char* v = std::getenv(std::string(name).c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  }
};

// A fixed set of variables (tests, embedding).
class MapEnvironment final : public Environment {
 public:
  MapEnvironment() = default;
  explicit MapEnvironment(std::map<std::string, std::string, std::less<>> vars) : vars_(std::move(vars)) {}
  void set(std::string name, std::string value) { vars_[std::move(name)] = std::move(value); }
  std::optional<std::string> get(std::string_view name) const override {
    auto it = vars_.find(name);
    if (it == vars_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::map<std::string, std::string, std::less<>> vars_;
};

}  // namespace benchhist::probe
