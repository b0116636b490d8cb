//! The audit run as a host or a reviewer runs it: against a clean server (no
//! findings) and against a deliberately bad server (every kind of finding, exit status 1).

use std::process::Command;

use serde_json::Value;

mod common;

use common::{audit_binary, example};

fn audit(server: &str) -> (i32, Value) {
    audit_with(server, "")
}

/// The audit of `server`, run with `BAD_SERVER_TOOLS` set to `tools`.
fn audit_with(server: &str, tools: &str) -> (i32, Value) {
    let (status, stdout, stderr) = run_audit(server, tools, &[]);
    let report = serde_json::from_slice(&stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&stderr)));
    (status, report)
}

/// The audit's exit status, output and error output, with `options` before the server.
fn run_audit(server: &str, tools: &str, options: &[&str]) -> (i32, Vec<u8>, Vec<u8>) {
    let output = Command::new(audit_binary())
        .args(["audit", "--format", "json"])
        .args(options)
        .arg(example(server))
        .env("BAD_SERVER_TOOLS", tools)
        .output()
        .unwrap();
    (output.status.code().unwrap(), output.stdout, output.stderr)
}

fn findings(report: &Value, tool: &str) -> Vec<String> {
    report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["name"] == tool)
        .flat_map(|t| t["findings"].as_array().unwrap().iter())
        .map(|f| {
            format!(
                "{}: {}",
                f["severity"].as_str().unwrap(),
                f["message"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn a_clean_server_has_no_findings() {
    let (status, report) = audit("clean_server");
    assert_eq!(status, 0);
    let tools = report["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 3);
    for tool in tools {
        assert_eq!(tool["findings"], Value::Array(Vec::new()), "{tool}");
    }
    let list = tools.iter().find(|t| t["name"] == "list_notes").unwrap();
    assert_eq!(list["trusted"]["approval"], false);
    assert_eq!(
        list["untrusted"]["approval"], true,
        "an untrusted server's hints are not acted on"
    );
}

#[test]
fn a_bad_server_gets_every_kind_of_finding() {
    let (status, report) = audit("bad_server");
    assert_eq!(status, 1, "an error finding fails the audit");
    let expect = |tool: &str, needle: &str| {
        let found = findings(&report, tool);
        assert!(
            found.iter().any(|f| f.contains(needle)),
            "{tool}: no {needle:?} in {found:?}"
        );
    };
    expect("list notes", "error: the name breaks the protocol's rule");
    expect(
        "list notes",
        "warning: `readOnlyHint` unset: a host assumes not read-only",
    );
    expect(
        "list notes",
        "warning: `openWorldHint` unset: a host assumes open-world",
    );
    expect("list notes", "warning: no title");
    expect("list notes", "warning: no description");
    expect(
        "wipe",
        "warning: `destructiveHint: true` is ignored: the tool is read-only",
    );
    expect("twin", "error: 2 tools share this name");
    expect(
        "stringly",
        "error: a tool's input schema must have \"type\": \"object\"",
    );
    expect(
        "half",
        "warning: not ready for a tool directory: it lacks `readOnlyHint` or `destructiveHint`",
    );
    expect(
        "half",
        "warning: not ready for a strict tool directory: it lacks `readOnlyHint`",
    );
    expect(
        "unannounced",
        "error: marked resolvable, but the server does not declare \
         io.modelcontextprotocol/tool-resolution in its capabilities",
    );
    expect(
        "misremarked",
        "warning: its `_meta[\"io.modelcontextprotocol/tool-resolution\"]` is {\"resolvable\":\"yes\"}, not the draft's marker {\"resolvable\": true}",
    );
    // A stated read-only tool is read-only, whatever else it says.
    let wipe = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "wipe")
        .unwrap();
    assert_eq!(wipe["trusted"]["approval"], false);
    assert_eq!(wipe["untrusted"]["approval"], true);
}

/// Servers on SDKs that seed every hint (mcp-go, Java) send each read-only tool with
/// `destructiveHint` and `idempotentHint` beside it: a warning for each ignored hint, read-only
/// for a trusting host, and the audit passes.
#[test]
fn read_only_tools_with_seeded_hints_are_warnings_and_the_audit_passes() {
    let (status, report) = audit_with("bad_server", "seeded");
    assert_eq!(status, 0, "{report}");
    assert_eq!(
        findings(&report, "get_user"),
        [
            "warning: `destructiveHint: true` is ignored: the tool is read-only",
            "warning: `idempotentHint: false` is ignored: the tool is read-only",
        ]
    );
    assert_eq!(
        findings(&report, "search"),
        ["warning: `idempotentHint: false` is ignored: the tool is read-only"]
    );
    for tool in report["tools"].as_array().unwrap() {
        assert_eq!(tool["trusted"]["approval"], false, "{tool}");
        assert_eq!(tool["trusted"]["parallel"], true, "{tool}");
        assert_eq!(tool["untrusted"]["approval"], true, "{tool}");
    }
}

/// A server that never answers, or writes what is not JSON-RPC, ends the audit with a clear
/// error within the timeout, never a hang.
#[test]
fn a_server_that_never_answers_or_writes_garbage_ends_the_audit_in_time() {
    let started = std::time::Instant::now();
    let (status, _, stderr) = run_audit("bad_server", "silent", &["--timeout", "1"]);
    let stderr = String::from_utf8_lossy(&stderr);
    assert_eq!(status, 3, "{stderr}");
    assert!(
        stderr.contains("did not answer `initialize` within 1 s"),
        "{stderr}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));

    let (status, _, stderr) = run_audit("bad_server", "garbage", &["--timeout", "5"]);
    let stderr = String::from_utf8_lossy(&stderr);
    assert_eq!(status, 3, "{stderr}");
    assert!(
        stderr.contains("wrote something that is not JSON-RPC: \"Server starting... ready!\""),
        "{stderr}"
    );
}

/// A cursor that comes back ends the listing with an error finding; what was read is audited.
#[test]
fn a_cursor_that_comes_back_is_an_error_finding() {
    let (status, report) = audit_with("bad_server", "looping");
    assert_eq!(status, 1);
    let listing = report["listing"][0]["message"].as_str().unwrap();
    assert!(listing.contains("cursor \"again\" comes back"), "{listing}");
    assert_eq!(
        report["tools"].as_array().unwrap().len(),
        2,
        "the first page and the second"
    );
}

/// A tool that no typed model reads is a finding on that tool; the others are still audited.
#[test]
fn a_malformed_tool_is_a_finding_on_that_tool_alone() {
    let (status, report) = audit_with("bad_server", "malformed");
    assert_eq!(status, 1);
    let stringly = findings(&report, "stringly_hints");
    assert!(
        stringly[0].starts_with("error: the tool cannot be read:")
            && stringly[0].contains("readOnlyHint"),
        "{stringly:?}"
    );
    let no_schema = findings(&report, "no_schema");
    assert!(no_schema[0].contains("inputSchema"), "{no_schema:?}");
    assert_eq!(findings(&report, "fine"), Vec::<String>::new());
}

/// A server that asks the audit something (`ping`) before it answers is answered, and the
/// audit goes on; one that writes without end costs an error, not the audit's memory.
#[test]
fn the_audit_answers_a_ping_and_bounds_what_it_reads() {
    let (status, report) = audit_with("bad_server", "pinging");
    assert_eq!(status, 0, "{report}");
    assert_eq!(findings(&report, "fine"), Vec::<String>::new());

    let (status, _, stderr) = run_audit("bad_server", "flood", &["--timeout", "20"]);
    let stderr = String::from_utf8_lossy(&stderr);
    assert_eq!(status, 3, "{stderr}");
    assert!(stderr.contains("a message longer than 64 MiB"), "{stderr}");
}

/// A tool that cannot be read still counts for duplicate names, and its hints show as unknown.
#[test]
fn an_unreadable_tool_counts_for_duplicates_and_decides_nothing() {
    let (status, report) = audit_with("bad_server", "twins");
    assert_eq!(status, 1);
    let fine = findings(&report, "fine");
    assert!(
        fine.iter()
            .filter(|f| f.contains("2 tools share this name"))
            .count()
            == 1,
        "{fine:?}"
    );
    assert!(
        fine.iter().any(|f| f.contains("cannot be read")),
        "{fine:?}"
    );
}

/// What a server sends reaches the table escaped: no terminal control, no broken row.
#[test]
fn the_table_escapes_what_the_server_sends() {
    let (_, stdout, _) = run_audit("bad_server", "escapes", &["--format", "table"]);
    let table = String::from_utf8(stdout).unwrap();
    let row = table
        .lines()
        .find(|line| line.starts_with("| `shout`"))
        .expect(&table);
    assert!(!row.contains('\u{1b}') && !row.contains('\u{7}'), "{row:?}");
    assert!(row.contains(r"x\\\|y \[2J&lt;b>\`z\`&lt;/b> next"), "{row}");
    assert_eq!(table.lines().count(), 3, "{table}");
}

/// A server that fails to start says why on its stderr: the audit shows its last lines (what a
/// user needs to fix it), not only that the server closed its output; exit 3. A server that
/// writes a great deal there never stalls the audit.
#[test]
fn a_server_that_fails_to_start_is_shown_with_its_own_words() {
    let output = Command::new(audit_binary())
        .args([
            "audit",
            "--",
            "sh",
            "-c",
            "echo starting >&2; echo 'error: FOO_API_KEY is not set' >&2; exit 3",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "the server's stderr ended with:\n  starting\n  error: FOO_API_KEY is not set"
        ),
        "{stderr}"
    );
    // `--server-log FILE` keeps all of it, each line marked with the server's number, after a
    // line naming the server.
    let log = std::env::temp_dir().join(format!("annotations-server-log-{}", std::process::id()));
    let status = Command::new(audit_binary())
        .args([
            "audit",
            "--server-log",
            log.to_str().unwrap(),
            "--",
            "sh",
            "-c",
        ])
        .arg("for i in $(seq 1 40); do echo \"line $i\" >&2; done; exit 3")
        .output()
        .unwrap()
        .status;
    let kept = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert_eq!(status.code(), Some(3));
    assert!(kept.starts_with("== [1] sh -c for i in"), "{kept}");
    assert_eq!(
        kept.lines()
            .filter(|line| line.starts_with("[1] line "))
            .count(),
        40,
        "{kept}"
    );

    // 8 MiB of log lines before it answers: still audited.
    let clean = example("clean_server");
    let noisy = format!(
        "head -c 8388608 /dev/zero | tr '\\0' 'x' | fold -w 100 >&2; exec {}",
        clean.display()
    );
    let output = Command::new(audit_binary())
        .args(["audit", "--format", "json", "--", "sh", "-c", &noisy])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
