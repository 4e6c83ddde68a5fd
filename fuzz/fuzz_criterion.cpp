// Criterion's `benchmark.json` and `estimates.json` (docs/formats.md#criterion), given as one input
// split at the first NUL byte. The case either harvests to a result that survives the run
// record's round trip, or fails naming one of the two files.

#include <filesystem>

#include "benchhist/engines/criterion.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [benchmark, estimates] = fuzz::split_nul(fuzz::as_view(data, size));
  const std::filesystem::path dir = "target/criterion/group/case/new";
  try {
    const auto result = benchhist::engines::parse_criterion_case(benchmark, estimates, dir);
    fuzz::check_results_roundtrip({result});
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::benchmark_output, "criterion parse failed with a kind other than benchmark_output",
                e.what());
    fuzz::check_names(e, dir.string());
    const std::string all = e.subject() + " " + e.message();
    fuzz::check(all.find("benchmark.json") != std::string::npos || all.find("estimates.json") != std::string::npos,
                "criterion error does not say which file", e.what());
  }
  return 0;
}
