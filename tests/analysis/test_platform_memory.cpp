// platform::populate_for_writing, which reconstruction calls on every new series' points: it
// faults pages in and must never change what they hold (an madvise that discards pages would).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "platform/platform.hpp"

TEST_CASE("populating a buffer's pages keeps its contents, whatever its alignment", "[analysis]") {
  std::vector<std::uint32_t> buffer(3 * 1024 * 1024 / 4 + 7);  // a few megabytes, odd length
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<std::uint32_t>(i * 2654435761u);
  const auto expected = buffer;
  for (std::size_t skip : {0u, 1u, 1000u, 4099u}) {
    benchhist::platform::populate_for_writing(buffer.data() + skip, (buffer.size() - skip) * sizeof(std::uint32_t));
    CHECK(buffer == expected);
  }
  benchhist::platform::populate_for_writing(buffer.data() + 3, 5);  // within one page: nothing to do
  benchhist::platform::populate_for_writing(nullptr, 0);
  CHECK(buffer == expected);
  // Memory reserved but not yet written reads as written afterwards.
  std::vector<double> fresh;
  fresh.reserve(1 << 20);
  benchhist::platform::populate_for_writing(fresh.data(), fresh.capacity() * sizeof(double));
  for (std::size_t i = 0; i < fresh.capacity(); ++i) fresh.push_back(static_cast<double>(i));
  CHECK(fresh[12345] == 12345.0);
}
