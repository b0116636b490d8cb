//! `probe --confine landlock`: a server confined to its sandbox by Landlock rules, which need
//! no privilege and no user namespace (CI runs these as an unprivileged user too). A write
//! outside the sandbox is refused and said as a finding, a `--writable` place stays writable,
//! a closed-world tool's connection is refused and still recorded, and the report says how the
//! server ran.

#![cfg(target_os = "linux")]

use std::process::Command;

use serde_json::Value;

mod common;

use common::{Flaky, audit_binary, example, tool};

/// `probe --format json` with `args`: its exit status, report and stderr.
fn probe(args: &[&str]) -> (Option<i32>, Value, String) {
    let output = Command::new(audit_binary())
        .args(["probe", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code(), report, stderr)
}

/// Whether Landlock confines a process here: said and skipped where it cannot.
fn landlock_here() -> bool {
    let dir = std::env::temp_dir().join(format!("landlock-here-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let output = Command::new(audit_binary())
        .args(["__confine", "--sandbox"])
        .arg(&dir)
        .arg("--check")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    if !output.status.success() {
        eprintln!(
            "NOT CHECKED: Landlock does not confine a process here: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    output.status.success()
}

#[test]
fn landlock_confines_a_server_to_its_sandbox_without_privilege() {
    if !landlock_here() {
        return;
    }
    let flaky = Flaky::new("annotations-landlock");
    let server = example("flaky_server");
    let given = flaky.args();
    let given: Vec<&str> = given.iter().map(String::as_str).collect();
    let asked = ["--confine", "landlock", "--cases", "2", "--runs", "1"];
    let server = server.to_str().unwrap();
    let (status, report, stderr) = probe(&[&asked[..], &given, &["--", server]].concat());
    let wrote_elsewhere = flaky.elsewhere.exists();
    let counted: u64 = std::fs::read_to_string(&flaky.counter)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    drop(flaky);
    // One run: `read_status`'s flaky write is violated there (1), which is not this test's.
    assert!(matches!(status, Some(0 | 4)), "{report} {stderr}");
    let confinement = report["confinement"].as_str().unwrap();
    assert!(
        confinement.contains("under Landlock rules"),
        "{confinement}"
    );
    // Refused outside, allowed in the --writable place.
    assert!(!wrote_elsewhere, "{report}");
    assert!(
        counted > 0,
        "the --writable place was not writable: {report}"
    );
    let remember = tool(&report, "remember_status");
    assert_eq!(remember["probe"]["readOnly"], "unexercised", "{remember}");
    let finding = report["server"].to_string();
    assert!(
        finding.contains("`remember_status` tried to write outside the sandbox"),
        "{finding}"
    );
    assert!(finding.contains("Permission denied"), "{finding}");
}

#[test]
fn landlock_refuses_a_closed_world_tools_connection_and_it_is_still_judged() {
    if !landlock_here() {
        return;
    }
    let server = example("liar_server");
    let (status, report, stderr) = probe(&[
        "--confine",
        "landlock",
        "--cases",
        "2",
        "--",
        server.to_str().unwrap(),
    ]);
    assert!(matches!(status, Some(0 | 4)), "{report} {stderr}");
    let network = report["network"].as_str().unwrap();
    let lookup = tool(&report, "lookup_price");
    if network.starts_with("attempts to reach the network not recorded") {
        eprintln!("NOT CHECKED: {network}");
        return;
    }
    assert!(
        network.ends_with("had its TCP connections refused (Landlock)"),
        "{network}"
    );
    assert_eq!(lookup["probe"]["closedWorld"], "violated", "{lookup}");
}

/// A "read-only" tool that writes outside the sandbox and answers as if it had only read is
/// seen trying, under each confinement this machine has: the kernel's record says what it
/// tried, the call verifies nothing, and its honest neighbour is still verified. A
/// closed-world tool that connects out and then empties that record cannot: the record is out
/// of its reach, and its connection is judged.
#[test]
fn a_refused_write_a_tool_hides_is_read_from_the_record() {
    let server = example("quiet_server");
    let mut methods = vec!["auto"];
    if landlock_here() {
        methods.push("landlock");
    }
    for method in methods {
        let dir = std::env::temp_dir().join(format!("annotations-quiet-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let elsewhere = dir.join("elsewhere.txt");
        let given = format!("ELSEWHERE={}", elsewhere.display());
        let server = server.to_str().unwrap();
        let asked = ["--confine", method, "--cases", "1", "--runs", "1"];
        let (status, report, stderr) =
            probe(&[&asked[..], &["--env", &given, "--", server]].concat());
        let wrote = elsewhere.exists();
        let _ = std::fs::remove_dir_all(&dir);
        if report.is_null() {
            eprintln!("NOT CHECKED: no confinement here for {method}: {stderr}");
            continue;
        }
        if report["network"]
            .as_str()
            .unwrap()
            .starts_with("attempts to reach the network not recorded")
        {
            eprintln!(
                "NOT CHECKED: no record of system calls here: {}",
                report["network"]
            );
            return;
        }
        assert!(matches!(status, Some(0 | 4)), "{method}: {report} {stderr}");
        assert!(!wrote, "{method}: the write landed: {report}");
        let findings = report["server"].to_string();
        assert!(
            findings.contains("`read_notes` tried to write outside the sandbox"),
            "{method}: {findings}"
        );
        assert!(
            findings.contains(&format!("openat {}", elsewhere.display())),
            "{method}: {findings}"
        );
        // The record is out of the server's reach: its connection is judged all the same.
        let look_up = tool(&report, "look_up");
        assert_eq!(
            look_up["probe"]["closedWorld"], "violated",
            "{method}: {look_up}"
        );
        assert!(
            findings.contains("`look_up` tried to write outside the sandbox"),
            "{method}: {findings}"
        );
        let notes = tool(&report, "read_notes");
        assert_ne!(notes["probe"]["readOnly"], "verified", "{method}: {notes}");
        assert_eq!(
            tool(&report, "hello")["probe"]["readOnly"],
            "verified",
            "{method}: {report}"
        );
    }
}

/// The server's home, temporary folder and XDG folders are the sandbox's, whatever the
/// user's environment says: a runtime's cache or settings go where the probe looks, not to a
/// place outside that confinement refuses.
#[test]
fn the_servers_home_and_xdg_folders_are_in_the_sandbox() {
    let server = example("quiet_server");
    let check = r#"for place in "$TMPDIR" "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" \
        "$XDG_STATE_HOME" "$XDG_RUNTIME_DIR"; do
      case "$place" in "$HOME"|"$HOME"/*) ;; *) echo "outside the sandbox: $place" >&2; exit 3;; esac
    done
    [ "$(pwd -P)" = "$(cd "$HOME" && pwd -P)" ] || { echo "home is not the sandbox" >&2; exit 3; }
    exec "$0""#;
    let output = Command::new(audit_binary())
        .args(["probe", "--format", "json", "--cases", "1", "--runs", "1"])
        .args(["--confine", "none", "--", "sh", "-c", check])
        .arg(&server)
        .env("XDG_CACHE_HOME", "/var/cache/elsewhere")
        .env("XDG_CONFIG_HOME", "/etc/elsewhere")
        .env("XDG_RUNTIME_DIR", "/run/user/elsewhere")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    assert!(matches!(output.status.code(), Some(0 | 4)), "{stderr}");
    assert_eq!(
        tool(&report, "hello")["probe"]["readOnly"],
        "verified",
        "{report}"
    );
}

#[test]
fn a_bad_confinement_is_a_bad_command_line_and_none_is_said() {
    let server = example("clean_server");
    // An unknown method is a bad command line; `--unconfined` beside `--confine` too.
    let (status, _, stderr) = probe(&["--confine", "chroot", "--", server.to_str().unwrap()]);
    assert_eq!(status, Some(2), "{stderr}");
    let (status, _, stderr) = probe(&[
        "--confine",
        "landlock",
        "--unconfined",
        "--",
        server.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(2), "{stderr}");
    // `none` runs it, and says so.
    let (status, report, stderr) = probe(&[
        "--confine",
        "none",
        "--cases",
        "1",
        "--",
        server.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        report["confinement"]
            .as_str()
            .unwrap()
            .starts_with("not confined (--confine none)"),
        "{report}"
    );
}
