//! What one run of a server may take of the host: processes (and threads), memory, and what it
//! writes to its sandbox. Each bound is held twice over:
//!
//! - **by the kernel**, before the server runs: a cgroup of the run's own where this machine
//!   lets the audit make one (as root; cgroup v1 or v2), which refuses a process past the bound
//!   and ends one that takes memory past it; and rlimits on every process of the run in any
//!   case (memory and file size a quarter above the bound, processes a quarter above it for a
//!   user that is not root), so that the host stays healthy whatever the server does;
//! - **by a watch** that looks at the run every [`TICK`]: the cgroup's own count of what it
//!   refused, else the processes carrying the run's token (their threads and resident memory),
//!   and the sandbox's size over its seed. What passes a bound ends the run, and is said.
//!
//! The audit runs itself as a small wrapper (`annotations-audit __bound ...`) that makes and
//! joins the cgroup, sets the rlimits and becomes the rest of the server's command (`exec`),
//! which every process it starts inherits.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

mod cgroup;
mod wrapper;

pub use cgroup::cgroups;
use cgroup::{cgroup_breaches, cgroups_of};
pub use wrapper::wrapped;
pub(crate) use wrapper::{SUBCOMMAND, main};

/// How often the watch looks at a run.
pub const TICK: Duration = Duration::from_millis(100);

/// The most entries of the sandbox the watch counts: more is past the disk bound (a server
/// that makes a million empty files fills a disk's inodes, not its bytes).
const MOST_ENTRIES: u64 = 100_000;

/// What one run of a server may take (`--max-processes`, `--max-memory`, `--max-disk`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Processes and threads of the run at once.
    pub processes: u64,
    /// Bytes of memory of the run's processes together.
    pub memory: u64,
    /// Bytes one run may write to the sandbox (beyond what it held as the run began).
    pub disk: u64,
}

/// `size` in words: `2 GiB`, `512 MiB`, `1500 bytes`.
#[must_use]
pub fn size(size: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if size >= 1 << shift {
            let whole = size >> shift;
            let tenths = ((size - (whole << shift)) * 10) >> shift;
            return if tenths == 0 {
                format!("{whole} {unit}")
            } else {
                format!("{whole}.{tenths} {unit}")
            };
        }
    }
    format!("{size} bytes")
}

/// A quarter above `bound`: where an rlimit stands, so that the watch sees a bound passed
/// before the rlimit refuses (a refusal the server may quietly survive).
fn above(bound: u64) -> u64 {
    bound.saturating_add(bound / 4)
}

/// What each run that passed a bound did, by the run's token, not yet said.
static BREACHES: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

/// What the runs of servers did past their bounds since this was last asked, in words
/// (`exceeded its memory bound (2 GiB): ...`), each said once.
pub fn exceeded() -> Vec<String> {
    let mut breaches = BREACHES.lock().unwrap_or_else(PoisonError::into_inner);
    breaches.drain(..).map(|(_, what)| what).collect()
}

/// What the run `token` did past its bounds, not yet said.
pub fn exceeded_by(token: &str) -> Vec<String> {
    let mut breaches = BREACHES.lock().unwrap_or_else(PoisonError::into_inner);
    let (theirs, others) = breaches.drain(..).partition(|(run, _)| run == token);
    *breaches = others;
    theirs.into_iter().map(|(_, what)| what).collect()
}

/// The watch over one run of a server: started before the server is, stopped (its cgroups
/// read a last time and removed) when the run ends.
pub struct Watch {
    run: Arc<Run>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What the watch knows of its run.
struct Run {
    token: String,
    sandbox: PathBuf,
    /// The bytes the sandbox held before the run began.
    seed: u64,
    /// The entries it held then.
    seed_entries: u64,
    limits: Limits,
    /// Whether the run has a cgroup (see [`cgroups`]).
    bounded: bool,
    /// The server's own process, once started (0 before).
    root: AtomicU32,
    /// Whether the run passed a bound (and was ended): said once.
    passed: AtomicBool,
    stop: AtomicBool,
}

impl Watch {
    /// Watches the run `token` of a server on `sandbox` within `limits`: what the run writes is
    /// counted from what the sandbox holds now (a run started again in the same sandbox is
    /// not held to what an earlier one wrote).
    #[must_use]
    pub fn start(token: &str, sandbox: &Path, limits: Limits) -> Watch {
        let (seed, seed_entries) = on_disk(sandbox, u64::MAX);
        let run = Arc::new(Run {
            token: token.to_owned(),
            sandbox: sandbox.to_path_buf(),
            seed,
            seed_entries,
            limits,
            bounded: cgroups().is_ok(),
            root: AtomicU32::new(0),
            passed: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        });
        let thread = {
            let run = Arc::clone(&run);
            std::thread::spawn(move || watch(&run))
        };
        Watch {
            run,
            thread: Some(thread),
        }
    }

    /// Notes the server's own process, ended with the rest of the run where it passes a bound.
    pub fn started(&self, root: u32) {
        self.run.root.store(root, Ordering::Relaxed);
    }

    /// Stops ending the run (its owner ends it now, and its server's process id may soon be
    /// another's): what it did past its bounds is still read as the watch stops.
    pub fn halt(&self) {
        self.run.root.store(0, Ordering::Relaxed);
        self.run.stop.store(true, Ordering::Relaxed);
    }

