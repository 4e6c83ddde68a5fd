// History detection on a real store's series: selection, then loading and reconstruction as two
// timed steps (analyze fuses them; the series are the same), every discriminant set, default
// six-month window; then the detection phase alone, timed, and optionally a digest of every judgement — every gate's computed value
// and demand at full precision — so an optimisation of the detectors can be shown to leave
// every verdict byte-identical:
//
//   store_detection <store-dir> <project> [threads] [digest-file]
//
// Run it from inside the store's git repository (examples/synthetic_history writes both).

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/analysis/loading.hpp"
#include "benchhist/analysis/reconstruction.hpp"
#include "benchhist/analysis/selection.hpp"
#include "benchhist/detect/history.hpp"
#include "benchhist/model/timestamp.hpp"
#include "benchhist/storage/local_store.hpp"

using namespace benchhist;
using Clock = std::chrono::steady_clock;

namespace {
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void put(std::FILE* f, const std::optional<double>& v) {
  if (v) std::fprintf(f, " %.17g", *v);
  else std::fputs(" -", f);
}

void write_digest(std::FILE* f, const std::vector<detect::HistoryJudgement>& js) {
  for (std::size_t i = 0; i < js.size(); ++i) {
    const auto& j = js[i];
    std::fprintf(f, "%zu judged=%d", i, j.judged() ? 1 : 0);
    put(f, j.tainted_p);
    put(f, j.adjusted_p);
    for (const auto* ladder : {&j.change_point, &j.drift})
      for (const auto& g : ladder->gates()) {
        std::fprintf(f, " %s:%d", g.name.c_str(), g.passed ? 1 : 0);
        put(f, g.value);
        put(f, g.threshold);
      }
    if (j.candidate) {
      const auto& c = *j.candidate;
      std::fprintf(f, " cand m=%d d=%d %.17g %.17g %.17g %zu %zu %.17g", static_cast<int>(c.method),
                   static_cast<int>(c.direction), c.baseline, c.latest, c.relative_delta, c.view_index,
                   c.point_index, c.chance_level);
    }
    std::fputc('\n', f);
  }
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: store_detection <store-dir> <project> [threads] [digest-file]\n");
    return 2;
  }
  const unsigned threads = argc > 3 ? static_cast<unsigned>(std::stoul(argv[3])) : 2u;
  storage::LocalStore store(argv[1]);
  const auto git = analysis::open_git_topology(std::filesystem::current_path());

  analysis::SelectionRequest req;
  req.project = argv[2];
  req.filters = analysis::resolve_filters({"all"}, {"all"}, {"all"}, std::nullopt, std::nullopt);
  req.now = from_unix_seconds(std::time(nullptr));

  auto t0 = Clock::now();
  const auto sel = analysis::select_objects(req, *git, store);
  const double t_sel = seconds_since(t0);
  t0 = Clock::now();
  const auto loaded = analysis::load_selection(store, sel, threads);
  const double t_load = seconds_since(t0);
  t0 = Clock::now();
  const auto recon = analysis::reconstruct(sel, loaded, {});
  const double t_recon = seconds_since(t0);

  const std::size_t n = recon.series.size();
  std::vector<std::vector<double>> values(n);
  std::vector<std::vector<std::optional<Interval>>> intervals(n);
  std::vector<detect::SeriesInput> inputs(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = recon.series[i].values();
    intervals[i] = recon.series[i].intervals();
    inputs[i] = detect::SeriesInput{values[i], intervals[i], recon.series[i].key.kind, recon.series[i].active_start};
  }
  const std::clock_t cpu0 = std::clock();
  t0 = Clock::now();
  const auto family = detect::judge_history_family(inputs, threads);
  const auto& judged = family.judgements;
  const double t_detect = seconds_since(t0);
  const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;

  // Where detection time goes: each series judged again alone, grouped by the path it took.
  double t_adjusted = 0, t_theil_sen = 0, t_rest = 0;
  {
    const detect::HistoryJudge judge(family.result.family_size);
    for (std::size_t i = 0; i < n; ++i) {
      const auto s0 = Clock::now();
      const auto j = judge.judge(inputs[i]);
      const double dt = seconds_since(s0);
      const auto& dg = j.drift.gates();
      const bool line = dg.size() > 1 && dg[1].passed;
      (j.adjusted_p ? t_adjusted : line ? t_theil_sen : t_rest) += dt;
    }
  }
  std::size_t orbit = 0, candidates = 0;
  for (const auto& j : judged) {
    orbit += j.adjusted_p.has_value();
    candidates += j.candidate.has_value();
  }
  std::printf(
      "objects=%zu series=%zu selection=%.3fs loading=%.3fs reconstruction=%.3fs detection=%.3fs "
      "(cpu %.3fs) adjusted=%zu candidates=%zu\n",
      sel.objects.size(), n, t_sel, t_load, t_recon, t_detect, cpu, orbit, candidates);
  std::printf("one thread: series with a selection adjustment %.3fs, with a Theil-Sen line %.3fs, others %.3fs\n",
              t_adjusted, t_theil_sen, t_rest);
  if (argc > 4) {
    std::FILE* f = std::fopen(argv[4], "w");
    if (!f) {
      std::perror(argv[4]);
      return 1;
    }
    write_digest(f, judged);
    std::fclose(f);
  }
  return 0;
}
