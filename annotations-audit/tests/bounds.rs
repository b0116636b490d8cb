//! `probe --max-processes/--max-memory/--max-disk`: a run of a server that takes more of the
//! host than its bounds is ended and said as a finding, the report stays whole, and nothing of
//! it is left running. The fixture grows in capped steps (never a real bomb on the host). CI
//! runs these as an unprivileged user too, where no cgroup is to be had and rlimits and the
//! watch hold the bounds.

#![cfg(target_os = "linux")]

use std::process::Command;

use serde_json::Value;

mod common;

use common::{audit_binary, example, tool};

/// `probe --format json` of the greedy server with `args`: its exit status, report and stderr.
fn probe(args: &[&str]) -> (Option<i32>, Value, String) {
    let server = example("greedy_server");
    let output = Command::new(audit_binary())
        .args(["probe", "--format", "json", "--cases", "1", "--runs", "1"])
        .args(args)
        .arg("--")
        .arg(server)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code(), report, stderr)
}

/// The processes left running of the greedy server (its program or its helpers).
fn left() -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|id| {
            let line = std::fs::read(format!("/proc/{id}/cmdline")).ok()?;
            let line = String::from_utf8_lossy(&line).replace('\0', " ");
            let state = std::fs::read_to_string(format!("/proc/{id}/stat")).ok()?;
            let zombie = state
                .rfind(')')
                .is_some_and(|at| state[at + 1..].trim_start().starts_with('Z'));
            let ours = line.contains("greedy_server") || line.trim() == "sleep 30";
            (ours && !zombie).then_some(line)
        })
        .collect()
}

/// The findings on the server as a whole.
fn findings(report: &Value) -> Vec<String> {
    report["server"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| finding.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_run_past_each_bound_is_ended_and_said() {
    let (status, report, stderr) = probe(&[
        "--confine",
        "none",
        "--max-memory",
        "64M",
        "--max-processes",
        "24",
        "--max-disk",
        "16M",
    ]);
    let left = left();
    assert!(matches!(status, Some(0 | 4)), "{status:?} {stderr}");
    let findings = findings(&report);
    let said = |tool: &str, bound: &str| {
        findings.iter().any(|finding| {
            finding.contains(bound) && finding.contains(&format!("while `{tool}` was called"))
        })
    };
    assert!(
        said("warm_cache", "exceeded its memory bound (64 MiB)"),
        "{findings:#?}"
    );
    assert!(
        said("start_workers", "exceeded its process bound (24 processes"),
        "{findings:#?}"
    );
    assert!(
        said(
            "save_snapshot",
            "exceeded its disk bound (16 MiB written to the sandbox)"
        ),
        "{findings:#?}"
    );
    // Nothing is judged from a run that was ended; the tool that kept within them is.
    for name in ["warm_cache", "start_workers"] {
        assert_ne!(
            tool(&report, name)["probe"]["readOnly"],
            "verified",
            "{report}"
        );
    }
    assert_eq!(
        tool(&report, "hello")["probe"]["readOnly"],
        "verified",
        "{report}"
    );
    let limits = report["limits"].as_str().unwrap();
    assert!(
        limits.starts_with(
            "each run bounded to 24 processes and threads, 64 MiB of memory, and 16 MiB written"
        ),
        "{limits}"
    );
    assert!(left.is_empty(), "left running: {left:#?}");
}

#[test]
fn the_bounds_are_said_in_every_format_and_refused_when_nonsense() {
    let server = example("clean_server");
    for bad in [
        ["--max-memory", "0"],
        ["--max-disk", "lots"],
        ["--max-processes", "0"],
    ] {
        let output = Command::new(audit_binary())
            .args(["probe"])
            .args(bad)
            .arg("--")
            .arg(&server)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{bad:?}");
    }
    for format in ["text", "markdown", "sarif"] {
        let output = Command::new(audit_binary())
            .args(["probe", "--format", format, "--cases", "1", "--runs", "1"])
            .args(["--sarif-artifact", "server.py"])
            .args(["--confine", "none", "--max-memory", "1G"])
            .arg("--")
            .arg(&server)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.contains("each run bounded to 512 processes and threads, 1 GiB of memory"),
            "{format}: {text}"
        );
    }
}
