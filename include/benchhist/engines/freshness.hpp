#pragma once
// The freshness gate (docs/formats.md#freshness-gate): target/ outlives runs, so a file older than
// the run that should have produced it is stale and must never be stored as if measured now. The
// gate takes the run start as a value — no clock is read here.

#include <chrono>
#include <filesystem>
#include <optional>

#include "benchhist/model/timestamp.hpp"

namespace benchhist::engines {

class FreshnessGate {
 public:
  // cutoff = start − 2 s (slack for coarse filesystem timestamps), saturating at the epoch.
  static FreshnessGate for_run_start(Timestamp start) noexcept {
    const Timestamp epoch{};
    const auto slack = std::chrono::seconds(2);
    return FreshnessGate(start - epoch <= slack ? epoch : start - slack);
  }
  // Admits everything (the hidden `import` command, docs/cli.md#commands).
  static FreshnessGate disabled() noexcept { return FreshnessGate(std::nullopt); }

  // A file is admitted when its modification time is ≥ the cutoff.
  bool admits(Timestamp modified) const noexcept { return !cutoff_ || modified >= *cutoff_; }
  const std::optional<Timestamp>& cutoff() const noexcept { return cutoff_; }

 private:
  explicit FreshnessGate(std::optional<Timestamp> cutoff) noexcept : cutoff_(cutoff) {}
  std::optional<Timestamp> cutoff_;
};

// Conversions between the filesystem clock and UTC instants (tests use to_file_time to set
// mtimes on both sides of the cutoff).
inline Timestamp to_timestamp(std::filesystem::file_time_type t) {
  return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::file_clock::to_sys(t));
}
inline std::filesystem::file_time_type to_file_time(Timestamp t) {
  return std::chrono::time_point_cast<std::filesystem::file_time_type::duration>(
      std::chrono::file_clock::from_sys(t));
}

}  // namespace benchhist::engines
