// The --best-of reduction (docs/formats.md#best-of-reduction): per-metric minimum with its own
// interval and std_dev, ties to the earliest run, repetition 1's order, and the exact mismatch
// errors.

#include <catch2/catch.hpp>

#include "benchhist/engines/best_of.hpp"
#include "benchhist/engines/output_locations.hpp"
#include "benchhist/error.hpp"

using namespace benchhist;
using namespace benchhist::engines;

namespace {

MetricValue mv(MetricKind k, double v, std::optional<Interval> iv = std::nullopt, std::optional<double> sd = std::nullopt) {
  MetricValue m;
  m.kind = k;
  m.value = v;
  m.interval = iv;
  m.std_dev = sd;
  return m;
}

BenchmarkResult res(std::vector<std::string> segs, std::vector<MetricValue> ms) {
  return BenchmarkResult{BenchmarkId(std::move(segs)), std::move(ms)};
}

void require_inconsistent(Engine e, const std::vector<std::vector<BenchmarkResult>>& reps, const std::string& cause) {
  try {
    reduce_best_of(e, reps);
    FAIL("expected an inconsistency error");
  } catch (const Error& err) {
    CHECK(err.kind() == ErrorKind::benchmark_inconsistent);
    CHECK(err.message() == "engine \"" + std::string(to_string(e)) + "\" produced inconsistent results across --best-of runs");
    CHECK(err.cause() == cause);
    CHECK_FALSE(err.hint().empty());
  }
}

constexpr auto Ir = MetricKind::instruction_count;
constexpr auto Bc = MetricKind::conditional_branches;

}  // namespace

TEST_CASE("best-of keeps each metric's minimum with its own interval and std_dev", "[engines][best_of]") {
  const std::vector<std::vector<BenchmarkResult>> reps{
      {res({"g", "a"}, {mv(MetricKind::wall_time, 12.0, Interval{11, 13}, 0.5)})},
      {res({"g", "a"}, {mv(MetricKind::wall_time, 10.5, Interval{10, 11}, 0.25)})},
      {res({"g", "a"}, {mv(MetricKind::wall_time, 11.0, Interval{9, 12}, 0.75)})},
  };
  const BestOfReduction r = reduce_best_of(Engine::criterion, reps);
  REQUIRE(r.results.size() == 1);
  CHECK(r.results[0].metrics[0] == mv(MetricKind::wall_time, 10.5, Interval{10, 11}, 0.25));
  REQUIRE(r.samples.size() == 1);
  CHECK(r.samples[0] == "criterion g/a/wall_time: best-of samples 12, [10.5], 11 (kept run 2)");
}

TEST_CASE("best-of may mix metrics from different runs within one case", "[engines][best_of]") {
  const std::vector<std::vector<BenchmarkResult>> reps{
      {res({"p", "m", "f"}, {mv(Bc, 4), mv(Ir, 40)})},
      {res({"p", "m", "f"}, {mv(Bc, 5), mv(Ir, 36)})},
  };
  const auto r = reduce_best_of(Engine::callgrind, reps);
  CHECK(r.results[0].metrics == std::vector<MetricValue>{mv(Bc, 4), mv(Ir, 36)});
  CHECK(r.samples == std::vector<std::string>{
                         "callgrind p/m/f/conditional_branches: best-of samples [4], 5 (kept run 1)",
                         "callgrind p/m/f/instruction_count: best-of samples 40, [36] (kept run 2)"});
}

TEST_CASE("best-of ties go to the earliest repetition", "[engines][best_of]") {
  const std::vector<std::vector<BenchmarkResult>> reps{
      {res({"op"}, {mv(MetricKind::processor_time, 20, Interval{19, 21})})},
      {res({"op"}, {mv(MetricKind::processor_time, 20, Interval{18, 22})})},
      {res({"op"}, {mv(MetricKind::processor_time, 20)})},
  };
  const auto r = reduce_best_of(Engine::all_the_time, reps);
  CHECK(r.results[0].metrics[0].interval == Interval{19, 21});
  CHECK(r.samples[0] == "all_the_time op/processor_time: best-of samples [20], 20, 20 (kept run 1)");
}

TEST_CASE("best-of output follows repetition 1's case and metric order", "[engines][best_of]") {
  const std::vector<std::vector<BenchmarkResult>> reps{
      {res({"b"}, {mv(Ir, 1), mv(Bc, 2)}), res({"a"}, {mv(Ir, 3)})},
      {res({"a"}, {mv(Ir, 2)}), res({"b"}, {mv(Bc, 1), mv(Ir, 0.5)})},
  };
  const auto r = reduce_best_of(Engine::callgrind, reps);
  REQUIRE(r.results.size() == 2);
  CHECK(r.results[0].id.qualified() == "b");
  CHECK(r.results[0].metrics == std::vector<MetricValue>{mv(Ir, 0.5), mv(Bc, 1)});
  CHECK(r.results[1].id.qualified() == "a");
  CHECK(r.results[1].metrics == std::vector<MetricValue>{mv(Ir, 2)});
}

