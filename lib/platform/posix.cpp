// The platform interface on Linux (platform.hpp). The Linux-only calls — pipe2,
// renameat2, posix_spawn_file_actions_addchdir_np — are the ones docs/portability.md lists
// for a macOS port.

#include "platform/platform.hpp"

#include <fcntl.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>

extern char** environ;

namespace benchhist::platform {
namespace {

std::error_code errno_code(int err) { return {err, std::generic_category()}; }

// Closes a descriptor once; keeps the error paths below leak-free.
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& o) noexcept : fd(o.fd) { o.fd = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd = o.fd;
      o.fd = -1;
    }
    return *this;
  }
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int release() {
    const int f = fd;
    fd = -1;
    return f;
  }
};

struct Pipe {
  Fd read, write;
};

Pipe make_pipe() {
  int fds[2];
  // O_CLOEXEC so only the dup2'd copies reach the child (and no other concurrently spawned
  // child inherits our ends, which would delay EOF).
  if (::pipe2(fds, O_CLOEXEC) != 0) throw ChildError(ChildStep::pipe, errno_code(errno), "could not create a pipe");
  Pipe p;
  p.read.fd = fds[0];
  p.write.fd = fds[1];
  return p;
}

// Writes all of `bytes` unless the descriptor fails: a passed-on copy that cannot be written
// must not stop the reader draining the child.
void write_best_effort(int fd, const char* bytes, std::size_t size) {
  while (size > 0) {
    const ssize_t w = ::write(fd, bytes, size);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    bytes += w;
    size -= static_cast<std::size_t>(w);
  }
}

// The write end of the active watch's self-pipe. A signal handler can reach no object, so
// this one descriptor is the only global the watch needs; -1 while no watch is active.
std::atomic<int> g_interrupt_pipe{-1};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free atomic");

extern "C" void interrupt_handler(int sig) {
  const int saved_errno = errno;
  const int fd = g_interrupt_pipe.load(std::memory_order_relaxed);
  if (fd >= 0) {
    const unsigned char b = static_cast<unsigned char>(sig);
    [[maybe_unused]] auto n = ::write(fd, &b, 1);  // non-blocking; a full pipe already says enough
  }
  errno = saved_errno;
}

}  // namespace

std::vector<std::string> current_environment() {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) out.emplace_back(*e);
  return out;
}

long current_process_id() { return static_cast<long>(::getpid()); }

