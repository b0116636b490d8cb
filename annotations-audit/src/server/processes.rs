//! The processes a server started, as `/proc` shows them: which are stopped, which still
//! work, and the signals that stop, continue and end them.

use std::process::{Command, Stdio};
use std::time::Duration;

/// Lets the processes [`Peer::pause`](super::Peer::pause) stopped go on.
pub fn resume(ids: &[u32]) {
    signal("-CONT", ids);
}

/// Sends `signal` to the processes `ids` (a process group's id negative) with the `kill`
/// command: whether it could.
pub(super) fn signal(signal: &str, ids: &[impl ToString]) -> bool {
    Command::new("kill")
        .arg(signal)
        .arg("--")
        .args(ids.iter().map(ToString::to_string))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Whether the process `id` is stopped (by a signal, or under its tracer).
pub(super) fn stopped(id: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{id}/stat")).is_ok_and(|stat| {
        stat.rfind(')')
            .and_then(|at| stat[at + 1..].split_whitespace().next())
            .is_some_and(|state| state == "T" || state == "t")
    })
}

/// How long a process started since the last settle must sleep without spending CPU time to
/// count as a helper the server keeps, not a process still finishing a call's work.
pub(super) const IDLE: Duration = Duration::from_millis(60);

/// How long a process the server had at the last settle must: it is waiting for the next
/// request, once it is neither running nor spending CPU time.
pub(super) const QUIET: Duration = Duration::from_millis(20);

/// A process the server started.
pub(super) struct Descendant {
    pub(super) id: u32,
    /// Running or waiting on a disk (`R`, `D`).
    pub(super) running: bool,
    /// Its user and system CPU time, in clock ticks.
    pub(super) cpu: u64,
}

/// The processes `pid` started, and theirs, still running (Linux: read from `/proc`; empty
/// elsewhere).
pub(super) fn descendants(pid: u32) -> Vec<Descendant> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut parents: Vec<(u32, u32, bool, u64)> = Vec::new();
    for entry in entries.flatten() {
        let Some(id) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: the command may hold spaces and parentheses.
        let Some(after) = stat.rfind(')').map(|at| &stat[at + 1..]) else {
            continue;
        };
        let mut fields = after.split_whitespace();
        let state = fields.next().unwrap_or("");
        if state == "Z" || state == "X" {
            continue;
        }
        let fields: Vec<&str> = fields.collect();
        // After the state: ppid, then (from the fields of proc(5)) utime and stime at 11, 12.
        let number = |at: usize| fields.get(at).and_then(|f| f.parse::<u64>().ok());
        if let Some(parent) = number(0) {
            let cpu = number(10).unwrap_or(0) + number(11).unwrap_or(0);
            #[allow(clippy::cast_possible_truncation)]
            parents.push((id, parent as u32, matches!(state, "R" | "D"), cpu));
        }
    }
    let mut found: Vec<Descendant> = Vec::new();
    let mut frontier = vec![pid];
    while let Some(parent) = frontier.pop() {
        for (id, of, running, cpu) in &parents {
            if *of == parent && !found.iter().any(|d| d.id == *id) {
                found.push(Descendant {
                    id: *id,
                    running: *running,
                    cpu: *cpu,
                });
                frontier.push(*id);
            }
        }
    }
    found
}
