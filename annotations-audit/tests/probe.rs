//! The audit's `probe` and `diff`, run as a host or a reviewer runs them: a server whose
//! hints lie about what its tools do to its folder is caught on each lie, its honest tools
//! never; a changed listing is classified, and a rug pull refused.

use std::process::Command;

use serde_json::{Value, json};

mod common;

use common::{Flaky, audit_binary, example, tool, verdicts};

/// The audit's subcommand `args[0]` with the rest of `args`: its exit status and its JSON
/// report.
fn audit(args: &[&str]) -> (i32, Value) {
    let (subcommand, args) = args.split_first().expect("a subcommand");
    let output = Command::new(audit_binary())
        .arg(subcommand)
        .args(["--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    (output.status.code().unwrap(), report)
}

/// The report's note on `hint` for its `tool`-th tool (the violation or nondeterminism).
fn note_on<'a>(report: &'a Value, tool: usize, hint: &str) -> &'a Value {
    report["tools"][tool]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|note| note["hint"] == hint)
        .unwrap_or_else(|| panic!("no note on {hint} for tool {tool}: {report}"))
}

#[test]
fn the_probe_catches_each_lie_on_its_hint_and_no_honest_tool() {
    let server = example("liar_server");
    let (status, report) = audit(&["probe", "--cases", "12", "--", server.to_str().unwrap()]);
    assert_eq!(status, 4, "{report}");
    let words = |a: &str, b: &str, c: &str| [a.to_owned(), b.to_owned(), c.to_owned()];
    assert_eq!(
        verdicts(&report),
        [
            (
                "read_config".to_owned(),
                words("violated", "verified", "verified")
            ),
            (
                "append_log".to_owned(),
                words("unclaimed", "violated", "verified")
            ),
            (
                "save_note".to_owned(),
                words("unclaimed", "unclaimed", "violated")
            ),
            (
                "list_files".to_owned(),
                words("verified", "verified", "verified")
            ),
            (
                "set_greeting".to_owned(),
                words("unclaimed", "verified", "unclaimed")
            ),
            (
                "add_line".to_owned(),
                words("unclaimed", "unclaimed", "verified")
            ),
            (
                "lookup_price".to_owned(),
                words("verified", "verified", "verified")
            ),
            (
                "journal".to_owned(),
                words("unclaimed", "unclaimed", "verified")
            ),
        ],
        "{report}"
    );
    // `journal` lists the truth (it writes) and resolves a lie (an added line "read-only"):
    // each call resolved first, and the resolution that was wrong reported, with its hints.
    let journal = &report["tools"][7];
    assert_eq!(journal["name"], "journal");
    let resolution = &journal["resolution"];
    assert_eq!(resolution["readOnly"], "violated", "{journal}");
    assert_eq!(resolution["idempotent"], "violated", "{journal}");
    assert!(resolution["resolved"].as_u64().unwrap() > 0, "{journal}");
    let lie = journal["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|note| note["hint"] == "readOnly")
        .unwrap();
    assert_eq!(lie["arguments"]["action"], "add", "{lie}");
    assert_eq!(lie["resolution"]["readOnlyHint"], true, "{lie}");
    assert!(
        lie["problem"]
            .as_str()
            .unwrap()
            .starts_with("its resolution (tools/resolve) claimed it for this call"),
        "{lie}"
    );
    // No tool that is not resolvable has a resolution in the report.
    assert!(report["tools"][0].get("resolution").is_none());
    // Every tool claims a closed world; the one that connects out is caught, by the attempt
    // its process made (recorded from its system calls), where this machine records them.
    if report["network"]
        .as_str()
        .unwrap()
        .starts_with("every attempt")
    {
        let closed: Vec<(&str, &str)> = report["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| {
                let name = tool["name"].as_str().unwrap();
                (name, tool["probe"]["closedWorld"].as_str().unwrap())
            })
            .collect();
        let expected: Vec<(&str, &str)> = closed
            .iter()
            .map(|(name, _)| {
                let word = if *name == "lookup_price" {
                    "violated"
                } else {
                    "verified"
                };
                (*name, word)
            })
            .collect();
        assert_eq!(closed, expected, "{report}");
        let caught = note_on(&report, 6, "closedWorld");
        let problem = caught["problem"].as_str().unwrap();
        assert!(problem.contains("connect to 192.0.2.7:443"), "{problem}");
    } else {
        eprintln!(
            "NOT CHECKED: closed-world claims, since this machine cannot record network attempts: {}",
            report["network"]
        );
    }
    // A violation says what changed in the sandbox.
    let read_config = &report["tools"][0]["notes"][0];
    assert_eq!(read_config["hint"], "readOnly");
    assert_eq!(
        read_config["diff"],
        json!(["+ touched.txt (file, 4 bytes)"])
    );
}