ChildOutcome run_child(const ChildRequest& request) {
  const bool cap_out = request.capture_stdout;
  const bool cap_err = request.capture_stderr;
  Pipe out_pipe, err_pipe;
  if (cap_out) out_pipe = make_pipe();
  if (cap_err) err_pipe = make_pipe();
  // O_APPEND: the child's direct writes and ours (a teed stdout) never overwrite each other.
  Fd log;
  if (!request.log_file.empty()) {
    log.fd = ::open(request.log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (log.fd < 0)
      throw ChildError(ChildStep::log, errno_code(errno), "could not open " + request.log_file.string());
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  struct ActionsGuard {
    posix_spawn_file_actions_t* a;
    ~ActionsGuard() { posix_spawn_file_actions_destroy(a); }
  } actions_guard{&actions};
  // A child in a process group of its own is not the terminal's foreground: reading the terminal
  // would stop it (SIGTTIN) and hang the run, so it reads /dev/null instead, as ninja's commands do.
  if (request.stdin_from_null || request.interrupts)
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (cap_out) posix_spawn_file_actions_adddup2(&actions, out_pipe.write.fd, STDOUT_FILENO);
  else if (log.fd >= 0) posix_spawn_file_actions_adddup2(&actions, log.fd, STDOUT_FILENO);
  if (cap_err) posix_spawn_file_actions_adddup2(&actions, err_pipe.write.fd, STDERR_FILENO);
  else if (log.fd >= 0) posix_spawn_file_actions_adddup2(&actions, log.fd, STDERR_FILENO);
  const std::string cwd = request.cwd.string();
  // glibc >= 2.29: the chdir happens in the child, so the parent's cwd is never touched.
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());

  // Signals blocked/ignored by the caller must not leak into the child (e.g. a test runner
  // ignoring SIGPIPE): reset the mask and default the common dispositions.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  struct AttrGuard {
    posix_spawnattr_t* a;
    ~AttrGuard() { posix_spawnattr_destroy(a); }
  } attr_guard{&attr};
  sigset_t empty_mask, defaults;
  sigemptyset(&empty_mask);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigmask(&attr, &empty_mask);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (request.interrupts) {
    posix_spawnattr_setpgroup(&attr, 0);  // a group of its own, led by the child
    flags |= POSIX_SPAWN_SETPGROUP;
  }
  posix_spawnattr_setflags(&attr, flags);

  std::vector<std::string> env = request.environment;
  std::vector<char*> envp;
  envp.reserve(env.size() + 1);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = request.argv;
  std::vector<char*> argvp;
  argvp.reserve(args.size() + 1);
  for (auto& a : args) argvp.push_back(a.data());
  argvp.push_back(nullptr);

  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, argvp[0], &actions, &attr, argvp.data(), envp.data());
  if (rc != 0) throw ChildError(ChildStep::start, errno_code(rc), "could not start " + request.argv[0]);

  // Our copies of the write ends must go, or the reads below never see EOF.
  out_pipe.write.reset();
  err_pipe.write.reset();

  ChildOutcome result;
  // Drain both pipes together: reading one to EOF first deadlocks when the child fills the
  // other pipe's buffer and blocks.
  std::vector<pollfd> fds;
  if (cap_out) fds.push_back({out_pipe.read.fd, POLLIN, 0});
  if (cap_err) fds.push_back({err_pipe.read.fd, POLLIN, 0});
  char buf[65536];
  // Reads what is ready on the pipes in `polled` (the first `fds.size()` entries); drops a pipe at EOF.
  auto drain = [&](const std::vector<pollfd>& polled) {
    std::vector<pollfd> still_open;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (polled[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        const ssize_t r = ::read(polled[i].fd, buf, sizeof buf);
        if (r > 0) {
          const bool is_out = cap_out && polled[i].fd == out_pipe.read.fd;
          std::string& target = is_out ? result.out : result.err;
          target.append(buf, static_cast<std::size_t>(r));
          if (is_out && request.tee_stdout)
            write_best_effort(log.fd >= 0 ? log.fd : STDOUT_FILENO, buf, static_cast<std::size_t>(r));
        } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
          continue;
        }
      }
      still_open.push_back(fds[i]);
    }
    fds = std::move(still_open);
  };

  int status = 0;
  if (!request.interrupts) {
    while (!fds.empty()) {
      const int n = ::poll(fds.data(), fds.size(), -1);
      if (n < 0) {
        if (errno == EINTR) continue;
        break;  // cannot happen with valid fds; fall through to wait for the child
      }
      drain(fds);
    }
    while (::waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) throw ChildError(ChildStep::wait, errno_code(errno), "could not wait for the child");
    }
  } else {
    // The child's exit wakes poll() through a pidfd (Linux 5.3+), so the harvest starts as soon
    // as the command ends, as with a blocking wait: a concurrent run in the same target directory
    // may rewrite the engines' files moments later. Without a pidfd a short tick bounds how late
    // the exit is noticed (and how late a SIGKILL follows its grace period).
    constexpr int tick_ms = 100;
#ifdef SYS_pidfd_open
    Fd exited{static_cast<int>(::syscall(SYS_pidfd_open, pid, 0))};
#else
    Fd exited{-1};
#endif
    const ChildInterrupts& irq = *request.interrupts;
    std::size_t seen = irq.seen;
    bool reaped = false, signalled = false, killed = false;
    std::optional<std::chrono::steady_clock::time_point> kill_at;
    auto stop = [&] {
      ::kill(-pid, SIGTERM);
      if (!kill_at) kill_at = std::chrono::steady_clock::now() + irq.stop_grace;
    };
    auto answer = [&] {
      const auto t = irq.watch->tally();
      for (; seen < t.count; ++seen) {
        switch (irq.answer(t.latest, seen + 1)) {
          case ChildSignal::none: break;
          case ChildSignal::pass_on:
            ::kill(-pid, t.latest);
            signalled = true;
            break;
          case ChildSignal::stop:
            stop();
            signalled = true;
            break;
        }
      }
    };
    answer();  // interrupts that arrived between the caller's look and the start
    while (true) {
      if (!reaped) {
        const pid_t w = ::waitpid(pid, &status, WNOHANG);
        if (w == pid) reaped = true;
        else if (w < 0 && errno != EINTR)
          throw ChildError(ChildStep::wait, errno_code(errno), "could not wait for the child");
      }
      if (kill_at && std::chrono::steady_clock::now() >= *kill_at) {
        ::kill(-pid, SIGKILL);
        kill_at.reset();
        killed = true;
      }
      if (reaped && (fds.empty() || killed)) {
        // Interrupted: members of the group still running (a stubborn grandchild) go too.
        if (!signalled || killed || ::kill(-pid, 0) != 0) break;
        if (!kill_at) stop();
      }
      std::vector<pollfd> polled = fds;
      if (exited.fd >= 0 && !reaped) polled.push_back({exited.fd, POLLIN, 0});
      polled.push_back({irq.watch->descriptor(), POLLIN, 0});
      const int n = ::poll(polled.data(), polled.size(), tick_ms);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw ChildError(ChildStep::wait, errno_code(errno), "could not wait for the child");
      }
      drain(polled);
      if (polled.back().revents & POLLIN) answer();
    }
  }
  if (WIFEXITED(status)) {
    result.exited = true;
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exited = false;
    result.signal = WTERMSIG(status);
  }
  return result;
}