    /// What the run did past its bounds, looked at now (a process the kernel ended for memory
    /// a moment ago is counted), not yet said.
    pub fn exceeded(&self) -> Vec<String> {
        look(&self.run);
        exceeded_by(&self.run.token)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.run.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The watch's loop: see the module's documentation.
fn watch(run: &Run) {
    while !run.stop.load(Ordering::Relaxed) {
        std::thread::sleep(TICK);
        look(run);
    }
    // The run is over (its processes ended by its owner): what the kernel counted last, then
    // the cgroups, once their processes are gone.
    if run.bounded {
        if !run.passed.swap(true, Ordering::Relaxed) {
            let mut breaches = BREACHES.lock().unwrap_or_else(PoisonError::into_inner);
            for what in cgroup_breaches(&run.token, &run.limits) {
                breaches.push((run.token.clone(), what));
            }
        }
        for cgroup in cgroups_of(&run.token) {
            for _ in 0..100 {
                if std::fs::remove_dir(&cgroup).is_ok() || !cgroup.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

/// Looks at the run once: where it passed a bound (the first time), says so and ends it.
fn look(run: &Run) {
    if run.passed.load(Ordering::Relaxed) {
        return;
    }
    let mut found = if run.bounded {
        cgroup_breaches(&run.token, &run.limits)
    } else {
        processes_past(&run.token, run.root.load(Ordering::Relaxed), &run.limits)
    };
    found.extend(disk_past(run));
    let Some(what) = found.into_iter().next() else {
        return;
    };
    if run.passed.swap(true, Ordering::Relaxed) {
        return;
    }
    BREACHES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push((
            run.token.clone(),
            format!("{what}; every process of its run was ended"),
        ));
    let root = run.root.load(Ordering::Relaxed);
    if !run.stop.load(Ordering::Relaxed) {
        super::processes::end_run((root != 0).then_some(root), Some(&run.token));
    }
}

/// What the run `token`'s processes take past `limits` (where no cgroup counts it): their
/// processes and threads, and their resident memory together. Its processes are those that
/// carry its token and those its `root` started (a child that dropped its environment too).
fn processes_past(token: &str, root: u32, limits: &Limits) -> Vec<String> {
    let (mut tasks, mut memory) = (0_u64, 0_u64);
    let mut ids = super::processes::carrying(token);
    if root != 0 {
        ids.push(root);
        ids.extend(
            super::processes::descendants(root)
                .iter()
                .map(|child| child.id),
        );
    }
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        let status = std::fs::read_to_string(format!("/proc/{id}/status")).unwrap_or_default();
        let field = |key: &str| -> u64 {
            status
                .lines()
                .find_map(|line| {
                    line.strip_prefix(key)?
                        .split_whitespace()
                        .next()?
                        .parse()
                        .ok()
                })
                .unwrap_or(0)
        };
        tasks += field("Threads:").max(1);
        memory += field("VmRSS:") * 1024;
    }
    let mut found = Vec::new();
    if tasks > limits.processes {
        found.push(format!(
            "exceeded its process bound ({} processes and threads): it had {tasks}",
            limits.processes
        ));
    }
    if memory > limits.memory {
        found.push(format!(
            "exceeded its memory bound ({}): its processes held {}",
            size(limits.memory),
            size(memory)
        ));
    }
    found
}

/// What `sandbox` holds past what it held as the run began (`seed`) and `limits.disk`: its bytes on disk, or entries past
/// [`MOST_ENTRIES`].
fn disk_past(run: &Run) -> Option<String> {
    let (seed, limits) = (run.seed, &run.limits);
    let most = run.seed_entries.saturating_add(MOST_ENTRIES);
    let (held, entries) = on_disk(&run.sandbox, most);
    if entries > most {
        return Some(format!(
            "exceeded its disk bound: it made more than {MOST_ENTRIES} files and folders in the \
             sandbox"
        ));
    }
    (held > seed.saturating_add(limits.disk)).then(|| {
        format!(
            "exceeded its disk bound ({} written to the sandbox): it wrote {}",
            size(limits.disk),
            size(held - seed)
        )
    })
}

/// The bytes `dir` takes on disk (blocks, so that a sparse file counts what it holds) and how
/// many entries it has, counted up to one past `most`; links are not followed.
#[must_use]
pub fn on_disk(dir: &Path, most: u64) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let (mut bytes, mut entries) = (0_u64, 0_u64);
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(listed) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in listed.flatten() {
            entries += 1;
            if entries > most {
                return (bytes, entries);
            }
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            bytes = bytes.saturating_add(meta.blocks().saturating_mul(512));
            if meta.is_dir() {
                folders.push(entry.path());
            }
        }
    }
    (bytes, entries)
}

/// The bounds in words, for a report: what holds each, and what a server could still do.
#[must_use]
pub fn said(limits: &Limits) -> String {
    let mut words = format!(
        "each run bounded to {} processes and threads, {} of memory, and {} written to the \
         sandbox; ",
        limits.processes,
        size(limits.memory),
        size(limits.disk)
    );
    match cgroups() {
        Ok(()) => words.push_str(
            "processes and memory held by a cgroup of the run's own (the kernel refuses a \
             process past the bound and ends one for memory), files by an rlimit on their \
             size and the sandbox watched",
        ),
        Err(why) => {
            let _ = write!(
                words,
                "no cgroup ({why}): memory, file size{} held by rlimits a quarter above the \
                 bounds, each process on its own, and the run's totals watched every {} ms: a \
                 process refused past its rlimit at once is not seen as passing a bound",
                if root() {
                    ""
                } else {
                    " and this user's processes"
                },
                TICK.as_millis()
            );
            if root() {
                words.push_str("; as root no rlimit holds processes, only the watch");
            }
        }
    }
    words.push_str("; a run that passes a bound is ended and said as a finding");
    words
}

/// Whether the audit runs as root (whom the kernel does not hold to a count of processes).
fn root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|meta| meta.uid() == 0)
}
