#!/usr/bin/env bash
# The collect/backfill arguments the reusable workflows' measurement inputs stand for, one per
# line (read them with `scope=$(scope-args.sh)` and then `mapfile -t args <<< "$scope"`:
# a process substitution would drop a failing exit status):
#   PACKAGES             space-separated packages (pull requests: the affected ones) → --package …
#   EXCLUDE              comma/space-separated packages → --exclude … (only without PACKAGES)
#   BENCH                comma/space-separated bench targets → --bench …
#   FEATURES             forwarded verbatim as one --features value
#   ALL_FEATURES, NO_DEFAULT_FEATURES   true → --all-features / --no-default-features
#   BEST_OF              repetitions → --best-of N (default 1)
#   CONFIG               configuration file → --config PATH
set -euo pipefail

split() { local v="${1//,/ }"; echo "$v" | tr -s ' \t\n' '\n' | sed '/^$/d'; }

if [ -n "${CONFIG:-}" ]; then printf '%s\n' --config "$CONFIG"; fi
if [ -n "${PACKAGES:-}" ]; then
  split "$PACKAGES" | while read -r p; do printf '%s\n' --package "$p"; done
else
  printf '%s\n' --workspace
  if [ -n "${EXCLUDE:-}" ]; then split "$EXCLUDE" | while read -r p; do printf '%s\n' --exclude "$p"; done; fi
fi
if [ -n "${BENCH:-}" ]; then split "$BENCH" | while read -r b; do printf '%s\n' --bench "$b"; done; fi
if [ -n "${FEATURES:-}" ]; then printf '%s\n' --features "$FEATURES"; fi
if [ "${ALL_FEATURES:-false}" = true ]; then printf '%s\n' --all-features; fi
if [ "${NO_DEFAULT_FEATURES:-false}" = true ]; then printf '%s\n' --no-default-features; fi
best_of="${BEST_OF:-1}"
if ! [[ "$best_of" =~ ^[1-9][0-9]*$ ]]; then
  echo "::error title=best-of::best-of must be a positive integer, not \"$best_of\"" >&2
  exit 1
fi
printf '%s\n' --best-of "$best_of"
