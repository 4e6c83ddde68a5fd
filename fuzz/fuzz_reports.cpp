// One target for every report file recognised by content (docs/harnesses.md#recognition):
// hyperfine JSON, Catch2 XML (the engines' own XML reader), BMF, libtest output and Google
// Benchmark JSON go through recognition and their parser, so one target covers four parsers
// (each target adds to the smoke run's time). Property: results that survive the run record's
// round trip, or a benchmark_output error naming the file.

#include <filesystem>

#include "benchhist/engines/report_file.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path file = "bench-output/report";
  try {
    const auto rec = benchhist::engines::parse_report_text(fuzz::as_view(data, size), file);
    if (!rec.report.results.empty()) fuzz::check_results_roundtrip(rec.report.results);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::benchmark_output, "a report parse failed with a kind other than benchmark_output",
                e.what());
    fuzz::check_names(e, file.string());
  }
  return 0;
}
