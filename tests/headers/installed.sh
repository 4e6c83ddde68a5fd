#!/bin/sh
# Installs the build into a scratch root (meson install --destdir) and builds an embedder's
# program from the installed headers, library and benchhist.pc alone, then runs it.
# Usage: installed.sh <build dir> <c++ compiler> <consumer.cpp>
set -eu
build=$1 cxx=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp/root" --no-rebuild --quiet >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; exit 1; }
pc=$(find "$tmp/root" -name benchhist.pc | head -n 1)
[ -n "$pc" ] || { echo "no benchhist.pc was installed"; exit 1; }
# The sysroot maps the .pc file's own -I/-L paths into the scratch root.
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$tmp/root"
cflags=$(pkg-config --cflags benchhist)
libs=$(pkg-config --libs benchhist)
echo "benchhist.pc: Cflags: $cflags | Libs: $libs | $(wc -c <"$pc") bytes"
case "$cflags" in *-D*) echo "benchhist.pc passes -D flags to consumers: $cflags"; exit 1 ;; esac
case "$(pkg-config --static --libs benchhist)" in
  *program_options*) echo "benchhist.pc lists the CLI's Boost.Program_options"; exit 1 ;;
esac
# shellcheck disable=SC2086 # the flags are word lists
$cxx -std=c++20 "$src" -o "$tmp/consumer" $cflags $libs
libdir=$(dirname "$(find "$tmp/root" -name 'libbenchhist.so*' | head -n 1)")
LD_LIBRARY_PATH="$libdir" "$tmp/consumer"
