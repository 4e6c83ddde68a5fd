// The installed headers stand alone: the umbrella header compiles with only include/ on the
// include path (no lib/, so no public header reaches a private one) and links against
// libbenchhist. A public header that includes a private one fails this build.
#include "benchhist/benchhist.hpp"

#include <cstdio>

int main() {
  // One call through the library, so the link is real.
  const benchhist::codec::DataKey* none = nullptr;
  (void)none;
  const bool valid = benchhist::codec::is_valid_key("p/data/clean/criterion/x/m/c.json.gz");
  std::printf("benchhist %s, key check %s\n", benchhist::tool_version.data(), valid ? "ok" : "failed");
  return valid && !benchhist::tool_version.empty() ? 0 : 1;
}
