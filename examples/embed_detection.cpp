// Embedding the detection core in another harness: judge your own series with the same
// gates, split-search correction and false-discovery control as `analyze`, without storage,
// git or the CLI. Prints one line per series, one per finding and the census.
//
// Two ways to build it, same output (a test compares them):
//   c++ -std=c++20 -DBENCHHIST_HEADER_ONLY -I include examples/embed_detection.cpp -pthread -o /tmp/embed_detection
//   (header-only: nothing to link), or against libbenchhist (pkg-config benchhist).

#include <cstdio>
#include <string>
#include <vector>

#include "benchhist/detect.hpp"

int main() {
  using namespace benchhist;
  // Three wall-time series of one family, in nanoseconds: a step at point 30, a flat one and
  // a slow climb.
  std::vector<detect::Series> family(3);
  const char* names[] = {"parse/step", "parse/flat", "parse/climb"};
  for (std::size_t s = 0; s < family.size(); ++s)
    family[s].key = SeriesKey{DiscriminantSet{Engine::criterion, "x86_64-unknown-linux-gnu", "ci"},
                              BenchmarkId({std::string(names[s])}), MetricKind::wall_time};
  for (int i = 0; i < 60; ++i) {
    const double wiggle = ((i * 37) % 11 - 5) * 0.002;
    family[0].values.push_back((i < 30 ? 100.0 : 125.0) * (1 + wiggle));
    family[1].values.push_back(50.0 * (1 + wiggle));
    family[2].values.push_back((200.0 + i * 0.5) * (1 + wiggle));
  }

  // One call: the family size, every series judged (on two threads), Benjamini–Hochberg at
  // 10 %, the findings ranked.
  const detect::Detector detector(/*threads=*/2);
  const auto judged = detector.judge_history(family);

  for (std::size_t i = 0; i < judged.judgements.size(); ++i) {
    const auto& j = judged.judgements[i];
    const std::string name = family[i].key.id.qualified();
    if (!j.judged()) {
      std::printf("%s: not judged (%s)\n", name.c_str(), std::string(to_string(*j.unjudged)).c_str());
      continue;
    }
    const auto declined = j.change_point.first_declined();
    std::printf("%s: judged; change-point ladder %s%s\n", name.c_str(), declined ? "declined at " : "passed",
                declined ? declined->c_str() : "");
  }
  for (const auto& f : judged.result.findings) {
    const auto& c = f.candidate;
    std::printf("finding: %s, %s %s at point %zu, %.4g ns -> %.4g ns (%+.1f%%)\n",
                family[f.series].key.id.qualified().c_str(), std::string(to_string(c.method)).c_str(),
                std::string(to_string(c.direction)).c_str(), c.point_index, c.baseline, c.latest,
                100.0 * c.relative_delta);
  }
  const Census census = detect::census_of(judged);
  std::printf("census: %llu judged of %llu; outcome %s\n", static_cast<unsigned long long>(census.judged),
              static_cast<unsigned long long>(census.total()),
              std::string(to_string(census.outcome(judged.result.findings.size()))).c_str());
  return 0;
}
