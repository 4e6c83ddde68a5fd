#!/bin/sh
# Installs the build into a scratch root (meson install --destdir) and builds an embedder's
# program from the installed headers, library and benchhist.pc alone, then runs it.
# Usage: installed.sh <build dir> <c++ compiler> <consumer.cpp> <default_library>
set -eu
build=$1 cxx=$2 src=$3 kind=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp/root" --no-rebuild --quiet >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; exit 1; }
pc=$(find "$tmp/root" -name benchhist.pc | head -n 1)
[ -n "$pc" ] || { echo "no benchhist.pc was installed"; exit 1; }
# The sysroot maps the .pc file's own -I/-L paths into the scratch root.
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$tmp/root"
# A shared-only install asks nothing of the system's .pc files: with only the scratch root's
# directory searched, benchhist.pc must still resolve (a static library needs its requirements).
if [ "$kind" = shared ]; then
  PKG_CONFIG_LIBDIR="$(dirname "$pc")" pkg-config --cflags --libs benchhist >/dev/null ||
    { echo "benchhist.pc needs other packages' .pc files for a shared link:"; grep Requires "$pc"; exit 1; }
fi
cflags=$(pkg-config --cflags benchhist)
libs=$(pkg-config --libs benchhist)
echo "benchhist.pc: Cflags: $cflags | Libs: $libs | $(wc -c <"$pc") bytes"
case "$cflags" in *-D*) echo "benchhist.pc passes -D flags to consumers: $cflags"; exit 1 ;; esac
case "$(pkg-config --static --libs benchhist)" in
  *program_options*) echo "benchhist.pc lists the CLI's Boost.Program_options"; exit 1 ;;
esac
# shellcheck disable=SC2086 # the flags are word lists
$cxx -std=c++20 "$src" -o "$tmp/consumer" $cflags $libs
# detect.hpp alone declares the Error its functions throw, in the linked mode as header-only.
printf '#include "benchhist/detect.hpp"\nint main() { try { return 0; } catch (const benchhist::Error& e) { return 1; } }\n' \
  >"$tmp/detect_only.cpp"
# shellcheck disable=SC2086
$cxx -std=c++20 -fsyntax-only "$tmp/detect_only.cpp" $cflags ||
  { echo "benchhist/detect.hpp does not declare benchhist::Error without BENCHHIST_HEADER_ONLY"; exit 1; }
libdir=$(dirname "$(find "$tmp/root" -name 'libbenchhist.so*' | head -n 1)")
LD_LIBRARY_PATH="$libdir" "$tmp/consumer"
