#!/usr/bin/env bash
# Builds and tests the checkout on the apt-based distribution it runs on (Debian 12 or 13,
# Ubuntu 24.04 or newer) with that distribution's own packages, with gcc or clang:
#
#   scripts/test-distro.sh                 # g++
#   CXX=clang++ scripts/test-distro.sh
#   TIMEOUT_MULTIPLIER=3 ...               # on a machine shared with other work
#
# Used inside the Debian 13 root of scripts/test-debian13.sh and in the containers of
# .github/workflows/ci.yml (docs/portability.md). scripts/test.sh stays the Debian 12 command
# with everything (the sanitizer pass, the fuzz smoke run, Chromium). Ends with the line
# `tests: N passed, N failed`; a compiler warning counts as a failure, since the build must
# be warning-clean everywhere.
#
# Suites left out when the distribution cannot run them, each decided here and nowhere else:
#   e2e_collect, backfill (suite cargo): they build examples/demo-crate offline against the
#     distribution's packaged Criterion, which must be 0.3 (Debian 12); Debian 13 and Ubuntu
#     24.04 package only 0.5.
#   e2e_html: needs Chromium (~600 MB with its libraries); installed and run only with
#     BH_WITH_CHROMIUM=1.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir="${BUILD_DIR:-build-distro}"
cxx="${CXX:-g++}"

fail() {
  echo "test-distro: $1" >&2
  echo "tests: 0 passed, 1 failed"
  exit 1
}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep "install ok installed" >/dev/null; }
candidate() { apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: \([^(]\)/\1/p'; }

# 1. The build's packages through the workflows' own script (the build-tool action's step),
# then what the tests need.
.github/scripts/install-build-deps.sh || fail ".github/scripts/install-build-deps.sh failed (output above)"
# clang whatever the compiler: the C++ target probe's test asks clang++ for its triple.
packages=(build-essential clang catch2 libbenchmark-dev python3 nodejs npm cargo shellcheck valgrind hyperfine)
with_cargo_suites=0
case "$(candidate librust-criterion-dev)" in
  0.3.*) with_cargo_suites=1; packages+=(librust-criterion-dev) ;;
esac
[ "${BH_WITH_CHROMIUM:-0}" = 1 ] && packages+=(chromium)
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "[distro] installing: ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    fail "apt-get install ${missing[*]} failed; run apt-get update and retry"
fi
for dir in tests/azure tests/automation; do
  if [ ! -d "$dir/node_modules" ]; then
    npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >/dev/null ||
      fail "npm ci --prefix $dir failed; check that the npm registry is reachable and retry"
  fi
done

skipped=()
[ "$with_cargo_suites" = 1 ] || skipped+=(e2e_collect backfill)
[ "${BH_WITH_CHROMIUM:-0}" = 1 ] || skipped+=(e2e_html)

# 2. Build: scripts/build.sh's configuration (benchmarks and examples too).
# A tree whose configuration was interrupted (no build.ninja) is configured again in place.
if [ ! -f "$build_dir/build.ninja" ]; then
  reconfigure=()
  [ -d "$build_dir/meson-private" ] && reconfigure=(--reconfigure)
  CXX="$cxx" meson setup "${reconfigure[@]}" "$build_dir" -Dbenchmarks=true >"$build_dir.setup.log" 2>&1 ||
    fail "meson setup failed (log: $build_dir.setup.log)"
fi
# -k 0: one run reports every file that does not build, not just the first.
ninja -C "$build_dir" -k 0 -j "${JOBS:-$(nproc)}" >"$build_dir.build.log" 2>&1 ||
  fail "the build failed (log: $build_dir.build.log; rebuild by hand: ninja -C $build_dir)"
warnings=$(grep -c 'warning:' "$build_dir.build.log")
echo "[distro] built with $("$cxx" --version | head -1): $warnings warnings" >&2

# 3. Every suite but the skipped ones.
mapfile -t names < <(meson introspect "$build_dir" --tests | python3 -c 'import json, sys
skip = set(sys.argv[1:])
for t in json.load(sys.stdin):
    if t["name"] not in skip:
        print(t["name"])' "${skipped[@]+"${skipped[@]}"}")
echo "[distro] running ${#names[@]} suites; skipped: ${skipped[*]:-none}" >&2
# TIMEOUT_MULTIPLIER stretches every suite's timeout (meson's --timeout-multiplier): the
# timeouts in tests/*/meson.build fit a machine of its own, not one shared with other builds.
meson test -C "$build_dir" --no-rebuild --print-errorlogs --num-processes "${JOBS:-2}" \
  --timeout-multiplier "${TIMEOUT_MULTIPLIER:-1}" "${names[@]}"
status=$?
read -r passed failed < <(python3 scripts/test-summary.py "$build_dir/meson-logs/testlog.json")
if [ "$warnings" -ne 0 ]; then
  grep 'warning:' "$build_dir.build.log" | sort -u | head -20 >&2
  echo "test-distro: $warnings compiler warnings (above; all in $build_dir.build.log): the build must be warning-clean" >&2
  failed=$((failed + 1))
fi
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