// A self-pipe: the handler only writes the signal number into a non-blocking pipe and
// pending() reads it back. SA_RESTART so blocking waits resume; the caller polls pending()
// between steps, and run_child polls the pipe while a child that answers interrupts runs.
// Children get default dispositions (run_child), so a terminal Ctrl-C still reaches those
// in the caller's process group.
struct InterruptWatch::State {
  Fd read, write;
  int received = 0;  // the first signal
  std::size_t count = 0;
  int latest = 0;
  struct sigaction old_int {};
  struct sigaction old_term {};
  struct sigaction old_hup {};
  bool hup = false;  // whether SIGHUP is ours
};

InterruptWatch::InterruptWatch() : state_(std::make_unique<State>()) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
    throw std::system_error(errno_code(errno), "could not create the interrupt pipe");
  state_->read.fd = fds[0];
  state_->write.fd = fds[1];
  int expected = -1;
  if (!g_interrupt_pipe.compare_exchange_strong(expected, state_->write.fd))
    throw std::logic_error("another interrupt watch is already active in this process");
  struct sigaction sa {};
  sa.sa_handler = interrupt_handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &sa, &state_->old_int);
  ::sigaction(SIGTERM, &sa, &state_->old_term);
  // A closed terminal: the benchmark command, in a process group of its own, would not hear of it
  // otherwise. Left alone when ignored: `nohup` asked to outlive the terminal.
  ::sigaction(SIGHUP, nullptr, &state_->old_hup);
  if (state_->old_hup.sa_handler != SIG_IGN) state_->hup = ::sigaction(SIGHUP, &sa, nullptr) == 0;
}

InterruptWatch::~InterruptWatch() {
  ::sigaction(SIGINT, &state_->old_int, nullptr);
  ::sigaction(SIGTERM, &state_->old_term, nullptr);
  if (state_->hup) ::sigaction(SIGHUP, &state_->old_hup, nullptr);
  g_interrupt_pipe.store(-1);
}

