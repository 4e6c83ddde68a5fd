#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>
#include <filesystem>
#include <fstream>

#include "benchhist/error.hpp"
#include "benchhist/probe/process.hpp"

using namespace benchhist;
namespace fs = std::filesystem;

namespace {

probe::ProcessSpec cmd(std::vector<std::string> argv, bool out = true, bool err = false, fs::path cwd = {}) {
  probe::ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.capture_stdout = out;
  spec.capture_stderr = err;
  spec.cwd = std::move(cwd);
  return spec;
}

}  // namespace

TEST_CASE("run_process captures stdout and reports the exit code", "[probe][process]") {
  auto r = probe::run_process(cmd({"sh", "-c", "printf 'hello\\n'; exit 3"}));
  CHECK(r.exited);
  CHECK(r.exit_code == 3);
  CHECK(r.out == "hello\n");
  CHECK(r.err.empty());
  CHECK_FALSE(r.success());
}

TEST_CASE("run_process captures stderr separately when asked", "[probe][process]") {
  auto r = probe::run_process(cmd({"sh", "-c", "echo out; echo err >&2"}, true, true));
  CHECK(r.success());
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
}

TEST_CASE("run_process drains large stdout and stderr together without deadlock", "[probe][process]") {
  // 1 MiB on each stream: far beyond a pipe buffer, interleaved.
  auto r = probe::run_process(cmd({"sh", "-c",
                            "head -c 1048576 /dev/zero | tr '\\0' a >&2 & head -c 1048576 /dev/zero | tr '\\0' b; wait"},
                           true, true));
  CHECK(r.success());
  CHECK(r.out.size() == 1048576);
  CHECK(r.err.size() == 1048576);
  CHECK(r.out.find_first_not_of('b') == std::string::npos);
  CHECK(r.err.find_first_not_of('a') == std::string::npos);
}

