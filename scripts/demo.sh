#!/usr/bin/env bash
# The demo: install what is missing, build, then walk through the guide's "Getting started"
# on a small example crate whose git history contains one planted slowdown.
#
#   1. make a git repository from examples/demo-crate with 12 commits; commit 7 makes the
#      `checksum` benchmarks about 4x slower (PASSES 1 -> 4);
#   2. `install` the starter configuration;
#   3. `backfill` the older commits in an isolated worktree, then `collect` the newest one,
#      all with real `cargo bench` runs into a local store;
#   4. `list runs`, `analyze` the history (the finding, with its chart) and `examine` it.
#
# Everything is written under a temporary directory (kept, and printed at the end).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"

scripts/install-deps.sh
scripts/build.sh
tool="$here/${BUILD_DIR:-build}/cli/cargo-bench-history"

work="${DEMO_DIR:-$(mktemp -d /tmp/benchhist-demo.XXXXXX)}"
repo="$work/wordcount"
store="$work/bench-history"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "1. a git repository with a planted slowdown at commit 7 ($repo)"
rm -rf "$repo" && mkdir -p "$repo"
cp -r examples/demo-crate/. "$repo/"
cd "$repo"
git init -q -b main
git config user.email demo@example.invalid
git config user.name "benchhist demo"
say "2. cargo bench-history install (the starter configuration is committed with the crate)"
"$tool" install
git add -A && git commit -qm "wordcount: first version"
for i in $(seq 2 12); do
  if [ "$i" -eq 7 ]; then
    sed -i 's/pub const PASSES: u32 = 1;/pub const PASSES: u32 = 4;/' src/lib.rs
    git commit -qam "checksum: four passes for better mixing (the planted slowdown)"
  else
    echo "// revision $i" >> src/lib.rs
    git commit -qam "wordcount: revision $i"
  fi
done
git log --oneline --first-parent | sed 's/^/    /'

say "3. cargo bench-history backfill: seed history from the first commit to HEAD~1 (real cargo bench per commit)"
"$tool" backfill --local="$store" "$(git rev-list --max-parents=0 HEAD)" HEAD~1

say "4. cargo bench-history collect: the current commit"
"$tool" collect --local="$store"

say "5. cargo bench-history list runs"
"$tool" list runs --local="$store"

say "6. cargo bench-history analyze"
"$tool" analyze --local="$store" --markdown "$work/report.md" --json "$work/report.json"

say "7. cargo bench-history examine --benchmark checksum/4096 --metric wall_time"
"$tool" examine --local="$store" --benchmark checksum/4096 --metric wall_time

say "done: the store, reports and repository are in $work"
