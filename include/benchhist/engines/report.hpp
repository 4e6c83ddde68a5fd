#pragma once
// What one report file of a report engine yields (docs/google-benchmark.md, docs/harnesses.md):
// the benchmarks it stored and a note per benchmark, metric or row kind it did not store.

#include <string>
#include <vector>

#include "benchhist/model/benchmark_result.hpp"

namespace benchhist::engines {

struct ParsedReport {
  std::vector<BenchmarkResult> results;  // in the order benchmarks first appear in the file
  // One line per benchmark that stored nothing or lost a metric, and per ignored row kind,
  // without the engine or file (harvest notes add both).
  std::vector<std::string> notes;
};

}  // namespace benchhist::engines