TEST_CASE("run_process runs in the requested working directory", "[probe][process]") {
  auto dir = fs::temp_directory_path() / ("bh_probe_cwd_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto r = probe::run_process(cmd({"pwd", "-P"}, true, false, dir));
  CHECK(r.success());
  CHECK(r.out == fs::canonical(dir).string() + "\n");
  fs::remove_all(dir);
}

TEST_CASE("run_process sets and removes environment variables for the child only", "[probe][process]") {
  ::setenv("BH_PROBE_TEST_REMOVE", "present", 1);
  ::setenv("BH_PROBE_TEST_KEEP", "kept", 1);
  auto spec = cmd({"sh", "-c", "echo \"${BH_PROBE_TEST_REMOVE-unset}|$BH_PROBE_TEST_KEEP|$BH_PROBE_TEST_NEW\""});
  spec.env_changes["BH_PROBE_TEST_REMOVE"] = std::nullopt;
  spec.env_changes["BH_PROBE_TEST_NEW"] = "new value";
  auto r = probe::run_process(spec);
  CHECK(r.out == "unset|kept|new value\n");
  // The caller's environment is untouched.
  CHECK(std::string(::getenv("BH_PROBE_TEST_REMOVE")) == "present");
  CHECK(::getenv("BH_PROBE_TEST_NEW") == nullptr);
  ::unsetenv("BH_PROBE_TEST_REMOVE");
  ::unsetenv("BH_PROBE_TEST_KEEP");
}

TEST_CASE("run_process gives the child an empty stdin", "[probe][process]") {
  auto r = probe::run_process(cmd({"sh", "-c", "cat; echo done"}));
  CHECK(r.out == "done\n");
}

TEST_CASE("run_process reports a terminating signal instead of an exit code", "[probe][process]") {
  auto r = probe::run_process(cmd({"sh", "-c", "kill -TERM $$"}));
  CHECK_FALSE(r.exited);
  CHECK(r.signal == SIGTERM);
  CHECK_FALSE(r.success());
}

TEST_CASE("run_process throws an io Error naming the command when it cannot spawn", "[probe][process]") {
  try {
    probe::run_process(cmd({"bh-no-such-program-xyz", "--flag"}));
    FAIL("expected an Error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::io);
    CHECK(e.message() == "failed to run the command \"bh-no-such-program-xyz --flag\"");
    CHECK(e.subject() == "bh-no-such-program-xyz");
    CHECK_FALSE(e.hint().empty());
  }
  CHECK_THROWS_AS(probe::run_process(cmd({})), Error);
  CHECK_THROWS_AS(probe::run_process(cmd({"true"}, true, false, "/nonexistent/bh/dir")), Error);
}

TEST_CASE("run_process_streaming inherits the streams and reports exit code and signal", "[probe][process]") {
  // Redirect our stdout into a file so the inherited stream can be observed.
  auto file = fs::temp_directory_path() / ("bh_probe_stream_" + std::to_string(::getpid()));
  std::fflush(stdout);
  int saved = ::dup(STDOUT_FILENO);
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(fd >= 0);
  ::dup2(fd, STDOUT_FILENO);
  ::close(fd);
  auto spec = cmd({"sh", "-c", "echo streamed; exit 7"});
  spec.capture_stdout = true;  // ignored by the streaming variant
  auto r = probe::run_process_streaming(spec);
  auto r2 = probe::run_process_streaming(cmd({"sh", "-c", "kill -KILL $$"}));
  // tee_stdout: still streamed to our stdout, and also kept (cargo bench's #[bench] lines).
  auto tee = cmd({"sh", "-c", "echo teed; echo to-stderr >&2"});
  tee.tee_stdout = true;
  auto r3 = probe::run_process_streaming(tee);
  std::fflush(stdout);
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  CHECK(r.exited);
  CHECK(r.exit_code == 7);
  CHECK(r.out.empty());
  CHECK(r3.success());
  CHECK(r3.out == "teed\n");
  CHECK(r3.err.empty());  // stderr stays inherited
  CHECK_FALSE(r2.exited);
  CHECK(r2.signal == SIGKILL);
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  CHECK(line == "streamed");
  std::getline(in, line);
  CHECK(line == "teed");
  fs::remove(file);
}

TEST_CASE("describe_command joins argv with single spaces", "[probe][process]") {
  CHECK(probe::describe_command({"cargo", "bench", "--workspace"}) == "cargo bench --workspace");
  CHECK(probe::describe_command({}).empty());
}

TEST_CASE("concurrent run_process calls keep their outputs apart and all finish", "[probe][process]") {
  std::vector<std::thread> threads;
  std::vector<std::string> outputs(6);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    threads.emplace_back([i, &outputs] {
      // A short sleep overlaps the children so a leaked pipe end would delay another's EOF.
      auto r = probe::run_process(cmd({"sh", "-c", "sleep 0.2; echo child-" + std::to_string(i)}));
      outputs[i] = r.out;
    });
  }
  auto start = std::chrono::steady_clock::now();
  for (auto& t : threads) t.join();
  auto elapsed = std::chrono::steady_clock::now() - start;
  for (std::size_t i = 0; i < outputs.size(); ++i) CHECK(outputs[i] == "child-" + std::to_string(i) + "\n");
  CHECK(elapsed < std::chrono::seconds(5));
}

TEST_CASE("stderr can be captured while stdout is inherited", "[probe][process]") {
  auto r = probe::run_process(cmd({"sh", "-c", "echo to-stderr >&2"}, false, true));
  CHECK(r.success());
  CHECK(r.out.empty());
  CHECK(r.err == "to-stderr\n");
}

TEST_CASE("a program path with a slash is resolved relative to the requested cwd", "[probe][process]") {
  auto dir = fs::temp_directory_path() / ("bh_probe_rel_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream(dir / "tool.sh") << "#!/bin/sh\necho relative-ok\n";
  }
  fs::permissions(dir / "tool.sh", fs::perms::owner_all);
  auto r = probe::run_process(cmd({"./tool.sh"}, true, false, dir));
  CHECK(r.out == "relative-ok\n");
  fs::remove_all(dir);
}
