// Catch2 v3 under the v2 spelling the suites use (tests/meson.build puts this directory on the
// include path only when it finds Catch2 3, which no longer ships <catch2/catch.hpp>). The one
// home of the v2/v3 difference in test code: every suite keeps `#include <catch2/catch.hpp>`,
// `Approx` and `Catch::Contains/StartsWith/EndsWith` and builds against either major version.
#pragma once

#include <catch2/catch_all.hpp>

#include <string>

namespace Catch {

// v2's string matcher `Catch::Contains` became `Matchers::ContainsSubstring` (v3's
// `Matchers::Contains` matches ranges); the other two moved into `Matchers`.
inline Matchers::StringContainsMatcher Contains(const std::string& text,
                                                CaseSensitive sensitivity = CaseSensitive::Yes) {
  return Matchers::ContainsSubstring(text, sensitivity);
}
using Matchers::EndsWith;
using Matchers::StartsWith;

}  // namespace Catch

// v2 declared Approx at global scope; v3 keeps it in Catch.
using Catch::Approx;
