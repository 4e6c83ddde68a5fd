#!/usr/bin/env bash
# The one command that installs what is missing, builds, and runs every test.
# Ends with the line `tests: N passed, N failed` (N = Catch2 test cases across all suites).
set -uo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build}"

scripts/install-deps.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }
BUILD_DIR="$build_dir" scripts/build.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }

meson test -C "$build_dir" --print-errorlogs --num-processes "${JOBS:-2}" "$@"
status=$?

python3 - "$build_dir/meson-logs/testlog.json" <<'PY'
import json, re, sys
passed = failed = 0
try:
    lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
except OSError:
    print("tests: 0 passed, 1 failed"); sys.exit(0)
for line in lines:
    if not line.strip():
        continue
    t = json.loads(line)
    out = t.get("stdout") or ""
    m_all = re.search(r"All tests passed \(\d+ assertions? in (\d+) test cases?\)", out)
    m_mix = re.search(r"test cases:\s+(\d+) \|\s+(\d+) passed \|\s+(\d+) failed", out)
    if m_all and t.get("result") == "OK":
        passed += int(m_all.group(1))
    elif m_mix:
        passed += int(m_mix.group(2)); failed += int(m_mix.group(3))
    elif t.get("result") in ("OK", "SKIP"):
        passed += 1
    else:
        failed += 1   # crashed or timed out before Catch2 could summarize
print(f"tests: {passed} passed, {failed} failed")
PY
exit $status
