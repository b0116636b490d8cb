#!/usr/bin/env bash
# The audit's --probe against real servers nobody here wrote: the official filesystem, memory
# and everything servers (npm), the Python git server, two SQLite-backed servers (mcp-sqlalchemy, a
# generic SQL server; finamatik-ops-mcp, a sales and operations app) and an office-document one
# (excel-mcp-server), the official time server and a notes store kept in git that needs setting
# up (atlas-mind, served over HTTP), all from PyPI, and a task board in markdown files committed
# to git that needs `backlog init` (backlog.md, npm), each in its own sandbox, with a fixed
# seed; and the liar
# fixture; and the audit over Streamable HTTP against the conformance
# example. Prints each table and checks what tests/probe_servers.py expects.
# The servers are installed into `target/probe-servers` (or `$PROBE_SERVERS_HOME`) the first
# time, at pinned versions.
set -euo pipefail
cd "$(dirname "$0")/.."

FILESYSTEM_VERSION=2026.8.31
MEMORY_VERSION=2026.8.31
EVERYTHING_VERSION=2026.8.31
GIT_VERSION=2026.10.19
SQLALCHEMY_VERSION=0.2.4
OPS_VERSION=0.1.1
EXCEL_VERSION=2.2.2
TIME_VERSION=2026.10.19
ATLAS_VERSION=1.1.0
BACKLOG_VERSION=1.52.0
HOME_DIR="${PROBE_SERVERS_HOME:-target/probe-servers}"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"

# What is installed already is used only at the pinned version: a cached install of another
# version (a pin moved) is installed again, never probed in its place.
npm_version() {
  node -p "require('$HOME_DIR/node_modules/$1/package.json').version" 2>/dev/null || true
}
pip_version() {
  "$1/bin/python" -c "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))" "$2" \
    2>/dev/null || true
}
if [ "$(npm_version @modelcontextprotocol/server-filesystem)" != "$FILESYSTEM_VERSION" ] \
  || [ "$(npm_version @modelcontextprotocol/server-memory)" != "$MEMORY_VERSION" ] \
  || [ "$(npm_version @modelcontextprotocol/server-everything)" != "$EVERYTHING_VERSION" ] \
  || [ "$(npm_version backlog.md)" != "$BACKLOG_VERSION" ]; then
  echo "== installing the official filesystem, memory and everything servers and backlog.md into $HOME_DIR"
  (cd "$HOME_DIR" && npm install --silent --no-audit --no-fund \
    "@modelcontextprotocol/server-filesystem@$FILESYSTEM_VERSION" \
    "@modelcontextprotocol/server-memory@$MEMORY_VERSION" \
    "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION" \
    "backlog.md@$BACKLOG_VERSION")
fi

# Each Python server in a virtual environment of its own, at a pinned version (and the SDK or
# pydantic it was released against, where a newer one breaks it): VENV PACKAGE VERSION, then
# what else to install.
python_server() {
  local venv="$HOME_DIR/$1" package="$2" version="$3"; shift 3
  if [ "$(pip_version "$venv" "$package")" != "$version" ]; then
    echo "== installing $package==$version $* into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$package==$version" "$@"
  fi
}
python_server venv mcp-server-git "$GIT_VERSION"
python_server venv-sqlalchemy mcp-sqlalchemy "$SQLALCHEMY_VERSION" "pydantic==2.11.10"
python_server venv-ops finamatik-ops-mcp "$OPS_VERSION" "mcp==1.30.0"
python_server venv-excel excel-mcp-server "$EXCEL_VERSION"
python_server venv-time mcp-server-time "$TIME_VERSION"
python_server venv-atlas atlas-mind "$ATLAS_VERSION"
for pinned in "@modelcontextprotocol/server-filesystem $FILESYSTEM_VERSION" \
  "@modelcontextprotocol/server-memory $MEMORY_VERSION" \
  "@modelcontextprotocol/server-everything $EVERYTHING_VERSION" "backlog.md $BACKLOG_VERSION"; do
  set -- $pinned
  [ "$(npm_version "$1")" = "$2" ] || { echo "$1 is not at $2 after installing it"; exit 1; }
done
for pinned in "venv mcp-server-git $GIT_VERSION" "venv-sqlalchemy mcp-sqlalchemy $SQLALCHEMY_VERSION" \
  "venv-ops finamatik-ops-mcp $OPS_VERSION" "venv-excel excel-mcp-server $EXCEL_VERSION" \
  "venv-time mcp-server-time $TIME_VERSION" "venv-atlas atlas-mind $ATLAS_VERSION"; do
  set -- $pinned
  [ "$(pip_version "$HOME_DIR/$1" "$2")" = "$3" ] || { echo "$2 is not at $3 after installing it"; exit 1; }
done

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

# A SQLite database of three rows for mcp-sqlalchemy, and a workbook for excel-mcp-server.
SEED_DB="$HOME_DIR/seed-sqlite"
rm -rf "$SEED_DB" && mkdir -p "$SEED_DB"
python3 -c "
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER);'
                 \"INSERT INTO items (name, qty) VALUES ('apple', 3), ('pear', 5), ('plum', 7);\")
