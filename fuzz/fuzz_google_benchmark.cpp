// A Google Benchmark JSON report (docs/google-benchmark.md): parses to results that survive
// the run record's round trip, or fails with a decode error naming the file.

#include <filesystem>

#include "benchhist/engines/google_benchmark.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path file = "bench-output/report.json";
  try {
    const auto report = benchhist::engines::parse_google_benchmark(fuzz::as_view(data, size), file);
    if (!report.results.empty()) fuzz::check_results_roundtrip(report.results);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::benchmark_output, "google_benchmark parse failed with a kind other than benchmark_output",
                e.what());
    fuzz::check_names(e, file.string());
  }
  return 0;
}
