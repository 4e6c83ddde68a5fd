#pragma once
// Test helpers for services a test starts on 127.0.0.1: a self-signed certificate whose
// subjectAltName is IP:127.0.0.1 (trusted by the client through its CA setting, never by
// switching verification off), and a child process that prints `PORT <n>` once it listens.
// The child dies with the test process (PR_SET_PDEATHSIG), so nothing outlives a crashed run.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace bhtest {

struct LoopbackCertificate {
  std::filesystem::path cert, key;
};

// Writes cert.pem / key.pem (EC P-256, two days) into `dir` with openssl.
inline LoopbackCertificate make_loopback_certificate(const std::filesystem::path& dir) {
  LoopbackCertificate c{dir / "cert.pem", dir / "key.pem"};
  const std::string cmd = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2"
                          " -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout '" +
                          c.key.string() + "' -out '" + c.cert.string() + "' >'" + (dir / "openssl.log").string() +
                          "' 2>&1";
  if (std::system(cmd.c_str()) != 0)
    throw std::runtime_error("openssl could not generate the test certificate; see " + (dir / "openssl.log").string());
  return c;
}

struct ServiceProcess {
  pid_t pid = -1;
  std::uint16_t port = 0;
};

// Starts `argv` with stdout on a pipe and stderr appended to `log`; waits (up to 20 s) for the
// `PORT <n>` line. Throws naming the log when the service does not come up.
inline ServiceProcess start_service(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  int p[2];
  if (pipe(p) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    int logfd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0);
    dup2(p[1], 1);
    dup2(logfd, 2);
    close(p[0]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(p[1]);
  std::string line;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd pfd{p[0], POLLIN, 0};
    if (poll(&pfd, 1, 200) < 0) break;
    if (pfd.revents & (POLLIN | POLLHUP)) {
      char buf[128];
      ssize_t n = read(p[0], buf, sizeof buf);
      if (n <= 0) break;
      line.append(buf, static_cast<std::size_t>(n));
    }
  }
  // The read end stays open (until exit) so a later write by the child never raises SIGPIPE.
  if (line.rfind("PORT ", 0) != 0) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    throw std::runtime_error("test service " + argv.at(argv.size() > 1 ? 1 : 0) + " did not start; see " + log.string());
  }
  return {pid, static_cast<std::uint16_t>(std::stoi(line.substr(5)))};
}

inline void stop_service(ServiceProcess& s) {
  if (s.pid <= 0) return;
  kill(s.pid, SIGTERM);
  for (int i = 0; i < 50; ++i) {
    if (waitpid(s.pid, nullptr, WNOHANG) == s.pid) {
      s.pid = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(s.pid, SIGKILL);
  waitpid(s.pid, nullptr, 0);
  s.pid = -1;
}

}  // namespace bhtest
