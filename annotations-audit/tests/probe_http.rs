//! `probe --http`: a server that speaks Streamable HTTP only, started by the probe in its
//! sandbox and reached at the port it serves, judged as the same server over stdio is.

use std::process::Command;

use serde_json::Value;

mod common;

use common::{audit_binary, example, verdicts};

fn probe(url: &str, command: &[&str]) -> (i32, Value, String) {
    let output = Command::new(audit_binary())
        .args([
            "probe", "--format", "json", "--cases", "6", "--http", url, "--",
        ])
        .args(command)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code().unwrap(), report, stderr)
}

#[test]
fn a_server_over_http_is_started_in_the_sandbox_and_its_lies_caught() {
    let front = example("http_front");
    let liar = example("liar_server");
    let command = [front.to_str().unwrap(), "{port}", liar.to_str().unwrap()];
    let (status, report, stderr) = probe("http://127.0.0.1:{port}/mcp", &command);
    assert_eq!(status, 4, "{report} {stderr}");
    // The same verdicts as over stdio: the sandbox is the server's folder either way.
    let output = Command::new(audit_binary())
        .args(["probe", "--format", "json", "--cases", "6", "--"])
        .arg(&liar)
        .output()
        .unwrap();
    let over_stdio: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(verdicts(&report), verdicts(&over_stdio), "{report}");
    let read_config = &verdicts(&report)[0];
    assert_eq!(read_config.0, "read_config");
    assert_eq!(read_config.1[0], "violated", "{report}");
    // Calls at once are not made over HTTP, and the report says why.
    let set_greeting = &report["tools"][4];
    assert_eq!(set_greeting["name"], "set_greeting");
    for how in ["oneConnection", "twoProcesses"] {
        let said = set_greeting["concurrency"][how].as_str().unwrap();
        assert!(said.starts_with("not judged: over HTTP"), "{report}");
    }
    // The network: the server had this machine's, for the probe to reach it, and the report
    // says so (or, on a machine without strace, that attempts were not recorded at all).
    let network = report["network"].as_str().unwrap();
    assert!(
        network.ends_with("had this machine's network, where the probe reached it over HTTP")
            || network.starts_with("attempts to reach the network not recorded"),
        "{report}"
    );
}

/// A server that never listens is waited for no longer than the timeout, with its last words.
#[test]
fn a_server_that_exits_before_it_listens_says_why() {
    let (status, _, stderr) = probe(
        "http://[::1]:{port}/mcp",
        &["sh", "-c", "echo \"no port in $0\" >&2; exit 3", "{port}"],
    );
    assert_eq!(status, 3, "{stderr}");
    assert!(stderr.contains("exited before it listened"), "{stderr}");
    assert!(stderr.contains("no port in"), "{stderr}");
}

/// A server that repeats the `--header` it was given on its stderr (as servers logging their
/// requests do) has it redacted from the error that quotes its last lines and from the
/// `--server-log` file.
#[test]
fn a_header_the_server_logs_is_redacted_from_its_stderr_and_log() {
    let token = "s3cretTOKEN1234";
    let log = std::env::temp_dir().join(format!("server-log-{}.txt", std::process::id()));
    let output = Command::new(audit_binary())
        .args(["probe", "--http", "http://127.0.0.1:{port}/mcp"])
        .args(["--header", &format!("Authorization: Bearer {token}")])
        .arg("--server-log")
        .arg(&log)
        .args([
            "--",
            "sh",
            "-c",
            &format!("echo \"DEBUG request Authorization: Bearer {token}\" >&2; exit 3"),
            "{port}",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("DEBUG request"), "{stderr}");
    assert!(!stderr.contains(token), "{stderr}");
    assert!(
        logged.contains("DEBUG request Authorization: [redacted]"),
        "{logged}"
    );
    assert!(!logged.contains(token), "{logged}");
}
