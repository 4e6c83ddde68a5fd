// An embedder's program, built only from what `meson install` put under a prefix and what
// `pkg-config benchhist` says (tests/headers/installed.sh). It also uses toml++ header-only,
// as a dashboard reading its own settings might: benchhist.pc must not hand it the library's
// own toml++ build flags (-DTOML_HEADER_ONLY=0 made this fail to link).
#include <cstdio>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "benchhist/benchhist.hpp"

int main() {
  using namespace benchhist;
  const auto settings = toml::parse("step_at = 30\n");
  const int step_at = settings["step_at"].value_or(0);

  std::vector<detect::Series> family(2);
  for (std::size_t s = 0; s < family.size(); ++s)
    family[s].key = SeriesKey{DiscriminantSet{Engine::bmf, "x86_64-unknown-linux-gnu", "ci"},
                              BenchmarkId({s == 0 ? "step" : "flat"}), MetricKind::wall_time};
  for (int i = 0; i < 60; ++i) {
    const double wiggle = ((i * 37) % 11 - 5) * 0.002;
    family[0].values.push_back((i < step_at ? 100.0 : 125.0) * (1 + wiggle));
    family[1].values.push_back(50.0 * (1 + wiggle));
  }
  const auto judged = detect::Detector(/*threads=*/2).judge_history(family);
  const auto& findings = judged.result.findings;
  std::printf("benchhist %s: %zu finding(s)\n", tool_version.data(), findings.size());
  for (const auto& f : findings) std::printf("  %s at point %zu\n", family[f.series].key.id.qualified().c_str(), f.candidate.point_index);
  return findings.size() == 1 && findings[0].series == 0 && findings[0].candidate.point_index == 30 ? 0 : 1;
}
