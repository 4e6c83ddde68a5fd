#include <chrono>

#include "benchhist/collect/collect.hpp"
#include "benchhist/error.hpp"
#include "probe/ci_provider.hpp"
#include "probe/git_state.hpp"
#include "probe/hardware.hpp"
#include "probe/toolchain.hpp"

namespace benchhist::collect {

CollectServices CollectServices::system(const probe::Environment& env) {
  CollectServices s;
  s.clock = [] {
    return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
  };
  s.run_benchmarks = [](const probe::ProcessSpec& spec) {
    try {
      return probe::run_process_streaming(spec);
    } catch (const Error& e) {
      throw Error(ErrorKind::benchmark_not_started, "failed to run the benchmark command \"" + probe::describe_command(spec.argv) + "\"",
                  spec.cwd.string(), e.message(), spec.argv.size() == 3 && spec.argv[0] == "/bin/sh"
                      ? "check that /bin/sh exists and the working directory is readable"
                      : "check that cargo is installed and on PATH (or that $CARGO names it)");
    }
  };
  s.probe_git = [](const std::filesystem::path& repo) { return benchhist::probe::probe_git_state(repo); };
  // collect describes the launching toolchain: rustc runs in the tool's own environment and
  // working directory (docs/formats.md#toolchain).
  s.probe_toolchain = [] { return benchhist::probe::probe_toolchain(); };
  s.probe_cxx_target = [&env] { return benchhist::probe::probe_cxx_target(env); };
  s.probe_ci = [&env] { return probe::detect_ci_provider(env); };
  s.probe_hardware = [] { return probe::describe_hardware(); };  // fingerprint included
  return s;
}

}  // namespace benchhist::collect
