// Every shared engine fixture with the expected values of docs/formats.md#engine-harvest (exact
// doubles).

#include <catch2/catch.hpp>

#include "benchhist/engines/all_the_time.hpp"
#include "benchhist/engines/alloc_tracker.hpp"
#include "benchhist/engines/callgrind.hpp"
#include "benchhist/engines/criterion.hpp"
#include "support.hpp"

using namespace benchhist;
using namespace benchhist::engines;
using enginetest::fixture;
using enginetest::fixture_path;

using Segs = std::vector<std::string>;

TEST_CASE("the std_instant Criterion fixture yields the slope, its interval and std_dev, not the mean",
          "[engines][fixtures][criterion]") {
  const BenchmarkResult r = read_criterion_case(fixture_path("criterion/std_instant"));
  CHECK(r.id.segments() == Segs{"fast_time_timestamp_performance/timestamp_capture", "std_instant", "now"});
  CHECK(r.id.qualified() == "fast_time_timestamp_performance/timestamp_capture/std_instant/now");
  REQUIRE(r.metrics.size() == 1);
  const MetricValue& m = r.metrics[0];
  CHECK(m.kind == MetricKind::wall_time);
  CHECK(m.value == 26.92998067163995);
  CHECK(m.value != 26.89186835147823);  // the mean must not be used
  REQUIRE(m.interval);
  CHECK(m.interval->low == 26.672074791998387);
  CHECK(m.interval->high == 27.182943616630872);
  REQUIRE(m.std_dev);
  CHECK(*m.std_dev == 0.4743821543400398);
}

TEST_CASE("the fast_time_clock Criterion fixture yields its slope estimate exactly", "[engines][fixtures][criterion]") {
  const BenchmarkResult r = read_criterion_case(fixture_path("criterion/fast_time_clock"));
  CHECK(r.id.segments() == Segs{"fast_time_timestamp_performance/timestamp_capture", "fast_time_clock", "now"});
  REQUIRE(r.metrics.size() == 1);
  const MetricValue& m = r.metrics[0];
  CHECK(m.kind == MetricKind::wall_time);
  CHECK(m.value == 1.6358498721267847);
  CHECK(m.value != 1.6193736333540827);
  REQUIRE(m.interval);
  CHECK(m.interval->low == 1.5527208509940653);
  CHECK(m.interval->high == 1.6965648627851915);
  REQUIRE(m.std_dev);
  CHECK(*m.std_dev == 0.11376493078044861);
}

TEST_CASE("the unparametrized Gungraun summary yields exactly Bc, Bi and Ir and nothing layout-sensitive",
          "[engines][fixtures][callgrind]") {
  const BenchmarkResult r = read_gungraun_summary(fixture_path("callgrind/single_unparametrized.summary.json"));
  CHECK(r.id.segments() ==
        Segs{"fast_time", "fast_time_timestamp_performance_cg::timestamp_capture::timestamp_capture_std_now",
             "timestamp_capture_std_now"});
  REQUIRE(r.metrics.size() == 3);
  CHECK(r.metrics[0].kind == MetricKind::conditional_branches);
  CHECK(r.metrics[0].value == 4.0);
  CHECK(r.metrics[1].kind == MetricKind::indirect_branches);
  CHECK(r.metrics[1].value == 2.0);
  CHECK(r.metrics[2].kind == MetricKind::instruction_count);
  CHECK(r.metrics[2].value == 36.0);
  for (const auto& m : r.metrics) {
    CHECK_FALSE(m.interval);
    CHECK_FALSE(m.std_dev);
  }
}

