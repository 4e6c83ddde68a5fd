// The accuracy scorecard (docs/accuracy.md): seeded synthetic histories judged by the real
// family-level path `analyze` uses (detect::judge_history_family: calibration from the family
// size, every series judged, direction filter, Benjamini-Hochberg, ranking), once with the
// product's detector and once with the reference behaviour (every departure of
// docs/divergences.md, S1-S5, switched off through the internal hook), printed side by side.
//
//   accuracy [--seed N | --seeds FIRST-LAST] [--quick] [--threads N] [--check] [--misreports]
//
// --quick runs smaller suites of the same seeds, except the AR(1) null: its share sits close to
// its level, so it keeps all 400 families and --quick --check passes on every seed the full run does.
// Prints one summary line, then one Markdown table per suite. --check exits 1 unless the
// acceptance levels hold: lone-step recall >= 0.95 (middle half and anywhere in [n/10, 9n/10]),
// exact attribution >= 0.95, complete-null i.i.d. families with any finding <= 0.05, AR(1) null
// families with any finding <= 0.75, fresh regressions with K >= 8 points after the step reported
// >= 0.95 and at their commit >= 0.90, +30 % ones with K = 5 reported >= 0.80, no clear step with
// K >= 8 reported as drift (every suite but the recall grid's noise limit), returned excursions
// silent >= 0.95. A step counts as recalled only when it is reported as a change point; one
// reported as a drift is counted apart (misreport).
// --misreports also lists every stepped series the product reported as drift, with its values at
// full precision (to replay it) and how clearly a least-squares fit of a step on a line still
// sees the step. It then sets the misreports beside the drifts the product reports, by the trend
// and the step each shows at the change-point ladder's level start, and counts the drifts that
// show no more trend and no less step than some misreport: what any rule reading only those two
// must decline with them.
// --seeds runs every seed from FIRST to LAST, prints each one's summary line, and pools the
// misreports and reported drifts of all of them (--check then holds each seed to the levels).
// Deterministic: the same seed gives the same figures on every thread count.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/detect/history.hpp"
#include "benchhist/detect/stats.hpp"

using namespace benchhist;
using namespace benchhist::detect;

