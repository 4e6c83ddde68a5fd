#pragma once
// Hardware description of the processors this process may run on (docs/formats.md#hardware): its
// affinity set, not the padded processor-ID space nor the whole host. Linux sources are read
// under a `sys_root` (`<root>/proc/cpuinfo`, `<root>/sys/devices/system/node/node*/cpulist`)
// so tests can fake /proc and /sys trees.

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/model/run.hpp"
#include "probe/machine_key.hpp"

namespace benchhist::probe {

// Speed recorded for a processor whose OS metric is undisclosed (u64::MAX,
// docs/formats.md#hardware).
inline constexpr std::uint64_t undisclosed_processor_speed = std::numeric_limits<std::uint64_t>::max();

// Processor ids this process may run on (sched_getaffinity), ascending. Falls back to
// 0..hardware_concurrency-1 when the affinity cannot be read.
std::vector<unsigned> process_cpu_affinity();

// Parses a kernel cpu list such as "0-3,8,10-11" (whitespace tolerated); nullopt if malformed.
std::optional<std::vector<unsigned>> parse_cpu_list(std::string_view text);

// Describes the given processors from the files under sys_root. Missing files degrade as
// docs/formats.md#hardware says: no NUMA info → 1 region; no model → `unknown`; no bogomips →
// u64::MAX speed.
MachineDescription describe_hardware(const std::filesystem::path& sys_root,
                                     const std::vector<unsigned>& allowed_cpus);

// Describes this process's processors (process_cpu_affinity()) from files under sys_root.
MachineDescription describe_hardware(const std::filesystem::path& sys_root = "/");

// The machine-key factors of a description (processors, regions, models).
MachineKeyInputs machine_key_inputs(const MachineDescription& machine);

}  // namespace benchhist::probe
