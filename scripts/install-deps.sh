#!/usr/bin/env bash
# Installs everything benchhist needs on Debian 12 (idempotent; fast when all is present).
# Boost is the 1.81 set: never libboost-dev/libboost-all-dev (they pull 1.74 and conflict).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential meson ninja-build pkg-config git ca-certificates openssl
  libboost1.81-dev libboost-json1.81-dev libboost-program-options1.81-dev
  libssl-dev libgit2-dev zlib1g-dev libtomlplusplus-dev catch2 libbenchmark-dev
  librust-criterion-dev valgrind shellcheck
  hyperfine  # the hyperfine engine's real exports (tests/engines/test_harnesses.cpp, tests/e2e/test_e2e_harnesses.cpp)
  chromium  # the HTML report opened in a real headless browser (tests/e2e/test_e2e_html.cpp)
  clang libclang-rt-14-dev  # the sanitizer pass and the fuzz targets (docs/testing.md, docs/fuzzing.md)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "[setup] installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Rust toolchain for real `cargo bench` runs (Debian 12's packaged rustc is enough to build the
# packaged criterion crates offline; an existing rustup toolchain is used when present).
if ! command -v cargo >/dev/null 2>&1; then
  echo "[setup] installing: cargo rustc" >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends cargo rustc >/dev/null
fi

# Node.js and npm for Azurite: Debian's packages unless a Node.js is already installed
# (images that ship NodeSource's nodejs conflict with Debian's npm package).
if ! command -v npm >/dev/null 2>&1; then
  echo "[setup] installing: nodejs npm" >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

# Azurite (the Azure Storage emulator), pinned in tests/azure/package-lock.json.
if [ -f tests/azure/package.json ] && [ ! -x tests/azure/node_modules/.bin/azurite-blob ]; then
  echo "[setup] installing: azurite (npm, pinned)" >&2
  # The registry is sometimes slow to answer: three attempts before giving up.
  for attempt in 1 2 3; do
    if npm ci --prefix tests/azure --no-audit --no-fund --loglevel=error >/dev/null; then break; fi
    if [ "$attempt" -eq 3 ]; then
      echo "[setup] npm ci for tests/azure failed three times; check the npm registry and rerun" >&2
      exit 1
    fi
    echo "[setup] npm ci failed (attempt $attempt); retrying" >&2
    sleep 5
  done
fi

# @action-validator/cli (the GitHub workflow/action schema validator), pinned in
# tests/automation/package-lock.json.
if [ -f tests/automation/package.json ] && [ ! -x tests/automation/node_modules/.bin/action-validator ]; then
  echo "[setup] installing: @action-validator/cli (npm, pinned)" >&2
  for attempt in 1 2 3; do
    if npm ci --prefix tests/automation --no-audit --no-fund --loglevel=error >/dev/null; then break; fi
    if [ "$attempt" -eq 3 ]; then
      echo "[setup] npm ci for tests/automation failed three times; check the npm registry and rerun" >&2
      exit 1
    fi
    echo "[setup] npm ci failed (attempt $attempt); retrying" >&2
    sleep 5
  done
fi
