#!/usr/bin/env bash
# The GitHub Action (action.yml at the root) with no GitHub: its metadata checked against the
# rules of Actions' action metadata that can be checked offline, then its steps run as a script
# with their inputs set, as the runner would run them: the key step, the install step's own
# command (a debug build in this repository's target folder, to reuse what the tests built),
# and the run step on the notes example, on the official memory server, on a diff with a
# planted trust change, and on a probe of the liar fixture with and without ignores.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

echo "-- action.yml against the action metadata rules"
python3 - <<'PY'
import os, re, yaml
action = yaml.safe_load(open("action.yml"))
problems = []
for key in ("name", "description", "runs"):
    if key not in action:
        problems.append(f"no {key}")
inputs, outputs = action.get("inputs", {}), action.get("outputs", {})
for name, spec in inputs.items():
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", name):
        problems.append(f"input {name}: not an id")
    if "description" not in spec:
        problems.append(f"input {name}: no description")
    if "default" in spec and not isinstance(spec["default"], str):
        problems.append(f"input {name}: a default is a string")
runs = action["runs"]
if runs.get("using") != "composite":
    problems.append("runs.using is not composite")
ids = set()
for at, step in enumerate(runs.get("steps", [])):
    if ("run" in step) == ("uses" in step):
        problems.append(f"step {at}: one of run and uses")
    if "run" in step and "shell" not in step:
        problems.append(f"step {at}: a run step of a composite action names its shell")
    if "id" in step:
        ids.add(step["id"])
    for path in re.findall(r'\$GITHUB_ACTION_PATH/([^"\s]+)', step.get("run", "")):
        if not os.path.exists(path):
            problems.append(f"step {at}: {path} is not in the action")
for name, spec in outputs.items():
    if "description" not in spec or "value" not in spec:
        problems.append(f"output {name}: a composite action's output has a description and a value")
text = open("action.yml").read()
for used in re.findall(r"inputs\.([A-Za-z0-9_-]+)", text):
    if used not in inputs:
        problems.append(f"inputs.{used} is not an input")
for step, _ in re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)", text):
    if step not in ids:
        problems.append(f"steps.{step} is no step's id")
assert not problems, problems
print("action.yml: %d inputs, %d outputs, %d steps" % (len(inputs), len(outputs), len(runs["steps"])))
PY

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GITHUB_ACTION_PATH="$repo" RUNNER_TOOL_CACHE="$work/tools" RUNNER_TEMP="$work/tmp"
mkdir -p "$RUNNER_TEMP"

echo "-- the key step"
export GITHUB_OUTPUT="$work/key.out"
bash action/key.sh
root="$(sed -n 's/^root=//p' "$GITHUB_OUTPUT")"
key="$(sed -n 's/^key=//p' "$GITHUB_OUTPUT")"
[ -n "$root" ] && [[ "$key" == annotations-audit-* ]] || { echo "no root or key"; exit 1; }
: > "$GITHUB_OUTPUT"; bash action/key.sh
[ "$(sed -n 's/^key=//p' "$GITHUB_OUTPUT")" = "$key" ] || { echo "the key is not stable"; exit 1; }

echo "-- the install step's command"
install="$(python3 -c 'import yaml; s = yaml.safe_load(open("action.yml"))["runs"]["steps"]; print(next(x["run"] for x in s if x.get("name", "").startswith("install")))')"
install="${install//'${{ steps.key.outputs.root }}'/$root}"
CARGO_TARGET_DIR="$repo/target" bash -c "$install --debug --quiet"
export ANNOTATIONS_AUDIT="$root/bin/annotations-audit"
"$ANNOTATIONS_AUDIT" --version

# The run step with INPUTS (NAME=VALUE ...), in $work: its status and outputs.
step() {
  export GITHUB_OUTPUT="$work/run.out"
  : > "$GITHUB_OUTPUT"
  local status=0
  (cd "$work" && env "$@" bash "$repo/action/run.sh") || status=$?
  echo "status=$status" >> "$GITHUB_OUTPUT"
}
output() { sed -n "s/^$1=//p" "$work/run.out"; }
expect() {
  local name="$1" want="$2"
  [ "$(output "$name")" = "$want" ] || { echo "FAILED: $name is '$(output "$name")', not '$want'"; cat "$work/run.out"; exit 1; }
}

