#!/usr/bin/env python3
"""Prints "<passed> <failed>" for a meson testlog.json: Catch2 test cases over all suites.

Shared by scripts/test.sh and scripts/test-debian13.sh so both end with the same count.
Catch2 2 and 3 print the same summary shapes; a test that printed neither counts as one
case by its meson result (a crash or a timeout before Catch2 could summarize is a failure).

With --failures first, prints instead each failed assertion of the failed tests (its location,
expression and expansion, without the INFO messages): meson's --print-errorlogs shows only a
log's last 100 lines, which a test's long INFO output can fill, hiding what failed.
"""
import json
import re
import sys


def print_failures(lines):
    for line in lines:
        if not line.strip():
            continue
        t = json.loads(line)
        if t.get("result") in ("OK", "SKIP", "EXPECTEDFAIL"):
            continue
        print(f"== failed: {t.get('name')} ({t.get('result')})")
        out = (t.get("stdout") or "").splitlines()
        shown = 0
        i = 0
        while i < len(out) and shown < 20:
            if out[i].rstrip().endswith("FAILED:"):
                shown += 1
                # The assertion's block runs to its messages or the next separator line.
                j = i
                while j < len(out) and not out[j].startswith(("with message", "-----", "=====")) and j - i < 30:
                    print(out[j])
                    j += 1
                i = j
            else:
                i += 1
        if shown == 0:
            print("\n".join(out[-20:]))


failures = len(sys.argv) > 2 and sys.argv[1] == "--failures"
path = sys.argv[2] if failures else sys.argv[1]
passed = failed = 0
try:
    lines = open(path, encoding="utf-8").read().splitlines()
except OSError:
    print("0 1")
    sys.exit(0)
if failures:
    print_failures(lines)
    sys.exit(0)
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
        passed += int(m_mix.group(2))
        failed += int(m_mix.group(3))
    elif t.get("result") in ("OK", "SKIP"):
        passed += 1
    else:
        failed += 1
print(passed, failed)
