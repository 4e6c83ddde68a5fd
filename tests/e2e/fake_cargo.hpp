#pragma once
// A fake `cargo` for the end-to-end suites: the CLI runs `$CARGO bench …` when CARGO is set
// (docs/formats.md#benchmark-invocation), so this script stands in for a real benchmark run. It
// replays the real producer files from BH_TEST_DATA_DIR/fixtures/engines into `$CARGO_TARGET_DIR`
// with fresh mtimes (Gungraun summaries, Criterion `new/` dirs, alloc_tracker and all_the_time flat
// files).
//
// Controls (environment of the CLI, inherited by the child):
//   FAKE_EXIT=<n>       exit with <n> before writing anything (a failing `cargo bench`);
//   FAKE_ENGINES=<list> engines to write (default "callgrind criterion alloc_tracker all_the_time");
//   FAKE_HOOK=<sh>      shell code run after the files are written (to damage them);
//   FAKE_ARGS=<path>    file receiving the argument list, one per line;
//   FAKE_COUNTER=<path> repetition counter file; the hook sees FAKE_REP=1, 2, … (for --best-of).
// It refuses to run (exit 3) unless GUNGRAUN_SAVE_SUMMARY=pretty-json was injected.

#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "e2e_support.hpp"

namespace e2e {

inline std::string fake_cargo_script() {
  return R"SH(#!/bin/sh
set -e
if [ "$1" != bench ]; then echo "fake cargo: expected 'bench', got: $*" >&2; exit 2; fi
if [ "$GUNGRAUN_SAVE_SUMMARY" != pretty-json ]; then
  echo "fake cargo: GUNGRAUN_SAVE_SUMMARY was '$GUNGRAUN_SAVE_SUMMARY', not pretty-json" >&2; exit 3
fi
if [ -n "$FAKE_ARGS" ]; then printf '%s\n' "$@" > "$FAKE_ARGS"; fi
if [ -n "$FAKE_COUNTER" ]; then
  FAKE_REP=$(( $(cat "$FAKE_COUNTER" 2>/dev/null || echo 0) + 1 )); echo "$FAKE_REP" > "$FAKE_COUNTER"; export FAKE_REP
fi
if [ -n "$FAKE_EXIT" ]; then echo "fake cargo: failing with $FAKE_EXIT" >&2; exit "$FAKE_EXIT"; fi
F="$FAKE_FIXTURES"
T="$CARGO_TARGET_DIR"
case "$T" in /*) ;; *) echo "fake cargo: CARGO_TARGET_DIR '$T' is not absolute" >&2; exit 4;; esac
ENGINES="${FAKE_ENGINES:-callgrind criterion alloc_tracker all_the_time}"
for e in $ENGINES; do
  case $e in
    callgrind)
      mkdir -p "$T/gungraun/fast_time/single" "$T/gungraun/fast_time/param"
      cp "$F/callgrind/single_unparametrized.summary.json" "$T/gungraun/fast_time/single/summary.json"
      cp "$F/callgrind/parametrized.summary.json" "$T/gungraun/fast_time/param/summary.json";;
    criterion)
      for c in std_instant fast_time_clock; do
        d="$T/criterion/fast_time_timestamp_performance_timestamp_capture/$c/now/new"
        mkdir -p "$d"
        cp "$F/criterion/$c/benchmark.json" "$F/criterion/$c/estimates.json" "$d/"
      done;;
    alloc_tracker)
      mkdir -p "$T/alloc_tracker"
      cp "$F/alloc_tracker/allocate_vec_dispersion.json" "$T/alloc_tracker/allocate_vec.json";;
    all_the_time)
      mkdir -p "$T/all_the_time"
      cp "$F/all_the_time/read_cell_dispersion.json" "$T/all_the_time/read_cell.json";;
  esac
done
if [ -n "$FAKE_HOOK" ]; then sh -c "$FAKE_HOOK"; fi
echo "fake cargo: wrote $ENGINES" >&2
)SH";
}

// Writes the script into `dir` and returns its path.
inline std::filesystem::path install_fake_cargo(const std::filesystem::path& dir) {
  const auto path = dir / "fake-cargo";
  write_file(path, fake_cargo_script());
  chmod(path.c_str(), 0755);
  return path;
}

inline std::string fixtures_dir() {
  return (std::filesystem::path(BH_TEST_DATA_DIR) / "fixtures" / "engines").string();
}

}  // namespace e2e
