#!/usr/bin/env bash
# Builds this checkout on Debian 13 ("trixie": gcc 14, Boost 1.83, libgit2 1.9, Catch2 3,
# Google Benchmark 1.9) and runs its unit and end-to-end suites there, inside a Debian 13 root
# that debootstrap makes from Debian's own packages and that is kept between runs. Inside the
# root it runs scripts/test-distro.sh (which installs through .github/scripts/install-build-deps.sh,
# the build-tool action's script), so it ends with the same line `tests: N passed, N failed`.
# See docs/testing.md ("Debian 13") and docs/portability.md.
#
#   sudo scripts/test-debian13.sh          # the root and build tree in /var/cache/benchhist-debian13
#   BH_DEBIAN13_CACHE=/path ...            # another cache directory
#   BH_DEBIAN13_CLEAN=1 ...                # drop the cached build tree first (the root stays)
#   CXX=clang++ ...                        # Debian 13's clang instead of gcc (its own build tree)
#   TIMEOUT_MULTIPLIER=1 ...               # the suites' own timeouts (default 3: this script
#                                          # runs beside the machine's other work, see docs/testing.md)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
cache="${BH_DEBIAN13_CACHE:-/var/cache/benchhist-debian13}"
mirror="${BH_DEBIAN13_MIRROR:-http://deb.debian.org/debian}"
root="$cache/root"
cxx="${CXX:-g++}"
case "$cxx" in clang++*) build=/build-clang ;; *) build=/build-gcc ;; esac  # a cached tree per compiler

fail() {
  echo "test-debian13: $1" >&2
  echo "tests: 0 passed, 1 failed"
  exit 1
}
start=$(date +%s)
step() { echo "[debian13] $1 (at $(( $(date +%s) - start )) s)" >&2; }

[ "$(id -u)" -eq 0 ] || fail "debootstrap, chroot and mount need root: run sudo scripts/test-debian13.sh"
mkdir -p "$cache" || fail "cannot create the cache directory $cache: set BH_DEBIAN13_CACHE to a writable directory"
if ! command -v debootstrap >/dev/null 2>&1; then
  step "installing debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null ||
    fail "could not install debootstrap: run apt-get update, then apt-get install debootstrap"
fi

# 1. The root: bootstrapped into root.tmp and renamed when complete, so an interrupted
# bootstrap is started again instead of being taken for a finished root.
if [ ! -f "$root/etc/debian_version" ]; then
  step "bootstrapping Debian 13 into $root (once)"
  rm -rf "$root.tmp"
  debootstrap --variant=minbase --include=ca-certificates trixie "$root.tmp" "$mirror" \
    >"$cache/debootstrap.log" 2>&1 ||
    fail "debootstrap failed (log: $cache/debootstrap.log); check that $mirror is reachable, then rerun"
  mv "$root.tmp" "$root"
fi
grep '^13' "$root/etc/debian_version" >/dev/null ||
  fail "$root is not a Debian 13 root ($(cat "$root/etc/debian_version")): remove it and rerun"

# 2. /proc (the storage fault tests read /proc/<pid>/fd) and /dev, unmounted on every exit.
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  # Lazily when still busy: a /dev left bound into the root would make removing the root
  # remove this machine's device nodes.
  for m in dev proc; do
    if mountpoint -q "$root/$m"; then umount "$root/$m" 2>/dev/null || umount -l "$root/$m"; fi
  done
}
trap cleanup EXIT
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc" || fail "cannot mount /proc in $root"
mountpoint -q "$root/dev" || mount --bind /dev "$root/dev" || fail "cannot bind-mount /dev in $root"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The root trusts the certificate authorities this machine added locally (a TLS-inspecting
# proxy in front of the npm registry, for instance), as the machine itself does.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null &&
   ! diff -rq /usr/local/share/ca-certificates "$root/usr/local/share/ca-certificates" >/dev/null 2>&1; then
  step "adding this machine's local certificate authorities to the root"
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >/dev/null 2>&1 ||
    fail "update-ca-certificates failed in $root: remove $root and rerun"
fi

# 3. The checkout: tracked and untracked files, not ignored ones (no build trees, no
# node_modules); a file whose content changed since the last copy is stamped now, an unchanged
# one keeps its stamp, so the cached build tree rebuilds exactly what changed.
# The npm packages installed by the last run are kept while their lock file is unchanged
# (npm ci takes minutes on a busy machine).
step "copying the checkout to $root/src"
npm_dirs=(tests/azure tests/automation)
rm -rf "$cache/node_modules"
for d in "${npm_dirs[@]}"; do
  if [ -d "$root/src/$d/node_modules" ] && cmp -s "$d/package-lock.json" "$root/src/$d/package-lock.json"; then
    mkdir -p "$cache/node_modules/$d" && mv "$root/src/$d/node_modules" "$cache/node_modules/$d/"
  fi
done
if ! { rm -rf "$root/src.new" && mkdir -p "$root/src.new"; }; then fail "cannot create $root/src.new"; fi
git ls-files -z --cached --others --exclude-standard |
  tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$root/src.new" ||
  fail "could not copy the checkout into $root/src.new"
# The cached build tree rebuilds by mtime. A file edited after the last copy can still be older
# than that build's outputs (edited while it ran), so a changed file is stamped now, and an
# unchanged one keeps the stamp of the copy the build tree last saw.
if [ -d "$root/src" ]; then
  (cd "$root/src.new" && find . -type f -print0) | while IFS= read -r -d '' f; do
    if cmp -s "$root/src.new/$f" "$root/src/$f"; then
      touch -r "$root/src/$f" "$root/src.new/$f"
    else
      touch "$root/src.new/$f"
    fi
  done
fi
if ! { rm -rf "$root/src" && mv "$root/src.new" "$root/src"; }; then fail "cannot replace $root/src"; fi
for d in "${npm_dirs[@]}"; do
  if [ -d "$cache/node_modules/$d/node_modules" ]; then mv "$cache/node_modules/$d/node_modules" "$root/src/$d/"; fi
done

# 4. Dependencies, build and suites: scripts/test-distro.sh, as in CI's containers.
[ "${BH_DEBIAN13_CLEAN:-0}" = 1 ] && rm -rf "${root:?}$build" "$root$build.setup.log" "$root$build.build.log"
step "running scripts/test-distro.sh in the root ($cxx, build tree $build)"
chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 CXX="$cxx" BUILD_DIR="$build" JOBS="${JOBS:-$(nproc)}" \
  BH_WITH_CHROMIUM="${BH_WITH_CHROMIUM:-0}" TIMEOUT_MULTIPLIER="${TIMEOUT_MULTIPLIER:-3}" /src/scripts/test-distro.sh
status=$?
step "done"
exit $status
