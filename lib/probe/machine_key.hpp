#pragma once
// The machine key: a short hash over the host's hardware identity that partitions every
// engine's history (docs/formats.md#machine-key). Speeds, hostname and RAM are deliberately not
// factors, so thermal state or a rename never rotates the key.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace benchhist::probe {

// The fingerprint version tag; changing the factor set must change it
// (docs/formats.md#machine-key).
inline constexpr std::string_view machine_key_version = "mk3";

struct MachineKeyInputs {
  std::uint64_t processors = 0;
  std::uint64_t memory_regions = 0;
  std::vector<std::string> processor_models;  // raw; normalized by the functions below
};

// Runs of Unicode whitespace (UTF-8) become one space; leading/trailing whitespace is trimmed.
std::string normalize_processor_model(std::string_view model);

// Normalizes each model, drops empties, de-duplicates and sorts ascending by bytes
// (docs/formats.md#hardware).
std::vector<std::string> normalize_processor_models(const std::vector<std::string>& models);

// The exact hashed bytes: "mk3\nprocessors=<n>\nmemory_regions=<m>\nprocessor_models=<a,b>"
// (no trailing newline; models normalized as above, empty when there are none).
std::string machine_key_canonical(const MachineKeyInputs& inputs);

// Lowercase hex of the first 8 bytes of SHA-256 over the canonical string: 16 characters.
std::string compute_machine_key(const MachineKeyInputs& inputs);

// The verbose component line body of docs/formats.md#machine-key (without the `[bench-history] ...
// components: ` prefix): `version=mk3, processors=<n>, memory_regions=<m>,
// processor_models=<models|<none>>`.
std::string machine_key_components_line(const MachineKeyInputs& inputs);

}  // namespace benchhist::probe
