// The real services of backfill and its interrupt guard (docs/backfill.md,
// docs/formats.md#toolchain).
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "benchhist/collect/backfill.hpp"
#include "probe/hardware.hpp"
#include "probe/toolchain.hpp"

namespace benchhist::collect {
namespace {

// The write end of the active guard's self-pipe. A signal handler can reach no object, so
// this one descriptor is the only global the guard needs; -1 while no guard is active.
std::atomic<int> g_interrupt_pipe{-1};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free atomic");

extern "C" void backfill_interrupt_handler(int sig) {
  const int saved_errno = errno;
  const int fd = g_interrupt_pipe.load(std::memory_order_relaxed);
  if (fd >= 0) {
    const unsigned char b = static_cast<unsigned char>(sig);
    [[maybe_unused]] auto n = ::write(fd, &b, 1);  // non-blocking; a full pipe already says enough
  }
  errno = saved_errno;
}

}  // namespace

InterruptGuard::InterruptGuard() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
    throw Error(ErrorKind::io, "failed to create the interrupt pipe", {}, std::strerror(errno));
  read_fd_ = fds[0];
  write_fd_ = fds[1];
  int expected = -1;
  if (!g_interrupt_pipe.compare_exchange_strong(expected, write_fd_)) {
    ::close(read_fd_);
    ::close(write_fd_);
    throw Error(ErrorKind::internal, "another backfill interrupt guard is already active in this process");
  }
  struct sigaction sa {};
  sa.sa_handler = backfill_interrupt_handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // blocking waits resume; the loop polls pending() between steps
  ::sigaction(SIGINT, &sa, &old_int_);
  ::sigaction(SIGTERM, &sa, &old_term_);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
  g_interrupt_pipe.store(-1);
  ::close(read_fd_);
  ::close(write_fd_);
}

int InterruptGuard::pending() {
  unsigned char buf[16];
  ssize_t n;
  while ((n = ::read(read_fd_, buf, sizeof buf)) > 0)
    if (received_ == 0) received_ = buf[0];
  return received_;
}

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
  s.pid = static_cast<long>(::getpid());
  s.announce = [](std::string_view) {};
  return s;
}

}  // namespace benchhist::collect
