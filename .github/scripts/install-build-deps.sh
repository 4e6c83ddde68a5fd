#!/usr/bin/env bash
# Installs what building cargo-bench-history needs on a Linux runner, from the distribution's
# packages: Debian 12 (the project's own set, Boost 1.81) or Ubuntu 24.04 and newer (Boost
# 1.83+). Idempotent and quiet when everything is present. Fails with a message saying which
# platforms work when the distribution cannot provide them.
set -euo pipefail

if [ "$(uname -s)" != Linux ]; then
  echo "::error title=Unsupported platform::cargo-bench-history builds only on Linux runners (this is $(uname -s))" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "::error title=Unsupported platform::cargo-bench-history's build needs apt (Debian 12, Ubuntu 24.04 or newer); this runner has none" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

# A package is installable when apt has a candidate version. `apt-cache show` is not that test:
# it succeeds for a package only named by others (Debian 13 still knows libboost1.81-dev).
# grep reads everything (no -q): an early exit would kill apt-cache with SIGPIPE and, under
# pipefail, fail the test for a long version table.
has_candidate() { apt-cache policy "$1" 2>/dev/null | grep '^ *Candidate: [^(]' >/dev/null; }
updated=0
# A fresh container has no package lists, and without them every package looks unavailable.
if ! has_candidate meson; then
  $sudo apt-get update -qq
  updated=1
fi

common=(meson ninja-build pkg-config g++ git ca-certificates libssl-dev libgit2-dev zlib1g-dev libtomlplusplus-dev)
if has_candidate libboost1.81-dev; then
  # Debian 12: the 1.81 set, never libboost-dev (it pulls 1.74 and conflicts).
  boost=(libboost1.81-dev libboost-json1.81-dev libboost-program-options1.81-dev)
else
  boost=(libboost-dev libboost-json-dev libboost-program-options-dev)
fi
packages=("${common[@]}" "${boost[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi

[ "$updated" -eq 1 ] || $sudo apt-get update -qq
for p in "${missing[@]}"; do
  if ! has_candidate "$p"; then
    echo "::error title=Unsupported platform::this distribution has no package $p; cargo-bench-history builds on Debian 12 and Ubuntu 24.04 or newer (Boost.JSON 1.81+, toml++)" >&2
    exit 1
  fi
done
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
