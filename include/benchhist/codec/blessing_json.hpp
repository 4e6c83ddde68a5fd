#pragma once
// Blessing records (docs/formats.md#blessing-records): the common payload (partition-local sidecar,
// legacy) and the project-level record with its required, strict `scope`.

#include <string>
#include <string_view>

#include "benchhist/model/blessing.hpp"

namespace benchhist::codec {

// Pretty JSON: schema_version 2, commit, issued_at, prefixes, tool_version, then `scope`
// (engine, target_triple, machine_key) when b.scope is set. Project-level records must carry
// a scope; sidecars never do.
std::string encode_blessing(const Blessing& b);

// Strict decoding; `key` decides the form and names the object in errors:
//  * a project-level key (`v1/<p>/objects/blessings/<commit>/bless-<nanos>.json`): `scope` is
//    required and strict — each of engine/target_triple/machine_key required as an array of
//    strings, any other member inside scope rejected — because a missing or misspelled scope
//    must never read as "accept everything" (docs/formats.md#blessing-records);
//  * a partition-local sidecar key: scope comes from the key, so result.scope is nullopt
//    (a stray `scope` member is ignored like any unknown member);
//  * any other key: `scope` is decoded strictly when present, else nullopt.
// Throws Error{decode} with subject = key: `stored object <key> is not valid UTF-8`, or
// `stored object <key> is not a valid blessing` with cause `<json path>: <defect>`
// (e.g. `prefixes[1]: an empty prefix is invalid`, `scope: missing`). A schema_version above
// 2 is refused with "written by a newer cargo-bench-history" and an upgrade hint (same rule
// as runs); v1's `commit_time` is ignored.
Blessing decode_blessing(std::string_view json, std::string_view key);

}  // namespace benchhist::codec
