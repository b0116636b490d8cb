"""The probe and mcp-groundtruth side by side on the probe's fixture servers.

    python3 bench/groundtruth.py MCPGT PYTHON

MCPGT is the `mcpgt` command of mcp-groundtruth 0.3.0 and PYTHON an interpreter with the
official SDK (`mcp` 2.3.0) and openpyxl 3.1.5 (mcpgt's own venv has the SDK; add openpyxl to
it). Both tools judge the same servers (annotations-audit/tests/fixtures/python/fixtures.py)
from the same seed, each told what its users tell it: the probe the places of truth.json's
run, mcp-groundtruth its definition in bench/groundtruth/NAME/fixture.toml, with one set of
arguments per tool, since it generates none. Prints, per fixture, tool and hint, the truth
(truth.json), the probe's verdict and mcp-groundtruth's, then the time each took: a Markdown
table for BENCHMARKS.md. Build the audit first (`cargo build --release -p mcp-annotations-audit`).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO, "annotations-audit", "tests", "fixtures", "python")
AUDIT = os.path.join(REPO, "target", "release", "annotations-audit")
COUNTERS = "/tmp/annotations-groundtruth"
COUNTER = f"{COUNTERS}/flaky-counter"

# mcp-groundtruth's tests, by the probe's name of the hint they judge: idempotence one call at a
# time and two at once (the probe judges both under `idempotent`), the network by its policy.
TESTS = {"readOnly": ["read_only"], "idempotent": ["sequential_idempotence", "concurrent_idempotence"],
         "nonDestructive": ["destructive"], "closedWorld": ["network"]}


def theirs(mcpgt, python, name, work):
    """mcp-groundtruth's verdicts, {(tool, hint): word}, and the seconds it took."""
    fixture = os.path.join(work, f"gt-{name}")
    os.makedirs(fixture)
    with open(os.path.join(REPO, "bench", "groundtruth", name, "fixture.toml")) as f:
        text = f.read().replace("{target}/../../../", REPO + "/").replace('"../../../', f'"{REPO}/')
    with open(os.path.join(fixture, "fixture.toml"), "w") as f:
        f.write(text)
    subprocess.run([python, os.path.join(FIXTURES, "fixtures.py"), "seed", os.path.join(fixture, "seed")], check=True)
    with open(COUNTER, "w") as f:
        f.write("0")
    runs = os.path.join(work, f"gt-runs-{name}")
    started = time.monotonic()
    subprocess.run([mcpgt, "run", fixture, "--runs-dir", runs], capture_output=True, text=True, check=False)
    took = time.monotonic() - started
    (run,) = os.listdir(runs)
    with open(os.path.join(runs, run, "report.json")) as f:
        report = json.load(f)
    found = {}
    for tool in report["tools"]:
        for verdict in tool["verdicts"]:
            word = verdict["outcome"] + (f":{verdict['reason']}" if verdict.get("reason") else "")
            found[(tool["name"], verdict["test"])] = word
        network = tool.get("network")
        if network:
            found[(tool["name"], "network")] = network["outcome"] + (
                f":{network['reason']}" if network.get("reason") else "")
    return found, took


def ours(python, run, work):
    """The probe's verdicts, {(tool, hint): word}, and the seconds it took."""
    seed = os.path.join(work, f"seed-{run['name']}")
    subprocess.run([python, os.path.join(FIXTURES, "fixtures.py"), "seed", seed], check=True)
    with open(COUNTER, "w") as f:
        f.write("0")
    # Only the SQLite fixture's `flaky_read` counts its calls in a file outside the sandbox:
    # that place is left writable there alone, since runs that share a writable place go one
    # after the other (see the README's "Runs side by side").
    counter = ["--env", f"FLAKY_COUNTER={COUNTER}", "--writable", COUNTERS] if run["server"] == "sqlite" else []
    started = time.monotonic()
    done = subprocess.run(
        [AUDIT, "probe", "--format", "json", "--cases", "8", "--seed", "7", "--seed-dir", seed,
         *counter, *run["args"], "--", python, os.path.join(FIXTURES, "fixtures.py"), run["server"]],
        capture_output=True, text=True, check=False)
    took = time.monotonic() - started
    report = json.loads(done.stdout)
    return {(t["name"], hint): word for t in report["tools"] for hint, word in t["probe"].items()}, took


def main():
    mcpgt, python = sys.argv[1:3]
    with open(os.path.join(FIXTURES, "truth.json")) as f:
        truth = json.load(f)
    os.makedirs(COUNTERS, exist_ok=True)
    work = tempfile.mkdtemp()
    try:
        rows, times = [], []
        for name in ("sqlite", "office"):
            (run,) = [r for r in truth["runs"] if r["name"] == name]
            probe, probe_time = ours(python, run, work)
            groundtruth, groundtruth_time = theirs(mcpgt, python, name, work)
            times.append((name, probe_time, groundtruth_time))
            for tool, expected in run["expect"].items():
                for hint, word in expected.items():
                    if word == "unclaimed":
                        continue
                    theirs_words = [groundtruth.get((tool, test), "-") for test in TESTS[hint]]
                    rows.append((name, tool, hint, word, probe.get((tool, hint), "-"),
                                 " / ".join(theirs_words)))
        print("| fixture | tool | hint | truth | annotations-audit --probe | mcp-groundtruth 0.3.0 |")
        print("|---|---|---|---|---|---|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
        right = sum(row[3] == row[4] for row in rows)
        print(f"\nthe probe matches the truth on {right} of {len(rows)} claimed hints")
        print("\n| fixture | annotations-audit --probe (s) | mcp-groundtruth (s) |\n|---|---|---|")
        for name, a, b in times:
            print(f"| {name} | {a:.1f} | {b:.1f} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
