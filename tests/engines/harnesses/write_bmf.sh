#!/bin/sh
# A team's own harness writing the Bencher Metric Format: it times two commands with date(1)
# and writes one BMF document to $1 (the tests read it as the bmf engine would).
set -eu
now() { date +%s%N; }
t0=$(now); sleep 0.01; t1=$(now); true; t2=$(now)
cat > "$1" <<JSON
{
  "sleep/10ms": { "latency": { "value": $((t1 - t0)), "lower_value": $((t1 - t0)), "upper_value": $((t1 - t0 + 500)) } },
  "true": { "latency": { "value": $((t2 - t1)) }, "instructions": { "value": 12345 } }
}
JSON
