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

cargo build --quiet -p notes
source tests/serve_conformance.sh

timeout 120 "$VENV/bin/python" tests/python_sdk.py target/debug/notes "$URL"
