// A real Google Benchmark binary the engine tests run to obtain real JSON reports: arguments,
// threads, a time unit other than ns, user and rate counters, an erroring benchmark and a
// complexity fit (BigO/RMS rows).
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

void BM_Copy(benchmark::State& state) {
  std::vector<char> src(static_cast<std::size_t>(state.range(0)), 'x'), dst(src.size());
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));      // bytes_per_second
  state.counters["widgets"] = 3;                                      // a user counter
  state.counters["ops"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Copy)->Arg(8)->Arg(512)->Threads(1)->Threads(2);

void BM_Join(benchmark::State& state) {
  const std::vector<std::string> parts(16, "word");
  for (auto _ : state) {
    std::string out;
    for (const auto& p : parts) out += p;
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * 16);  // items_per_second
}
BENCHMARK(BM_Join)->Unit(benchmark::kMicrosecond);

void BM_Broken(benchmark::State& state) {
  for (auto _ : state) {
    state.SkipWithError("fixture file missing");
    break;
  }
}
BENCHMARK(BM_Broken);

void BM_Scan(benchmark::State& state) {
  std::vector<int> v(static_cast<std::size_t>(state.range(0)), 1);
  for (auto _ : state) {
    long sum = 0;
    for (int x : v) sum += x;
    benchmark::DoNotOptimize(sum);
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_Scan)->RangeMultiplier(4)->Range(64, 1024)->Complexity();

}  // namespace

BENCHMARK_MAIN();
