#!/usr/bin/env bash
# Validates the reusable workflows' `platforms` input and prints the collection matrix as a
# step output (`matrix=["ubuntu-latest"]`). cargo-bench-history builds on Linux runners only
# (Debian 12, Ubuntu 24.04 or newer: it needs Boost.JSON 1.81+ and toml++ from the
# distribution), so a Windows or macOS label — or any ubuntu-XX.YY older than 24.04, with or
# without a suffix such as -arm — fails here, at once, saying so. Runner labels are
# case-insensitive on GitHub, so they are compared, deduplicated and listed in lower case.
# Other labels (self-hosted runners) are accepted; the build step checks the runner's operating
# system before doing anything else.
#
#   PLATFORMS='ubuntu-latest, ubuntu-24.04-arm' platforms.sh >> "$GITHUB_OUTPUT"
set -euo pipefail

raw="${PLATFORMS:-}"
labels=()
failed=0
IFS=$', \t\n' read -r -a parts <<< "${raw//$'\n'/ }"
for label in "${parts[@]}"; do
  [ -z "$label" ] && continue
  if ! [[ "$label" =~ ^[A-Za-z0-9._-]+$ ]]; then
    echo "::error title=Invalid platform::platforms: \"$label\" is not a runner label (letters, digits, '.', '_' and '-' only)" >&2
    failed=1
    continue
  fi
  lower="${label,,}"
  case "$lower" in
    windows*|macos*)
      echo "::error title=Unsupported platform::platforms: $label — cargo-bench-history builds only on Linux runners (ubuntu-latest, ubuntu-24.04, ubuntu-24.04-arm, or a self-hosted Debian 12 / Ubuntu 24.04+ runner). Remove $label from platforms." >&2
      failed=1
      continue
      ;;
  esac
  if [[ "$lower" =~ ^ubuntu-([0-9]+)\.([0-9]+)($|-) ]] &&
    (( 10#${BASH_REMATCH[1]} < 24 || (10#${BASH_REMATCH[1]} == 24 && 10#${BASH_REMATCH[2]} < 4) )); then
    echo "::error title=Unsupported platform::platforms: $label — its distribution has no Boost.JSON 1.81+ or toml++ packages, so cargo-bench-history cannot be built there. Use ubuntu-24.04 or ubuntu-latest." >&2
    failed=1
    continue
  fi
  # GitHub matches runner labels case-insensitively (Ubuntu-Latest is ubuntu-latest): the matrix
  # lists each label once, in lower case.
  for seen in "${labels[@]+"${labels[@]}"}"; do
    if [ "$seen" = "$lower" ]; then continue 2; fi
  done
  labels+=("$lower")
done
if [ "$failed" -ne 0 ]; then exit 1; fi
if [ "${#labels[@]}" -eq 0 ]; then
  echo "::error title=No platform::platforms is empty: name at least one Linux runner label, e.g. ubuntu-latest" >&2
  exit 1
fi
json="["
for i in "${!labels[@]}"; do
  if [ "$i" -gt 0 ]; then json+=","; fi
  json+="\"${labels[$i]}\""
done
json+="]"
echo "matrix=$json"
