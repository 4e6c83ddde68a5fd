// An alloc_tracker operation file (docs/formats.md#alloc_tracker): harvests to a result that survives the run record's
// round trip (or to nothing, where the format allows dropping the operation), or fails naming the
// file.

#include <filesystem>

#include "benchhist/engines/alloc_tracker.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path file = "target/alloc_tracker/op.json";
  try {
    if (const auto result = benchhist::engines::parse_alloc_tracker(fuzz::as_view(data, size), file)) fuzz::check_results_roundtrip({*result});
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::benchmark_output, "alloc_tracker parse failed with a kind other than benchmark_output", e.what());
    fuzz::check_names(e, file.string());
  }
  return 0;
}
