#!/usr/bin/env bash
# The official Python SDK (`mcp` on PyPI) as the client of the notes example (stdio) and the
# conformance example (Streamable HTTP): see tests/python_sdk.py. The SDK is installed into a
# virtual environment in `target/python-sdk` (or `$PYTHON_SDK_HOME`) the first time.
set -euo pipefail
cd "$(dirname "$0")/.."

SDK_VERSION="${MCP_PYTHON_SDK_VERSION:-2.3.0}"
VENV="${PYTHON_SDK_HOME:-target/python-sdk}"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$SDK_VERSION')" 2>/dev/null; then
  echo "== installing mcp==$SDK_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "mcp==$SDK_VERSION"
fi

cargo build --quiet --example notes --example conformance
OUT="$(mktemp)"
target/debug/examples/conformance --port 0 > "$OUT" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; rm -f "$OUT"' EXIT
for _ in $(seq 1 100); do
  if [ -s "$OUT" ]; then break; fi
  sleep 0.1
done
URL="$(head -n 1 "$OUT" | sed -n 's/^listening on //p')"
[ -n "$URL" ] || { echo "the conformance server did not start" >&2; exit 1; }

timeout 120 "$VENV/bin/python" tests/python_sdk.py target/debug/examples/notes "$URL"
