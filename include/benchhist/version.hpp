#pragma once
// The tool version written into every record's `tool_version` (kept equal to meson's
// project version; tests/core checks it).

#include <string_view>

namespace benchhist {
inline constexpr std::string_view tool_version = "0.1.0";
}
