// A real Catch2 benchmark binary (the Catch2 the build uses) whose XML reports the catch2 engine
// tests read (tests/engines/test_harnesses.cpp) and the end-to-end history runs
// (tests/e2e/test_e2e_harnesses.cpp). `[shapes]`: a benchmark at test-case level, one inside a
// SECTION, one that throws. `[work]`: a loop whose length is read from ./work.txt, so a commit of
// the e2e history changes the measured cost without rebuilding this binary.
// Catch2 v2 or v3 as tests/meson.build chose (<catch2/catch.hpp> is tests/catch2_v3's shim
// under v3). v2 needs its main and its benchmarks enabled in this file; v3 ignores both macros
// (benchmarks always on, main from catch2-with-main).
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>

#include <fstream>
#include <stdexcept>
#include <vector>

namespace {
unsigned long spin(unsigned long n) {
  unsigned long x = 1;
  for (unsigned long i = 0; i < n; ++i) x = x * 6364136223846793005ul + 1;
  return x;
}
}  // namespace

TEST_CASE("vector push", "[shapes]") {
  BENCHMARK("push 64") {
    std::vector<int> v;
    for (int i = 0; i < 64; ++i) v.push_back(i);
    return v.size();
  };
  SECTION("reserved") {
    BENCHMARK("push 64") {
      std::vector<int> v;
      v.reserve(64);
      for (int i = 0; i < 64; ++i) v.push_back(i);
      return v.size();
    };
  }
}

TEST_CASE("broken", "[shapes]") {
  BENCHMARK("throws") {
    throw std::runtime_error("fixture missing");
    return 0;
  };
}

TEST_CASE("work", "[work]") {
  unsigned long factor = 1;
  std::ifstream("work.txt") >> factor;
  // About a millisecond an iteration at factor 1: long enough that one preemption on a loaded
  // machine moves the mean of 20 samples by far less than the fourfold step the e2e history
  // plants (at ~25 µs an iteration one 4 ms time slice doubled the mean).
  BENCHMARK("spin") { return spin(factor * 1'000'000); };
}
