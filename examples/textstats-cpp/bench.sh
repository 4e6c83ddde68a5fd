#!/bin/sh
# The benchmark command cargo-bench-history runs ([collect] bench_command): build, then let
# every benchmark binary write its JSON report into the fresh directory the tool exports as
# BENCHHIST_OUTPUT_DIR. Extra arguments go to every binary (e.g. --benchmark_repetitions=3).
set -eu
: "${BENCHHIST_OUTPUT_DIR:?run me through cargo-bench-history collect/backfill}"
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
for bin in bench_count bench_top; do
  "build/$bin" --benchmark_out="$BENCHHIST_OUTPUT_DIR/$bin.json" --benchmark_out_format=json "$@"
done
