#pragma once
// Storage keys (docs/formats.md#key-grammar, #segment-sanitisation, #object-kinds): building,
// sanitizing, parsing and validating the string keys shared by every backend. Keys double as
// relative file paths (local store) and blob names (Azure), so every segment is sanitized and every
// key validated before use.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/engine.hpp"

namespace benchhist::codec {

// docs/formats.md#segment-sanitisation: per Unicode scalar, keep ASCII [A-Za-z0-9._-] (lowercased),
// replace anything else with one `_`; each byte of an invalid UTF-8 sequence becomes one `_`.
// An empty or all-dots result becomes `_`. Idempotent on its own output.
std::string sanitize_segment(std::string_view raw);

// The longest segment a key may carry, in bytes after sanitizing: 255 is the per-name limit of the
// file systems a local store lives on (ext4, XFS, btrfs, APFS, NTFS). A longer project id or
// target triple could be measured but never stored, so the edges refuse one before any benchmark
// runs (docs/formats.md#segment-sanitisation).
inline constexpr std::size_t max_segment_bytes = 255;
// Why `raw` cannot be a segment ("is 300 characters long; it names a directory of the store, which
// takes at most 255"), for the edge to prefix with the value's name; nullopt when it fits.
std::optional<std::string> overlong_segment(std::string_view raw);

// Throws Error{invalid_key} (message "invalid storage key: <key>", subject = key) unless every
// `/`-separated segment is a single ordinary path component: no empty segments (so no
// leading/trailing/double `/`), no `.` or `..`, no backslash, no drive prefix (`C:`), no NUL byte
// (docs/formats.md#segment-sanitisation).
void validate_key(std::string_view key);
// The non-throwing form of validate_key.
bool is_valid_key(std::string_view key) noexcept;

enum class ObjectKind {
  clean,               // clean.json
  dirty,               // dirty-<observation_unix_seconds>.json
  partition_blessing,  // bless-<issued_unix_seconds>.json (legacy sidecar)
};

// A parsed data key `v1/<project>/objects/<engine>/<triple>/<machine_key>/<commit>/<file>`.
// The string members hold key SEGMENTS (already sanitized); str() joins them verbatim so
// that parse_data_key(k)->str() == k for every key it accepts (except an engine segment in
// non-canonical case, which docs/formats.md#object-kinds accepts and str() re-spells in lower case).
// Build keys from raw values with the builders below, which sanitize.
struct DataKey {
  std::string project;
  Engine engine = Engine::criterion;
  std::string target_triple;
  std::string machine_key;
  std::string commit;
  ObjectKind kind = ObjectKind::clean;
  std::int64_t timestamp = 0;  // Unix seconds for dirty / partition_blessing; 0 for clean

  DiscriminantSet set() const { return DiscriminantSet{engine, target_triple, machine_key}; }
  // The file segment: `clean.json`, `dirty-<n>.json` or `bless-<n>.json`.
  std::string file_name() const;
  std::string str() const;

  friend bool operator==(const DataKey&, const DataKey&) = default;
};

// docs/formats.md#object-kinds. Anything that is not a data key (cache marker, project-level
// blessing, temp files, strays, future layouts) yields nullopt, never an error. The engine segment
// is matched case-insensitively. Timestamps must be canonical base-10 i64 spellings
// (`-5`, `0`, `1787306400`; not `+5` or `007`) so that str() reproduces the key exactly.
std::optional<DataKey> parse_data_key(std::string_view key);

// Builders: take RAW values (project id, triple, machine key, commit id) and sanitize them.
std::string clean_key(std::string_view project, Engine engine, std::string_view target_triple,
                      std::string_view machine_key, std::string_view commit);
std::string dirty_key(std::string_view project, Engine engine, std::string_view target_triple,
                      std::string_view machine_key, std::string_view commit,
                      std::int64_t observation_unix_seconds);
std::string partition_blessing_key(std::string_view project, Engine engine,
                                   std::string_view target_triple, std::string_view machine_key,
                                   std::string_view commit, std::int64_t issued_unix_seconds);
// `v1/<project>/objects/blessings/<commit>/bless-<issued_unix_nanos>.json`
// (docs/formats.md#blessing-records).
std::string project_blessing_key(std::string_view project, std::string_view commit,
                                 std::int64_t issued_unix_nanos);

// The commit segment of a project-level blessing key, or nullopt for any other key
// (docs/formats.md#object-kinds).
std::optional<std::string> parse_project_blessing_key(std::string_view key);

// `v1/<project>/_cache-epoch` (docs/formats.md#read-through-cache): metadata outside `objects/`.
std::string cache_epoch_key(std::string_view project);
// `v1/<project>/objects/`
std::string project_data_prefix(std::string_view project);
// `v1/<project>/objects/<engine>/<triple>/<machine_key>/` — always `/`-terminated so that
// machine key `ci` never lists `ci-pool` (docs/formats.md#key-grammar).
std::string partition_prefix(std::string_view project, const DiscriminantSet& set);
// `<partition prefix><commit>/`
std::string commit_prefix(std::string_view project, const DiscriminantSet& set,
                          std::string_view commit);
// `v1/<project>/objects/blessings/` — every project-level blessing of a project.
std::string project_blessings_prefix(std::string_view project);

// The literal commit segment used when git reported no commit (docs/formats.md#key-grammar).
inline constexpr std::string_view unknown_commit = "unknown";

}  // namespace benchhist::codec