db.commit()" "$SEED_DB/test.db"
SEED_XLSX="$HOME_DIR/seed-xlsx"
rm -rf "$SEED_XLSX" && mkdir -p "$SEED_XLSX"
"$HOME_DIR/venv-excel/bin/python" -c "
import openpyxl, sys
book = openpyxl.Workbook(); sheet = book.active; sheet.title = 'Sheet1'
sheet.append(['name', 'qty']); sheet.append(['apple', 3]); sheet.append(['pear', 5])
book.save(sys.argv[1])" "$SEED_XLSX/book.xlsx"

probe() {
  local name="$1"; shift
  echo "== probe $name"
  # Exit 4 is a violation found, 1 a call that broke the protocol (the expectations say which
  # are); 2 and 3 are failures of the probe.
  # One probe, in JSON; each tool's verdicts printed from it.
  set +e
  "$AUDIT" probe --format json --cases 12 --seed 7 --probe-timeout 240 --timeout 20 "$@" > "$OUT/$name.json"
  local status=$?
  set -e
  case "$status" in 0|1|4) ;; *) echo "the probe of $name failed ($status)"; exit 1 ;; esac
  python3 tests/probe_servers.py --show "$OUT/$name.json"
}

probe filesystem -- node "$HOME_DIR/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js" '{sandbox}'
probe memory --env 'MEMORY_FILE_PATH={sandbox}/memory.jsonl' -- \
  node "$HOME_DIR/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
probe everything -- node "$HOME_DIR/node_modules/@modelcontextprotocol/server-everything/dist/index.js" stdio
probe git --seed-dir "$SEED" -- "$HOME_DIR/venv/bin/mcp-server-git" --repository '{sandbox}/repo'
probe sqlalchemy --seed-dir "$SEED_DB" --env MCP_READ_ONLY=false -- \
  "$HOME_DIR/venv-sqlalchemy/bin/mcp-sqlalchemy" --database-url 'sqlite+aiosqlite:///{sandbox}/test.db'
# Its audit log records every call, reads included: append-only, as its users would say.
probe ops --env 'OPS_MCP_HOME={sandbox}' --append-only audit.jsonl -- "$HOME_DIR/venv-ops/bin/finamatik-ops-mcp"
probe excel --seed-dir "$SEED_XLSX" -- "$HOME_DIR/venv-excel/bin/excel-mcp-server" stdio --allow-dir '{sandbox}'
# The official time server: every argument an IANA time zone (or a clock time), which its
# descriptions give examples of and a random string never is.
probe time -- "$HOME_DIR/venv-time/bin/mcp-server-time" --local-timezone UTC
# A notes store kept in git (atlas-mind), served over HTTP with the token in its URL: set up by
# its own commands in each sandbox (tests/servers/atlas-setup.sh). It stamps the token's last
# use on every request, which the control session classes volatile.
probe atlas --env "ATLAS_BIN=$HOME_DIR/venv-atlas/bin" --setup "sh $(pwd)/tests/servers/atlas-setup.sh" \
  --http 'http://127.0.0.1:{port}/mcp/probetoken' -- "$HOME_DIR/venv-atlas/bin/atlas" serve mind --port '{port}'
# A task board in markdown files, each change committed to git (backlog.md), set up by `backlog
# init` in each sandbox (tests/servers/backlog-setup.sh). Its tools state no openWorldHint, so
# they are called only with --allow-open-world (its remote operations are turned off).
probe backlog --allow-open-world --env "BACKLOG=$HOME_DIR/node_modules/.bin/backlog" \
  --setup "sh $(pwd)/tests/servers/backlog-setup.sh" -- "$HOME_DIR/node_modules/.bin/backlog" mcp start
probe liar -- target/debug/examples/liar_server

# Nothing a probe started outlives it: every process of a server's run carries the run's token
# in its environment (readable for every process as root, for this user's otherwise).
left=0
for environ in /proc/[0-9]*/environ; do
  if tr '\0' '\n' 2>/dev/null < "$environ" | grep -q '^ANNOTATIONS_AUDIT_RUN='; then
    pid="${environ#/proc/}"; pid="${pid%/environ}"
    echo "left behind: $pid $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)"
    left=$((left + 1))
  fi
done
echo "== processes the probes left behind: $left"
[ "$left" -eq 0 ] || exit 1

# The audit over Streamable HTTP, against the conformance example.
source tests/serve_conformance.sh
echo "== the audit over Streamable HTTP: $URL"
set +e
"$AUDIT" audit --format json --http "$URL" > "$OUT/http.json"
status=$?
set -e
# No error finding (exit 0): the conformance example's hints are whole; its warnings are
# checked by tests/probe_servers.py.
[ "$status" -eq 0 ] || { echo "the audit over HTTP exited $status"; exit 1; }

python3 tests/probe_servers.py "$OUT"
