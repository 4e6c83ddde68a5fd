#!/usr/bin/env bash
# Runs every libFuzzer target (docs/fuzzing.md) for a given time each, one after the other
# (FUZZ_JOBS at a time), at low priority (nice -n 10) so other work keeps the machine.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 600 s, every target)
#
# Configures and builds $FUZZ_BUILD_DIR (default build-fuzz: clang, ASan+UBSan, -Dfuzz=true)
# when needed. Each target starts from its committed seeds (fuzz/seeds/<target>/) plus the
# corpus it grew before ($FUZZ_BUILD_DIR/fuzz-corpus/<target>/). Logs go to
# fuzz-logs/<target>.log, crashing inputs to fuzz-findings/<target>/, and one line per target
# (executions, coverage, findings) to fuzz-results.tsv. Exit status 1 when any target found
# something.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
seconds="${1:-600}"
shift || true
build_dir="${FUZZ_BUILD_DIR:-build-fuzz}"

if [ ! -f "$build_dir/build.ninja" ]; then
  CXX=clang++ CC=clang meson setup "$build_dir" -Dfuzz=true -Dtests=false -Dexamples=false \
    -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 -Ddebug=false -Dcpp_args=-gline-tables-only \
    >/dev/null || { echo "[fuzz] meson setup failed" >&2; exit 2; }
fi
ninja -C "$build_dir" -j "${JOBS:-$(nproc)}" fuzz >/dev/null || { echo "[fuzz] build failed (ninja -C $build_dir fuzz)" >&2; exit 2; }

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for exe in "$build_dir"/fuzz/fuzz_*; do
    # Regular files only: meson's object directories (fuzz_<t>.p/) are "executable" too.
    [ -f "$exe" ] && [ -x "$exe" ] && targets+=("$(basename "$exe" | sed 's/^fuzz_//')")
  done
fi

mkdir -p "$build_dir/fuzz-logs" "$build_dir/fuzz-corpus" "$build_dir/fuzz-findings"
results="$build_dir/fuzz-results.tsv"
[ -f "$results" ] || printf 'date\ttarget\tseconds\texecutions\tcoverage\tfeatures\tcorpus\tfindings\n' >"$results"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# One target: run it, append its line to fuzz-results.tsv, exit 1 on a finding.
run_target() {
  local t="$1"
  local exe="$build_dir/fuzz/fuzz_$t"
  [ -f "$exe" ] && [ -x "$exe" ] || { echo "[fuzz] no target fuzz_$t in $build_dir/fuzz" >&2; return 1; }
  local corpus="$build_dir/fuzz-corpus/$t" findings="$build_dir/fuzz-findings/$t" log="$build_dir/fuzz-logs/$t.log"
  mkdir -p "$corpus" "$findings"
  local seeds=()
  [ -d "fuzz/seeds/$t" ] && seeds+=("fuzz/seeds/$t")
  local before after rc execs cov ft units new
  before=$(find "$findings" -type f | wc -l)
  # -fork is not used: one process per target keeps to one core.
  nice -n 10 "$exe" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  after=$(find "$findings" -type f | wc -l)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  units=$(find "$corpus" -type f | wc -l)
  new=$((after - before))
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$seconds" "${execs:-?}" "${cov:-?}" \
    "${ft:-?}" "$units" "$new" >>"$results"
  if [ "$rc" -ne 0 ] || [ "$new" -gt 0 ]; then
    echo "[fuzz] $t: FINDING (exit $rc; $new new input(s) in $findings; log $log)" >&2
    return 1
  fi
  echo "[fuzz] $t: ${execs:-?} executions, cov ${cov:-?}, ft ${ft:-?}, corpus $units, no findings" >&2
}

# FUZZ_JOBS targets at a time (default 1: a campaign leaves the other core to other work; the
# CI smoke run uses both cores).
jobs="${FUZZ_JOBS:-1}"
status=0
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  run_target "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
