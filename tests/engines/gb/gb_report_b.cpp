// A second real Google Benchmark binary: a memory manager (so the report carries
// allocs_per_iter and max_bytes_used) and a counter whose value is NaN (the reporter writes
// the bare literal NaN, which is not JSON).
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <limits>
#include <new>
#include <string>
#include <vector>

namespace {

std::atomic<bool> counting{false};
std::atomic<long long> allocations{0}, live_bytes{0}, peak_bytes{0};

class CountingMemoryManager : public benchmark::MemoryManager {
 public:
  void Start() override {
    allocations = 0;
    live_bytes = 0;
    peak_bytes = 0;
    counting = true;
  }
  // BH_GB_STOP_BY_REFERENCE: Google Benchmark 1.8+ (tests/engines/meson.build).
#if BH_GB_STOP_BY_REFERENCE
  void Stop(Result& result) override { record(result); }
#else
  void Stop(Result* result) override { record(*result); }
#endif

 private:
  static void record(Result& result) {
    counting = false;
    result.num_allocs = allocations;
    result.max_bytes_used = peak_bytes;
  }
};

void BM_Vector(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<int> v;
    for (int i = 0; i < state.range(0); ++i) v.push_back(i);
    benchmark::DoNotOptimize(v.data());
  }
  state.counters["undefined"] = std::numeric_limits<double>::quiet_NaN();
}
BENCHMARK(BM_Vector)->Arg(100);

void BM_Reserve(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<int> v;
    v.reserve(static_cast<std::size_t>(state.range(0)));
    for (int i = 0; i < state.range(0); ++i) v.push_back(i);
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_Reserve)->Arg(100);

}  // namespace

// Sized allocations are counted only while the memory manager measures. The replacements stay
// out of line: inlined into the library's allocator, gcc's -Wmismatched-new-delete takes our
// malloc/free pairing for an operator new released with free.
[[gnu::noinline]] void* operator new(std::size_t n) {
  if (counting) {
    ++allocations;
    const long long now = live_bytes += static_cast<long long>(n);
    long long peak = peak_bytes;
    while (now > peak && !peak_bytes.compare_exchange_weak(peak, now)) {
    }
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t n) noexcept {
  if (counting) live_bytes -= static_cast<long long>(n);
  std::free(p);
}

int main(int argc, char** argv) {
  CountingMemoryManager mm;
  benchmark::RegisterMemoryManager(&mm);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::RegisterMemoryManager(nullptr);
  benchmark::Shutdown();
  return 0;
}