int InterruptWatch::pending() {
  unsigned char buf[16];
  ssize_t n;
  while ((n = ::read(state_->read.fd, buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < n; ++i) {
      if (state_->received == 0) state_->received = buf[i];
      state_->latest = buf[i];
      ++state_->count;
    }
  return state_->received;
}

InterruptWatch::Tally InterruptWatch::tally() {
  pending();
  return {state_->count, state_->latest};
}

int InterruptWatch::descriptor() const { return state_->read.fd; }

void keep_freed_memory() noexcept {
#if defined(__GLIBC__)
  // 32 MiB is glibc's own ceiling for the adaptive mmap threshold; 256 MiB of freed memory kept
  // covers analyze's working set on a store of 20,000 runs. Measured in docs/performance.md.
  ::mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  ::mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
}

void populate_for_writing(void* data, std::size_t bytes) noexcept {
#if defined(__linux__)
  constexpr int populate_write = 23;  // MADV_POPULATE_WRITE, newer than some headers
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  // Whole pages inside the range only: a page shared with another allocation is left alone.
  const std::uintptr_t first = (begin + page - 1) / page * page, last = (begin + bytes) / page * page;
  if (last > first) (void)::madvise(reinterpret_cast<void*>(first), last - first, populate_write);
#else
  (void)data;
  (void)bytes;
#endif
}

std::optional<std::size_t> stdout_terminal_columns() {
  winsize ws{};
  if (::isatty(STDOUT_FILENO) == 1 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return static_cast<std::size_t>(ws.ws_col);
  return std::nullopt;
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

OutputTarget classify_output_path(const std::filesystem::path& path) noexcept {
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0) return OutputTarget::other;
  const auto same = [&](int fd) {
    struct stat st {};
    return ::fstat(fd, &st) == 0 && st.st_dev == target.st_dev && st.st_ino == target.st_ino;
  };
  if (same(STDOUT_FILENO)) return OutputTarget::standard_output;
  if (same(STDERR_FILENO)) return OutputTarget::standard_error;
  return S_ISREG(target.st_mode) ? OutputTarget::other : OutputTarget::not_regular;
}

std::filesystem::path make_unique_directory(const std::filesystem::path& parent, std::string_view prefix) {
  std::string pattern = (parent / (std::string(prefix) + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::system_error(errno_code(errno), "could not create a directory under " + parent.string());
  return pattern;
}

void write_new_file(const std::filesystem::path& path, std::string_view bytes, bool durable) {
  // O_EXCL with O_NOFOLLOW: never replace a file, never write through a link planted at the name.
  Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (fd.fd < 0) throw WriteError(WriteStep::create, errno_code(errno));
  auto fail = [&](int err) {
    fd.reset();
    ::unlink(path.c_str());  // never leave a partial file under the name
    throw WriteError(WriteStep::write, errno_code(err));
  };
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd.fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  if (durable && ::fsync(fd.fd) != 0) fail(errno);
  if (::close(fd.release()) != 0) fail(errno);
}

std::optional<std::string> read_file_no_follow(const std::filesystem::path& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (fd.fd < 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return std::nullopt;
    throw std::system_error(errno_code(err));
  }
  std::string body;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd.fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno_code(errno));
    }
    if (n == 0) break;
    body.append(buf, static_cast<std::size_t>(n));
  }
  return body;
}

bool publish_no_replace(const std::filesystem::path& from, const std::filesystem::path& to) {
  if (::link(from.c_str(), to.c_str()) == 0) return true;
  int err = errno;
  if (err == EEXIST) return false;
  if (err == EPERM || err == ENOTSUP || err == EOPNOTSUPP || err == EMLINK || err == ENOSYS) {
    // Filesystems without hard links: an atomic no-replace rename does the same job.
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return true;
    err = errno;
    if (err == EEXIST) return false;
    if (err == EINVAL || err == ENOSYS || err == ENOTSUP) {
      // Last resort (docs/formats.md#local-backend's documented behaviour): a lost race degrades to
      // last-writer-wins, never to a partial object.
      struct stat st {};
      if (::lstat(to.c_str(), &st) == 0) return false;
      if (::rename(from.c_str(), to.c_str()) == 0) return true;
      err = errno;
    }
  }
  throw std::system_error(errno_code(err));
}

void sync_directory(const std::filesystem::path& dir) noexcept {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

// --- Locks -----------------------------------------------------------------------------

std::unique_ptr<FileLock> FileLock::try_acquire(const std::filesystem::path& path) {
  // Read-write to record the holder; read-only is enough to lock a file another user created.
  Fd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (fd.fd < 0 && errno == EACCES) fd = Fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (fd.fd < 0) throw std::system_error(errno, std::generic_category(), "open " + path.string());
  while (::flock(fd.fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) return nullptr;
    if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "lock " + path.string());
  }
  const std::string pid = std::to_string(current_process_id()) + "\n";
  if (::ftruncate(fd.fd, 0) == 0) (void)!::pwrite(fd.fd, pid.data(), pid.size(), 0);  // best effort: names the holder
  return std::unique_ptr<FileLock>(new FileLock(fd.release()));
}

std::optional<long> FileLock::holder(const std::filesystem::path& path) noexcept {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (fd.fd < 0) return std::nullopt;
  char buf[32] = {};
  const ssize_t n = ::pread(fd.fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return std::nullopt;
  char* end = nullptr;
  const long pid = std::strtol(buf, &end, 10);
  if (end == buf || pid <= 0 || (*end != '\n' && *end != '\0')) return std::nullopt;
  return pid;
}

FileLock::~FileLock() { ::close(fd_); }  // closing the last descriptor releases the lock

}  // namespace benchhist::platform
