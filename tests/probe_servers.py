"""What the probe must find on the real servers and the liar fixture (tests/probe_servers.sh).

Only what holds for any seed is asserted: a hint claimed and never violated is verified or,
when no call of the tool succeeded, unexercised; the violations below are real behaviour.
"""

import json
import sys

if sys.argv[1] == "--show":
    # One probe's report, tool by tool: what the script prints as it goes.
    with open(sys.argv[2]) as f:
        report = json.load(f)
    for tool in report["tools"]:
        print(f"  {tool['name']}: {tool['probe']}")
    coverage = report["coverage"]
    print(f"  judged {coverage['judged']} of {coverage['claimed']}; {report['network']}")
    sys.exit(0)

out = sys.argv[1]


def verdicts(name):
    with open(f"{out}/{name}.json") as f:
        report = json.load(f)
    return {t["name"]: t["probe"] for t in report["tools"]}


def check(condition, message):
    if not condition:
        raise AssertionError(message)


HINTS = ("readOnly", "idempotent", "nonDestructive")

# The liar fixture: each lie caught on its hint, no honest tool ever.
liar = verdicts("liar")
check(liar["read_config"]["readOnly"] == "violated", liar)
check(liar["append_log"]["idempotent"] == "violated", liar)
check(liar["save_note"]["nonDestructive"] == "violated", liar)
for honest in ("list_files", "set_greeting", "add_line"):
    check("violated" not in liar[honest].values(), (honest, liar[honest]))

# The official filesystem, memory and everything servers: no hint they claim is violated, and each of
# their read-only tools that ran was verified read-only.
for name in ("filesystem", "memory", "everything"):
    found = verdicts(name)
    for tool, probe in found.items():
        check("violated" not in probe.values(), (name, tool, probe))
    check(any(p["readOnly"] == "verified" for p in found.values()), (name, found))

memory = verdicts("memory")
check(memory["read_graph"]["readOnly"] == "verified", memory)
check(memory["create_entities"]["nonDestructive"] == "verified", memory)

# The git server: every tool probed and judged in the report's four words. What it finds
# there depends on git's own timing (`git status` rewrites `.git/index` only when its stat
# cache is stale) and is reported as found, not asserted: see the README's table.
git = verdicts("git")
check(len(git) >= 10, git)
words = {"verified", "violated", "unexercised", "unclaimed"}
check(all(set(probe.values()) <= words for probe in git.values()), git)
check(any(p["readOnly"] == "verified" for p in git.values()), git)

# The SQLite-backed generic SQL server and the office-document server: most of their
# read-only claims verified, and no violation but two: excel-mcp-server's rename_sheet and
# set_workbook_settings claim destructiveHint false, "only additive updates" in the spec's
# words; the first overwrites a sheet's name, the second the workbook's author, title, subject
# or keywords (its core properties' authoring fields), each reproduced in every run. A claim
# may be left nondeterministic, never accused on one run.
excel_known = {("rename_sheet", "nonDestructive"), ("set_workbook_settings", "nonDestructive")}
for name, known in (("sqlalchemy", set()), ("excel", excel_known)):
    found = verdicts(name)
    violated = {(tool, hint) for tool, probe in found.items() for hint, word in probe.items() if word == "violated"}
    check(violated <= known, (name, violated - known))
    verified = sum(p["readOnly"] == "verified" for p in found.values())
    check(verified >= 5, (name, found))

# The official time server: both tools claim read-only, idempotent, non-destructive and
# closed-world, and every claim is judged (each argument is a time zone or a clock time) and
# verified.
time_server = verdicts("time")
check(set(time_server) == {"get_current_time", "convert_time"}, time_server)
for tool, probe in time_server.items():
    check(set(probe.values()) == {"verified"}, (tool, probe))

# finamatik-ops-mcp: its read-only tools append to its audit log on every call (reproduced in
# each run; read-only forbids it even for an append-only log), and update_deal_stage and
# complete_task, claimed non-destructive, overwrite a deal's stage and a task's status. Nothing else is violated: the log's growth under
# the idempotent and non-destructive tools is what --append-only allows.
ops = verdicts("ops")
violated = {(tool, hint) for tool, probe in ops.items() for hint, word in probe.items() if word == "violated"}
readers = {"search_contacts", "get_contact", "list_tasks", "check_inventory", "pipeline_summary"}
allowed = {(tool, "readOnly") for tool in readers} | {
    ("update_deal_stage", "nonDestructive"), ("complete_task", "nonDestructive")}
check(violated <= allowed, violated - allowed)
with open(f"{out}/ops.json") as f:
    for tool in json.load(f)["tools"]:
        for note in tool["notes"]:
            if note.get("hint") == "readOnly" and "runs" in note:
                check("audit.jsonl" in note["problem"], note)

# atlas-mind (a notes store in git, over HTTP): no claim violated. Its one destructive-looking
# tool that claims otherwise, move_doc (it removes the source and rewrites the links to it), is
# the only claim a run may break; its token's last-use stamp, written on every request, is
# classed volatile by the control session and accuses no reader.
atlas = verdicts("atlas")
violated = {(tool, hint) for tool, probe in atlas.items() for hint, word in probe.items() if word == "violated"}
check(violated <= {("move_doc", "nonDestructive")}, violated)
with open(f"{out}/atlas.json") as f:
    atlas_report = json.load(f)
check(any("mind/.atlas/state.json" in place for place in atlas_report["control"]["volatile"]),
      atlas_report["control"])
atlas_readers = [p for p in atlas.values() if p["readOnly"] != "unclaimed"]
check(len(atlas_readers) >= 15 and all(p["readOnly"] in ("verified", "unexercised") for p in atlas_readers),
      atlas)

# backlog.md (a task board in git): the claims a run may break are the non-destructive ones of
# the tools that rewrite what exists (a task's fields, a document's body, a milestone's name
# and file, the definition of done's defaults, which its schema says it replaces); no reader
# writes. Its Bun binary sometimes dies of SIGILL, which the probe survives and says.
backlog = verdicts("backlog")
violated = {(tool, hint) for tool, probe in backlog.items() for hint, word in probe.items() if word == "violated"}
rewriters = {"task_edit", "document_update", "milestone_rename", "definition_of_done_defaults_upsert"}
check(violated <= {(tool, "nonDestructive") for tool in rewriters}, violated)
check(sum(p["readOnly"] == "verified" for p in backlog.values()) >= 5, backlog)

# The audit over Streamable HTTP read the conformance example's tools.
with open(f"{out}/http.json") as f:
    http = json.load(f)
check(any(t["name"] == "test_simple_text" for t in http["tools"]), http)
# Its findings are what its annotations deserve, and nothing worse: no listing finding, no
# error; the sampling tool, which sets no openWorldHint, is warned of the open world it is then
# assumed to reach; and every tool's effective hints are what it states (read-only, closed).
check(http["listing"] == [], http["listing"])
errors = [(t["name"], f) for t in http["tools"] for f in t["findings"] if f["severity"] != "warning"]
check(not errors, errors)
sampling = [t for t in http["tools"] if t["name"] == "test_sampling"]
check(len(sampling) == 1, http)
check("`openWorldHint` unset: a host assumes open-world"
      in {f["message"] for f in sampling[0]["findings"]}, sampling)
for tool in http["tools"]:
    if tool["name"] != "test_sampling":
        check(tool["effective"]["readOnly"] and not tool["effective"]["openWorld"], tool)
        check(all("openWorldHint" not in f["message"] for f in tool["findings"]), tool)

print("probe of real servers: as expected")
