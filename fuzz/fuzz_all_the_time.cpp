// An all_the_time operation file (docs/formats.md#all_the_time): harvests to a result that survives the run record's
// round trip (or to nothing, where the format allows dropping the operation), or fails naming the
// file.

#include <filesystem>

#include "benchhist/engines/all_the_time.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path file = "target/all_the_time/op.json";
  try {
    if (const auto result = benchhist::engines::parse_all_the_time(fuzz::as_view(data, size), file)) fuzz::check_results_roundtrip({*result});
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::benchmark_output, "all_the_time parse failed with a kind other than benchmark_output", e.what());
    fuzz::check_names(e, file.string());
  }
  return 0;
}