#[test]
fn diff_classifies_a_changed_listing_and_refuses_a_rug_pull() {
    let dir = std::env::temp_dir().join(format!("annotations-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let listed = Command::new(example("clean_server"))
        .args(["--list"])
        .output()
        .unwrap();
    let old: Value = serde_json::from_slice(&listed.stdout).unwrap();
    // The same server, with `delete_note` now claiming to destroy nothing.
    let mut new = old.clone();
    for tool in new["tools"].as_array_mut().unwrap() {
        if tool["name"] == "delete_note" {
            tool["annotations"]["destructiveHint"] = json!(false);
        }
    }
    let (old_path, new_path) = (dir.join("old.json"), dir.join("new.json"));
    std::fs::write(&old_path, old.to_string()).unwrap();
    std::fs::write(&new_path, new.to_string()).unwrap();
    let (old_arg, new_arg) = (old_path.to_str().unwrap(), new_path.to_str().unwrap());
    let (status, report) = audit(&["diff", old_arg, new_arg]);
    assert_eq!(status, 1, "{report}");
    assert_eq!(
        report["changes"],
        json!([{"tool": "delete_note", "change": "newly non-destructive", "class": "trust"}])
    );
    let (allowed, _) = audit(&["diff", old_arg, new_arg, "--allow", "trust"]);
    assert_eq!(allowed, 0);
    // Against the live server: nothing changed.
    let server = example("clean_server");
    let output = Command::new(audit_binary())
        .args(["diff", "--format", "json", old_arg, "--"])
        .arg(server)
        .current_dir(&dir)
        .output()
        .unwrap();
    let live: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{live}");
    assert_eq!(live["changes"], json!([]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A "non-destructive" tool whose call takes the server down is judged by the sandbox it left,
/// and the exit is a finding; the server starts again in its sandbox, even one the call removed,
/// and the honest tool after them is verified.
#[test]
fn a_call_the_server_does_not_live_through_is_judged_and_reported() {
    let server = example("crash_server");
    let (status, report) = audit(&[
        "probe",
        "--cases",
        "2",
        "--timeout",
        "10",
        "--",
        server.to_str().unwrap(),
    ]);
    assert_eq!(status, 4, "{report}");
    let words = |a: &str, b: &str, c: &str| [a.to_owned(), b.to_owned(), c.to_owned()];
    assert_eq!(
        verdicts(&report),
        [
            (
                "compact_state".to_owned(),
                words("unclaimed", "unclaimed", "violated")
            ),
            (
                "tidy_up".to_owned(),
                words("unclaimed", "unclaimed", "violated")
            ),
            // Read-only: idempotent and non-destructive as well.
            (
                "read_state".to_owned(),
                words("verified", "verified", "verified")
            ),
            // Never succeeds: never judged, and the report says why.
            (
                "read_index".to_owned(),
                words("unexercised", "unexercised", "unexercised")
            ),
            // Reached through the literal its parameter's description quotes.
            (
                "run_query".to_owned(),
                words("verified", "verified", "verified")
            ),
        ],
        "{report}"
    );
    let why = report["tools"][3]["unjudged"]["readOnly"].as_str().unwrap();
    assert!(
        why.starts_with("2 calls, none succeeded, each answering a failed result:"),
        "{why}"
    );
    assert!(why.contains("the index is not built"), "{why}");
    // Claimed: two hints of each crashing tool, four of each reader (16); judged: all but
    // the failing reader's four and the crashing tools' closed worlds, which no call that
    // succeeded judged (10).
    assert_eq!(report["coverage"]["claimed"], 16, "{report}");
    assert_eq!(report["coverage"]["judged"], 10, "{report}");
    let server_findings = report["server"].as_array().unwrap();
    for tool in ["compact_state", "tidy_up"] {
        assert!(
            server_findings.iter().any(|finding| finding
                .as_str()
                .unwrap()
                .starts_with(&format!("the server exited while `{tool}` was called"))),
            "{report}"
        );
    }
    // The server's last words on its stderr, with the finding of its exit.
    assert!(
        server_findings.iter().any(|finding| {
            let finding = finding.as_str().unwrap();
            finding.starts_with("the server exited while `compact_state` was called")
                && finding
                    .contains("stderr ended with:\n  compacting: giving up, the state is gone")
        }),
        "{report}"
    );
    let violation = note_on(&report, 0, "nonDestructive");
    assert_eq!(violation["diff"], json!(["- state.txt (file)"]), "{report}");
}

/// `--probe-timeout` bounds the listing too: a server whose pages never end, slowly, is
/// listed up to the deadline, which the report says.
#[test]
fn the_probes_deadline_bounds_an_endless_listing() {
    let server = example("bad_server");
    let started = std::time::Instant::now();
    let (_, report) = audit(&[
        "probe",
        "--probe-timeout",
        "5",
        "--env",
        "BAD_SERVER_TOOLS=paging",
        "--",
        server.to_str().unwrap(),
    ]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let server_findings = report["server"].as_array().unwrap();
    assert!(
        server_findings.iter().any(|finding| finding
            .as_str()
            .unwrap()
            .starts_with("the time given ran out after")),
        "{report}"
    );
}

/// The same seed, the same report: ten probes of one server, each in a sandbox of its own,
/// give byte-identical reports (the sandbox's own path is written `{sandbox}`).
#[test]
fn a_repeated_probe_gives_the_same_report() {
    let server = example("liar_server");
    let args = [
        "probe",
        "--cases",
        "4",
        "--seed",
        "3",
        "--",
        server.to_str().unwrap(),
    ];
    let (_, first) = audit(&args);
    assert!(!first["tools"].as_array().unwrap().is_empty());
    for _ in 1..10 {
        let (_, again) = audit(&args);
        assert_eq!(again, first);
    }
}

/// Where runs may go side by side, the runs that make a call again (reproductions, two calls
/// at once) go on while the main run makes its next calls: the report is the one runs made
/// one after the other give (a `--writable` place makes them so), every verdict and every
/// note in its place.
#[test]
fn runs_beside_the_main_one_judge_as_runs_one_after_the_other() {
    let server = example("liar_server");
    let server = server.to_str().unwrap();
    let scratch = std::env::temp_dir().join(format!("annotations-beside-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let args = ["probe", "--cases", "4", "--seed", "3", "--", server];
    let (_, beside) = audit(&args);
    let (_, after) = audit(
        &[
            &["probe", "--writable", scratch.to_str().unwrap()][..],
            &args[1..],
        ]
        .concat(),
    );
    let _ = std::fs::remove_dir_all(&scratch);
    let confinement = beside["confinement"].as_str().unwrap();
    if !confinement.contains("mount namespace") {
        eprintln!("NOT CHECKED: runs do not go side by side here ({confinement})");
    }
    // Each kind of run beside the main one is in both: reproductions of a violation (of an
    // overwrite, a change, the network) and two calls at once.
    let tool = |name: &str| {
        let tools = beside["tools"].as_array().unwrap();
        tools.iter().find(|tool| tool["name"] == name).unwrap()
    };
    assert_eq!(tool("save_note")["probe"]["nonDestructive"], "violated");
    assert_eq!(tool("lookup_price")["probe"]["closedWorld"], "violated");
    assert_eq!(
        tool("set_greeting")["concurrency"]["twoProcesses"],
        "overlapped, and did no more than one call"
    );
    assert_eq!(beside["tools"], after["tools"]);
    assert_eq!(beside["server"], after["server"]);
}

/// Each violation was seen in every one of the runs (three by default), and says so; a write
/// that one run shows and the next two do not is `nondeterministic`, never a violation; a file
/// the server rewrites while idle (found by the control session) is volatile: its changes are
/// reported, and the honest reader beside it verified.
#[test]
fn a_violation_is_one_every_run_shows_and_idle_changes_are_nobodys() {
    #![allow(clippy::too_many_lines)]
    let server = example("liar_server");
    let (_, report) = audit(&["probe", "--cases", "4", "--", server.to_str().unwrap()]);
    assert_eq!(report["runs"], 3);
    let violation = &report["tools"][0]["notes"][0];
    assert_eq!(violation["hint"], "readOnly", "{report}");
    let runs: Vec<&str> = violation["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| run.as_str().unwrap())
        .collect();
    assert_eq!(runs.len(), 3, "{report}");
    for (at, run) in runs.iter().enumerate() {
        assert!(
            run.starts_with(&format!("run {}: the call changed the sandbox", at + 1)),
            "{run}"
        );
    }

    let flaky = Flaky::new("annotations-flaky");
    let server = example("flaky_server");
    let given = flaky.args();
    let given: Vec<&str> = given.iter().map(String::as_str).collect();
    let server = server.to_str().unwrap();
    let (status, mut report) =
        audit(&[&["probe", "--cases", "3"][..], &given, &["--", server]].concat());
    let wrote_elsewhere = flaky.elsewhere.exists();
    drop(flaky);
    assert_eq!(status, 0, "{report}");
    // A write outside the sandbox: refused where the probe can confine the server (a finding,
    // and never verified), unseen where it cannot (and the report says it was not confined).
    let confinement = report["confinement"].as_str().unwrap();
    let remember = report["tools"][1]["probe"]["readOnly"].as_str().unwrap();
    if confinement.starts_with("the sandbox") {
        assert!(!wrote_elsewhere, "{report}");
        assert_eq!(remember, "unexercised", "{report}");
        let finding = report["server"][0].as_str().unwrap();
        assert!(
            finding.starts_with("`remember_status` tried to write outside the sandbox"),
            "{finding}"
        );
        assert!(finding.contains("Read-only file system"), "{finding}");
    } else {
        eprintln!(
            "NOT CHECKED: the probe could not confine the server here ({confinement}), so the \
             write outside the sandbox went unseen"
        );
        assert!(wrote_elsewhere);
        assert!(confinement.starts_with("not confined ("), "{confinement}");
    }
    report["tools"].as_array_mut().unwrap().remove(1);
    let words = |a: &str, b: &str, c: &str| [a.to_owned(), b.to_owned(), c.to_owned()];
    assert_eq!(
        verdicts(&report),
        [
            (
                "read_status".to_owned(),
                words("nondeterministic", "verified", "verified")
            ),
            (
                "read_clock".to_owned(),
                words("verified", "verified", "verified")
            ),
        ],
        "{report}"
    );
    let why = report["tools"][0]["unjudged"]["readOnly"].as_str().unwrap();
    // Broken in some runs (the second call of a run counts too), never in all.
    assert!(why.starts_with("nondeterministic: broken in "), "{why}");
    assert!(why.contains(": nothing broke it"), "{why}");
    assert_eq!(
        report["control"]["volatile"],
        json!(["heartbeat.txt"]),
        "{report}"
    );
    assert_eq!(report["coverage"]["judged"], 7, "{report}");
}

/// State the sandbox's files do not hold, observed by the user's command: a "read-only" tool
/// that writes outside the sandbox (in a place left writable) is verified when nobody looks,
/// and violated, in every run, when `--observe` prints what it wrote; a command that cannot
/// observe stops the probe before anything is judged, saying why.
#[test]
fn an_observer_command_sees_state_the_sandbox_does_not_hold() {
    let dir = std::env::temp_dir().join(format!("annotations-observed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let server = example("flaky_server");
    // Each run's server writes to a file of its own, named by its sandbox.
    let command = [
        "sh",
        "-c",
        r#"ELSEWHERE="$STATE/$(basename "$PWD")" exec "$0""#,
        server.to_str().unwrap(),
    ];
    let observe =
        r#"if [ -e "$STATE/$(basename {sandbox})" ]; then echo '"remembered"'; else echo null; fi"#;
    let state = format!("STATE={}", dir.display());
    let probe = |observers: &[&str]| {
        let mut args = vec![
            "probe",
            "--cases",
            "2",
            "--env",
            &state,
            "--writable",
            dir.to_str().unwrap(),
        ];
        args.extend(observers);
        args.push("--");
        args.extend(command);
        audit(&args)
    };
    let remember = |report: &Value| report["tools"][1]["probe"]["readOnly"].clone();

    let (_, unseen) = probe(&[]);
    assert_eq!(remember(&unseen), "verified", "{unseen}");
    let (status, seen) = probe(&["--observe", observe]);
    assert_eq!(status, 4, "{seen}");
    assert_eq!(remember(&seen), "violated", "{seen}");
    let violation = note_on(&seen, 1, "readOnly");
    assert_eq!(
        violation["runs"].as_array().unwrap().len(),
        3,
        "{violation}"
    );
    let detail = violation.to_string();
    assert!(detail.contains("@observe1"), "{detail}");
    // The honest tool beside it, observed the same way, is still verified.
    assert_eq!(seen["tools"][2]["probe"]["readOnly"], "verified", "{seen}");

    let output = Command::new(audit_binary())
        .args(["probe", "--observe", "echo broken >&2; exit 3", "--"])
        .args(command)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "--observe `echo broken >&2; exit 3` failed: it exited with exit status: 3 (broken)"
        ),
        "{stderr}"
    );
}

/// The server runs in its sandbox, but the command is read where the user typed it: `sh
/// server.sh`, a script beside the user, is found; a server that still cannot start is shown
/// with its own words.
#[test]
fn a_relative_script_is_found_where_the_user_is_and_a_failed_start_says_why() {
    let dir = std::env::temp_dir().join(format!("annotations-relative-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let server = example("clean_server");
    std::fs::write(
        dir.join("server.sh"),
        format!("exec {}\n", server.display()),
    )
    .unwrap();
    let output = Command::new(audit_binary())
        .current_dir(&dir)
        .args([
            "probe",
            "--format",
            "json",
            "--cases",
            "1",
            "--runs",
            "1",
            "--",
            "sh",
            "server.sh",
        ])
        .output()
        .unwrap();
    let broken = Command::new(audit_binary())
        .current_dir(&dir)
        .args(["probe", "--", "sh", "missing.sh"])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(!report["tools"].as_array().unwrap().is_empty(), "{report}");
    assert_eq!(broken.status.code(), Some(3));
    let said = String::from_utf8_lossy(&broken.stderr);
    assert!(said.contains("the server's stderr ended with:"), "{said}");
    assert!(said.contains("missing.sh"), "{said}");
}

/// What a server does to get past a probe is judged all the same: a read-only tool that
/// deletes while its call is resolved (a host resolves before it asks for approval) is
/// violated, and the resolution's doing said; a non-destructive tool that deletes and answers
/// after `--timeout` is judged by what it did in time; a rewrite of a file too large to read
/// is not judged, and says why, never verified.
#[test]
fn what_a_server_does_to_dodge_the_probe_is_judged() {
    let server = example("dodging_server");
    let (status, report) = audit(&[
        "probe",
        "--cases",
        "2",
        // Long enough for a loaded machine's start, short of the slow calls' 8 s.
        "--timeout",
        "3",
        "--",
        server.to_str().unwrap(),
    ]);
    assert_eq!(status, 4, "{report}");
    let tool = |name: &str| tool(&report, name);
    let peek = tool("peek_notes");
    assert_eq!(peek["probe"]["readOnly"], "violated", "{peek}");
    let notes = peek["notes"].to_string();
    assert!(notes.contains("resolving the call"), "{peek}");
    assert!(notes.contains("notes.txt"), "{peek}");
    let slow = tool("forget_slowly");
    assert_eq!(slow["probe"]["nonDestructive"], "violated", "{slow}");
    assert!(slow["notes"].to_string().contains("slow.txt"), "{slow}");
    let log = tool("rewrite_log");
    assert_eq!(log["probe"]["nonDestructive"], "unexercised", "{log}");
    let why = log["unjudged"]["nonDestructive"].as_str().unwrap();
    assert!(
        why.starts_with("not judged: `big.log` changed and is too large to read ("),
        "{why}"
    );
    // A server that dies while resolving is started again in every run, as in the main one:
    // what the call then does is judged, not lost to a dead server.
    let crash = tool("crash_resolving");
    assert_eq!(crash["probe"]["readOnly"], "violated", "{crash}");
    // The same call again is a call: what its resolution did breaks read-only too.
    let twice = tool("peek_twice");
    assert_eq!(twice["probe"]["readOnly"], "violated", "{twice}");
    assert!(twice["notes"].to_string().contains("twice.txt"), "{twice}");
    // A second call still running when the probe stopped waiting is ended with its server:
    // nothing it does late lands in another tool's call, and an honest tool stays honest.
    assert_eq!(
        tool("read_time")["probe"]["readOnly"],
        "verified",
        "{report}"
    );
    assert!(!report.to_string().contains("late.txt"), "{report}");
}

/// A listed tool the probe cannot read is in its report where the server lists it, never
/// called, each claim it may make counted as not judged, with why; not dropped, with a
/// coverage of 1.
#[test]
fn a_tool_the_probe_cannot_read_is_reported_and_counted() {
    let server = example("bad_server");
    let (status, report) = audit(&[
        "probe",
        "--cases",
        "1",
        "--env",
        "BAD_SERVER_TOOLS=malformed",
        "--",
        server.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{report}");
    let names: Vec<&str> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["stringly_hints", "no_schema", "fine"], "{report}");
    let stringly = &report["tools"][0];
    assert_eq!(stringly["calls"], 0, "{stringly}");
    assert_eq!(stringly["probe"]["readOnly"], "unexercised", "{stringly}");
    // Its read-only claim cannot be read: what a read-only claim implies is not judged either.
    assert_eq!(
        stringly["probe"]["nonDestructive"], "unexercised",
        "{stringly}"
    );
    assert_eq!(stringly["probe"]["closedWorld"], "unclaimed", "{stringly}");
    let why = stringly["unjudged"]["readOnly"].as_str().unwrap();
    assert!(
        why.starts_with("not probed: its listing cannot be read ("),
        "{why}"
    );
    assert_eq!(report["tools"][1]["calls"], 0, "{report}");
    assert!(
        report["server"]
            .to_string()
            .contains("`stringly_hints` is listed but cannot be read"),
        "{report}"
    );
    let coverage = &report["coverage"];
    assert!(
        coverage["judged"].as_u64() < coverage["claimed"].as_u64(),
        "{coverage}"
    );
    assert!(coverage["share"].as_f64().unwrap() < 1.0, "{coverage}");
}

/// A server that lists two tools of one name (a finding of its own), one read-only first and
/// one that only adds after it: the probe calls the read-only one last (writers go first), yet
/// each row of the report is in its own tool's place, with its own claims' verdicts and its own
/// descriptor's digest.
#[test]
fn tools_of_one_name_are_each_reported_in_their_own_place() {
    let server = r#"
import json, sys
tools = [
    {"name": "twin", "inputSchema": {"type": "object"},
     "annotations": {"readOnlyHint": True, "openWorldHint": False}},
    {"name": "twin", "description": "the other", "inputSchema": {"type": "object"},
     "annotations": {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": False}},
]
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method = message.get("method")
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "twins", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": tools}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "nothing changed"}]}
    else:
        result = {}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
"#;
    let (_, report) = audit(&["probe", "--cases", "2", "--", "python3", "-c", server]);
    let rows = report["tools"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{report}");
    assert_eq!(rows[0]["probe"]["readOnly"], "verified", "{report}");
    assert_eq!(rows[1]["probe"]["readOnly"], "unclaimed", "{report}");
    assert_eq!(rows[1]["probe"]["nonDestructive"], "verified", "{report}");
    assert_ne!(rows[0]["digest"], rows[1]["digest"], "{report}");
}

#[test]
fn a_setup_command_that_fails_stops_the_probe_and_says_why() {
    let server = example("clean_server");
    let output = Command::new(audit_binary())
        .args([
            "probe",
            "--format",
            "json",
            "--setup",
            "echo no store here >&2; exit 7",
        ])
        .arg("--")
        .arg(&server)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains(
            "the --setup command `echo no store here >&2; exit 7` failed: it exited with exit \
             status: 7 (no store here)"
        ),
        "{stderr}"
    );
}
