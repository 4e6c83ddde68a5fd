// The interrupt guard of collect and backfill (docs/bench-command.md#interrupting-a-run).
#include "benchhist/collect/interrupts.hpp"

#include <csignal>
#include <stdexcept>
#include <system_error>

#include "benchhist/error.hpp"
#include "platform/platform.hpp"

namespace benchhist::collect {

InterruptGuard::InterruptGuard() {
  try {
    watch_ = std::make_unique<platform::InterruptWatch>();
  } catch (const std::system_error& e) {
    throw Error(ErrorKind::io, "failed to create the interrupt pipe", {}, e.code().message(),
                "the process may be out of file descriptors: raise the limit (`ulimit -n`) and retry");
  } catch (const std::logic_error&) {
    throw Error(ErrorKind::internal, "another interrupt guard is already active in this process", {}, {},
                "a caller holding a guard passes it to collect as CollectRequest::interrupt_guard (or sets "
                "handle_interrupts to false)");
  }
}

InterruptGuard::~InterruptGuard() = default;

int InterruptGuard::pending() { return watch_->pending(); }

std::size_t InterruptGuard::received() { return watch_->tally().count; }

const char* interrupt_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
  }
}

}  // namespace benchhist::collect
