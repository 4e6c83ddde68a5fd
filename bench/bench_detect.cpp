// History detection throughput (docs/statistics.md; the docs/statistics.md#orbit orbit dominates).
//   BM_JudgeSeries/<n>   series per second for single series of n points (one thread)
//   BM_MixedFamily       2,000 series x 200 points of mixed shapes, judged with 2 threads
//   BM_Certificate/<n>/<tails>  the analytic certificate of one candidate (a step 8 points before
//                        the tip), with S3b's exact / MGF tails (1) or the Chernoff / Serfling
//                        ones (0): its cost per candidate
//   BM_TheilSen/<n>/<ties>  Theil-Sen's slope of one mixed series of n points (ties=1: values
//                        rounded to integers, like count metrics)
// All series are judged with the calibration of a 2,000-series family (budget 500,000,
// acceptance bar 2.5e-5), which is what makes the orbit run.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "benchhist/detect/detail/analytic_bound.hpp"
#include "benchhist/detect/detail/scatter.hpp"
#include "benchhist/detect/detail/split_search.hpp"
#include "benchhist/detect/history.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/detect/stats.hpp"

using namespace benchhist::detect;

namespace {

constexpr std::size_t family = 2000;

// Deterministic mixed shapes: a quarter real steps (5-30%, anywhere in the middle 60%), a
// quarter slow drifts, a quarter flat noise, a quarter noise with a late two-point blip.
std::vector<double> mixed_series(std::size_t index, std::size_t n) {
  const std::string seed = "bench-" + std::to_string(index) + "-" + std::to_string(n);
  const std::uint64_t h = detail::fnv1a64(seed);
  std::vector<double> levels(n, 100.0);
  double cv = 0.01 + static_cast<double>(h % 4) * 0.005;  // 1% .. 2.5%
  switch (index % 4) {
    case 0: {
      const double rise = 0.05 + static_cast<double>((h >> 8) % 26) / 100.0;
      const std::size_t at = n / 5 + static_cast<std::size_t>((h >> 16) % (3 * n / 5));
      for (std::size_t i = at; i < n; ++i) levels[i] = 100.0 * (1 + rise);
      break;
    }
    case 1: {
      const double per_point = 0.2 / static_cast<double>(n) * static_cast<double>(1 + (h >> 8) % 3);
      for (std::size_t i = 0; i < n; ++i) levels[i] = 100.0 * (1 + per_point * static_cast<double>(i));
      break;
    }
    case 2: break;
    default:
      levels[n - 3] = levels[n - 2] = 140.0;
      cv = 0.02;
      break;
  }
  return detail::scattered_levels(levels, cv, seed);
}

std::vector<std::vector<double>> mixed_family(std::size_t count, std::size_t n) {
  std::vector<std::vector<double>> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) out.push_back(mixed_series(i, n));
  return out;
}

void BM_JudgeSeries(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto data = mixed_family(64, n);
  const HistoryJudge judge(family);
  std::size_t i = 0;
  for (auto _ : state) {
    const SeriesInput s{data[i % data.size()], {}, benchhist::MetricKind::wall_time, 0};
    benchmark::DoNotOptimize(judge.judge(s));
    ++i;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_JudgeSeries)->Arg(50)->Arg(200)->Arg(1000)->Unit(benchmark::kMillisecond)->MinTime(5.0);

void BM_MixedFamily(benchmark::State& state) {
  const auto data = mixed_family(family, 200);
  std::vector<SeriesInput> inputs;
  for (const auto& v : data) inputs.push_back(SeriesInput{v, {}, benchhist::MetricKind::wall_time, 0});
  std::size_t findings = 0, candidates = 0;
  // Process CPU time across both workers: on a shared machine the wall time mostly measures
  // the other tenants; cpu_seconds / 2 is the wall time on two otherwise idle cores.
  const std::clock_t cpu_start = std::clock();
  for (auto _ : state) {
    const auto family = judge_history_family(inputs, 2);
    findings = family.result.findings.size();
    candidates = 0;
    for (const auto& j : family.judgements) candidates += j.candidate.has_value();
  }
  state.counters["cpu_seconds"] = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  state.counters["findings"] = static_cast<double>(findings);
  state.counters["candidates"] = static_cast<double>(candidates);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * inputs.size()));
}
BENCHMARK(BM_MixedFamily)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

void BM_Certificate(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const bool tails = state.range(1) != 0;
  std::vector<double> levels(n, 100.0);
  for (std::size_t i = n - 8; i < n; ++i) levels[i] = 110.0;
  const auto x = detail::scattered_levels(levels, 0.02, "certificate-" + std::to_string(n));
  const auto ranks = doubled_ranks(x);
  auto sc = detail::make_scorer(ranks, min_regime_points, detail::max_exact_size(n, min_regime_points));
  const double p = detail::most_likely_split(sc, ranks).p_sharp;
  double bound = 0;
  for (auto _ : state) {
    bound = tails ? detail::analytic_bound_sharp_tails(sc.sorted, p, min_regime_points, sc.max_exact, sc.tie_term)
                  : detail::analytic_bound_sorted(sc.sorted, p, min_regime_points, sc.max_exact, sc.tie_term);
    benchmark::DoNotOptimize(bound);
  }
  state.counters["bound"] = bound;
}
BENCHMARK(BM_Certificate)
    ->ArgsProduct({{100, 200, 1000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(2.0);

}  // namespace

void BM_TheilSen(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<std::vector<double>> family_series;
  for (std::size_t i = 0; i < 16; ++i) {
    auto xs = mixed_series(i, n);
    if (state.range(1) == 1)
      for (double& x : xs) x = std::round(x);
    family_series.push_back(std::move(xs));
  }
  std::size_t k = 0;
  for (auto _ : state) benchmark::DoNotOptimize(theil_sen(family_series[k++ % family_series.size()]));
}
BENCHMARK(BM_TheilSen)->Args({200, 0})->Args({1000, 0})->Args({1000, 1})->Args({5000, 0})->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