TEST_CASE("the parametrized Gungraun summary carries the case id as the last segment", "[engines][fixtures][callgrind]") {
  const BenchmarkResult r = read_gungraun_summary(fixture_path("callgrind/parametrized.summary.json"));
  CHECK(r.id.segments() ==
        Segs{"fast_time",
             "fast_time_timestamp_performance_cg::timestamp_capture::timestamp_capture_instant_saturating_duration_since",
             "timestamp_capture_instant_saturating_duration_since", "two_instants"});
  REQUIRE(r.metrics.size() == 3);
  CHECK(r.metrics[0].kind == MetricKind::conditional_branches);
  CHECK(r.metrics[0].value == 2.0);
  CHECK(r.metrics[1].kind == MetricKind::indirect_branches);
  CHECK(r.metrics[1].value == 1.0);
  CHECK(r.metrics[2].kind == MetricKind::instruction_count);
  CHECK(r.metrics[2].value == 87.0);
}

TEST_CASE("a single-span alloc_tracker operation has two metrics without intervals", "[engines][fixtures][alloc_tracker]") {
  const auto r = read_alloc_tracker(fixture_path("alloc_tracker/allocate_vec.json"));
  REQUIRE(r);
  CHECK(r->id.segments() == Segs{"allocate_vec"});
  REQUIRE(r->metrics.size() == 2);
  CHECK(r->metrics[0].kind == MetricKind::allocated_bytes);
  CHECK(r->metrics[0].value == 200.0);
  CHECK(r->metrics[1].kind == MetricKind::allocation_count);
  CHECK(r->metrics[1].value == 2.0);
  for (const auto& m : r->metrics) {
    CHECK_FALSE(m.interval);
    CHECK_FALSE(m.std_dev);
  }
  CHECK_FALSE(r->find(MetricKind::peak_outstanding_bytes));
}

TEST_CASE("a six-span alloc_tracker operation carries both intervals", "[engines][fixtures][alloc_tracker]") {
  const auto r = read_alloc_tracker(fixture_path("alloc_tracker/allocate_vec_dispersion.json"));
  REQUIRE(r);
  CHECK(r->id.segments() == Segs{"allocate_vec"});
  REQUIRE(r->metrics.size() == 2);
  CHECK(r->metrics[0].kind == MetricKind::allocated_bytes);
  CHECK(r->metrics[0].value == 200.0);
  REQUIRE(r->metrics[0].interval);
  CHECK(r->metrics[0].interval->low == 199.3466786718254);
  CHECK(r->metrics[0].interval->high == 200.6533213281746);
  CHECK(r->metrics[1].kind == MetricKind::allocation_count);
  CHECK(r->metrics[1].value == 2.0);
  REQUIRE(r->metrics[1].interval);
  CHECK(r->metrics[1].interval->low == 2.0);
  CHECK(r->metrics[1].interval->high == 2.0);
  CHECK_FALSE(r->metrics[0].std_dev);
  CHECK_FALSE(r->metrics[1].std_dev);
}

TEST_CASE("a single-span all_the_time operation yields processor time in ns without an interval",
          "[engines][fixtures][all_the_time]") {
  const auto r = read_all_the_time(fixture_path("all_the_time/read_cell.json"));
  REQUIRE(r);
  CHECK(r->id.segments() == Segs{"read_cell"});
  REQUIRE(r->metrics.size() == 1);
  CHECK(r->metrics[0].kind == MetricKind::processor_time);
  CHECK(r->metrics[0].value == 20000000.0);
  CHECK_FALSE(r->metrics[0].interval);
  CHECK_FALSE(r->metrics[0].std_dev);
}

TEST_CASE("a six-span all_the_time operation carries its interval exactly", "[engines][fixtures][all_the_time]") {
  const auto r = read_all_the_time(fixture_path("all_the_time/read_cell_dispersion.json"));
  REQUIRE(r);
  CHECK(r->id.segments() == Segs{"read_cell"});
  REQUIRE(r->metrics.size() == 1);
  CHECK(r->metrics[0].value == 20.0);
  REQUIRE(r->metrics[0].interval);
  CHECK(r->metrics[0].interval->low == 19.346678671819987);
  CHECK(r->metrics[0].interval->high == 20.653321328180013);
}
