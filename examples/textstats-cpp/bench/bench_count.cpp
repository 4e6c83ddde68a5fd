// Counting benchmarks: one Google Benchmark binary of the textstats example.
#include <benchmark/benchmark.h>

#include "textstats/textstats.hpp"

static void BM_WordCount(benchmark::State& state) {
  const std::string text = textstats::sample_text(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(textstats::word_count(text));
  state.SetBytesProcessed(state.iterations() * state.range(0));  // a rate: shown, never stored
}
BENCHMARK(BM_WordCount)->Arg(1 << 10)->Arg(1 << 16);

static void BM_LineCount(benchmark::State& state) {
  const std::string text = textstats::sample_text(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(textstats::line_count(text));
}
BENCHMARK(BM_LineCount)->Arg(1 << 16);

BENCHMARK_MAIN();