namespace {

// SplitMix64 with Box-Muller normals: seedable and identical everywhere (no <random>
// distributions, whose algorithms differ between standard libraries).
struct Rng {
  std::uint64_t state;
  bool has_spare = false;
  double spare = 0;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  std::size_t pick(std::size_t lo, std::size_t hi) {  // inclusive
    return lo + static_cast<std::size_t>(next() % (hi - lo + 1));
  }
  double normal() {
    if (has_spare) {
      has_spare = false;
      return spare;
    }
    const double u = 1.0 - uniform(), v = uniform();
    const double r = std::sqrt(-2.0 * std::log(u));
    spare = r * std::sin(2 * M_PI * v);
    has_spare = true;
    return r * std::cos(2 * M_PI * v);
  }
};

std::uint64_t mix(std::uint64_t a, std::uint64_t b) { return Rng{a * 0x100000001B3ull ^ (b + 0x632BE59BD9B4E019ull)}.next(); }

enum class Noise { normal, heavy_tailed, lognormal, bimodal };
constexpr Noise all_noises[] = {Noise::normal, Noise::heavy_tailed, Noise::lognormal, Noise::bimodal};
const char* name(Noise n) {
  switch (n) {
    case Noise::normal: return "normal";
    case Noise::heavy_tailed: return "heavy-tailed (t3)";
    case Noise::lognormal: return "lognormal";
    case Noise::bimodal: return "bimodal";
  }
  return "?";
}

// A zero-mean, unit-variance innovation of the given shape.
double innovation(Rng& r, Noise n) {
  switch (n) {
    case Noise::normal: return r.normal();
    case Noise::heavy_tailed: {  // Student t with 3 degrees of freedom, variance 3 -> scaled to 1
      const double a = r.normal(), b = r.normal(), c = r.normal();
      return r.normal() / std::sqrt((a * a + b * b + c * c) / 3.0) / std::sqrt(3.0);
    }
    case Noise::lognormal: {  // skewed: exp of a normal, centred and scaled (cv of the lognormal = 0.5)
      const double s = std::sqrt(std::log(1.25));
      return (std::exp(s * r.normal() - s * s / 2) - 1.0) / 0.5;
    }
    case Noise::bimodal: {  // two recurring states at -1 and +1, a little spread around each
      const double mode = r.uniform() < 0.5 ? -1.0 : 1.0;
      return (0.95 * mode + 0.3 * r.normal()) / std::sqrt(0.95 * 0.95 + 0.09);
    }
  }
  return 0;
}

struct Shape {
  std::size_t n = 200;
  double cv = 0.02;
  Noise noise = Noise::normal;
  double rho = 0;                 // AR(1) coefficient of the noise
  std::size_t step_at = 0;        // 0 = no step
  double lift = 0;                // relative level change from step_at on
  double ramp = 0;                // relative rise from the first point to the last, linear
};

std::vector<double> series(const Shape& s, Rng& r) {
  std::vector<double> x(s.n);
  double e = innovation(r, s.noise);  // stationary start
  for (std::size_t i = 0; i < s.n; ++i) {
    if (i > 0) e = s.rho * e + std::sqrt(1 - s.rho * s.rho) * innovation(r, s.noise);
    const double rise = s.n > 1 ? s.ramp * static_cast<double>(i) / static_cast<double>(s.n - 1) : 0.0;
    const double level = 100.0 * ((s.step_at != 0 && i >= s.step_at ? 1 + s.lift : 1.0) + rise);
    x[i] = level * (1 + s.cv * e);
  }
  return x;
}

struct Behaviour {
  const char* name;
  detail::Departures departures;
};
const Behaviour behaviours[] = {{"product", {}}, {"reference", detail::Departures::reference()}};

struct Family {
  std::vector<std::vector<double>> values;
  // Fills the family up to `size` series with flat n-point companions (normal noise, cv 2 %).
  void add_flat_companions(std::size_t size, std::size_t n, Rng& r) {
    while (values.size() < size) values.push_back(series(Shape{n, 0.02, Noise::normal, 0, 0, 0, 0}, r));
  }
  FamilyResult judge(const Behaviour& b, unsigned threads) const {
    std::vector<SeriesInput> inputs;
    inputs.reserve(values.size());
    for (const auto& v : values) inputs.push_back(SeriesInput{v, {}, MetricKind::wall_time, 0});
    return judge_history_family(inputs, threads, {}, b.departures).result;
  }
};

// Figures of one behaviour, accumulated per suite.
struct Tally {
  double hits = 0, trials = 0, findings = 0;
  double share() const { return trials > 0 ? hits / trials : 0; }
  double mean_findings() const { return trials > 0 ? findings / trials : 0; }
};
struct StepTally {  // planted steps: reported as a change point (anywhere), and at the exact commit
  double planted = 0, reported = 0, exact = 0, change_points = 0, error_sum = 0;
  double as_drift = 0, elsewhere = 0;  // reported instead: as drift, as a change point off its commit
  double as_drift_k8 = 0;              // ... as drift with at least 8 points after the step
  double recall() const { return planted > 0 ? reported / planted : 0; }
  double exact_share() const { return planted > 0 ? exact / planted : 0; }
  double mean_error() const { return change_points > 0 ? error_sum / change_points : 0; }
};

struct DriftTally {  // planted linear drifts: reported as drift, as a change point
  double planted = 0, as_drift = 0, as_change_point = 0;
  double drift_share() const { return planted > 0 ? as_drift / planted : 0; }
  double change_point_share() const { return planted > 0 ? as_change_point / planted : 0; }
};

// Records how a family treated its planted step series (index -> first point of the new level).
struct Planted {
  std::size_t series;  // index in the family
  std::size_t at;      // first point of the new level
  std::size_t after;   // points measured on the new level (K)
  double lift;
};

// A stepped series the product reported as drift, kept whole for --misreports.
struct Misreport {
  std::uint64_t seed = 0;
  std::string suite;
  std::size_t family = 0;
  Planted step{};
  std::vector<double> values;
};

// Where misreports of one judging go: the product's to the scorecard, the reference's nowhere.
struct MisreportSink {
  std::vector<Misreport>* out = nullptr;
  const char* suite = "";
  std::uint64_t seed = 0;
};

void score_steps(const FamilyResult& fr, const std::vector<Planted>& planted, StepTally& t,
                 const std::vector<std::vector<double>>& values, MisreportSink sink) {
  for (const Planted& p : planted) {
    // Named members, not a structured binding: clang before 16 cannot capture bindings in a lambda.
    const std::size_t at = p.at, after = p.after;
    t.planted += 1;
    const auto f = std::find_if(fr.findings.begin(), fr.findings.end(),
                                [&](const Finding& x) { return x.series == p.series; });
    if (f == fr.findings.end()) continue;
    // A step reported as a drift is not recalled: wrong method, wrong size, no commit to act on.
    if (f->candidate.method != FindingMethod::change_point) {
      t.as_drift += 1;
      t.as_drift_k8 += after >= 8;
      if (sink.out) sink.out->push_back({sink.seed, sink.suite, values.size(), p, values[p.series]});
      continue;
    }
    t.reported += 1;
    t.change_points += 1;
    t.elsewhere += f->candidate.point_index != at;
    const std::size_t got = f->candidate.point_index;
    t.error_sum += static_cast<double>(got > at ? got - at : at - got);
    t.exact += got == at;
  }
}

struct Options {
  std::uint64_t seed = 1;
  std::uint64_t last_seed = 1;  // --seeds: seed .. last_seed
  bool summary_only = false;    // one line per seed (--seeds)
  bool quick = false;
  bool check = false;
  bool misreports = false;
  unsigned threads = 2;
};

// A planted drift the product reported as drift, kept whole to set beside the misreports.
struct ReportedDrift {
  double rise = 0;
  std::vector<double> values;
};

struct Scorecard {
  // [behaviour]
  Tally null_iid[2], null_ar1[2];
  Tally null_iid_by_noise[2][4], null_ar1_by_noise[2][4];
  StepTally lone[2][2][2];         // [behaviour][middle half, anywhere][lift 10 %, 30 %]
  StepTally attribution[2];
  StepTally grid[2][2][3][3];      // [behaviour][family 20, 2000][n 20, 40, 200][lift 5, 10, 30 %]
  StepTally fresh[2][3][2][5];     // [behaviour][family 20, 500, 2000][lift 10, 30 %][K 3, 5, 8, 12, 20]
  Tally excursion[2][2][3];        // [behaviour][family 20, 500][excursion of 8, 12, 20 points]: silent
  DriftTally drift[2][2][3][3];    // [behaviour][family 20, 500][n 20, 40, 200][rise 5, 10, 30 %]
  double misreported[2] = {0, 0};  // stepped series reported as drift, every suite
  double misreported_k8[2] = {0, 0};  // ... of them with K >= 8 points after the step
  double stepped[2] = {0, 0};
  std::vector<Misreport> misreports;  // the product's, in suite order
  std::vector<ReportedDrift> drifts;  // planted drifts the product reported as drift
};

MisreportSink misreports_of(int behaviour, Scorecard& sc, const Options& o, const char* suite) {
  return {behaviour == 0 ? &sc.misreports : nullptr, suite, o.seed};
}

constexpr std::size_t null_lengths[] = {10, 12, 15, 20, 30, 50, 100, 150, 200};

void null_suite(const Options& o, bool ar1, Scorecard& sc) {
  const std::size_t families = ar1 ? 400 : (o.quick ? 40 : 200);
  for (std::size_t f = 0; f < families; ++f) {
    Rng r{mix(o.seed, (ar1 ? 2000000 : 1000000) + f)};
    const Noise noise = all_noises[f % 4];
    Family fam;
    for (std::size_t s = 0; s < 200; ++s) {
      Shape sh;
      sh.n = null_lengths[r.pick(0, std::size(null_lengths) - 1)];
      sh.cv = 0.005 * std::pow(10.0, r.uniform());  // log-uniform 0.5 % .. 5 %
      sh.noise = noise;
      sh.rho = ar1 ? 0.7 : 0.0;
      fam.values.push_back(series(sh, r));
    }
    for (int b = 0; b < 2; ++b) {
      const auto found = static_cast<double>(fam.judge(behaviours[b], o.threads).findings.size());
      for (Tally* t : {&(ar1 ? sc.null_ar1[b] : sc.null_iid[b]), &(ar1 ? sc.null_ar1_by_noise : sc.null_iid_by_noise)[b][f % 4]})
        t->trials += 1, t->hits += found > 0, t->findings += found;
    }
  }
}

// Where a planted step may begin: anywhere with at least a tenth of the series (and 5 points) on
// either side, or in the middle half only.
enum class Placement { anywhere, middle_half };
std::pair<std::size_t, std::size_t> placement_range(Placement p, std::size_t n) {
  if (p == Placement::middle_half) return {n / 4, n - n / 4};
  const std::size_t margin = std::max<std::size_t>(5, n / 10);
  return {margin, n - margin};
}

// One step series among `family - 1` flat companions of the same length, cv 2 %.
void one_step_trials(const Options& o, std::uint64_t stream, std::size_t trials, std::size_t family, std::size_t n,
                     double lift, Placement placement, StepTally (&out)[2], Scorecard& sc, const char* suite) {
  for (std::size_t t = 0; t < trials; ++t) {
    Rng r{mix(o.seed, stream + t)};
    Family fam;
    Shape step;
    step.n = n;
    const auto [lo, hi] = placement_range(placement, n);
    step.step_at = r.pick(lo, hi);
    step.lift = lift;
    fam.values.push_back(series(step, r));
    fam.add_flat_companions(family, n, r);
    for (int b = 0; b < 2; ++b)
      score_steps(fam.judge(behaviours[b], o.threads), {{0, step.step_at, n - step.step_at, lift}}, out[b], fam.values,
                  misreports_of(b, sc, o, suite));
  }
}

void lone_step_suite(const Options& o, Scorecard& sc) {
  const double lifts[] = {0.10, 0.30};
  for (int p = 0; p < 2; ++p)
    for (int l = 0; l < 2; ++l) {
      StepTally per[2];
      one_step_trials(o, 3000000 + 100000 * p + 10000 * l, o.quick ? 4 : 20, 2000, 200, lifts[l],
                      p == 0 ? Placement::middle_half : Placement::anywhere, per, sc,
                      p == 0 ? "lone step (middle half)" : "lone step (anywhere)");
      for (int b = 0; b < 2; ++b) sc.lone[b][p][l] = per[b];
    }
}

void attribution_suite(const Options& o, Scorecard& sc) {
  const std::size_t families = o.quick ? 10 : 50;
  for (std::size_t f = 0; f < families; ++f) {
    Rng r{mix(o.seed, 4000000 + f)};
    Family fam;
    std::vector<Planted> planted;
    for (std::size_t s = 0; s < 20; ++s) {
      Shape sh;
      sh.n = r.pick(20, 100);
      sh.cv = r.uniform(0.005, 0.02);
      sh.lift = r.uniform(0.10, 0.30);
      sh.step_at = r.pick(5, sh.n - 5);
      fam.values.push_back(series(sh, r));
      planted.push_back({s, sh.step_at, sh.n - sh.step_at, sh.lift});
    }
    for (int b = 0; b < 2; ++b)
      score_steps(fam.judge(behaviours[b], o.threads), planted, sc.attribution[b], fam.values,
                  misreports_of(b, sc, o, "attribution"));
  }
}

constexpr std::size_t grid_families[] = {20, 2000};
constexpr std::size_t grid_lengths[] = {20, 40, 200};
constexpr double grid_lifts[] = {0.05, 0.10, 0.30};

void grid_suite(const Options& o, Scorecard& sc) {
  for (int fi = 0; fi < 2; ++fi)
    for (int ni = 0; ni < 3; ++ni)
      for (int li = 0; li < 3; ++li) {
        const std::size_t trials = o.quick ? (fi == 0 ? 6 : 2) : (fi == 0 ? 40 : 20);
        StepTally per[2];
        one_step_trials(o, 5000000 + 100000 * static_cast<std::uint64_t>(fi * 9 + ni * 3 + li), trials,
                        grid_families[fi], grid_lengths[ni], grid_lifts[li], Placement::anywhere, per, sc,
                        "recall grid");
        for (int b = 0; b < 2; ++b) sc.grid[b][fi][ni][li] = per[b];
      }
}

constexpr std::size_t fresh_families[] = {20, 500, 2000};
constexpr double fresh_lifts[] = {0.10, 0.30};
constexpr std::size_t fresh_after[] = {3, 5, 8, 12, 20};

// A regression that just landed: one step with K points after it at the end of a 100-point
// series, among flat companions.
void fresh_suite(const Options& o, Scorecard& sc) {
  for (int fi = 0; fi < 3; ++fi)
    for (int li = 0; li < 2; ++li)
      for (int ki = 0; ki < 5; ++ki) {
        const std::size_t trials = o.quick ? (fi == 2 ? 1 : 3) : 20;
        for (std::size_t t = 0; t < trials; ++t) {
          Rng r{mix(o.seed, 6000000 + 100000 * static_cast<std::uint64_t>(fi * 10 + li * 5 + ki) + t)};
          Family fam;
          Shape step;
          step.n = 100;
          step.step_at = 100 - fresh_after[ki];
          step.lift = fresh_lifts[li];
          fam.values.push_back(series(step, r));
          fam.add_flat_companions(fresh_families[fi], 100, r);
          for (int b = 0; b < 2; ++b) {
            StepTally one;
            score_steps(fam.judge(behaviours[b], o.threads), {{0, step.step_at, fresh_after[ki], step.lift}}, one,
                        fam.values, misreports_of(b, sc, o, "fresh regression"));
            auto& cell = sc.fresh[b][fi][li][ki];
            cell.planted += one.planted, cell.reported += one.reported, cell.exact += one.exact;
            cell.change_points += one.change_points, cell.error_sum += one.error_sum;
            cell.as_drift += one.as_drift, cell.elsewhere += one.elsewhere, cell.as_drift_k8 += one.as_drift_k8;
          }
        }
      }
}

constexpr std::size_t excursion_families[] = {20, 500};
constexpr std::size_t excursion_lengths[] = {8, 12, 20};

// A level that moved and came back: +30 % ... +100 % for 8, 12 or 20 points, then 5-10 points
// back at the baseline, at the end of a 100-point series among flat companions.
void excursion_suite(const Options& o, Scorecard& sc) {
  for (int fi = 0; fi < 2; ++fi)
    for (int ei = 0; ei < 3; ++ei) {
      const std::size_t trials = o.quick ? 4 : 40;
      for (std::size_t t = 0; t < trials; ++t) {
        Rng r{mix(o.seed, 7000000 + 100000 * static_cast<std::uint64_t>(fi * 3 + ei) + t)};
        const std::size_t back = r.pick(5, 10);
        const double height = r.uniform(0.30, 1.00);
        Family fam;
        std::vector<double> x = series(Shape{100, 0.02, Noise::normal, 0, 0, 0, 0}, r);
        for (std::size_t i = 100 - back - excursion_lengths[ei]; i < 100 - back; ++i) x[i] *= 1 + height;
        fam.values.push_back(x);
        fam.add_flat_companions(excursion_families[fi], 100, r);
        for (int b = 0; b < 2; ++b) {
          const auto fr = fam.judge(behaviours[b], o.threads);
          const bool silent = std::none_of(fr.findings.begin(), fr.findings.end(), [](const Finding& f) { return f.series == 0; });
          auto& cell = sc.excursion[b][fi][ei];
          cell.trials += 1, cell.hits += silent;
        }
      }
    }
}

constexpr std::size_t drift_families[] = {20, 500};
constexpr std::size_t drift_lengths[] = {20, 40, 200};
constexpr double drift_rises[] = {0.05, 0.10, 0.30};

// A real trend: a linear rise of 5, 10 or 30 % from the first point to the last, among flat
// companions. What arbitration and the drift ladder must keep a drift.
void drift_suite(const Options& o, Scorecard& sc) {
  for (int fi = 0; fi < 2; ++fi)
    for (int ni = 0; ni < 3; ++ni)
      for (int ri = 0; ri < 3; ++ri) {
        const std::size_t trials = o.quick ? (fi == 0 ? 3 : 1) : 20;
        for (std::size_t t = 0; t < trials; ++t) {
          Rng r{mix(o.seed, 8000000 + 100000 * static_cast<std::uint64_t>(fi * 9 + ni * 3 + ri) + t)};
          Family fam;
          Shape ramp;
          ramp.n = drift_lengths[ni];
          ramp.ramp = drift_rises[ri];
          fam.values.push_back(series(ramp, r));
          fam.add_flat_companions(drift_families[fi], ramp.n, r);
          for (int b = 0; b < 2; ++b) {
            const auto fr = fam.judge(behaviours[b], o.threads);
            const auto f = std::find_if(fr.findings.begin(), fr.findings.end(), [](const Finding& x) { return x.series == 0; });
            auto& cell = sc.drift[b][fi][ni][ri];
            cell.planted += 1;
            if (f == fr.findings.end()) continue;
            if (f->candidate.method == FindingMethod::drift) {
              cell.as_drift += 1;
              if (b == 0) sc.drifts.push_back({drift_rises[ri], fam.values[0]});
            }
            else cell.as_change_point += 1;
          }
        }
      }
}

DriftTally drift_total(const Scorecard& sc, int b) {
  DriftTally t;
  for (const auto& f : sc.drift[b])
    for (const auto& n : f)
      for (const auto& c : n) t.planted += c.planted, t.as_drift += c.as_drift, t.as_change_point += c.as_change_point;
  return t;
}

// Stepped series reported as drift, over every suite with planted steps.
void count_misreports(Scorecard& sc) {
  for (int b = 0; b < 2; ++b) {
    auto add = [&](const StepTally& t) {
      sc.misreported[b] += t.as_drift, sc.misreported_k8[b] += t.as_drift_k8, sc.stepped[b] += t.planted;
    };
    for (const auto& p : sc.lone[b]) for (const auto& l : p) add(l);
    add(sc.attribution[b]);
    for (const auto& f : sc.grid[b]) for (const auto& n : f) for (const auto& c : n) add(c);
    for (const auto& f : sc.fresh[b]) for (const auto& l : f) for (const auto& c : l) add(c);
  }
}

// Fresh steps with at least `k_index`'s K points after them, over every family.
StepTally fresh_total(const Scorecard& sc, int b, int from_k_index, int lift = -1) {
  StepTally t;
  for (int fi = 0; fi < 3; ++fi)
    for (int li = 0; li < 2; ++li)
      for (int ki = from_k_index; ki < 5; ++ki) {
        if (lift >= 0 && li != lift) continue;
        const auto& c = sc.fresh[b][fi][li][ki];
        t.planted += c.planted, t.reported += c.reported, t.exact += c.exact, t.as_drift += c.as_drift;
        t.change_points += c.change_points, t.error_sum += c.error_sum, t.elsewhere += c.elsewhere;
      }
  return t;
}

// +30 % steps with K = 5 points after them, over every family.
StepTally fresh_k5_30(const Scorecard& sc, int b) {
  StepTally t;
  for (int fi = 0; fi < 3; ++fi) {
    const auto& c = sc.fresh[b][fi][1][1];
    t.planted += c.planted, t.reported += c.reported, t.exact += c.exact;
  }
  return t;
}

double excursion_silent(const Scorecard& sc, int b) {
  Tally t;
  for (const auto& f : sc.excursion[b]) for (const auto& c : f) t.hits += c.hits, t.trials += c.trials;
  return t.share();
}

double grid_recall(const Scorecard& sc, int b) {
  StepTally all;
  for (const auto& f : sc.grid[b])
    for (const auto& n : f)
      for (const auto& c : n) all.planted += c.planted, all.reported += c.reported;
  return all.recall();
}

// The headline lone-step figure: steps in the middle half of the series.
StepTally lone_total(const Scorecard& sc, int b, int placement = 0) {
  StepTally t;
  for (const auto& l : sc.lone[b][placement]) {
    t.planted += l.planted, t.reported += l.reported, t.exact += l.exact;
    t.change_points += l.change_points, t.error_sum += l.error_sum, t.as_drift += l.as_drift;
  }
  return t;
}

std::string fmt(double v, int digits = 3) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void print(const Options& o, const Scorecard& sc) {
  auto summary = [&](int b) {
    const StepTally lone = lone_total(sc, b);
    return std::string(behaviours[b].name) + ": null i.i.d. " + fmt(sc.null_iid[b].share()) + ", AR(1) null " +
           fmt(sc.null_ar1[b].share()) + ", lone step " + fmt(lone.recall()) + " (anywhere " +
           fmt(lone_total(sc, b, 1).recall()) + "), attribution " +
           fmt(sc.attribution[b].exact_share()) + " (mean error " + fmt(sc.attribution[b].mean_error()) +
           "), grid recall " + fmt(grid_recall(sc, b)) + ", fresh K>=8 " + fmt(fresh_total(sc, b, 2).recall()) +
           " (exact " + fmt(fresh_total(sc, b, 2).exact_share()) + "), fresh K=5 +30% " +
           fmt(fresh_k5_30(sc, b).recall()) +
           ", excursions silent " + fmt(excursion_silent(sc, b)) + ", drifts as drift " +
           fmt(drift_total(sc, b).drift_share()) + ", stepped as drift " +
           fmt(sc.misreported[b], 0) + "/" + fmt(sc.stepped[b], 0) + " (K>=8: " + fmt(sc.misreported_k8[b], 0) + ")";
  };
  std::cout << "accuracy (seed " << o.seed << (o.quick ? ", quick" : "") << ") — " << summary(0) << " | "
            << summary(1) << "\n";
  if (o.summary_only) return;
  std::cout << "\n";

  std::cout << "| suite | figure | product | reference | target |\n|---|---|---|---|---|\n";
  std::cout << "| null, i.i.d. | families of 200 with any finding (" << sc.null_iid[0].trials << " families) | "
            << fmt(sc.null_iid[0].share()) << " | " << fmt(sc.null_iid[1].share()) << " | ≤ 0.05 |\n";
  for (int k = 0; k < 4; ++k)
    std::cout << "| null, i.i.d. | … " << name(all_noises[k]) << " noise | " << fmt(sc.null_iid_by_noise[0][k].share())
              << " | " << fmt(sc.null_iid_by_noise[1][k].share()) << " | |\n";
  std::cout << "| null, i.i.d. | findings per family | " << fmt(sc.null_iid[0].mean_findings()) << " | "
            << fmt(sc.null_iid[1].mean_findings()) << " | |\n";
  std::cout << "| null, AR(1) ρ = 0.7 | families of 200 with any finding (" << sc.null_ar1[0].trials
            << " families) | " << fmt(sc.null_ar1[0].share()) << " | " << fmt(sc.null_ar1[1].share())
            << " | ≤ 0.75 |\n";
  std::cout << "| null, AR(1) | findings per family | " << fmt(sc.null_ar1[0].mean_findings()) << " | "
            << fmt(sc.null_ar1[1].mean_findings()) << " | disclosed |\n";
  for (int k = 0; k < 4; ++k)
    std::cout << "| null, AR(1) | … " << name(all_noises[k]) << " innovations | "
              << fmt(sc.null_ar1_by_noise[0][k].share()) << " | " << fmt(sc.null_ar1_by_noise[1][k].share())
              << " | |\n";
  const char* lone_names[] = {"+10 %", "+30 %"};
  const char* placements[] = {"step in the middle half", "step anywhere in [n/10, 9n/10]"};
  for (int p = 0; p < 2; ++p)
    for (int l = 0; l < 2; ++l)
      std::cout << "| lone step, n = 200, cv 2 %, among 1,999 flat | recall, " << lone_names[l] << ", "
                << placements[p] << " (" << sc.lone[0][p][l].planted << " trials) | "
                << fmt(sc.lone[0][p][l].recall()) << " | " << fmt(sc.lone[1][p][l].recall()) << " | "
                << "≥ 0.95 |\n";
  std::cout << "| attribution, n 20–100, cv 0.5–2 %, lift 10–30 %, families of 20 | exact commit ("
            << sc.attribution[0].planted << " steps) | " << fmt(sc.attribution[0].exact_share()) << " | "
            << fmt(sc.attribution[1].exact_share()) << " | ≥ 0.95 |\n";
  std::cout << "| attribution | mean error of reported change points, commits | "
            << fmt(sc.attribution[0].mean_error()) << " | " << fmt(sc.attribution[1].mean_error()) << " | |\n";
  std::cout << "| attribution | recall | " << fmt(sc.attribution[0].recall()) << " | "
            << fmt(sc.attribution[1].recall()) << " | |\n";
  std::cout << "| lone step and attribution | steps reported as drift | "
            << fmt(lone_total(sc, 0).as_drift + lone_total(sc, 0, 1).as_drift + sc.attribution[0].as_drift, 0) << " | "
            << fmt(lone_total(sc, 1).as_drift + lone_total(sc, 1, 1).as_drift + sc.attribution[1].as_drift, 0)
            << " | 0 with K ≥ 8 |\n\n";

  std::cout << "Recall grid (one step among flat companions, cv 2 %): recall / exact-commit share, product vs "
               "reference\n\n| family | n | +5 % | +10 % | +30 % |\n|---|---|---|---|---|\n";
  for (int fi = 0; fi < 2; ++fi)
    for (int ni = 0; ni < 3; ++ni) {
      std::cout << "| " << grid_families[fi] << " | " << grid_lengths[ni] << " |";
      for (int li = 0; li < 3; ++li) {
        const auto &p = sc.grid[0][fi][ni][li], &r = sc.grid[1][fi][ni][li];
        std::cout << " " << fmt(p.recall(), 2) << " / " << fmt(p.exact_share(), 2) << " vs " << fmt(r.recall(), 2)
                  << " / " << fmt(r.exact_share(), 2);
        if (p.as_drift > 0 || r.as_drift > 0)
          std::cout << " (as drift: " << fmt(p.as_drift, 0) << " vs " << fmt(r.as_drift, 0) << ")";
        std::cout << " |";
      }
      std::cout << "\n";
    }

  std::cout << "\nFresh regressions (one step with K points after it at the end of a 100-point series, cv 2 %, "
               "among flat companions): recall / exact-commit share, product vs reference; then what was reported "
               "instead when the step was missed at its commit (product: nothing / drift / change point elsewhere)\n\n"
               "| family | lift | K = 3 | K = 5 | K = 8 | K = 12 | K = 20 |\n|---|---|---|---|---|---|---|\n";
  for (int fi = 0; fi < 3; ++fi)
    for (int li = 0; li < 2; ++li) {
      std::cout << "| " << fresh_families[fi] << " | +" << fmt(fresh_lifts[li] * 100, 0) << " % |";
      for (int ki = 0; ki < 5; ++ki) {
        const auto &p = sc.fresh[0][fi][li][ki], &r = sc.fresh[1][fi][li][ki];
        std::cout << " " << fmt(p.recall(), 2) << " / " << fmt(p.exact_share(), 2) << " vs " << fmt(r.recall(), 2)
                  << " / " << fmt(r.exact_share(), 2) << " (" << fmt(p.planted - p.reported - p.as_drift, 0) << "/"
                  << fmt(p.as_drift, 0) << "/" << fmt(p.elsewhere, 0) << ") |";
      }
      std::cout << "\n";
    }
  std::cout << "\nExcursions that came back (+30 … +100 % for L points, then 5–10 points back at the baseline, "
               "n = 100, cv 2 %): share silent, product vs reference\n\n| family | L = 8 | L = 12 | L = 20 |\n"
               "|---|---|---|---|\n";
  for (int fi = 0; fi < 2; ++fi) {
    std::cout << "| " << excursion_families[fi] << " |";
    for (int ei = 0; ei < 3; ++ei)
      std::cout << " " << fmt(sc.excursion[0][fi][ei].share(), 2) << " vs " << fmt(sc.excursion[1][fi][ei].share(), 2)
                << " |";
    std::cout << "\n";
  }
  std::cout << "\nLinear drifts (a rise of 5, 10 or 30 % from the first point to the last, cv 2 %, among flat "
               "companions; 20 trials per cell): reported as drift / as a change point, product vs reference\n\n"
               "| family | n | +5 % | +10 % | +30 % |\n|---|---|---|---|---|\n";
  for (int fi = 0; fi < 2; ++fi)
    for (int ni = 0; ni < 3; ++ni) {
      std::cout << "| " << drift_families[fi] << " | " << drift_lengths[ni] << " |";
      for (int ri = 0; ri < 3; ++ri) {
        const auto &p = sc.drift[0][fi][ni][ri], &r = sc.drift[1][fi][ni][ri];
        std::cout << " " << fmt(p.drift_share(), 2) << " / " << fmt(p.change_point_share(), 2) << " vs "
                  << fmt(r.drift_share(), 2) << " / " << fmt(r.change_point_share(), 2) << " |";
      }
      std::cout << "\n";
    }
  std::cout << "\nStepped series reported as drift, every suite: product " << fmt(sc.misreported[0], 0) << " of "
            << fmt(sc.stepped[0], 0) << " (" << fmt(sc.misreported_k8[0], 0) << " with K >= 8 points after the step), "
            << "reference " << fmt(sc.misreported[1], 0) << " of " << fmt(sc.stepped[1], 0) << " ("
            << fmt(sc.misreported_k8[1], 0) << ")\n";
}

// How clearly a series still shows its planted step once a line is allowed too: the t statistic
// of the step in the least-squares fit x_i = a + b·i + d·[i >= at]. A misreport with a small one
// is a step the data cannot tell from a trend.
double step_on_line_t(const std::vector<double>& x, std::size_t at) {
  const std::size_t n = x.size();
  double m[3][4] = {};  // normal equations [X'X | X'x] over the columns 1, i, [i >= at]
  for (std::size_t i = 0; i < n; ++i) {
    const double row[3] = {1.0, static_cast<double>(i), i >= at ? 1.0 : 0.0};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) m[r][c] += row[r] * row[c];
      m[r][3] += row[r] * x[i];
    }
  }
  for (int c = 0; c < 3; ++c)  // Gauss-Jordan; X'X is positive definite when both levels hold a point
    for (int r = 0; r < 3; ++r)
      if (r != c) {
        const double f = m[r][c] / m[c][c];
        for (int k = c; k < 4; ++k) m[r][k] -= f * m[c][k];
      }
  const double a = m[0][3] / m[0][0], b = m[1][3] / m[1][1], d = m[2][3] / m[2][2];
  double rss = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = x[i] - (a + b * static_cast<double>(i) + (i >= at ? d : 0.0));
    rss += e * e;
  }
  // The step's last pivot is the Schur complement of the other two columns, 1 / (X'X)^-1 at the
  // step's own entry, so the step's variance is the residual variance over it.
  return d / std::sqrt(rss / static_cast<double>(n - 3) / m[2][2]);
}

