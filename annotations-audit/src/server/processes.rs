//! The processes a server started, as `/proc` shows them: which are stopped, which still
//! work, and the signals that stop, continue and end them. Every process of one server's run
//! carries the run's token in its environment, and the audit is the reaper of every orphan its
//! servers leave (Linux's child subreaper), so that ending a run ends each process it made:
//! children that left the process group, daemons that forked twice, processes stopped or
//! ignoring every signal but `SIGKILL`.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;

/// The variable each process of a server's run finds in its environment, set to the run's
/// token: what finds a process that left the server's tree.
pub(super) const RUN_VARIABLE: &str = "ANNOTATIONS_AUDIT_RUN";

/// How many rounds of stopping and killing an ending run takes at most: a round finds what
/// the one before missed (a process forked as it was being stopped).
const ROUNDS: usize = 50;

/// A token for a new run of a server: this audit's process id and a count.
pub(super) fn new_run() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Makes this process the reaper of every orphan its descendants leave (Linux's
/// `PR_SET_CHILD_SUBREAPER`): a daemon a server forks twice is re-parented to the audit, not
/// to init, so ending a run finds it. Whether it could.
pub fn adopt_orphans() -> bool {
    #[cfg(target_os = "linux")]
    let adopting = nix::sys::prctl::set_child_subreaper(true).is_ok();
    #[cfg(not(target_os = "linux"))]
    let adopting = false;
    ADOPTING.store(adopting, Ordering::Relaxed);
    adopting
}

/// Whether [`adopt_orphans`] made the audit the reaper of its servers' orphans.
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// What ends a server's processes, in words, for a report: what was used, and what a process
/// could still do to outlive its run.
pub fn lifetime() -> String {
    let ended = "every process of each run ended with it by SIGKILL, stopped ones too: the \
                 server's process tree and every process carrying the run's token in its \
                 environment";
    if ADOPTING.load(Ordering::Relaxed) {
        format!(
            "{ended}; the audit adopts the orphans a server leaves (child subreaper) and ends \
             what is left as it exits"
        )
    } else {
        format!(
            "{ended}; no child subreaper here: a daemon that forks twice and clears its \
             environment can outlive the probe"
        )
    }
}

/// Lets the processes [`Peer::pause`](super::Peer::pause) stopped go on.
pub fn resume(ids: &[u32]) {
    signal(Signal::SIGCONT, ids);
}

/// Sends `signal` to each of the processes `ids` (a process group's id negative): whether it
/// reached every one.
pub(super) fn signal(signal: Signal, ids: &[impl Into<i64> + Copy]) -> bool {
    let mut all = true;
    for id in ids {
        let Ok(id) = i32::try_from((*id).into()) else {
            all = false;
            continue;
        };
        all &= kill(Pid::from_raw(id), signal).is_ok();
    }
    all
}

/// The processes that carry `token` in their environment (those this user may read: all of
/// them as root), this audit aside.
fn carrying(token: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let needle = format!("{RUN_VARIABLE}={token}");
    let me = std::process::id();
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&id| id != me && !gone(id))
        .filter(|id| {
            std::fs::read(format!("/proc/{id}/environ")).is_ok_and(|environ| {
                environ
                    .split(|byte| *byte == 0)
                    .any(|pair| pair == needle.as_bytes())
            })
        })
        .collect()
}

/// Whether the process `id` is gone or a zombie (its exit not yet reaped).
fn gone(id: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{id}/stat")).map_or(true, |stat| {
        stat.rfind(')')
            .and_then(|at| stat[at + 1..].split_whitespace().next())
            .is_none_or(|state| state == "Z" || state == "X")
    })
}

/// The parent of the process `id`, as `/proc` has it.
fn parent(id: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{id}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(1)?.parse().ok()
}

/// Ends every process of a run: `root` (unless it is this audit) and its descendants, and
/// every process that carries the run's `token`. Each round stops all it finds, so that none
/// forks while it is ended, then kills them with `SIGKILL`, which no process ignores (a
/// stopped one too); rounds go on until one finds nothing. The orphans this audit adopted are
/// reaped; `root`, where it is the audit's own child, is left for its owner to wait on. How
/// many processes were ended.
pub fn end_run(root: u32, token: Option<&str>) -> usize {
    let me = std::process::id();
    let mut ended: BTreeSet<u32> = BTreeSet::new();
    for _ in 0..ROUNDS {
        let mut found: Vec<u32> = descendants(root).iter().map(|d| d.id).collect();
        if root != me && !gone(root) {
            found.push(root);
        }
        if let Some(token) = token {
            found.extend(carrying(token));
        }
        found.retain(|&id| id != me && !gone(id));
        found.sort_unstable();
        found.dedup();
        if found.is_empty() {
            break;
        }
        signal(Signal::SIGSTOP, &found);
        signal(Signal::SIGKILL, &found);
        ended.extend(&found);
        std::thread::sleep(Duration::from_millis(1));
    }
    // The orphans re-parented to this audit are its to reap, once each has died.
    let until = Instant::now() + Duration::from_secs(2);
    let mut adopted: Vec<u32> = ended.iter().copied().filter(|&id| id != root).collect();
    while !adopted.is_empty() && Instant::now() < until {
        adopted.retain(|&id| {
            // Gone already, or another's to reap: nothing to wait for.
            if parent(id) != Some(me) {
                return false;
            }
            let Ok(pid) = i32::try_from(id) else {
                return false;
            };
            matches!(
                waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG)),
                Ok(WaitStatus::StillAlive)
            )
        });
        if !adopted.is_empty() {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    ended.len()
}

/// Ends every process this audit started that is still there (its servers' orphans, adopted,
/// among them): what the audit does last, whatever a server did.
pub fn end_all() -> usize {
    end_run(std::process::id(), None)
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
