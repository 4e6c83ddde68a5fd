#pragma once
// SIGINT and SIGTERM while collect or backfill runs (docs/bench-command.md#interrupting-a-run,
// docs/backfill.md#interruption-sigint--sigterm). The benchmark command runs in a process group
// of its own, so that stopping it stops everything it started; the tool answers each interrupt
// for it. The first one asks to stop (collect passes it on to the command at once; backfill lets
// the measurement under way finish), a second one terminates the command's process group.

#include <chrono>
#include <cstddef>
#include <memory>

namespace benchhist::platform {
class InterruptWatch;  // lib/platform/platform.hpp
}

namespace benchhist::collect {

// What the first interrupt does to a benchmark command under way.
enum class FirstInterrupt {
  stop,    // collect: the command's process group gets the signal; nothing is stored
  finish,  // backfill (and bisect through it): the command runs to its end and its results are
           // stored; the caller stops after that commit
};

// How long a terminated benchmark command has between SIGTERM and SIGKILL: enough for a harness
// to write what it flushes on SIGTERM, short enough that a second Ctrl-C feels like one.
inline constexpr std::chrono::seconds stop_grace{3};

// A scoped SIGINT/SIGTERM guard (the platform layer's interrupt watch, a self-pipe on Linux; it
// takes SIGHUP too unless that was ignored): while alive, those signals no longer kill the
// process, and pending() reports them. Helper
// children (git) get default dispositions on exec and share our process group, so a terminal
// Ctrl-C still stops them; the benchmark command, in a group of its own, gets what collect
// answers (above). One guard may be active at a time (a signal handler reaches only
// process-wide state). The destructor restores the previous handlers.
class InterruptGuard {
 public:
  // Throws Error{io} when the self-pipe cannot be created, Error{internal} when another guard is
  // already active in this process.
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  // The first signal received so far, or 0.
  int pending();
  // How many signals were received so far.
  std::size_t received();
  // The watch itself, for a child that answers interrupts while it runs.
  platform::InterruptWatch& watch() noexcept { return *watch_; }

 private:
  std::unique_ptr<platform::InterruptWatch> watch_;
};

// `SIGINT`, `SIGTERM`, `SIGHUP` (else `a signal`): how messages name an interrupt.
const char* interrupt_name(int signal);

}  // namespace benchhist::collect
