// The real services of backfill (docs/backfill.md, docs/formats.md#toolchain).
#include <chrono>

#include "benchhist/collect/backfill.hpp"
#include "platform/platform.hpp"
#include "probe/hardware.hpp"
#include "probe/toolchain.hpp"

namespace benchhist::collect {

BackfillServices BackfillServices::system(const probe::Environment& env) {
  BackfillServices s;
  s.clock = [] {
    return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
  };
  s.run_command = [](const probe::ProcessSpec& spec) { return probe::run_process(spec); };
  // docs/formats.md#toolchain: the worktree's own toolchain pin governs, not the launching one.
  s.probe_toolchain = [](const std::filesystem::path& dir) {
    probe::ToolchainProbeOptions o;
    o.cwd = dir;
    o.isolate_from_launcher = true;
    return benchhist::probe::probe_toolchain(o);
  };
  s.probe_cxx_target = [&env](const std::filesystem::path& dir) { return benchhist::probe::probe_cxx_target(env, dir); };
  s.machine_key = [] { return probe::describe_hardware().fingerprint; };
  s.collect_services = [](const std::filesystem::path& dir, const probe::Environment& commit_env) {
    auto cs = CollectServices::system(commit_env);
    cs.probe_toolchain = [dir] {
      probe::ToolchainProbeOptions o;
      o.cwd = dir;
      o.isolate_from_launcher = true;
      return benchhist::probe::probe_toolchain(o);
    };
    return cs;
  };
  s.collect = [](const CollectRequest& r, const probe::Environment& e, storage::ObjectStore* st, const CollectServices& c) {
    return collect::collect(r, e, st, c);
  };
  s.temp_dir = env.non_empty("TMPDIR").value_or("/tmp");
  s.pid = platform::current_process_id();
  s.announce = [](std::string_view) {};
  return s;
}

}  // namespace benchhist::collect
