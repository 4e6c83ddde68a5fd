#pragma once
// Blessings: recorded acceptance of a benchmark change at a commit, which re-baselines the
// matching series there (docs/formats.md#blessing-records, #blessing-scope).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/model/ascii.hpp"
#include "benchhist/model/benchmark_id.hpp"
#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/timestamp.hpp"

namespace benchhist {

inline constexpr int blessing_schema_version = 2;

// Which discriminant sets a blessing applies to. An empty axis is unrestricted, including
// for partitions that appear later; values within an axis are alternatives; comparison is
// ASCII-case-insensitive.
struct BlessingScope {
  std::vector<std::string> engine;
  std::vector<std::string> target_triple;
  std::vector<std::string> machine_key;

  static BlessingScope of(const DiscriminantSet& set) {
    return {{std::string(to_string(set.engine))}, {set.target_triple}, {set.machine_key}};
  }

  bool matches(const DiscriminantSet& set) const {
    return axis_matches(engine, to_string(set.engine)) &&
           axis_matches(target_triple, set.target_triple) &&
           axis_matches(machine_key, set.machine_key);
  }

  // Per axis: either side empty, or some value of one matches the other.
  friend bool intersects(const BlessingScope& a, const BlessingScope& b) {
    return axes_intersect(a.engine, b.engine) && axes_intersect(a.target_triple, b.target_triple) &&
           axes_intersect(a.machine_key, b.machine_key);
  }

  // Per axis: outer empty, or inner non-empty and every inner value matched by outer.
  // unbless removes a scoped record only when the request contains it entirely.
  friend bool contains(const BlessingScope& outer, const BlessingScope& inner) {
    return axis_contains(outer.engine, inner.engine) &&
           axis_contains(outer.target_triple, inner.target_triple) &&
           axis_contains(outer.machine_key, inner.machine_key);
  }

  // `all/x86_64-unknown-linux-gnu/a1b2c3d4e5f60718`
  std::string label() const { return axis_label(engine) + "/" + axis_label(target_triple) + "/" + axis_label(machine_key); }

  friend bool operator==(const BlessingScope&, const BlessingScope&) = default;

 private:
  static bool axis_matches(const std::vector<std::string>& axis, std::string_view v) {
    if (axis.empty()) return true;
    for (const auto& a : axis)
      if (ascii::iequals(a, v)) return true;
    return false;
  }
  static bool axes_intersect(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    if (a.empty() || b.empty()) return true;
    for (const auto& x : a)
      if (axis_matches(b, x)) return true;
    return false;
  }
  static bool axis_contains(const std::vector<std::string>& outer, const std::vector<std::string>& inner) {
    if (outer.empty()) return true;
    if (inner.empty()) return false;
    for (const auto& v : inner)
      if (!axis_matches(outer, v)) return false;
    return true;
  }
  static std::string axis_label(const std::vector<std::string>& axis) {
    if (axis.empty()) return "all";
    std::string out;
    for (std::size_t i = 0; i < axis.size(); ++i) {
      if (i) out += '|';
      out += axis[i];
    }
    return out;
  }
};

// The common payload of both storage forms. `scope` is present for project-level records
// and absent for legacy partition-local sidecars, whose scope is the partition of their key.
struct Blessing {
  int schema_version = blessing_schema_version;
  std::string commit;
  Timestamp issued_at{};
  std::vector<std::string> prefixes;  // empty = every benchmark (`bless --all`)
  std::string tool_version;
  std::optional<BlessingScope> scope;

  bool covers(const BenchmarkId& id) const {
    if (prefixes.empty()) return true;
    const std::string q = id.qualified();
    for (const auto& p : prefixes)
      if (std::string_view(q).starts_with(p)) return true;
    return false;
  }
  friend bool operator==(const Blessing&, const Blessing&) = default;
};

}  // namespace benchhist
