#include "benchhist/collect/bench_command.hpp"

namespace benchhist::collect {

std::vector<std::string> cargo_bench_argv(const BenchScope& scope, const std::string& cargo_program) {
  std::vector<std::string> argv{cargo_program, "bench"};
  if (scope.packages.empty()) {
    argv.emplace_back("--workspace");
    for (const auto& e : scope.excludes) argv.insert(argv.end(), {"--exclude", e});
  } else {
    for (const auto& p : scope.packages) argv.insert(argv.end(), {"--package", p});
  }
  for (const auto& b : scope.benches) argv.insert(argv.end(), {"--bench", b});
  for (const auto& f : scope.features) argv.insert(argv.end(), {"--features", f});
  if (scope.all_features) argv.emplace_back("--all-features");
  if (scope.no_default_features) argv.emplace_back("--no-default-features");
  if (!scope.passthrough.empty()) {
    argv.emplace_back("--");
    argv.insert(argv.end(), scope.passthrough.begin(), scope.passthrough.end());
  }
  return argv;
}

std::string cargo_program(const probe::Environment& env) { return env.non_empty("CARGO").value_or("cargo"); }

std::filesystem::path target_root(const probe::Environment& env, const std::filesystem::path& repo_dir) {
  if (auto dir = env.non_empty("CARGO_TARGET_DIR")) {
    std::filesystem::path p(*dir);
    // Absolute because Cargo runs each bench binary with its package as working directory.
    return (p.is_absolute() ? p : repo_dir / p).lexically_normal();
  }
  return (repo_dir / "target").lexically_normal();
}

std::map<std::string, std::optional<std::string>> bench_environment(const std::filesystem::path& root,
                                                                    bool strip_toolchain_overrides) {
  std::map<std::string, std::optional<std::string>> env{
      {"GUNGRAUN_SAVE_SUMMARY", std::string("pretty-json")},
      {"CARGO_TARGET_DIR", root.string()},
  };
  if (strip_toolchain_overrides) {
    env["RUSTUP_TOOLCHAIN"] = std::nullopt;
    env["CARGO"] = std::nullopt;
  }
  return env;
}

}  // namespace benchhist::collect
