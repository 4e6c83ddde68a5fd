#!/usr/bin/env bash
# The one command that installs what is missing, builds, and runs every test.
# Ends with the line `tests: N passed, N failed` (N = Catch2 test cases across all suites).
# Then the sanitizer pass (docs/testing.md "Sanitizers"; SANITIZE=0 skips it): a clang build in
# $SAN_BUILD_DIR (default build-san) with ASan+UBSan and the fuzz targets, the unit suites run
# in it (the e2e and cargo suites too with SANITIZE_E2E=1), and a FUZZ_SMOKE_SECONDS (default 20) run
# of every fuzz target. Its failures count in the final line's failed figure.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir="${BUILD_DIR:-build}"

scripts/install-deps.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }
BUILD_DIR="$build_dir" scripts/build.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }

meson test -C "$build_dir" --print-errorlogs --num-processes "${JOBS:-2}" "$@"
status=$?

# Catch2 test cases passed and failed in a build's last `meson test` (scripts/test-summary.py).
summarize() { python3 scripts/test-summary.py "$1"; }

read -r passed failed < <(summarize "$build_dir/meson-logs/testlog.json")
# What failed, whatever the length of the failing test's output.
[ "$status" = 0 ] || python3 scripts/test-summary.py --failures "$build_dir/meson-logs/testlog.json"

# The build outputs (relative to the build dir) the tests of a build need: every suite, or all
# but e2e and cargo when $2 is not 1.
san_build_targets() {
python3 - "$1" "$2" <<'PY'
import json, os, subprocess, sys
build, with_e2e = sys.argv[1], sys.argv[2] == "1"
intro = lambda what: json.loads(subprocess.run(["meson", "introspect", build, what], check=True,
                                               capture_output=True, text=True).stdout)
skip = () if with_e2e else ("e2e", "cargo")
wanted = set()
for t in intro("--tests"):
    if not any(s.split(":")[-1] in skip for s in t["suite"]):
        wanted.update(t["depends"])
root = os.path.abspath(build)
for t in intro("--targets"):
    if t["id"] in wanted:
        for f in t["filename"]:
            print(os.path.relpath(f, root))
PY
}

if [ "${SANITIZE:-1}" = 1 ] && [ $# -eq 0 ]; then
  san_dir="${SAN_BUILD_DIR:-build-san}"
  san_start=$(date +%s)
  san_failed=0
  if [ ! -f "$san_dir/build.ninja" ]; then
    # clang for both sanitizers and libFuzzer, so one extra build serves the unit suites and
    # the fuzz smoke run; -Db_lundef=false because the sanitizer runtimes resolve at load time.
    # -O1 with line tables only: symbolized sanitizer reports at about half the compile time.
    CXX=clang++ CC=clang meson setup "$san_dir" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
      -Doptimization=1 -Ddebug=false -Dcpp_args=-gline-tables-only -Dbenchmarks=false -Dexamples=false \
      >/dev/null || san_failed=1
  fi
  san_suites=(--no-suite e2e --no-suite cargo)
  [ "${SANITIZE_E2E:-0}" = 1 ] && san_suites=()
  # Build only what the suites run and the fuzz targets, not the e2e executables the pass skips.
  san_targets=()
  [ "$san_failed" = 0 ] && mapfile -t san_targets < <(san_build_targets "$san_dir" "${SANITIZE_E2E:-0}")
  if [ "$san_failed" = 0 ] && [ ${#san_targets[@]} -gt 0 ] &&
     ninja -C "$san_dir" -j "${JOBS:-$(nproc)}" "${san_targets[@]}" fuzz >/dev/null; then
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp" \
      meson test -C "$san_dir" --no-rebuild --print-errorlogs --num-processes "${JOBS:-2}" "${san_suites[@]}" \
      --timeout-multiplier 3 || status=1
    read -r san_passed san_failed < <(summarize "$san_dir/meson-logs/testlog.json")
    [ "$san_failed" = 0 ] || python3 scripts/test-summary.py --failures "$san_dir/meson-logs/testlog.json"
    echo "sanitizers (ASan+UBSan): $san_passed passed, $san_failed failed"
    fuzz_failed=0
    FUZZ_BUILD_DIR="$san_dir" FUZZ_JOBS="${JOBS:-2}" scripts/fuzz.sh "${FUZZ_SMOKE_SECONDS:-20}" || fuzz_failed=1
    [ "$fuzz_failed" = 0 ] || { echo "fuzz smoke: FINDINGS (see $san_dir/fuzz-findings)"; status=1; }
    san_failed=$((san_failed + fuzz_failed))
  else
    echo "sanitizers: the build in $san_dir failed (ninja -C $san_dir)"
    san_failed=1
    status=1
  fi
  echo "sanitizer pass: $(( $(date +%s) - san_start )) s"
  failed=$((failed + san_failed))
fi

echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || status=1
exit $status
