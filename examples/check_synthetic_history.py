#!/usr/bin/env python3
"""The synthetic_history example as a test: write a small seeded history with the example,
analyze it with the real binary, and check the planted steps against the report — every planted
+25 % step is a change-point regression at (or just after, where no run was stored) its commit,
and no benchmark without a planted change is reported.

usage: check_synthetic_history.py SYNTHETIC_HISTORY CARGO_BENCH_HISTORY"""
import csv, json, os, subprocess, sys, tempfile

gen, cli = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory(prefix="bh-synthetic-") as out:
    subprocess.run([gen, "--out", out, "--benchmarks", "60", "--commits", "160", "--sets", "2", "--seed", "11"],
                   check=True, stdout=subprocess.DEVNULL)
    report = os.path.join(out, "report.json")
    r = subprocess.run([cli, "analyze", "--repo", os.path.join(out, "repo"), "--local=" + os.path.join(out, "store"),
                        "--engine", "all", "--target-triple", "all", "--machine-key", "all", "--since", "1970-01-01T00:00:00Z",
                        "--no-text", "--json", report], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"analyze failed ({r.returncode}):\n{r.stderr}")
    doc = json.load(open(report, encoding="utf-8"))
    order = subprocess.run(["git", "-C", os.path.join(out, "repo"), "rev-list", "--first-parent", "--reverse", "main"],
                           check=True, capture_output=True, text=True).stdout.split()
    index = {c: i for i, c in enumerate(order)}
    with open(os.path.join(out, "planted.tsv"), encoding="utf-8") as f:
        planted = {(row["set"], row["benchmark"]): row for row in csv.DictReader(f, delimiter="\t")}

findings = {}
for f in doc["findings"]:
    key = (f"{f['engine']}/{f['target_triple']}/{f['machine_key']}", "/".join(f["segments"]))
    findings.setdefault(key, []).append(f)

problems = []
steps = [k for k, row in planted.items() if row["shape"] == "step_up"]
for key in steps:
    hits = [f for f in findings.get(key, []) if f["method"] == "change_point" and f["direction"] == "regression"]
    if not hits:
        problems.append(f"planted step not reported as a change point: {key}")
        continue
    at = int(planted[key]["change_at_commit_index"])
    for f in hits:
        i = index.get(f.get("commit", ""), -1)
        if not at <= i <= at + 8:
            problems.append(f"{key}: reported at first-parent index {i}, planted at {at}")
for key in findings:
    if key not in planted:
        problems.append(f"finding on a benchmark without a planted change: {key}")
if not steps:
    problems.append("the seed planted no step; choose another")
print(f"{len(steps)} planted steps, {sum(len(v) for v in findings.values())} findings")
if problems:
    sys.exit("\n".join(problems))
