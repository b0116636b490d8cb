//! Nothing a probe starts outlives it: a server that ignores the end of its input, `SIGTERM`
//! and `SIGHUP`, forks a daemon twice (one that keeps its environment, one that clears it) and
//! stops a child of its own leaves no process behind once the probe is done, counted in
//! `/proc` (Linux).

#![cfg(target_os = "linux")]

use std::process::Command;

mod common;

use common::{audit_binary, example};

/// The processes whose command line holds `marker`, this test aside: what was left behind.
fn left_with(marker: &str) -> Vec<(u32, String)> {
    let me = std::process::id();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&id| id != me)
        .filter_map(|id| {
            let line = std::fs::read(format!("/proc/{id}/cmdline")).ok()?;
            let line = String::from_utf8_lossy(&line).replace('\0', " ");
            let state = std::fs::read_to_string(format!("/proc/{id}/stat")).ok()?;
            let zombie = state
                .rfind(')')
                .is_some_and(|at| state[at + 1..].trim_start().starts_with('Z'));
            (line.contains(marker) && !zombie).then_some((id, line))
        })
        .collect()
}

#[test]
fn a_probe_leaves_no_process_behind() {
    let server = example("clean_server");
    // Numbers no other process on the machine sleeps for: this test's marks.
    let base = 900_000 + u64::from(std::process::id() % 1000) * 10;
    let (keeps, clears, stopped) = (base + 1, base + 2, base + 3);
    let marker = format!("lifetime-{base}");
    let script = format!(
        "trap '' TERM HUP INT
         ( setsid sleep {keeps} & )
         ( env -i setsid sleep {clears} & )
         sleep {stopped} & kill -STOP $!
         \"$1\"
         while :; do sleep 1; done # {marker}"
    );
    let output = Command::new(audit_binary())
        .args([
            "probe", "--format", "json", "--cases", "2", "--runs", "2", "--",
        ])
        .args(["sh", "-c", &script, "sh"])
        .arg(&server)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    let marks = [
        marker.clone(),
        format!("sleep {keeps}"),
        format!("sleep {clears}"),
        format!("sleep {stopped}"),
    ];
    let mut left: Vec<(u32, String)> = marks.iter().flat_map(|mark| left_with(mark)).collect();
    left.sort();
    left.dedup();
    // Whatever the verdict, this test ends what it would otherwise leave on the machine.
    for (id, _) in &left {
        let _ = Command::new("kill")
            .args(["-KILL", &id.to_string()])
            .status();
    }
    assert!(
        report.contains("\"tools\""),
        "the probe ran: {report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(left, [], "processes left behind by the probe");
}
