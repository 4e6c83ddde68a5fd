#!/usr/bin/env bash
# Appends the reusable workflows' `rustflags` input (Cargo's whitespace-separated RUSTFLAGS
# syntax, no shell quoting) to the compiler flags, as lines for $GITHUB_ENV:
#   * CARGO_ENCODED_RUSTFLAGS set → the flags are appended there, each its own argument
#     (Cargo prefers the encoded form and it keeps argument boundaries);
#   * otherwise → appended to RUSTFLAGS;
#   * empty input → nothing is printed and the environment stays as it is.
#   INPUT_RUSTFLAGS='-C target-cpu=native' rustflags.sh >> "$GITHUB_ENV"
set -euo pipefail

input="${INPUT_RUSTFLAGS:-}"
read -r -a flags <<< "${input//$'\n'/ }"
if [ "${#flags[@]}" -eq 0 ]; then exit 0; fi
if [ -n "${CARGO_ENCODED_RUSTFLAGS:-}" ]; then
  encoded="$CARGO_ENCODED_RUSTFLAGS"
  for f in "${flags[@]}"; do encoded+=$'\x1f'"$f"; done
  printf 'CARGO_ENCODED_RUSTFLAGS=%s\n' "$encoded"
else
  joined="${flags[*]}"
  printf 'RUSTFLAGS=%s\n' "${RUSTFLAGS:+$RUSTFLAGS }$joined"
fi