// The trend and the step a series shows either side of the change-point ladder's estimate of
// where its new level begins (the split S6 reads): the within-level trend as z, the Mann-Kendall
// S of the two levels pooled over its null standard deviation (no ties: the values are
// continuous), and the step as its t in a step on a line there. Both oriented upwards, as every
// planted change is. nullopt when the ladder placed no level start (S6 then abstains).
struct TrendEvidence {
  double within_z = 0, step_t = 0;
};
std::optional<TrendEvidence> trend_evidence(const std::vector<double>& x) {
  const auto at = change_point_cheap_gates(x, {}, MetricKind::wall_time).level_start;
  if (!at) return std::nullopt;
  double s = 0, var = 0;
  for (const auto& [from, to] : {std::pair{std::size_t{0}, *at}, std::pair{*at, x.size()}}) {
    const auto m = static_cast<double>(to - from);
    var += m * (m - 1) * (2 * m + 5) / 18;
    s += mann_kendall(std::span(x).subspan(from, to - from)).s;  // each level holds min_regime points
  }
  const double corrected = s > 0 ? s - 1 : s < 0 ? s + 1 : 0;  // continuity, as the drift's own test
  return TrendEvidence{var > 0 ? corrected / std::sqrt(var) : 0, step_on_line_t(x, *at)};
}

