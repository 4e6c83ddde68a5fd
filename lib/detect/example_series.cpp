// The catalogue of named example series (detect/example_series.hpp). Where a series comes from
// the shared vectors' generator, the same levels, scatter and seed name are used, so the values
// match those vectors exactly; the verdicts are whatever this build's detector says.

#include "benchhist/detect/detail/scatter.hpp"
#include "benchhist/detect/example_series.hpp"

#include <algorithm>

#include "benchhist/detect/split_correction.hpp"
#include "benchhist/error.hpp"

namespace benchhist::detect::examples {

namespace {

std::vector<double> levels(std::initializer_list<std::pair<double, std::size_t>> rle) {
  std::vector<double> out;
  for (const auto& [v, n] : rle) out.insert(out.end(), n, v);
  return out;
}

std::vector<double> scattered(std::initializer_list<std::pair<double, std::size_t>> rle, double cv,
                              std::string_view seed) {
  const auto l = levels(rle);
  return detail::scattered_levels(l, cv, seed);
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Engine-style intervals: every point ± a fixed half-width (`fraction` of the series median).
std::vector<std::optional<Interval>> intervals(const std::vector<double>& v, double fraction) {
  const double h = median_of(v) * fraction;
  std::vector<std::optional<Interval>> out;
  for (double x : v) out.push_back(Interval{x - h, x + h});
  return out;
}

std::vector<double> ramp() {
  std::vector<double> l;
  for (int i = 0; i < 30; ++i) l.push_back(100.0 * (1 + 0.003 * i));
  return detail::scattered_levels(l, 0.025, "slow_ramp");
}

HistoryExample history(std::string name, std::string summary, std::vector<double> values,
                       MetricKind kind = MetricKind::wall_time, std::size_t family = 1,
                       std::vector<std::optional<Interval>> iv = {}) {
  return HistoryExample{std::move(name), std::move(summary), std::move(values), std::move(iv), kind, family};
}

std::vector<HistoryExample> build_history() {
  std::vector<HistoryExample> out;
  const auto step = scattered({{100.0, 10}, {130.0, 10}}, 0.025, "clean_step");
  out.push_back(history("clean-step", "20 commits: a level near 100 ns that steps to about 130 ns at commit 10", step));
  out.push_back(history("multi-step", "30 commits: 100 ns, then 140 ns from commit 10, then 160 ns from commit 20",
                        scattered({{100.0, 10}, {140.0, 10}, {160.0, 10}}, 0.025, "multi_step")));
  out.push_back(history("slow-ramp", "30 commits rising 0.3 % per commit from 100 ns, with 2.5 % scatter", ramp()));
  out.push_back(history("single-blip", "20 commits at 100 ns with one reading of 130 ns at commit 18",
                        levels({{100.0, 18}, {130.0, 1}, {100.0, 1}})));
  out.push_back(history("flat-noisy", "30 commits of one level, 100 ns with 2.5 % scatter",
                        scattered({{100.0, 30}}, 0.025, "flat_noisy")));
  out.push_back(history("returned-excursion", "30 commits: 100 ns, 140 ns for commits 10-19, back to 100 ns",
                        scattered({{100.0, 10}, {140.0, 10}, {100.0, 10}}, 0.025, "returned_excursion")));
  out.push_back(history("oscillation", "40 commits alternating between 130 ns and 100 ns stretches",
                        levels({{130.0, 4}, {100.0, 16}, {130.0, 16}, {100.0, 4}})));
  out.push_back(history("ladder-pass", "the clean step with engine intervals of ±2.5 % of the median",
                        step, MetricKind::wall_time, 1, intervals(step, 0.025)));
  const auto noisy = scattered({{100.0, 10}, {115.0, 10}}, 0.08, "noisy_step");
  out.push_back(history("ladder-declined", "a 15 % step buried in 8 % scatter, with engine intervals",
                        noisy, MetricKind::wall_time, 1, intervals(noisy, 0.025)));
  out.push_back(history("small-timing", "3 ns stepping to 3.2 ns at commit 10 (+6.7 %)",
                        levels({{3.0, 10}, {3.2, 10}})));
  out.push_back(history("large-timing", "3,000 ns stepping to 3,200 ns at commit 10 (+6.7 %)",
                        levels({{3000.0, 10}, {3200.0, 10}})));
  // A regression that just landed (docs/detection.md "A step at the tip"): the day it lands the
  // newest commit is the only point of the new level; five commits later it is a regime.
  const auto fresh = scattered({{100.0, 40}, {130.0, 5}}, 0.025, "fresh_step");
  out.push_back(history("fresh-step-landing",
                        "41 commits near 100 ns; the newest, commit 40, measures 130 ns: the day a regression lands",
                        std::vector<double>(fresh.begin(), fresh.begin() + 41), MetricKind::wall_time, 20));
  out.push_back(history("fresh-step-five-later",
                        "the same history five commits later: commits 40-44 all near 130 ns", fresh,
                        MetricKind::wall_time, 20));
  // detection-tip.md W5: a real Google Benchmark series (wall time, ns) backfilled on a machine
  // that was loaded for a stretch; the last five points are back at the baseline.
  out.push_back(history("loaded-excursion",
                        "34 real commits of a Google Benchmark (ns): near 88,000, about twice that for commits "
                        "17-28 while the machine was loaded, back near 90,000 for the last five",
                        {68669,  65628,  74078,  112632, 112667, 90023,  85563,  90158,  85653,  85903,  83948,  89404,
                         101236, 95611,  107668, 95230,  84031,  151217, 186347, 185425, 201955, 179334, 168674,
                         259045, 99838,  247910, 175303, 275279, 124008, 93385,  89615,  86177,  92838,  88999}));
  for (std::size_t m : {6u, 7u})
    out.push_back(history("perfect-10-step-family-" + std::to_string(m),
                          "10 instruction counts, 100 then 130 from commit 5, judged among " + std::to_string(m) +
                              " series",
                          levels({{100.0, 5}, {130.0, 5}}), MetricKind::instruction_count, m));
  for (std::size_t n : {18u, 20u, 22u})
    out.push_back(history("lone-step-" + std::to_string(n) + "-family-2000",
                          std::to_string(n) + " instruction counts stepping from 100 to 130 at the midpoint, judged "
                                              "among 2,000 series",
                          levels({{100.0, n / 2}, {130.0, n - n / 2}}), MetricKind::instruction_count, 2000));
  return out;
}

std::vector<BranchExample> build_branch() {
  std::vector<BranchExample> out;
  const auto base = scattered({{100.0, 20}}, 0.025, "branch-base");
  out.push_back({"branch-reported", "20 base commits near 100 ns; the branch measures 130 ns", base, 130.0});
  out.push_back({"branch-quiet", "the same base window; the branch measures 100 ns", base, 100.0});
  out.push_back({"branch-base-moved", "the base stepped from 100 ns to 130 ns ten commits ago; the branch measures 100 ns",
                 scattered({{100.0, 10}, {130.0, 10}}, 0.025, "branch_base_moved"), 100.0});
  out.push_back({"branch-contended", "19 base commits near 1,045 ns with one disturbed reading of 1,581 ns; the branch "
                                     "measures 1,149.5 ns (+10 %)",
                 {1041.326, 1041.057, 1044.074, 1044.31, 1034.942, 1054.552, 1050.274, 1034.325, 1045.818, 1581.042,
                  1045.424, 1051.638, 1040.738, 1047.509, 1044.247, 1043.722, 1040.797, 1044.36, 1049.268},
                 1149.5});
  return out;
}

}  // namespace

const std::vector<HistoryExample>& history_examples() {
  static const std::vector<HistoryExample> all = build_history();
  return all;
}

const std::vector<BranchExample>& branch_examples() {
  static const std::vector<BranchExample> all = build_branch();
  return all;
}

const HistoryExample& history_example(std::string_view name) {
  for (const auto& e : history_examples())
    if (e.name == name) return e;
  throw Error(ErrorKind::usage, "no history example named \"" + std::string(name) + "\"", std::string(name), {},
              "use one of the names in detect/example_series.hpp");
}

const BranchExample& branch_example(std::string_view name) {
  for (const auto& e : branch_examples())
    if (e.name == name) return e;
  throw Error(ErrorKind::usage, "no branch example named \"" + std::string(name) + "\"", std::string(name), {},
              "use one of the names in detect/example_series.hpp");
}

HistoryFamily judge(const HistoryExample& e, unsigned threads) {
  static const std::vector<double> flat(min_series_points, 100.0);
  std::vector<SeriesInput> inputs;
  inputs.push_back(SeriesInput{e.values, e.intervals, e.kind, 0});
  for (std::size_t i = 1; i < e.family_size; ++i) inputs.push_back(SeriesInput{flat, {}, e.kind, 0});
  return judge_history_family(inputs, threads);
}

bool reported(const HistoryFamily& family) {
  return std::any_of(family.result.findings.begin(), family.result.findings.end(),
                     [](const Finding& f) { return f.series == 0; });
}

BranchSeriesInput branch_input(const BranchExample& e) {
  BranchSeriesInput in;
  for (std::size_t i = 0; i < e.base.size(); ++i) {
    std::string commit(1, 'c');  // appended, not `"c" + …`: GCC 12 at -O3 warns falsely (-Wrestrict) on that
    commit += std::to_string(i);
    in.base.push_back({static_cast<std::int64_t>(i), std::move(commit), e.base[i], std::nullopt});
  }
  in.base_history_count = e.base.size();
  in.tip = BranchObservation{e.tip, std::nullopt};
  in.kind = e.kind;
  return in;
}

BranchJudgement judge(const BranchExample& e) { return judge_branch(branch_input(e)); }

}  // namespace benchhist::detect::examples
