// Ranking benchmarks: the second Google Benchmark binary of the textstats example, so the
// bench command shows several binaries writing reports into one $BENCHHIST_OUTPUT_DIR.
#include <benchmark/benchmark.h>

#include "textstats/textstats.hpp"

static void BM_TopWords(benchmark::State& state) {
  const std::string text = textstats::sample_text(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(textstats::top_words(text, 5));
}
BENCHMARK(BM_TopWords)->Arg(1 << 12)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
