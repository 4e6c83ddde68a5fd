#!/usr/bin/env python3
"""Scores an `analyze --json` report of a synthetic store against the changes
examples/synthetic_history planted (DIR/planted.tsv).

    synthetic_accuracy.py DIR REPORT.json

Counts, over every planted series (set x benchmark x metric of the set's engine):
step regressions reported as change points, how many of those at the first measured
commit of the new level, reported as drift, not reported; and findings on series with
no planted regression (flat, or planted improvements, which history mode never reports).
Prints one summary line and exits 1 when the issue's acceptance levels are not met
(>= 95 % of step regressions as change points, >= 90 % of those at the first commit of
the new level, no finding on a series without a planted change).
"""
import json
import os
import subprocess
import sys

METRICS = {
    "criterion": ["wall_time"],
    "callgrind": ["conditional_branches", "indirect_branches", "instruction_count"],
    "alloc_tracker": ["allocated_bytes", "allocation_count"],
    "all_the_time": ["processor_time"],
}


def main(out_dir, report_path):
    order = subprocess.run(["git", "-C", os.path.join(out_dir, "repo"), "rev-list", "--first-parent", "--reverse",
                            "main"], check=True, capture_output=True, text=True).stdout.split()
    index = {sha: i for i, sha in enumerate(order)}
    planted = {}
    with open(os.path.join(out_dir, "planted.tsv"), encoding="utf-8") as f:
        next(f)
        for line in f:
            set_, bench, shape, at = line.rstrip("\n").split("\t")
            planted[(set_, bench)] = (shape, int(at))
    # Commits measured per set, from the store's key layout (objects/<engine>/<triple>/<key>/<commit>/).
    measured = {}
    objects = os.path.join(out_dir, "store", "v1", "synthetic", "objects")
    for engine in os.listdir(objects):
        for triple in os.listdir(os.path.join(objects, engine)):
            for key in os.listdir(os.path.join(objects, engine, triple)):
                commits = os.listdir(os.path.join(objects, engine, triple, key))
                measured[f"{engine}/{triple}/{key}"] = sorted(index[c] for c in commits if c in index)
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    found = {}
    for fd in report["findings"]:
        set_ = f"{fd['engine']}/{fd['target_triple']}/{fd['machine_key']}"
        found[(set_, "/".join(fd["segments"]), fd["kind"])] = fd

    steps = as_change_point = exact = as_drift = missed = 0
    wrong = []
    for (set_, bench), (shape, at) in planted.items():
        if shape != "step_up":
            continue
        first = next(i for i in measured[set_] if i >= at)
        for metric in METRICS[set_.split("/")[0]]:
            steps += 1
            fd = found.pop((set_, bench, metric), None)
            if fd is None:
                missed += 1
            elif fd["method"] == "change_point":
                as_change_point += 1
                exact += index[fd["commit"]] == first
            else:
                as_drift += 1
    drifts = sum(1 for (s, b), (shape, _) in planted.items() if shape == "drift")
    drift_found = sum(1 for k in list(found) if planted.get(k[:2], ("flat", 0))[0] == "drift" and found.pop(k))
    false = len(found)  # findings left: on flat series or planted improvements
    cp_share = as_change_point / steps if steps else 0
    exact_share = exact / as_change_point if as_change_point else 0
    print(f"synthetic store: {steps} planted step regressions: {as_change_point} change points "
          f"({cp_share:.1%}), {exact} at the first commit of the new level ({exact_share:.1%} of those), "
          f"{as_drift} as drift, {missed} not reported; {drift_found} findings on {drifts} planted drifts' "
          f"benchmarks; {false} findings on series without a planted change")
    return 0 if cp_share >= 0.95 and exact_share >= 0.90 and false == 0 else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
