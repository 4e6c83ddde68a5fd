// posix_spawn based child processes (docs/formats.md#benchmark-invocation, #git-facts, #toolchain).

#include "benchhist/probe/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "benchhist/error.hpp"

extern char** environ;

namespace benchhist::probe {
namespace {

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
};

struct Pipe {
  Fd read, write;
};

Pipe make_pipe(const ProcessSpec& spec) {
  int fds[2];
  // O_CLOEXEC so only the dup2'd copies reach the child (and no other concurrently spawned
  // child inherits our ends, which would delay EOF).
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw Error(ErrorKind::io, "failed to run the command \"" + describe_command(spec.argv) + "\"",
                spec.argv.empty() ? std::string{} : spec.argv[0],
                std::string("could not create a pipe: ") + std::strerror(errno));
  }
  Pipe p;
  p.read.fd = fds[0];
  p.write.fd = fds[1];
  return p;
}

// The child's environment: ours with the requested changes applied. Built as owned strings
// so the caller's environment is never modified (no global state).
std::vector<std::string> child_environment(const ProcessSpec& spec) {
  std::vector<std::string> out;
  std::set<std::string> changed;
  for (const auto& [k, v] : spec.env_changes) changed.insert(k);
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    auto eq = entry.find('=');
    std::string name(entry.substr(0, eq));
    if (changed.count(name)) continue;
    out.emplace_back(entry);
  }
  for (const auto& [k, v] : spec.env_changes) {
    if (v) out.push_back(k + "=" + *v);
  }
  return out;
}

enum class Mode { probe, streaming };

ProcessResult run(const ProcessSpec& spec, Mode mode) {
  const std::string cmd = describe_command(spec.argv);
  auto fail = [&](int err, const std::string& what) -> Error {
    return Error(ErrorKind::io, "failed to run the command \"" + cmd + "\"",
                 spec.argv.empty() ? std::string{} : spec.argv[0],
                 what + (err ? std::string(": ") + std::strerror(err) : std::string{}),
                 "check that the program is installed and on PATH");
  };
  if (spec.argv.empty() || spec.argv[0].empty()) throw fail(0, "no program was given");

  const bool tee_out = mode == Mode::streaming && spec.tee_stdout;
  const bool cap_out = (mode == Mode::probe && spec.capture_stdout) || tee_out;
  const bool cap_err = mode == Mode::probe && spec.capture_stderr;

  Pipe out_pipe, err_pipe;
  if (cap_out) out_pipe = make_pipe(spec);
  if (cap_err) err_pipe = make_pipe(spec);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  struct ActionsGuard {
    posix_spawn_file_actions_t* a;
    ~ActionsGuard() { posix_spawn_file_actions_destroy(a); }
  } actions_guard{&actions};

  if (mode == Mode::probe) {
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  }
  if (cap_out) posix_spawn_file_actions_adddup2(&actions, out_pipe.write.fd, STDOUT_FILENO);
  if (cap_err) posix_spawn_file_actions_adddup2(&actions, err_pipe.write.fd, STDERR_FILENO);
  std::string cwd_str;
  if (!spec.cwd.empty()) {
    cwd_str = spec.cwd.string();
    // glibc >= 2.29: the chdir happens in the child, so the parent's cwd is never touched.
    posix_spawn_file_actions_addchdir_np(&actions, cwd_str.c_str());
  }

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
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<std::string> env = child_environment(spec);
  std::vector<char*> envp;
  envp.reserve(env.size() + 1);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  std::vector<std::string> args = spec.argv;
  std::vector<char*> argvp;
  argvp.reserve(args.size() + 1);
  for (auto& a : args) argvp.push_back(a.data());
  argvp.push_back(nullptr);

  // If the cwd does not exist glibc reports the chdir failure as the spawn error; check it
  // first anyway so the message names the directory rather than the program.
  if (!cwd_str.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(spec.cwd, ec)) {
      throw fail(ENOENT, "working directory " + cwd_str + " is not an accessible directory");
    }
  }

  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, argvp[0], &actions, &attr, argvp.data(), envp.data());
  if (rc != 0) throw fail(rc, "could not start " + spec.argv[0]);

  // Our copies of the write ends must go, or the reads below never see EOF.
  out_pipe.write.reset();
  err_pipe.write.reset();

  ProcessResult result;
  // Drain both pipes together: reading one to EOF first deadlocks when the child fills the
  // other pipe's buffer and blocks.
  std::vector<pollfd> fds;
  if (cap_out) fds.push_back({out_pipe.read.fd, POLLIN, 0});
  if (cap_err) fds.push_back({err_pipe.read.fd, POLLIN, 0});
  char buf[65536];
  while (!fds.empty()) {
    int n = ::poll(fds.data(), fds.size(), -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      break;  // cannot happen with valid fds; fall through to wait for the child
    }
    for (std::size_t i = 0; i < fds.size();) {
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
        if (r > 0) {
          const bool is_out = cap_out && fds[i].fd == out_pipe.read.fd;
          std::string& target = is_out ? result.out : result.err;
          target.append(buf, static_cast<std::size_t>(r));
          // Passed on as it arrives; a closed terminal must not stop the benchmarks.
          for (ssize_t done = 0; is_out && tee_out && done < r;) {
            const ssize_t w = ::write(STDOUT_FILENO, buf + done, static_cast<std::size_t>(r - done));
            if (w > 0) done += w;
            else if (w < 0 && errno == EINTR) continue;
            else break;
          }
        } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
          fds.erase(fds.begin() + static_cast<std::ptrdiff_t>(i));
          continue;
        }
      }
      ++i;
    }
  }

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      throw Error(ErrorKind::io, "failed to run the command \"" + cmd + "\"", spec.argv[0],
                  std::string("could not wait for the child: ") + std::strerror(errno));
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
