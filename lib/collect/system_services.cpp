#include <chrono>
#include <cstdio>
#include <system_error>

#include "benchhist/collect/collect.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "platform/platform.hpp"
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
  // One lock file per target directory, in the temporary directory rather than the target
  // directory itself: a --bench-command project need not ignore `target/`, and a file made
  // there would make its next run a dirty snapshot (docs/bench-command.md#concurrent-collects).
  s.lock_target = [](const std::filesystem::path& target_root) {
    TargetLock lock;
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(target_root, ec);
    if (ec) canonical = target_root;
    canonical = canonical.lexically_normal();  // `target/./` and `target` are one directory
    if (!canonical.has_filename() && canonical != canonical.root_path()) canonical = canonical.parent_path();
    char name[64];
    std::snprintf(name, sizeof name, "cargo-bench-history-%016llx.lock",
                  static_cast<unsigned long long>(fnv1a64(canonical.string())));
    std::filesystem::path path;
    try {
      path = std::filesystem::temp_directory_path() / name;
      lock.held = platform::FileLock::try_acquire(path);
      lock.busy = !lock.held;
      if (lock.busy) lock.holder = platform::FileLock::holder(path);
    } catch (const std::exception& e) {  // filesystem_error or system_error: both name the path
      lock.unavailable = e.what();
    }
    return lock;
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
