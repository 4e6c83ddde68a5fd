#pragma once
// Hand-made AnalysisReports shared by the report tests; the verbatim report examples they
// must reproduce are files under tests/data/examples (common/test_data.hpp).

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "benchhist/report/analysis_report.hpp"
#include "common/test_data.hpp"

namespace report_test {

using namespace benchhist;
using namespace benchhist::report;

inline const std::string tip = "9f2c4a1d3b5e708aab12cd34ef5678901234567a";
inline const std::string oldest = "4d17b0c93ea2c0ffee00112233445566778899aa";

inline DiscriminantSet criterion_set() { return {Engine::criterion, "x86_64-unknown-linux-gnu", "a1b2c3d4"}; }

inline std::vector<ChartPoint> points_of(const std::vector<double>& v, std::size_t first = 0) {
  std::vector<ChartPoint> out;
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back({first + i, v[i]});
  return out;
}

// detection vectors `seed_clean_step` and `seed_slow_ramp` (the series behind the seed's
// report examples).
inline const std::vector<double> clean_step = {
    99.80727877100948,  98.42085021166359,  100.62898233776585, 100.10762202730722, 96.92714627070083,
    101.35834855660843, 103.22098058431875, 99.73790153237124,  103.37691473090972, 103.46725066576893,
    128.1354943602526,  127.37245591720621, 132.52725765199287, 131.96793374004625, 126.63966444724235,
    134.19625407900602, 135.09007559015703, 128.06715058774273, 135.06972550392157, 126.07203526080744};
inline const std::vector<double> slow_ramp = {
    98.33514316641795,  97.14136917091398,  102.68526296179597, 98.81717828854819,  100.16917165212355,
    100.61533961989821, 98.31917177148908,  100.62530656707948, 101.4677594496543,  103.30963026749589,
    102.08150922169975, 106.6084199643992,  103.84747753101963, 106.42194074596519, 103.39944907833478,
    108.67400843128358, 106.28223528433043, 101.87565129227403, 103.21966081860212, 101.17489165455396,
    104.82008465868522, 110.67164583181471, 105.20196756278365, 104.71865532705446, 105.6818625515974,
    103.14308259140316, 107.43275377091017, 110.2761177404652,  109.76604029639958, 113.06924733503351};

inline Census census(std::uint64_t judged, std::uint64_t ghost, std::uint64_t ignored, std::uint64_t few) {
  Census c;
  c.judged = judged;
  c.set(UnjudgedReason::ghost, ghost);
  c.set(UnjudgedReason::ignored, ignored);
  c.set(UnjudgedReason::too_few_points, few);
  return c;
}

inline AnalysisReport history_base() {
  AnalysisReport r;
  r.project = "textproc";
  r.mode = AnalysisMode::history;
  r.context_commit = tip;
  r.runs = {128, oldest, tip};
  r.ghosts_excluded = 2;
  return r;
}

// The seed's history example: a change point and a drift (user guide "Report formats").
inline AnalysisReport seed_findings_report() {
  AnalysisReport r = history_base();
  r.census = census(5, 2, 1, 3);
  r.sets.push_back({criterion_set(), 128, 8, {}, std::nullopt});
  Finding cp;
  cp.set = criterion_set();
  cp.benchmark = BenchmarkId({"http_parse", "case"});
  cp.kind = MetricKind::wall_time;
  cp.method = FindingMethod::change_point;
  cp.baseline = 100.36830218253652;
  cp.latest = 130.05171405014943;
  cp.delta = 29.683411867612904;
  cp.relative_delta = 0.29574488381430086;
  cp.commit = "commit10";
  cp.chance_level = 0.0023815194093831865;
  cp.chart = FindingChart{points_of(clean_step), 29, 10, std::nullopt};
  Finding dr;
  dr.set = criterion_set();
  dr.benchmark = BenchmarkId({"index_build", "case"});
  dr.kind = MetricKind::wall_time;
  dr.method = FindingMethod::drift;
  dr.baseline = 98.50313347697937;
  dr.latest = 108.7433855201543;
  dr.delta = 10.240252043174934;
  dr.relative_delta = 0.10395864254986495;
  dr.commit = "commit29";
  dr.window_start = "commit0";
  dr.chart = FindingChart{points_of(slow_ramp), 29, 29, std::nullopt};
  r.findings = {cp, dr};
  return r;
}

// The seed's silent example (user guide "Reading a silent report").
inline AnalysisReport seed_silent_report() {
  AnalysisReport r = history_base();
  r.census = census(3, 2, 1, 3);
  r.sets.push_back({criterion_set(), 128, 6, {}, std::nullopt});
  return r;
}

// A branch report: one primary regression, one improvement outside the comparison, lags.
inline AnalysisReport branch_report() {
  AnalysisReport r;
  r.project = "nm";
  r.mode = AnalysisMode::branch;
  r.context_commit = "1234567890abcdef1234567890abcdef12345678";
  r.context_dirty = true;
  r.runs = {23, "aaaaaaaaaaaa0000000000000000000000000000", "1234567890abcdef1234567890abcdef12345678"};
  r.census.judged = 12;
  r.census.set(UnjudgedReason::ghost, 4);
  r.census.set(UnjudgedReason::too_few_base_commits, 2);
  DiscriminantSet set{Engine::callgrind, "x86_64-unknown-linux-gnu", "m1"};
  SetReport s{set, 23, 14, {}, BranchComparison{10, 0, 12}};
  s.lags = {{1, LagReason::no_recent_base_data}, {3, LagReason::discriminant_set_mismatch},
            {1, LagReason::no_recent_base_data}, {3, LagReason::no_recent_base_data}};
  r.sets.push_back(s);
  Finding f;
  f.set = set;
  f.benchmark = BenchmarkId({"nm", "nm::observe", "pull"});
  f.kind = MetricKind::instruction_count;
  f.method = FindingMethod::branch_excursion;
  f.direction = Direction::regression;
  f.baseline = 110.0;
  f.latest = 130.0;
  f.delta = 20.0;
  f.relative_delta = 0.18181818181818182;
  f.commit = r.context_commit;
  f.branch = BranchDetails{20, 99.0, 110.0, 20.0, 0.18181818181818182,
                           std::string("abcdef0123456789abcdef0123456789abcdef01"), false, true};
  std::vector<ChartPoint> pts;
  for (std::size_t i = 0; i < 20; ++i) pts.push_back({i, 99.0 + static_cast<double>(i % 12)});
  pts.push_back({20, 130.0});
  f.chart = FindingChart{pts, 20, 20, 110.0};
  Finding g;
  g.set = set;
  g.benchmark = BenchmarkId({"nm", "scan"});
  g.kind = MetricKind::wall_time;
  g.method = FindingMethod::branch_excursion;
  g.direction = Direction::improvement;
  g.baseline = 124.6;
  g.latest = 100.0;
  g.delta = -24.6;
  g.relative_delta = -0.19743178170144463;
  g.commit = r.context_commit;
  g.branch = BranchDetails{15, 124.6, 135.2, -24.6, -0.19743178170144463, std::nullopt, true, false};
  r.findings = {f, g};
  r.warning = "Warning: this analysis included dirty runs on top of the base branch.";
  return r;
}

// Lines right-trimmed (the guide's rendering trims trailing blanks of chart rows).
inline std::string rtrim_lines(const std::string& s) {
  std::istringstream in(s);
  std::string line, out;
  while (std::getline(in, line)) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace report_test
