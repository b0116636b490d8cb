//! The processes a server started, as `/proc` shows them: which are stopped, which still
//! work, and the signals that stop, continue and end them. Every process of one server's run
//! carries the run's token in its environment, and the audit is the reaper of every orphan its
//! servers leave (Linux's child subreaper), so that ending a run ends each process it made:
//! children that left the process group, daemons that forked twice, processes stopped or
//! ignoring every signal but `SIGKILL`.

use std::collections::BTreeSet;
use std::os::unix::fs::MetadataExt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;

/// The variable each process of a server's run finds in its environment, set to the run's
/// token: what finds a process that left the server's tree.
pub const RUN_VARIABLE: &str = "ANNOTATIONS_AUDIT_RUN";

/// How many rounds of stopping and killing an ending run takes at most: a round finds what
/// the one before missed (a process forked as it was being stopped).
const ROUNDS: usize = 50;

/// A token for a new run of a server: this audit's process id, the moment the audit first
/// made one (another audit that had this id before, or has it in another PID namespace, made
/// other tokens) and a count.
pub fn new_run() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    static BORN: std::sync::OnceLock<u128> = std::sync::OnceLock::new();
    let born = BORN.get_or_init(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos())
    });
    format!(
        "{}-{born:x}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// The run's token `env` names (a caller that watches the run made it, see
/// [`new_run`]), else a new one.
pub(super) fn run_in(env: &[(String, String)]) -> String {
    env.iter()
        .find(|(key, _)| key == RUN_VARIABLE)
        .map_or_else(new_run, |(_, token)| token.clone())
}

/// The servers running now: each the audit's own child, which its `Peer` waits on.
static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// Held while a server is started and noted live, and while a run's orphans are sought and
/// ended: a process just started (not yet carrying its run's token, not yet noted live) is
/// never taken for another run's orphan by a run ending beside it.
static STARTING: Mutex<()> = Mutex::new(());

/// [`STARTING`], held until the guard is dropped.
pub(super) fn starting() -> std::sync::MutexGuard<'static, ()> {
    STARTING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Notes that the server `root` started: its orphans' run is not over, and it is its owner's
/// to wait on.
pub(super) fn started(root: u32) {
    LIVE.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(root);
}

/// Notes that the server `root` ended.
pub(super) fn forget(root: u32) {
    LIVE.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&root);
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
    if std::fs::read_dir("/proc").is_err() {
        return "only the server's own process ended with each run: no /proc here to find the \
                processes it started"
            .to_owned();
    }
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
pub(super) fn carrying(token: &str) -> Vec<u32> {
    let me = std::process::id();
    ids()
        .into_iter()
        .filter(|&id| id != me && ours(id) && !gone(id))
        .filter(|&id| run_of(id).as_deref() == Some(token.as_bytes()))
        .collect()
}

/// The run's token the process `id` carries in its environment, where it carries one and its
/// environment can be read.
fn run_of(id: u32) -> Option<Vec<u8>> {
    let environ = std::fs::read(format!("/proc/{id}/environ")).ok()?;
    let prefix = format!("{RUN_VARIABLE}=");
    environ
        .split(|byte| *byte == 0)
        .find_map(|pair| pair.strip_prefix(prefix.as_bytes()))
        .map(<[u8]>::to_vec)
}

/// What `/proc/{id}/stat` says of a process.
struct Stat {
    /// Its state: `R` running, `D` waiting on a disk, `T` stopped, `Z` a zombie, ...
    state: char,
    parent: u32,
    /// Its user and system CPU time, in clock ticks.
    cpu: u64,
}

/// What `/proc` says of the process `id`, while it is there.
fn stat(id: u32) -> Option<Stat> {
    let stat = std::fs::read_to_string(format!("/proc/{id}/stat")).ok()?;
    // `pid (comm) state ppid ...`: the command may hold spaces and parentheses.
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?.chars().next()?;
    let fields: Vec<&str> = fields.collect();
    // After the state: ppid, then (from the fields of proc(5)) utime and stime at 11, 12.
    let number = |at: usize| fields.get(at).and_then(|field| field.parse::<u64>().ok());
    Some(Stat {
        state,
        parent: u32::try_from(number(0)?).ok()?,
        cpu: number(10).unwrap_or(0) + number(11).unwrap_or(0),
    })
}

/// The ids of the processes `/proc` lists (none where there is no `/proc`).
fn ids() -> Vec<u32> {
    std::fs::read_dir("/proc").map_or_else(
        |_| Vec::new(),
        |entries| {
            entries
                .flatten()
                .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
                .collect()
        },
    )
}

/// Whether the process `id` is gone or a zombie (its exit not yet reaped).
fn gone(id: u32) -> bool {
    stat(id).is_none_or(|stat| matches!(stat.state, 'Z' | 'X'))
}

/// Whether the process `id` is a zombie: it exited, and its parent has not waited on it.
fn zombie(id: u32) -> bool {
    stat(id).is_some_and(|stat| stat.state == 'Z')
}

/// The parent of the process `id`, as `/proc` has it.
fn parent(id: u32) -> Option<u32> {
    stat(id).map(|stat| stat.parent)
}

/// Whether the process `id` runs as this audit's user: the only processes the audit reads
/// the environment of and ends (a server in a user namespace of its own is this user's too).
fn ours(id: u32) -> bool {
    let uid = |path: &str| std::fs::metadata(path).map(|meta| meta.uid()).ok();
    uid(&format!("/proc/{id}")).is_some_and(|theirs| Some(theirs) == uid("/proc/self"))
}

/// The children of this audit that are not a live server (see [`started`]): orphans it
/// adopted (and, as it exits, everything). With `token`, only those that carry no token or
/// this one: an orphan of another live run is that run's.
fn orphans(token: Option<&str>, spare: &BTreeSet<u32>) -> Vec<u32> {
    let me = std::process::id();
    ids()
        .into_iter()
        .filter(|id| !spare.contains(id) && parent(*id) == Some(me) && !gone(*id))
        .filter(|&id| {
            token.is_none_or(|token| run_of(id).is_none_or(|carried| carried == token.as_bytes()))
        })
        .collect()
}

/// Ends every process of a run: `root` (the server's process, `None` once it was reaped: its
/// id may be another's by now) and its descendants, every process that carries the run's
/// `token`, and the orphans the audit adopted that carry no token or this one, with theirs.
/// Each round stops all it finds, so that none forks while it is ended, then kills them with
/// `SIGKILL`, which no process ignores (a stopped one too); rounds go on until one finds
/// nothing. The audit's own children among them are reaped, `root` aside (its owner waits on
/// it), and so are the adopted orphans that ended by themselves. How many processes were
/// ended.
pub fn end_run(root: Option<u32>, token: Option<&str>) -> usize {
    let spare: BTreeSet<u32> = LIVE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .copied()
        .filter(|id| Some(*id) != root)
        .collect();
    end(root, token, &spare)
}

/// Ends every process this audit started that is still there (its servers' orphans, adopted,
/// among them): what the audit does last, whatever a server did.
pub fn end_all() -> usize {
    end(None, None, &BTreeSet::new())
}

/// [`end_run`], sparing the live servers `spare`.
fn end(root: Option<u32>, token: Option<&str>, spare: &BTreeSet<u32>) -> usize {
    let me = std::process::id();
    let mut ended: BTreeSet<u32> = BTreeSet::new();
    // Processes a signal cannot reach (another user's): found once, not again each round.
    let mut unreachable: BTreeSet<u32> = BTreeSet::new();
    let starting = starting();
    for _ in 0..ROUNDS {
        let mut found: Vec<u32> = Vec::new();
        let tops = root.into_iter().chain(orphans(token, spare));
        for top in tops {
            found.push(top);
            found.extend(descendants(top).iter().map(|d| d.id));
        }
        if let Some(token) = token {
            found.extend(carrying(token));
        }
        found.retain(|id| {
            *id != me && !spare.contains(id) && !unreachable.contains(id) && !gone(*id)
        });
        found.sort_unstable();
        found.dedup();
        if found.is_empty() {
            break;
        }
        for id in &found {
            let Ok(pid) = i32::try_from(*id) else {
                continue;
            };
            if kill(Pid::from_raw(pid), Signal::SIGSTOP) == Err(Errno::EPERM) {
                unreachable.insert(*id);
            }
        }
        signal(Signal::SIGKILL, &found);
        ended.extend(&found);
        std::thread::sleep(Duration::from_millis(1));
    }
    drop(starting);
    reap(root, spare, &ended);
    ended.len()
}

/// Waits on the audit's children that ended (its adopted orphans; `root` and the live servers
/// `spare` are their owners' to wait on): those of `ended` until each has died (two seconds at
/// most), and every other that ended by itself.
fn reap(root: Option<u32>, spare: &BTreeSet<u32>, ended: &BTreeSet<u32>) {
    let me = std::process::id();
    // The servers live now, not only when the run began to end: one started since beside it
    // is its owner's to wait on.
    let ours = |id: u32| {
        Some(id) != root
            && !spare.contains(&id)
            && !LIVE
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .contains(&id)
            && parent(id) == Some(me)
    };
    let wait = |id: u32| {
        i32::try_from(id).is_ok_and(|pid| {
            matches!(
                waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG)),
                Ok(WaitStatus::StillAlive)
            )
        })
    };
    let until = Instant::now() + Duration::from_secs(2);
    let mut waiting: Vec<u32> = ended.iter().copied().filter(|id| ours(*id)).collect();
    while !waiting.is_empty() && Instant::now() < until {
        waiting.retain(|&id| ours(id) && wait(id));
        if !waiting.is_empty() {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    // The orphans that ended by themselves (a helper that exited): their exit is the audit's to
    // collect, or each stays a zombie until it exits.
    for id in ids().into_iter().filter(|id| ours(*id) && zombie(*id)) {
        wait(id);
    }
}

/// Whether the process `id` is stopped (by a signal, or under its tracer).
pub(super) fn stopped(id: u32) -> bool {
    stat(id).is_some_and(|stat| matches!(stat.state, 'T' | 't'))
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
    let parents: Vec<(u32, Stat)> = ids()
        .into_iter()
        .filter_map(|id| Some((id, stat(id)?)))
        .filter(|(_, stat)| !matches!(stat.state, 'Z' | 'X'))
        .collect();
    let mut found: Vec<Descendant> = Vec::new();
    let mut frontier = vec![pid];
    while let Some(parent) = frontier.pop() {
        for (id, stat) in &parents {
            if stat.parent == parent && !found.iter().any(|d| d.id == *id) {
                found.push(Descendant {
                    id: *id,
                    running: matches!(stat.state, 'R' | 'D'),
                    cpu: stat.cpu,
                });
                frontier.push(*id);
            }
        }
    }
    found
}
