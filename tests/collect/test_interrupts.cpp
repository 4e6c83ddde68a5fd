// collect's answers to SIGINT/SIGTERM (docs/bench-command.md#interrupting-a-run) with a real
// benchmark command: a shell that signals this test process the way a terminal's Ctrl-C or a
// supervisor's SIGTERM would, then waits, ignores the signal or finishes. The rest of collect
// (git, toolchain, hardware) is substituted, as in test_bench_command.

#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "benchhist/collect/collect.hpp"
#include "benchhist/collect/interrupts.hpp"
#include "benchhist/error.hpp"
#include "benchhist/probe/process.hpp"
#include "benchhist/storage/local_store.hpp"
#include "common/files.hpp"

namespace fs = std::filesystem;
using namespace benchhist;
using benchhist::testing::read_file;
using benchhist::testing::TempDir;

namespace {

// A Google Benchmark report the command writes when it gets that far.
constexpr const char* write_report =
    R"(printf '{"context": {"date": "2026-12-03T12:00:00+00:00", "library_build_type": "release"}, )"
    R"("benchmarks": [{"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 1, )"
    R"("repetition_index": 0, "threads": 1, "iterations": 100, "real_time": 100, "cpu_time": 90, )"
    R"("time_unit": "ns"}]}' > "$BENCHHIST_OUTPUT_DIR/report.json")";

// Alive and not a zombie (an orphan's zombie lingers where PID 1 does not reap).
bool alive(pid_t pid) {
  const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  if (stat.empty()) return false;
  const auto paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
}

bool gone_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (alive(pid)) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

struct Rig {
  TempDir dir{"bh-interrupts"};
  fs::path tmp = dir.path() / "tmp", logs = dir.path() / "logs", marks = dir.path() / "marks";
  probe::MapEnvironment env;
  storage::LocalStore store{dir.path() / "store"};
  std::vector<std::string> announcements;
  int runs = 0;
  const std::string self = std::to_string(::getpid());

  Rig() {
    for (const auto& d : {tmp, logs, marks}) fs::create_directories(d);
    env.set("TMPDIR", tmp.string());
  }

  collect::CollectServices services() {
    collect::CollectServices s;
    s.clock = [] { return Timestamp(std::chrono::floor<std::chrono::nanoseconds>(std::chrono::system_clock::now())); };
    s.run_benchmarks = [this](const probe::ProcessSpec& spec) {
      ++runs;
      return probe::run_process_streaming(spec);  // the real child, as CollectServices::system runs it
    };
    s.probe_git = [](const fs::path&) {
      return GitState{std::string("4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39"), std::string("main"), false};
    };
    s.probe_toolchain = [] { return ToolchainInfo{"x86_64-unknown-linux-gnu", std::string("1.91.0")}; };
    s.probe_cxx_target = [] { return std::optional<probe::CxxTarget>(); };
    s.probe_ci = [] { return EnvContext{}; };
    s.probe_hardware = [] { return MachineDescription{8, 1, {"Test CPU 3000"}, {{9867, 8}}, "4ffd697efb295d32"}; };
    s.announce = [this](std::string_view line) { announcements.emplace_back(line); };
    return s;
  }

  collect::CollectRequest request(const std::string& command) const {
    collect::CollectRequest r;
    r.repo_dir = dir.path();
    r.project = "demo";
    r.bench_command = command;
    r.output_log = collect::OutputLog{logs};  // the command's output stays out of the test's
    return r;
  }

  // `kill -<sig> <this process>`: what the terminal or a supervisor does.
  std::string signal_us(const char* sig) const { return std::string("kill -") + sig + " " + self; }

  bool output_dirs_left() const {
    for (const auto& e : fs::directory_iterator(tmp))
      if (e.path().filename().string().starts_with("benchhist-output-")) return true;
    return false;
  }

  pid_t mark(const std::string& name) const { return static_cast<pid_t>(std::stol(read_file(marks / name))); }
};

// The message of the error collect throws, or "no error".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message() + " | " + e.cause();
  }
  return "no error";
}

bool announced(const std::vector<std::string>& lines, const std::string& start) {
  for (const auto& l : lines)
    if (l.starts_with(start)) return true;
  return false;
}

}  // namespace

