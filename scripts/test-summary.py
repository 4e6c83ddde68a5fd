#!/usr/bin/env python3
"""Prints "<passed> <failed>" for a meson testlog.json: Catch2 test cases over all suites.

Shared by scripts/test.sh and scripts/test-debian13.sh so both end with the same count.
Catch2 2 and 3 print the same summary shapes; a test that printed neither counts as one
case by its meson result (a crash or a timeout before Catch2 could summarize is a failure).
"""
import json
import re
import sys

passed = failed = 0
try:
    lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
except OSError:
    print("0 1")
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
