#!/usr/bin/env bash
# Configures (once) and builds benchhist into ./build (or $BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build}"
if [ ! -f "$build_dir/build.ninja" ]; then
  # -g1: line tables and function names (backtraces keep file:line) without the full debug
  # information, which took a quarter of this tree's build time (docs/testing.md "Time").
  meson setup "$build_dir" -Dbenchmarks=true -Dcpp_args=-g1 "$@" >/dev/null
fi
ninja -C "$build_dir" -j "${JOBS:-$(nproc)}" >/dev/null
echo "[build] ok: $build_dir" >&2
