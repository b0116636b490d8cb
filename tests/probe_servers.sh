#!/usr/bin/env bash
# The audit's --probe against real servers nobody here wrote: the official filesystem and
# memory servers (npm) and the Python git server (PyPI), each in its own sandbox, with a fixed
# seed; and the liar fixture; and the audit over Streamable HTTP against the conformance
# example. Prints each table and checks what tests/probe_servers.py expects.
# The servers are installed into `target/probe-servers` (or `$PROBE_SERVERS_HOME`) the first
# time, at pinned versions.
set -euo pipefail
cd "$(dirname "$0")/.."

FILESYSTEM_VERSION=2026.8.31
MEMORY_VERSION=2026.8.31
GIT_VERSION=2026.10.19
HOME_DIR="${PROBE_SERVERS_HOME:-target/probe-servers}"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"

if [ ! -f "$HOME_DIR/node_modules/@modelcontextprotocol/server-memory/package.json" ]; then
  echo "== installing the official filesystem and memory servers into $HOME_DIR"
  (cd "$HOME_DIR" && npm install --silent --no-audit --no-fund \
    "@modelcontextprotocol/server-filesystem@$FILESYSTEM_VERSION" \
    "@modelcontextprotocol/server-memory@$MEMORY_VERSION")
fi
if [ ! -x "$HOME_DIR/venv/bin/mcp-server-git" ]; then
  echo "== installing mcp-server-git==$GIT_VERSION into $HOME_DIR/venv"
  python3 -m venv "$HOME_DIR/venv"
  "$HOME_DIR/venv/bin/pip" install --quiet --disable-pip-version-check "mcp-server-git==$GIT_VERSION"
fi

cargo build --quiet -p mcp-annotations-audit --bin annotations-audit --example liar_server
AUDIT=target/debug/annotations-audit
OUT="$HOME_DIR/results"
mkdir -p "$OUT"

# A small repository for the git server, copied into its sandbox.
SEED="$HOME_DIR/seed-git"
rm -rf "$SEED" && mkdir -p "$SEED/repo"
(cd "$SEED/repo" && git init -q && git config user.email probe@example.com \
  && git config user.name probe && echo hello > README.md && git add README.md \
  && git commit -qm "first")

probe() {
  local name="$1"; shift
  echo "== --probe $name"
  # Exit 1 is a violation found (the expectations say which are); 2 is a failure of the probe.
  set +e
  "$AUDIT" --probe --cases 12 --seed 7 --probe-timeout 240 --timeout 20 "$@" > "$OUT/$name.md"
  local status=$?
  "$AUDIT" --format json --probe --cases 12 --seed 7 --probe-timeout 240 --timeout 20 "$@" > "$OUT/$name.json"
  set -e
  cat "$OUT/$name.md"
  [ "$status" -lt 2 ] || { echo "the probe of $name failed"; exit 1; }
}

probe filesystem -- node "$HOME_DIR/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js" '{sandbox}'
probe memory --env 'MEMORY_FILE_PATH={sandbox}/memory.jsonl' -- \
  node "$HOME_DIR/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
probe git --seed-dir "$SEED" -- "$HOME_DIR/venv/bin/mcp-server-git" --repository '{sandbox}/repo'
probe liar -- target/debug/examples/liar_server

# The audit over Streamable HTTP, against the conformance example.
source tests/serve_conformance.sh
echo "== the audit over Streamable HTTP: $URL"
set +e
"$AUDIT" --format json --http "$URL" > "$OUT/http.json"
status=$?
set -e
[ "$status" -lt 2 ] || { echo "the audit over HTTP failed"; exit 1; }

python3 tests/probe_servers.py "$OUT"
