#pragma once
// Minimal child-process runner for the Azure CLI credential. The probe area's run_process
// (probe/process.hpp) was not available when this was written; this private helper can be
// swapped for it without touching the credential's behaviour.

#include <string>
#include <vector>

namespace benchhist::azure::detail {

struct SpawnResult {
  bool started = false;  // false: the program could not be started (e.g. not on PATH)
  bool exited = false;   // exited normally (not killed by a signal)
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs argv (argv[0] looked up on PATH) with stdin from /dev/null, capturing stdout/stderr.
SpawnResult spawn_capture(const std::vector<std::string>& argv);

}  // namespace benchhist::azure::detail
