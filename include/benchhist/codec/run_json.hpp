#pragma once
// The stored run record (docs/formats.md#run-record, #read-compatibility, #metric-kinds): encoding
// (schema_version 5, exact layout of the docs/formats.md#run-record example) and strict decoding.

#include <string>
#include <string_view>

#include "benchhist/model/run.hpp"

namespace benchhist::codec {

// Pretty JSON per docs/formats.md#run-record: schema_version 5 (whatever run.schema_version says),
// members in table order, optional members (`machine`, `best_of`, `std_dev`,
// `interval_low`/`interval_high`) omitted when absent, metric entries on one line.
// Throws Error{usage} `cannot store a run whose <path> is wrong: <what>` (subject the path) for
// results decode_run would refuse (`run_problem`, model/run.hpp), a non-finite value or standard
// deviation included (`results[2].metrics[0].value`: JSON has none, docs/formats.md#records).
std::string encode_run(const Run& run);

// Strict decoding of a stored run (plain JSON, already gunzipped). `key` names the object in
// errors. Throws Error{decode} with subject = key:
//  * `stored object <key> is not valid UTF-8`;
//  * `stored object <key> is not a valid result set`, cause = `<json path>: <defect>`
//    (e.g. `results[3].metrics[0].value: expected a number`, `context: missing`);
//  * schema_version above 5: `stored object <key> was written by a newer cargo-bench-history
//    (schema_version N; this version reads 1 to 5)` with hint "upgrade ...".
// Decision (docs/formats.md#read-compatibility vs the issue): reads are not gated on schema_version
// within the known range 1..5 (older layouts decode; missing optional members default), but a
// version above 5 was written by a newer tool whose records may mean something this tool cannot
// know, so it is refused with a clear message rather than half-understood; 0 or negative is
// not a valid record.
// Tolerated: unknown members (ignored), metrics of unknown kinds (dropped silently,
// docs/formats.md#read-compatibility), integers where numbers are expected, absent-or-null for
// nullable members.
// Refused: a known metric kind whose value is missing/not a finite number, only one of
// interval_low/interval_high, `best_of` of 0, a member name repeated within one object, and
// whatever `run_problem` names (an empty `id.segments`, a repeated metric kind within one
// result, an interval's low bound above its high one, a benchmark listed twice).
// Numbers are converted from their text exactly (std::from_chars), so
// decode_run(encode_run(r)) == r for every finite value.
Run decode_run(std::string_view json, std::string_view key);

}  // namespace benchhist::codec
