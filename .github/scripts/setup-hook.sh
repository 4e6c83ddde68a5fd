#!/usr/bin/env bash
# Stages the repository's optional setup hook for the reusable workflows. The hook lives in the
# invocation checkout at .github/actions/bench-history-setup/ (action.yml or action.yaml); the
# checkout's path names the repository (src/<owner>/<name>, so the tool's default project id is
# the repository's name), and `uses:` takes no expressions, so the hook's directory is copied to
# the fixed path ./bench-history-setup, from which the next step runs it. Prints the step output
# `found=true` or `found=false`.
#
#   setup-hook.sh "src/$GITHUB_REPOSITORY" >> "$GITHUB_OUTPUT"
set -euo pipefail

if [ "$#" -ne 1 ] || [ -z "$1" ]; then
  echo "::error title=Setup hook::usage: setup-hook.sh <checkout directory>" >&2
  exit 2
fi
hook="$1/.github/actions/bench-history-setup"
rm -rf bench-history-setup
if [ -f "$hook/action.yml" ] || [ -f "$hook/action.yaml" ]; then
  cp -a "$hook" bench-history-setup
  echo "found=true"
else
  echo "found=false"
fi
