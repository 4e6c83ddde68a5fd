// Child processes without a shell (docs/formats.md#benchmark-invocation, #git-facts, #toolchain),
// started by the platform layer (platform/platform.hpp).

#include "benchhist/probe/process.hpp"

#include <cerrno>
#include <filesystem>
#include <functional>
#include <set>
#include <string_view>
#include <system_error>

#include "benchhist/error.hpp"
#include "platform/platform.hpp"

namespace benchhist::probe {
namespace {

// The child's environment: ours with the requested changes applied. Built as owned strings
// so the caller's environment is never modified (no global state).
std::vector<std::string> child_environment(const ProcessSpec& spec) {
  std::vector<std::string> out;
  std::set<std::string, std::less<>> changed;
  for (const auto& [k, v] : spec.env_changes) changed.insert(k);
  for (auto& entry : platform::current_environment()) {
    const std::string_view name = std::string_view(entry).substr(0, entry.find('='));
    if (changed.count(name)) continue;
    out.push_back(std::move(entry));
  }
  for (const auto& [k, v] : spec.env_changes) {
    if (v) out.push_back(k + "=" + *v);
  }
  return out;
}

enum class Mode { probe, streaming };

ProcessResult run(const ProcessSpec& spec, Mode mode) {
  const std::string cmd = describe_command(spec.argv);
  auto fail = [&](const std::string& what, std::string hint) -> Error {
    return Error(ErrorKind::io, "failed to run the command \"" + cmd + "\"",
                 spec.argv.empty() ? std::string{} : spec.argv[0], what, std::move(hint));
  };
  constexpr std::string_view install_hint = "check that the program is installed and on PATH";
  if (spec.argv.empty() || spec.argv[0].empty()) throw fail("no program was given", std::string(install_hint));
  // If the cwd does not exist the spawn reports it as the program's failure; check it first
  // so the message names the directory rather than the program.
  if (!spec.cwd.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(spec.cwd, ec))
      throw fail("working directory " + spec.cwd.string() + " is not an accessible directory: " +
                     std::generic_category().message(ENOENT),
                 std::string(install_hint));
  }

  platform::ChildRequest request;
  request.argv = spec.argv;
  request.cwd = spec.cwd;
  request.environment = child_environment(spec);
  request.stdin_from_null = mode == Mode::probe;
  // Streaming with tee_stdout: stdout still reaches our stdout, and is kept as well.
  request.tee_stdout = mode == Mode::streaming && spec.tee_stdout;
  request.capture_stdout = (mode == Mode::probe && spec.capture_stdout) || request.tee_stdout;
  request.capture_stderr = mode == Mode::probe && spec.capture_stderr;
  if (mode == Mode::streaming) {
    request.log_file = spec.log_file;
    request.interrupts = spec.interrupts;
  }
  platform::ChildOutcome child;
  try {
    child = platform::run_child(request);
  } catch (const platform::ChildError& e) {
    // Only a failed start is the caller's to fix by installing the program.
    if (e.step == platform::ChildStep::log)
      throw fail(e.what(), "check that the directory of " + spec.log_file.string() + " exists and is writable");
    throw fail(e.what(), e.step == platform::ChildStep::start ? std::string(install_hint) : std::string{});
  }
  ProcessResult result;
  result.exited = child.exited;
  result.exit_code = child.exit_code;
  result.signal = child.signal;
  result.out = std::move(child.out);
  result.err = std::move(child.err);
  return result;
}

}  // namespace

ProcessResult run_process(const ProcessSpec& spec) { return run(spec, Mode::probe); }

ProcessResult run_process_streaming(const ProcessSpec& spec) { return run(spec, Mode::streaming); }

std::string describe_command(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    if (!s.empty()) s += ' ';
    s += a;
  }
  return s;
}

}  // namespace benchhist::probe
