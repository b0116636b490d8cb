#!/usr/bin/env bash
# The action's run step, also run as a script by the tests (tests/action.sh): the subcommand
# with its arguments, its JSON report kept, the counts written as the step's outputs, a SARIF
# log where asked, and the step's status by `fail-on`. Inputs come as INPUT_* variables, the
# binary as ANNOTATIONS_AUDIT (default: annotations-audit on PATH).
set -euo pipefail
audit="${ANNOTATIONS_AUDIT:-annotations-audit}"
command -v "$audit" >/dev/null 2>&1 || audit=annotations-audit
command="${INPUT_COMMAND:-audit}"
fail_on="${INPUT_FAIL_ON:-finding}"
case "$command" in audit|probe|diff) ;; *)
  echo "::error::command must be audit, probe or diff, not '$command'"; exit 2 ;;
esac
case "$fail_on" in violation|finding|none) ;; *)
  echo "::error::fail-on must be violation, finding or none, not '$fail_on'"; exit 2 ;;
esac
# The arguments, split as a shell splits them (quotes kept together), never evaluated.
args=()
if [ -n "${INPUT_ARGS:-}" ]; then
  mapfile -t args < <(python3 -c 'import shlex, sys; print("\n".join(shlex.split(sys.argv[1])))' "$INPUT_ARGS")
fi
options=()
[ -n "${INPUT_CONFIG:-}" ] && options+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_BASELINE:-}" ] && options+=(--baseline "$INPUT_BASELINE")
out="${RUNNER_TEMP:-$(mktemp -d)}"
report="$out/annotations-audit-$command.json"
sarif=""
if [ "${INPUT_SARIF:-false}" = true ]; then
  sarif="$out/annotations-audit-$command.sarif"
  options+=(--sarif-file "$sarif")
  [ -n "${INPUT_SARIF_ARTIFACT:-}" ] && options+=(--sarif-artifact "$INPUT_SARIF_ARTIFACT")
fi
# The options go before the arguments, which may end with `-- CMD`.
status=0
"$audit" "$command" --format json "${options[@]}" "${args[@]}" > "$report" || status=$?
# 0 clean, 1 findings, 4 violations: a report to count. 2 bad usage, 3 could not run: none.
case "$status" in
  0|1|4) ;;
  2) echo "::error::annotations-audit $command refused its command line or a file it names (status 2): see its message above"; exit 2 ;;
  *) echo "::error::annotations-audit $command could not run (status $status): see its message above"; exit "$status" ;;
esac
# The counts, read from the report (ignored ones left out).
read -r violations findings unjudged < <(python3 - "$command" "$report" <<'PY'
import json, sys
command, path = sys.argv[1], sys.argv[2]
report = json.load(open(path))
violations = findings = unjudged = 0
if command == "audit":
    for finding in report["listing"] + [f for t in report["tools"] for f in t["findings"]]:
        findings += finding["severity"] == "error" and "ignored" not in finding
elif command == "probe":
    for tool in report["tools"]:
        ignored = tool.get("ignored", {})
        resolution = tool.get("resolution", {})
        for claim, verdict in tool["probe"].items():
            broken = verdict == "violated" or resolution.get(claim) == "violated"
            violations += broken and claim not in ignored
        unjudged += len(tool["unjudged"])
        for note in tool["notes"]:
            if isinstance(note, dict) and "hint" not in note and "ignored" not in note:
                problem = note.get("problem", "")
                findings += problem.startswith(("valid arguments", "a result outside"))
else:
    # A change fails the diff only where its class was not allowed: the status says so.
    findings = sum(c["class"] != "compatible" and "ignored" not in c for c in report["changes"])
print(violations, findings, unjudged)
PY
)
if [ "$command" = diff ] && [ "$status" -eq 0 ]; then findings=0; fi
{
  echo "violations=$violations"
  echo "findings=$findings"
  echo "unjudged=$unjudged"
  echo "report=$report"
  echo "sarif=$sarif"
} >> "${GITHUB_OUTPUT:-/dev/null}"
echo "annotations-audit $command: $violations violations, $findings findings, $unjudged unjudged; report in $report"
case "$fail_on" in
  violation) [ "$violations" -eq 0 ] ;;
  finding) [ "$((violations + findings))" -eq 0 ] ;;
  none) true ;;
esac