// The misreports against the drifts the product reports. A rule that reads only the within-level
// trend and the step at the level start, and declines a series whenever it declines one with at
// least as much trend and no more step, must decline with a misreport every reported drift it
// dominates that way: this counts them, per cell of the drift suite.
void print_trend_evidence(const Scorecard& sc) {
  std::vector<TrendEvidence> mis;
  for (const Misreport& m : sc.misreports)
    if (const auto e = trend_evidence(m.values)) mis.push_back(*e);
  std::cout << "\nTrend evidence at the change-point ladder's level start (z: the levels' pooled Mann-Kendall "
               "S over its sd; t: the step's t on a line there)\n\n";
  if (mis.empty()) {
    std::cout << (sc.misreports.empty() ? "no misreport to set beside the drifts\n" : "no misreport with a level start\n");
    return;
  }
  auto [zlo, zhi] = std::minmax_element(mis.begin(), mis.end(), [](auto& a, auto& b) { return a.within_z < b.within_z; });
  auto [tlo, thi] = std::minmax_element(mis.begin(), mis.end(), [](auto& a, auto& b) { return a.step_t < b.step_t; });
  std::cout << "- misreports (" << mis.size() << "): z " << fmt(zlo->within_z, 2) << " to " << fmt(zhi->within_z, 2)
            << ", t " << fmt(tlo->step_t, 2) << " to " << fmt(thi->step_t, 2) << "\n";
  double dominated[3][3] = {}, reported[3][3] = {}, all_dominated = 0, placed = 0;
  for (const ReportedDrift& d : sc.drifts) {
    const auto ni = static_cast<std::size_t>(std::find(std::begin(drift_lengths), std::end(drift_lengths), d.values.size()) - std::begin(drift_lengths));
    const auto ri = static_cast<std::size_t>(std::find(std::begin(drift_rises), std::end(drift_rises), d.rise) - std::begin(drift_rises));
    reported[ni][ri] += 1;
    const auto e = trend_evidence(d.values);
    if (!e) continue;
    placed += 1;
    const bool under = std::any_of(mis.begin(), mis.end(), [&](const TrendEvidence& m) {
      return e->within_z <= m.within_z && e->step_t >= m.step_t;
    });
    dominated[ni][ri] += under, all_dominated += under;
  }
  std::cout << "- drifts the product reports: " << sc.drifts.size() << " (" << fmt(placed, 0)
            << " with a level start); with no more trend and no less step than some misreport: "
            << fmt(all_dominated, 0) << "\n\n| n | +5 % | +10 % | +30 % |\n|---|---|---|---|\n";
  for (std::size_t ni = 0; ni < 3; ++ni) {
    std::cout << "| " << drift_lengths[ni] << " |";
    for (std::size_t ri = 0; ri < 3; ++ri)
      std::cout << " " << fmt(dominated[ni][ri], 0) << " of " << fmt(reported[ni][ri], 0) << " |";
    std::cout << "\n";
  }
}

