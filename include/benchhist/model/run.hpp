#pragma once
// A stored run: one engine's results at one commit (or one dirty snapshot), with the
// provenance of where and how it was measured (docs/formats.md#run-record, schema_version 5).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/model/benchmark_result.hpp"
#include "benchhist/model/timestamp.hpp"

namespace benchhist {

inline constexpr int run_schema_version = 5;

enum class CiProvider { local, github_actions, azure_devops };

constexpr std::string_view to_string(CiProvider p) noexcept {
  switch (p) {
    case CiProvider::local: return "local";
    case CiProvider::github_actions: return "github_actions";
    case CiProvider::azure_devops: return "azure_devops";
  }
  return "local";
}

constexpr std::optional<CiProvider> parse_ci_provider(std::string_view s) noexcept {
  if (s == "local") return CiProvider::local;
  if (s == "github_actions") return CiProvider::github_actions;
  if (s == "azure_devops") return CiProvider::azure_devops;
  return std::nullopt;
}

struct GitState {
  std::optional<std::string> commit;  // full id; null when git reported none
  std::optional<std::string> branch;  // null for a detached HEAD
  bool dirty = false;
  friend bool operator==(const GitState&, const GitState&) = default;
};

struct EnvContext {
  CiProvider provider = CiProvider::local;
  std::optional<std::string> run_id;
  std::optional<std::string> pull_request;
  friend bool operator==(const EnvContext&, const EnvContext&) = default;
};

struct ToolchainInfo {
  std::string target_triple;                 // raw, unsanitized
  std::optional<std::string> rustc_version;  // `release:` of `rustc -vV`
  friend bool operator==(const ToolchainInfo&, const ToolchainInfo&) = default;
};

// Hardware provenance (docs/formats.md#hardware). Write-only: analysis never reads it.
struct MachineDescription {
  std::uint64_t processors = 0;
  std::uint64_t memory_regions = 0;
  std::vector<std::string> processor_models;  // sorted, distinct, whitespace-normalized
  std::vector<std::pair<std::uint64_t, std::uint64_t>> processor_speeds;  // [speed, count], ascending
  std::string fingerprint;                    // the machine key
  friend bool operator==(const MachineDescription&, const MachineDescription&) = default;
};

struct RunContext {
  Timestamp observation{};  // start of the first repetition; provenance only
  GitState git;
  EnvContext env;
  ToolchainInfo toolchain;
  std::string tool_version;
  std::optional<MachineDescription> machine;
  std::optional<std::uint32_t> best_of;
  friend bool operator==(const RunContext&, const RunContext&) = default;
};

struct Run {
  int schema_version = run_schema_version;
  RunContext context;
  std::vector<BenchmarkResult> results;
  friend bool operator==(const Run&, const Run&) = default;
};

// Why a run's results cannot be a stored record (docs/formats.md#run-record): `where` is the JSON
// path of the member at fault, as the record names it (`results[3].id`); `what` says what is wrong.
struct RunProblem {
  std::string where;
  std::string what;
};

// The first problem of `results`, or nullopt: of the results in order, one with no id segment, a
// metric kind given twice, a value or standard deviation that is not a finite number, or an interval whose low bound is above its high one (or not a
// number); then the earliest benchmark listed twice. One definition for the writer, which refuses to store such a run, and
// the reader, which refuses such an object — so whatever is written can be read back. A value
// outside its interval is kept: a bootstrap interval need not contain its point estimate.
inline std::optional<RunProblem> run_problem(const std::vector<BenchmarkResult>& results) {
  const auto at = [](std::size_t i) { return "results[" + std::to_string(i) + "]"; };
  const auto number = [](double v) {  // shortest round trip, as the record writes it
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  };
  for (std::size_t i = 0; i < results.size(); ++i) {
    const BenchmarkResult& r = results[i];
    if (r.id.empty()) return RunProblem{at(i) + ".id.segments", "expected at least one segment"};
    for (std::size_t j = 0; j < r.metrics.size(); ++j) {
      const MetricValue& m = r.metrics[j];
      const std::string_view kind = to_string(m.kind);
      for (std::size_t k = 0; k < j; ++k)
        if (r.metrics[k].kind == m.kind)
          return RunProblem{at(i) + ".metrics", "metric kind " + std::string(kind) + " appears twice"};
      // JSON has no NaN: a record can hold none, and a reader never meets one here.
      if (!std::isfinite(m.value) || (m.std_dev && !std::isfinite(*m.std_dev)))
        return RunProblem{at(i) + ".metrics[" + std::to_string(j) + "]." +
                              (std::isfinite(m.value) ? "std_dev" : "value"),
                          "the " + std::string(kind) + " " + (std::isfinite(m.value) ? "standard deviation" : "value") +
                              " is not a finite number (" + number(std::isfinite(m.value) ? *m.std_dev : m.value) +
                              ")"};
      const auto defect = m.interval ? interval_defect(*m.interval) : std::nullopt;
      if (defect == IntervalDefect::not_finite)
        return RunProblem{at(i) + ".metrics[" + std::to_string(j) + "]." +
                              (std::isfinite(m.interval->low) ? "interval_high" : "interval_low"),
                          "the " + std::string(kind) + " interval has a bound that is not a finite number (" +
                              number(std::isfinite(m.interval->low) ? m.interval->high : m.interval->low) + ")"};
      if (defect == IntervalDefect::inverted)
        return RunProblem{at(i) + ".metrics", "the " + std::string(kind) + " interval's low bound " +
                                                  number(m.interval->low) + " is not at most its high bound " +
                                                  number(m.interval->high)};
    }
  }
  // Positions sorted by (hash of the id, position), full ids compared only within equal hashes:
  // every stored run is checked on read, and comparing the ids themselves in a sort cost 2 % of
  // decoding the synthetic store.
  const auto hash = [](const BenchmarkId& id) {  // FNV-1a over each segment and its length
    std::uint64_t h = 14695981039346656037ull;
    const auto mix = [&](unsigned char c) { h = (h ^ c) * 1099511628211ull; };
    for (const auto& seg : id.segments()) {
      for (const char c : seg) mix(static_cast<unsigned char>(c));
      for (std::size_t n = seg.size(), k = 0; k < sizeof n; ++k) mix(static_cast<unsigned char>(n >> (8 * k)));
    }
    return h;
  };
  std::vector<std::pair<std::uint64_t, std::size_t>> order(results.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = {hash(results[i].id), i};
  std::sort(order.begin(), order.end());
  std::optional<std::pair<std::size_t, std::size_t>> repeat;  // (first listing, repeat), earliest repeat
  for (std::size_t begin = 0, end = 0; begin < order.size(); begin = end) {
    for (end = begin + 1; end < order.size() && order[end].first == order[begin].first; ++end) {
    }
    // One hash, positions ascending: the first k matching an earlier g is this group's earliest
    // repeat, and the first such g its first listing.
    for (std::size_t k = begin + 1; k < end && !(repeat && order[k].second > repeat->second); ++k) {
      std::size_t g = begin;
      while (g < k && results[order[g].second].id != results[order[k].second].id) ++g;
      if (g < k) {
        repeat = std::pair{order[g].second, order[k].second};
        break;
      }
    }
  }
  if (repeat)
    return RunProblem{at(repeat->second) + ".id", "benchmark \"" + results[repeat->second].id.qualified() +
                                                      "\" is listed twice (first at " + at(repeat->first) + ")"};
  return std::nullopt;
}

}  // namespace benchhist