echo "-- audit of the notes example, with SARIF"
step INPUT_COMMAND=audit INPUT_ARGS="-- $repo/target/debug/notes" INPUT_FAIL_ON=finding INPUT_SARIF=true
expect status 0; expect findings 0; expect violations 0
python3 -c "import json, sys; log = json.load(open(sys.argv[1])); assert log['version'] == '2.1.0' and log['runs'][0]['tool']['driver']['rules']" "$(output sarif)"
python3 -c "import json, sys; assert json.load(open(sys.argv[1]))['reportVersion'] == 1" "$(output report)"

memory="$repo/target/probe-servers/node_modules/.bin/mcp-server-memory"
if [ -x "$memory" ]; then
  echo "-- audit of the official memory server"
  step INPUT_COMMAND=audit INPUT_ARGS="-- $memory" INPUT_FAIL_ON=finding INPUT_SARIF=true
  expect status 0; expect violations 0
  python3 -c "import json, sys; assert len(json.load(open(sys.argv[1]))['tools']) >= 9" "$(output report)"
else
  echo "NOT CHECKED: the official memory server is not installed (tests/probe_servers.sh installs it)"
fi

echo "-- diff with a planted trust change: fails on findings, not with fail-on none"
"$ANNOTATIONS_AUDIT" audit --format listing -- "$repo/target/debug/notes" > "$work/tools.json"
step INPUT_COMMAND=diff INPUT_ARGS="tools.json -- $repo/target/debug/notes" INPUT_FAIL_ON=finding
expect status 0; expect findings 0
# Plant a trust change: the pinned listing more cautious than the server (a read-only tool
# pinned as not read-only), so the server's listing is "newly read-only".
python3 - "$work/tools.json" <<'PY'
import json, sys
listing = json.load(open(sys.argv[1]))
tool = next(t for t in listing["tools"] if t.get("annotations", {}).get("readOnlyHint"))
tool["annotations"]["readOnlyHint"] = False
json.dump(listing, open(sys.argv[1], "w"))
PY
step INPUT_COMMAND=diff INPUT_ARGS="tools.json -- $repo/target/debug/notes" INPUT_FAIL_ON=finding
expect status 1; expect findings 1
step INPUT_COMMAND=diff INPUT_ARGS="tools.json -- $repo/target/debug/notes" INPUT_FAIL_ON=none
expect status 0; expect findings 1

echo "-- probe of the liar fixture: its violations fail the step, ignored they do not"
liar="$repo/target/debug/examples/liar_server"
step INPUT_COMMAND=probe INPUT_ARGS="--cases 12 --seed 1 -- $liar" INPUT_FAIL_ON=violation
expect status 1; expect violations 6
step INPUT_COMMAND=probe INPUT_ARGS="--cases 12 --seed 1 -- $liar" INPUT_FAIL_ON=none
expect status 0; expect violations 6
cat > "$work/.annotations-audit.toml" <<'TOML'
[[ignore]]
hint = "readOnly"
reason = "the fixture lies on purpose"
[[ignore]]
hint = "idempotent"
reason = "the fixture lies on purpose"
[[ignore]]
hint = "nonDestructive"
reason = "the fixture lies on purpose"
[[ignore]]
hint = "closedWorld"
reason = "the fixture lies on purpose"
TOML
step INPUT_COMMAND=probe INPUT_ARGS="--cases 12 --seed 1 -- $liar" INPUT_FAIL_ON=violation
expect status 0; expect violations 0

echo "-- bad inputs and a server that cannot run fail the step whatever fail-on says"
step INPUT_COMMAND=lint INPUT_ARGS="-- true"
expect status 2
step INPUT_COMMAND=audit INPUT_ARGS="-- $work/no-such-server" INPUT_FAIL_ON=none
expect status 3
step INPUT_COMMAND=audit INPUT_ARGS="--timeout soon -- true" INPUT_FAIL_ON=none
expect status 2
echo "the action's steps: all as expected"