void print_misreports(const Scorecard& sc) {
  std::cout << "\nStepped series the product reported as drift (the step's t in a least-squares step-on-a-line fit "
               "at its true position; values at full precision):\n";
  if (sc.misreports.empty()) std::cout << "\nnone\n";
  for (const Misreport& m : sc.misreports) {
    std::cout << "\n- seed " << m.seed << ", " << m.suite << ", family " << m.family << ", n = " << m.values.size() << ", +"
              << fmt(100 * m.step.lift, 1) << " % from point " << m.step.at << " (K = " << m.step.after
              << "): t = " << fmt(step_on_line_t(m.values, m.step.at), 2) << "\n  ";
    char buf[32];
    for (std::size_t i = 0; i < m.values.size(); ++i) {
      std::snprintf(buf, sizeof buf, "%.17g", m.values[i]);
      std::cout << (i ? "," : "") << buf;
    }
    std::cout << "\n";
  }
}

// The recall grid's cells where a step in 2 % noise is at times fitted as well by a line: +5 % in
// 20 or 40 points, +10 % in 20. The rare step there reported as drift is one the data cannot tell
// from a trend (docs/accuracy.md "Known limits"; --misreports lists them); from 200 points a +5 %
// step is clear (t near 8 on a line), and reporting it as drift is a fault.
bool at_noise_limit(std::size_t n, double lift) { return (n <= 20 && lift <= 0.10) || (n <= 40 && lift <= 0.05); }

