#!/usr/bin/env bash
# The probe's fixture suite: MCP servers built on the official Python SDK whose every tool has a
# known truth per hint (annotations-audit/tests/fixtures/python/: fixtures.py, truth.json),
# state in a SQLite database and an office workbook. Each run of truth.json probes one server
# in a fresh sandbox with a fixed seed; every tool and hint it names must come out exactly, and
# each tool's row must say what its `said` names.
# The SDK and openpyxl are installed into `target/probe-fixtures` (or
# `$PROBE_FIXTURES_HOME`) the first time, at pinned versions, and checked on every run.
set -euo pipefail
cd "$(dirname "$0")/.."

SDK_VERSION=2.3.0
OPENPYXL_VERSION=3.1.5
VENV="${PROBE_FIXTURES_HOME:-target/probe-fixtures}"
pinned() {
  "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$SDK_VERSION' or m.version('openpyxl') != '$OPENPYXL_VERSION')" 2>/dev/null
}
if [ ! -x "$VENV/bin/python" ] || ! pinned; then
  echo "== installing mcp==$SDK_VERSION and openpyxl==$OPENPYXL_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "mcp==$SDK_VERSION" "openpyxl==$OPENPYXL_VERSION"
  pinned || { echo "the fixture venv does not hold the pinned versions"; exit 1; }
fi
VENV="$(cd "$VENV" && pwd)"

cargo build --quiet -p mcp-annotations-audit --bin annotations-audit
AUDIT="$(pwd)/target/debug/annotations-audit"
FIXTURES="$(pwd)/annotations-audit/tests/fixtures/python"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$VENV/bin/python" "$FIXTURES/fixtures.py" seed "$WORK/seed"

"$VENV/bin/python" - "$AUDIT" "$VENV/bin/python" "$FIXTURES" "$WORK" <<'PY'
import json, os, subprocess, sys, time

audit, python, fixtures, work = sys.argv[1:]
truth = json.load(open(f"{fixtures}/truth.json"))
wrong = 0
for run in truth["runs"]:
    # The SQLite server's flaky tool keeps its counter outside the sandbox on purpose: left
    # writable there (its runs then go one after the other); the other servers' runs have
    # nothing outside the sandbox, and go side by side.
    counters = f"{work}/counters"
    os.makedirs(counters, exist_ok=True)
    counter = f"{counters}/{run['name']}.counter"
    open(counter, "w").write("0")
    outside = ["--env", f"FLAKY_COUNTER={counter}", "--writable", counters] if run["server"] == "sqlite" else []
    started = time.monotonic()
    done = subprocess.run(
        [audit, "probe", "--format", "json", "--cases", "8", "--seed", "7",
         "--seed-dir", f"{work}/seed", *outside, *run["args"],
         "--", python, f"{fixtures}/fixtures.py", run["server"]],
        capture_output=True, text=True, timeout=600)
    took = time.monotonic() - started
    if done.returncode not in (0, 1, 4):  # clean, findings, or violations found
        print(f"the probe of {run['name']} failed ({done.returncode}): {done.stderr}")
        sys.exit(1)
    report = json.loads(done.stdout)
    found = {tool["name"]: tool["probe"] for tool in report["tools"]}
    print(f"== {run['name']}: {len(run['expect'])} tools, {took:.1f} s; {report['confinement']}; {report['network']}")
    for tool, expected in run["expect"].items():
        got = found.get(tool)
        mark = "ok" if got == expected else "WRONG"
        wrong += got != expected
        print(f"  {mark:5} {tool}: {got}" + ("" if got == expected else f" (truth: {expected})"))
    # What a tool's row must say beside its verdicts (a note, or why a claim went unjudged).
    for tool, words in run.get("said", {}).items():
        row = next((t for t in report["tools"] if t["name"] == tool), {})
        said = json.dumps([row.get("notes"), row.get("unjudged")], ensure_ascii=False)
        if words not in said:
            wrong += 1
            print(f"  WRONG {tool} does not say {words!r}: {said[:300]}")
if wrong:
    print(f"{wrong} tools judged otherwise than their truth")
    sys.exit(1)
print("the fixture suite: every tool judged as its truth says")
PY
