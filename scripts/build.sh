#!/usr/bin/env bash
# Configures (once) and builds benchhist into ./build (or $BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build}"
if [ ! -f "$build_dir/build.ninja" ]; then
  meson setup "$build_dir" -Dbenchmarks=true "$@" >/dev/null
fi
ninja -C "$build_dir" -j "${JOBS:-$(nproc)}" >/dev/null
echo "[build] ok: $build_dir" >&2