bool acceptable(const Options& o, const Scorecard& sc) {
  bool ok = true;
  auto require = [&](bool c, const std::string& what) {
    if (!c) std::cerr << "accuracy (seed " << o.seed << "): below the acceptance level: " << what << "\n";
    ok = ok && c;
  };
  require(lone_total(sc, 0).recall() >= 0.95, "lone-step recall (middle half) in a family of 2,000 >= 0.95");
  require(sc.attribution[0].exact_share() >= 0.95, "exact attribution of clean steps >= 0.95");
  require(sc.null_iid[0].share() <= 0.05, "complete-null i.i.d. families with any finding <= 0.05");
  require(sc.null_ar1[0].share() <= 0.75, "AR(1) null families with any finding <= 0.75");
  require(lone_total(sc, 0, 1).recall() >= 0.95, "lone-step recall anywhere in [n/10, 9n/10] >= 0.95");
  const StepTally fresh8 = fresh_total(sc, 0, 2);
  require(fresh8.recall() >= 0.95, "fresh regressions with K >= 8: recall >= 0.95");
  require(fresh8.exact_share() >= 0.90, "fresh regressions with K >= 8: exact commit >= 0.90");
  // The recall grid's cells at the noise limit are left out (their count is printed); its other
  // cells count here.
  double clear_steps_as_drift = fresh8.as_drift + sc.attribution[0].as_drift_k8;
  for (const auto& p : sc.lone[0])
    for (const auto& l : p) clear_steps_as_drift += l.as_drift_k8;
  for (const auto& f : sc.grid[0])
    for (int ni = 0; ni < 3; ++ni)
      for (int li = 0; li < 3; ++li)
        if (!at_noise_limit(grid_lengths[ni], grid_lifts[li])) clear_steps_as_drift += f[ni][li].as_drift_k8;
  require(clear_steps_as_drift == 0,
          "no step with K >= 8 reported as drift in the fresh-regression, lone-step and attribution suites, "
          "nor in the recall grid beyond its noise limit");
  require(fresh_k5_30(sc, 0).recall() >= 0.80, "fresh +30 % regressions with K = 5: recall >= 0.80");
  require(excursion_silent(sc, 0) >= 0.95, "excursions that came back: silent >= 0.95");
  return ok;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "accuracy: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--seed") o.seed = o.last_seed = std::stoull(value());
    else if (a == "--seeds") {
      const std::string v = value();
      const char *begin = v.data(), *end = begin + v.size();
      const auto first = std::from_chars(begin, end, o.seed);
      const bool dash = first.ec == std::errc{} && first.ptr != end && *first.ptr == '-';
      const auto last = dash ? std::from_chars(first.ptr + 1, end, o.last_seed) : first;
      if (!dash || last.ec != std::errc{} || last.ptr != end || o.last_seed < o.seed) {
        std::cerr << "accuracy: --seeds " << v << " is not a range FIRST-LAST with FIRST <= LAST; pass e.g. --seeds 1-10\n";
        std::exit(2);
      }
    }
    else if (a == "--threads") o.threads = static_cast<unsigned>(std::max(1, std::stoi(value())));
    else if (a == "--quick") o.quick = true;
    else if (a == "--check") o.check = true;
    else if (a == "--misreports") o.misreports = true;
    else {
      std::cerr << "accuracy: unknown option " << a
                << "; usage: accuracy [--seed N | --seeds FIRST-LAST] [--quick] [--threads N] [--check] [--misreports]\n";
      std::exit(2);
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options range = parse(argc, argv);
  Scorecard pooled;  // --misreports over every seed of the range
  bool ok = true;
  for (std::uint64_t seed = range.seed;; ++seed) {
    Options o = range;
    o.seed = seed;
    o.summary_only = range.last_seed != range.seed;
    Scorecard sc;
    null_suite(o, false, sc);
    null_suite(o, true, sc);
    lone_step_suite(o, sc);
    attribution_suite(o, sc);
    grid_suite(o, sc);
    fresh_suite(o, sc);
    excursion_suite(o, sc);
    drift_suite(o, sc);
    count_misreports(sc);
    print(o, sc);
    if (o.check && !acceptable(o, sc)) ok = false;
    std::move(sc.misreports.begin(), sc.misreports.end(), std::back_inserter(pooled.misreports));
    std::move(sc.drifts.begin(), sc.drifts.end(), std::back_inserter(pooled.drifts));
    if (seed == range.last_seed) break;
  }
  if (range.misreports) {
    print_misreports(pooled);
    print_trend_evidence(pooled);
  }
  return ok ? 0 : 1;
}
