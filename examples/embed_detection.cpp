// Embedding the detection core in another harness: judge your own series with the same
// gates, split-search correction and false-discovery control as `analyze`, without storage,
// git or the CLI. Prints one line per series.
//
//   embed_detection

#include <cstdio>
#include <string>
#include <vector>

#include "benchhist/detect/history.hpp"

int main() {
  using namespace benchhist;
  // Three series of one family: a step at point 30, a flat one, and a slow climb.
  std::vector<std::vector<double>> values(3);
  for (int i = 0; i < 60; ++i) {
    const double wiggle = ((i * 37) % 11 - 5) * 0.002;
    values[0].push_back((i < 30 ? 100.0 : 125.0) * (1 + wiggle));
    values[1].push_back(50.0 * (1 + wiggle));
    values[2].push_back((200.0 + i * 0.5) * (1 + wiggle));
  }
  std::vector<detect::SeriesInput> inputs;
  for (const auto& v : values) inputs.push_back(detect::SeriesInput{v, {}, MetricKind::wall_time, 0});

  // Judge every series (in parallel), then keep what survives Benjamini–Hochberg at 10 %.
  const auto judgements = detect::judge_history_batch(inputs, /*threads=*/2);
  const auto family = detect::select_history_findings(judgements, detect::history_family_size(inputs));

  for (std::size_t i = 0; i < judgements.size(); ++i) {
    const auto& j = judgements[i];
    if (!j.judged()) {
      std::printf("series %zu: not judged (%.*s)\n", i, int(to_string(*j.unjudged).size()), to_string(*j.unjudged).data());
      continue;
    }
    const auto declined = j.change_point.first_declined();
    std::printf("series %zu: judged; change-point ladder %s%s\n", i, declined ? "declined at " : "passed",
                declined ? declined->c_str() : "");
  }
  for (const auto& f : family.findings) {
    const auto& c = f.candidate;
    std::printf("finding: series %zu, %s %s at point %zu, %.4g -> %.4g (%+.1f%%)\n", f.series,
                std::string(to_string(c.method)).c_str(), std::string(to_string(c.direction)).c_str(), c.point_index,
                c.baseline, c.latest, 100.0 * c.relative_delta);
  }
  return 0;
}
