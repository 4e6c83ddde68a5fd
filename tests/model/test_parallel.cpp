// parallel_for: every item exactly once, results by index whatever the thread count, and the
// lowest failing item's exception after all threads stopped.
#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchhist/parallel.hpp"

TEST_CASE("parallel_for runs every item once into its own slot", "[core][parallel]") {
  for (unsigned threads : {0u, 1u, 2u, 7u}) {
    std::vector<int> out(1000, -1);
    std::atomic<int> calls{0};
    benchhist::parallel_for(out.size(), threads, [&](std::size_t i) {
      out[i] = static_cast<int>(i * i % 97);
      ++calls;
    });
    CHECK(calls == 1000);
    for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i] == static_cast<int>(i * i % 97));
  }
  benchhist::parallel_for(0, 2, [](std::size_t) { FAIL("no items, no calls"); });
}

TEST_CASE("parallel_for rethrows an item's exception after joining", "[core][parallel]") {
  for (unsigned threads : {1u, 2u}) {
    try {
      benchhist::parallel_for(50, threads, [](std::size_t i) {
        if (i == 3) throw std::runtime_error("item " + std::to_string(i));
      });
      FAIL("the exception was lost");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "item 3");
    }
  }
}
