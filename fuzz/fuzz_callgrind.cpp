// A Gungraun summary.json, schema 6 or 7 (docs/formats.md#callgrind): harvests to a result that survives the run record's
// round trip (or to nothing, where the format allows dropping the operation), or fails naming the
// file.

#include <filesystem>

#include "benchhist/engines/callgrind.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path file = "target/gungraun/p/bench/group/case/summary.json";
  try {
    fuzz::check_results_roundtrip({benchhist::engines::parse_gungraun_summary(fuzz::as_view(data, size), file)});
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::benchmark_output, "callgrind parse failed with a kind other than benchmark_output", e.what());
    fuzz::check_names(e, file.string());
  }
  return 0;
}
