#pragma once
// Human-report number and commit formatting (docs/formats.md#value-formatting). JSON keeps full
// precision and uses json_number() instead. Rounding is round-half-to-even on the exact binary
// value (C printf semantics, docs/formats.md#value-formatting), never decimal rounding.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "benchhist/model/text.hpp"

namespace benchhist::report {

// `value`: zero decimals for integral values, else 3 significant-ish decimals by magnitude,
// trailing zeros stripped: 0.20970324 → `0.2097`, 96.7664 → `96.77`, 36.0 → `36`.
std::string format_value(double v);

// `signed value`: sign from the sign bit, then format_value(|v|): `+20`, `-24.65`.
std::string format_signed_value(double v);

// `percent`: relative × 100 with explicit sign and two decimals: `+29.57%`.
std::string format_percent(double relative);


// `<runs> (<short oldest> → <short newest>)`, `<runs> (<short>)`, or `<runs>`.
std::string format_run_span(std::uint64_t runs, const std::optional<std::string>& oldest,
                            const std::optional<std::string>& newest);

// JSON number spelling (docs/formats.md#records, #report-formats): shortest round trip, always with
// a fraction or exponent (`36.0`, `1e-7`, `1.5e20`), exponent layout as serde_json/ryu. Non-finite
// values are never written to JSON: they become `null`.
std::string json_number(double v);

// First `n` Unicode scalars of UTF-8 text (examine titles,
// docs/formats.md#listings-and-command-messages).
std::string truncate_scalars(std::string_view utf8, std::size_t n);

}  // namespace benchhist::report
