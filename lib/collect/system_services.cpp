#include <chrono>

#include "benchhist/collect/collect.hpp"
#include "benchhist/error.hpp"
#include "benchhist/probe/ci_provider.hpp"
#include "benchhist/probe/git_state.hpp"
#include "benchhist/probe/hardware.hpp"
#include "benchhist/probe/toolchain.hpp"

namespace benchhist {

CollectServices CollectServices::system(const Environment& env) {
  CollectServices s;
  s.clock = [] {
    return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
  };
  s.run_benchmarks = [](const ProcessSpec& spec) {
    try {
      return run_process_streaming(spec);
    } catch (const Error& e) {
      throw Error(ErrorKind::benchmark, "failed to run the benchmark command \"" + describe_command(spec.argv) + "\"",
                  spec.cwd.string(), e.message(), spec.argv.size() == 3 && spec.argv[0] == "/bin/sh"
                      ? "check that /bin/sh exists and the working directory is readable"
                      : "check that cargo is installed and on PATH (or that $CARGO names it)");
    }
  };
  s.probe_git = [](const std::filesystem::path& repo) { return benchhist::probe_git_state(repo); };
  // collect describes the launching toolchain: rustc runs in the tool's own environment and
  // working directory (docs/formats.md#toolchain).
  s.probe_toolchain = [] { return benchhist::probe_toolchain(); };
  s.probe_cxx_target = [&env] { return benchhist::probe_cxx_target(env); };
  s.probe_ci = [&env] { return detect_ci_provider(env); };
  s.probe_hardware = [] { return describe_hardware(); };  // fingerprint included
  return s;
}

}  // namespace benchhist
