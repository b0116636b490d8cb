#!/usr/bin/env bash
# The action's first step: where the audit is installed, and the cache key of that install, a
# digest of the sources the action checked out (so a new tag or commit builds anew, and the
# same one is installed once).
set -euo pipefail
here="${GITHUB_ACTION_PATH:?set by the runner: the checkout of the action}"
digest="$(cd "$here" && find Cargo.lock Cargo.toml annotations annotations-derive annotations-rules annotations-verify \
  annotations-audit -type f \( -name '*.rs' -o -name '*.toml' -o -name '*.md' -o -name '*.lock' \) \
  2>/dev/null | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)"
root="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}}/annotations-audit/$digest"
{
  echo "root=$root"
  echo "key=annotations-audit-${RUNNER_OS:-$(uname)}-$(uname -m)-$digest"
} >> "${GITHUB_OUTPUT:?}"