TEST_CASE("an interrupt passes on to the benchmark command's whole process group, which collect stops and cleans up "
          "after, storing nothing", "[collect][interrupt]") {
  Rig rig;
  struct sigaction before {};
  ::sigaction(SIGTERM, nullptr, &before);
  // The command leads a group of its own; a grandchild in it must go too.
  const std::string cmd = "echo $$ > " + (rig.marks / "child").string() + "; cut -d' ' -f5 /proc/$$/stat > " +
                          (rig.marks / "group").string() + "; sleep 30 & echo $! > " +
                          (rig.marks / "grandchild").string() + "; " + rig.signal_us("TERM") + "; wait";
  const auto svc = rig.services();
  const std::string error = error_of([&] { collect::collect(rig.request(cmd), rig.env, &rig.store, svc); });
  CHECK(error == "collect was interrupted by SIGTERM while the benchmark command ran: nothing was stored | "
                 "interrupted by SIGTERM");
  CHECK(rig.mark("group") == rig.mark("child"));
  CHECK(gone_within(rig.mark("grandchild"), std::chrono::seconds(5)));
  CHECK(announced(rig.announcements, "interrupted by SIGTERM: stopping the benchmark command (its process group was "
                                     "sent SIGTERM); press Ctrl-C again (or send another SIGTERM) to terminate it"));
  CHECK_FALSE(rig.output_dirs_left());
  CHECK(rig.store.list("v1/").empty());

  // The guard was collect's own: the previous handler is back.
  struct sigaction after {};
  ::sigaction(SIGTERM, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
}

TEST_CASE("a benchmark command that ignores the interrupt is terminated by a second one, with SIGTERM and then SIGKILL",
          "[collect][interrupt]") {
  Rig rig;
  // `trap ''` is inherited by the sleeps, so only SIGKILL ends the group.
  const std::string cmd = "trap '' INT TERM; echo $$ > " + (rig.marks / "child").string() + "; " +
                          rig.signal_us("INT") + "; sleep 0.3; " + rig.signal_us("INT") +
                          "; while :; do sleep 0.1; done";
  // Without the second interrupt's answer the command would run forever: end it for the test.
  std::atomic<bool> done{false};
  std::thread watchdog([&] {
    for (int i = 0; i < 300 && !done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!done && fs::exists(rig.marks / "child")) {
      ::kill(-rig.mark("child"), SIGKILL);
      ::kill(rig.mark("child"), SIGKILL);
    }
  });
  const auto svc = rig.services();
  const auto start = std::chrono::steady_clock::now();
  const std::string error = error_of([&] { collect::collect(rig.request(cmd), rig.env, &rig.store, svc); });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  done = true;
  watchdog.join();
  CHECK(error == "collect was interrupted by SIGINT while the benchmark command ran: nothing was stored | "
                 "interrupted by SIGINT");
  // The SIGKILL comes after the documented grace period, well before the watchdog's 30 s.
  CHECK(seconds >= static_cast<double>(collect::stop_grace.count()));
  CHECK(seconds < 15);
  CHECK_FALSE(alive(rig.mark("child")));
  CHECK(announced(rig.announcements, "interrupted by SIGINT: stopping the benchmark command"));
  CHECK(announced(rig.announcements, "interrupted again (SIGINT): terminating the benchmark command's process group "
                                     "(SIGTERM, then SIGKILL if it has not ended 3 s later)"));
  CHECK_FALSE(rig.output_dirs_left());
  CHECK(rig.store.list("v1/").empty());
}

TEST_CASE("an interrupt before the benchmark command starts keeps it from starting", "[collect][interrupt]") {
  Rig rig;
  auto svc = rig.services();
  const auto probe = svc.probe_git;
  svc.probe_git = [&](const fs::path& dir) {
    ::raise(SIGINT);  // a Ctrl-C while git is probed
    return probe(dir);
  };
  const std::string error = error_of([&] { collect::collect(rig.request("true"), rig.env, &rig.store, svc); });
  CHECK(error == "collect was interrupted by SIGINT before the benchmark command ran: nothing was stored | "
                 "interrupted by SIGINT");
  CHECK(rig.runs == 0);
}

TEST_CASE("an interrupt while collect waits for another collect's lock stops it before the benchmark command runs",
          "[collect][interrupt][lock]") {
  Rig rig;
  auto svc = rig.services();
  int asked = 0;
  svc.lock_target = [&](const fs::path&) {
    if (++asked == 3) ::raise(SIGINT);  // a Ctrl-C while it waits
    collect::TargetLock busy;
    busy.busy = true;
    busy.holder = 4242;
    return busy;
  };
  auto req = rig.request("true");
  std::optional<collect::InterruptGuard> backfills;
  SECTION("collect") {}
  SECTION("under backfill's guard, whose first interrupt would let a measurement finish: none is under way") {
    backfills.emplace();
    req.handle_interrupts = false;
    req.interrupt_guard = &*backfills;
    req.first_interrupt = collect::FirstInterrupt::finish;
  }
  const std::string error = error_of([&] { collect::collect(req, rig.env, &rig.store, svc); });
  CHECK(error == "collect was interrupted by SIGINT while it waited for another collect to end: nothing was stored | "
                 "interrupted by SIGINT");
  CHECK(asked == 3);
  CHECK(rig.runs == 0);
  CHECK(announced(rig.announcements, "another collect (process 4242) is running benchmarks that write into "));
  CHECK(std::count_if(rig.announcements.begin(), rig.announcements.end(),
                      [](const std::string& l) { return l.starts_with("another collect"); }) == 1);  // said once
}

TEST_CASE("under backfill's guard the first interrupt lets the measurement finish and be stored; a second stops it",
          "[collect][interrupt]") {
  Rig rig;
  collect::InterruptGuard guard;
  auto finish = [&](const std::string& cmd) {
    auto req = rig.request(cmd);
    req.handle_interrupts = false;
    req.interrupt_guard = &guard;
    req.first_interrupt = collect::FirstInterrupt::finish;
    return req;
  };
  const auto svc = rig.services();

  SECTION("one interrupt") {
    const auto out = collect::collect(finish(rig.signal_us("TERM") + "; sleep 0.3; " + write_report), rig.env,
                                      &rig.store, svc);
    CHECK(out.objects.size() == 1);
    CHECK(rig.store.list("v1/").size() == 1);
    CHECK(guard.pending() == SIGTERM);  // for backfill, which stops after this commit
    CHECK(announced(rig.announcements,
                    "interrupted by SIGTERM: stopping once the benchmark command under way has finished (its results "
                    "are stored); press Ctrl-C again (or send another SIGTERM) to stop the running benchmark now"));
  }
  SECTION("two interrupts") {
    const std::string cmd = rig.signal_us("TERM") + "; sleep 0.3; " + rig.signal_us("INT") + "; sleep 30; " + write_report;
    const auto start = std::chrono::steady_clock::now();
    const std::string error = error_of([&] { collect::collect(finish(cmd), rig.env, &rig.store, svc); });
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    CHECK_THAT(error, Catch::StartsWith("collect was interrupted by SIGTERM while the benchmark command ran"));
    CHECK(rig.store.list("v1/").empty());
    CHECK(guard.received() == 2);
    CHECK(announced(rig.announcements, "interrupted again (SIGINT): terminating the benchmark command's process group"));
  }
  CHECK_FALSE(rig.output_dirs_left());
}

TEST_CASE("the benchmark command in its own group reads /dev/null, never the terminal it is not in the foreground of",
          "[collect][interrupt]") {
  // Reading the terminal from a background group would stop the command (SIGTTIN) and hang collect.
  Rig rig;
  const std::string cmd = "readlink /proc/self/fd/0 > " + (rig.marks / "stdin").string() + "; " + write_report;
  const auto svc = rig.services();
  // This process's stdin is a pipe for the call (under a test runner it may already be /dev/null).
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const int saved = ::dup(STDIN_FILENO);
  REQUIRE(::dup2(pipe_fds[0], STDIN_FILENO) >= 0);
  collect::collect(rig.request(cmd), rig.env, &rig.store, svc);
  ::dup2(saved, STDIN_FILENO);
  for (const int fd : {saved, pipe_fds[0], pipe_fds[1]}) ::close(fd);
  CHECK(read_file(rig.marks / "stdin") == "/dev/null\n");
}
