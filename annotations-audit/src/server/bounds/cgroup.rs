//! A cgroup of the run's own, where this machine lets the audit make one (as root; cgroup v1 or
//! v2): the kernel refuses a process past the bound and ends one that takes memory past it.

use std::path::{Path, PathBuf};

use super::{Limits, size};

/// The folders a run's cgroups are made in, by controller (`pids`, `memory`), where the audit
/// may make them here: cgroup v2's one folder for both, or v1's two. Why not, where it may not.
fn cgroup_roots() -> Result<Vec<PathBuf>, String> {
    let base = Path::new("/sys/fs/cgroup");
    if base.join("cgroup.controllers").exists() {
        // v2: the controllers must be handed down to the folders made beside the audit's.
        let wanted = ["pids", "memory"];
        let given =
            std::fs::read_to_string(base.join("cgroup.subtree_control")).unwrap_or_default();
        for controller in wanted {
            if !given.split_whitespace().any(|word| word == controller) {
                std::fs::write(
                    base.join("cgroup.subtree_control"),
                    format!("+{controller}"),
                )
                .map_err(|error| {
                    format!("cgroup v2 does not hand down `{controller}` ({error})")
                })?;
            }
        }
        return Ok(vec![base.to_path_buf()]);
    }
    let roots: Vec<PathBuf> = ["pids", "memory"]
        .iter()
        .map(|name| base.join(name))
        .collect();
    if roots.iter().all(|root| root.join("cgroup.procs").exists()) {
        Ok(roots)
    } else {
        Err("no cgroup pids and memory controllers here".to_owned())
    }
}

/// The cgroups of the run `token`, one per root.
pub(super) fn cgroups_of(token: &str) -> Vec<PathBuf> {
    cgroup_roots()
        .unwrap_or_default()
        .into_iter()
        .map(|root| root.join(format!("annotations-audit-{token}")))
        .collect()
}

/// Whether the audit may give each run a cgroup of its own here, tried once: why not, where it
/// may not (not root, no controllers, a read-only `/sys/fs/cgroup`).
pub fn cgroups() -> Result<(), String> {
    use std::sync::OnceLock;
    static FOUND: OnceLock<Result<(), String>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let token = format!("trial-{}", std::process::id());
            let made = make_cgroups(&token, 1, 1 << 30);
            for cgroup in cgroups_of(&token) {
                let _ = std::fs::remove_dir(cgroup);
            }
            made
        })
        .clone()
}

/// Makes the cgroups of the run `token`, bounded to `processes` and `memory`.
pub(super) fn make_cgroups(token: &str, processes: u64, memory: u64) -> Result<(), String> {
    let roots = cgroup_roots()?;
    let v2 = roots.len() == 1;
    for cgroup in cgroups_of(token) {
        std::fs::create_dir(&cgroup).map_err(|error| format!("cannot make a cgroup ({error})"))?;
        let set = |file: &str, value: String| {
            std::fs::write(cgroup.join(file), value)
                .map_err(|error| format!("cannot set the cgroup's {file} ({error})"))
        };
        let controller = cgroup.parent().and_then(Path::file_name);
        if v2 || controller.is_some_and(|name| name == "pids") {
            set("pids.max", processes.to_string())?;
        }
        if v2 {
            set("memory.max", memory.to_string())?;
            // No swap to move past the bound into, where this machine has any.
            let _ = set("memory.swap.max", "0".to_owned());
        } else if controller.is_some_and(|name| name == "memory") {
            set("memory.limit_in_bytes", memory.to_string())?;
            let _ = set("memory.memsw.limit_in_bytes", memory.to_string());
        }
    }
    Ok(())
}

/// What the run `token`'s cgroups counted of a bound passed: the kernel's refusals of a new
/// process, and the processes it ended for memory.
pub(super) fn cgroup_breaches(token: &str, limits: &Limits) -> Vec<String> {
    let mut found = Vec::new();
    let count = |file: PathBuf, key: &str| -> u64 {
        std::fs::read_to_string(file)
            .unwrap_or_default()
            .lines()
            .find_map(|line| line.strip_prefix(key)?.trim().parse().ok())
            .unwrap_or(0)
    };
    for cgroup in cgroups_of(token) {
        let refused = count(cgroup.join("pids.events"), "max ");
        if refused > 0 {
            found.push(format!(
                "exceeded its process bound ({} processes and threads): the kernel refused a \
                 new one {refused} times",
                limits.processes
            ));
        }
        let ended = count(cgroup.join("memory.events"), "oom_kill ")
            + count(cgroup.join("memory.oom_control"), "oom_kill ");
        if ended > 0 {
            found.push(format!(
                "exceeded its memory bound ({}): the kernel ended {ended} of its processes \
                 for memory",
                size(limits.memory)
            ));
        }
    }
    found
}