TEST_CASE("one repetition reproduces the run unchanged with no samples", "[engines][best_of]") {
  const std::vector<std::vector<BenchmarkResult>> reps{{res({"x"}, {mv(Ir, 7)}), res({"y"}, {})}};
  const auto r = reduce_best_of(Engine::callgrind, reps);
  CHECK(r.results == reps[0]);
  CHECK(r.samples.empty());
  CHECK_THROWS_AS(reduce_best_of(Engine::callgrind, {}), Error);
}

TEST_CASE("a case missing from a later run fails with the case and the 1-based run", "[engines][best_of][errors]") {
  require_inconsistent(Engine::criterion,
                       {{res({"g", "a"}, {mv(MetricKind::wall_time, 1)}), res({"g", "b"}, {mv(MetricKind::wall_time, 1)})},
                        {res({"g", "a"}, {mv(MetricKind::wall_time, 1)}), res({"g", "b"}, {mv(MetricKind::wall_time, 1)})},
                        {res({"g", "a"}, {mv(MetricKind::wall_time, 1)})}},
                       "benchmark case 'g/b' is missing from run 3; every best-of run must measure the same set of cases");
}

TEST_CASE("a case only a later run has is reported missing from run 1", "[engines][best_of][errors]") {
  require_inconsistent(Engine::criterion,
                       {{res({"a"}, {mv(MetricKind::wall_time, 1)})},
                        {res({"a"}, {mv(MetricKind::wall_time, 1)}), res({"new"}, {mv(MetricKind::wall_time, 1)})}},
                       "benchmark case 'new' is missing from run 1; every best-of run must measure the same set of cases");
}

TEST_CASE("a metric missing from a run, or only in a later run, fails naming the metric", "[engines][best_of][errors]") {
  using MK = MetricKind;
  require_inconsistent(Engine::alloc_tracker,
                       {{res({"op"}, {mv(MK::allocated_bytes, 1), mv(MK::allocation_count, 1), mv(MK::peak_outstanding_bytes, 9)})},
                        {res({"op"}, {mv(MK::allocated_bytes, 1), mv(MK::allocation_count, 1)})}},
                       "metric 'peak_outstanding_bytes' for benchmark case 'op' is missing from run 2; every best-of run "
                       "must report the same metrics per case");
  require_inconsistent(Engine::alloc_tracker,
                       {{res({"op"}, {mv(MK::allocated_bytes, 1), mv(MK::allocation_count, 1)})},
                        {res({"op"}, {mv(MK::allocated_bytes, 1), mv(MK::allocation_count, 1), mv(MK::peak_outstanding_bytes, 9)})}},
                       "metric 'peak_outstanding_bytes' for benchmark case 'op' is missing from run 1; every best-of run "
                       "must report the same metrics per case");
}

TEST_CASE("an engine that produced nothing in one run but cases in another is inconsistent", "[engines][best_of][errors]") {
  require_inconsistent(Engine::callgrind, {{res({"x"}, {mv(Ir, 1)})}, {}},
                       "benchmark case 'x' is missing from run 2; every best-of run must measure the same set of cases");
  const auto empty = reduce_best_of(Engine::callgrind, {{}, {}, {}});
  CHECK(empty.results.empty());
}

TEST_CASE("reducing whole harvests reduces each engine and records the repetition count", "[engines][best_of]") {
  auto harvest = [](double wall, double ir) {
    Harvest h;
    h.engines = {EngineHarvest{Engine::callgrind, {res({"p", "f"}, {mv(Ir, ir)})}},
                 EngineHarvest{Engine::criterion, {res({"g"}, {mv(MetricKind::wall_time, wall)})}},
                 EngineHarvest{Engine::alloc_tracker, {}}, EngineHarvest{Engine::all_the_time, {}}};
    return h;
  };
  const BestOfHarvest r = reduce_best_of(std::vector<Harvest>{harvest(5, 100), harvest(4, 101)});
  CHECK(r.repetitions == 2);
  REQUIRE(r.engines.size() == harvest_order.size());  // every engine, the ones absent from the harvests too
  CHECK(r.results(Engine::criterion)[0].metrics[0].value == 4.0);
  CHECK(r.results(Engine::callgrind)[0].metrics[0].value == 100.0);
  CHECK(r.results(Engine::alloc_tracker).empty());
  CHECK(r.samples == std::vector<std::string>{"callgrind p/f/instruction_count: best-of samples [100], 101 (kept run 1)",
                                              "criterion g/wall_time: best-of samples 5, [4] (kept run 2)"});
}
