//! The wrapper the audit runs a server's command in (`annotations-audit __bound ...`): it makes
//! and joins the run's cgroup, sets the rlimits and becomes the command (`exec`), which every
//! process it starts inherits.

use super::cgroup::{cgroups, cgroups_of, make_cgroups};
use super::{Limits, above};

/// The wrapper's name on the audit's command line: not a subcommand a user types.
pub(crate) const SUBCOMMAND: &str = "__bound";

/// The exit status of a wrapper that could not bound the run (as a confinement's).
const NOT_BOUNDED: i32 = 97;

/// The wrapper's command line for `command`: the audit's own program, then `limits` (a file
/// may grow to the `seed`'s bytes and a quarter above the disk bound), and, where [`cgroups`]
/// said yes, a cgroup for the run.
///
/// # Errors
///
/// The audit cannot find its own program.
pub fn wrapped(limits: &Limits, seed: u64, command: Vec<String>) -> Result<Vec<String>, String> {
    let files = seed.saturating_add(above(limits.disk));
    let program = std::env::current_exe()
        .map_err(|error| format!("cannot find the audit's own program to bound with: {error}"))?;
    let mut words = vec![
        program.to_string_lossy().into_owned(),
        SUBCOMMAND.to_owned(),
        "--processes".to_owned(),
        limits.processes.to_string(),
        "--memory".to_owned(),
        limits.memory.to_string(),
        "--file-size".to_owned(),
        files.to_string(),
    ];
    if cgroups().is_ok() {
        words.push("--cgroup".to_owned());
    }
    words.push("--".to_owned());
    words.extend(command);
    Ok(words)
}

/// What the wrapper is asked.
#[derive(Debug, Default, PartialEq)]
struct Asked {
    processes: u64,
    memory: u64,
    file_size: u64,
    cgroup: bool,
    command: Vec<String>,
}

fn parse(args: &[String]) -> Result<Asked, String> {
    let mut asked = Asked::default();
    let mut words = args.iter();
    let number = |word: Option<&String>, flag: &str| -> Result<u64, String> {
        word.and_then(|word| word.parse().ok())
            .ok_or_else(|| format!("{flag} N"))
    };
    while let Some(word) = words.next() {
        match word.as_str() {
            "--processes" => asked.processes = number(words.next(), word)?,
            "--memory" => asked.memory = number(words.next(), word)?,
            "--file-size" => asked.file_size = number(words.next(), word)?,
            "--cgroup" => asked.cgroup = true,
            "--" => {
                asked.command = words.cloned().collect();
                break;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if asked.processes == 0 || asked.memory == 0 || asked.file_size == 0 {
        return Err("--processes, --memory and --file-size, each above 0".to_owned());
    }
    if asked.command.is_empty() {
        return Err("no command after --".to_owned());
    }
    Ok(asked)
}

/// The wrapper: bounds itself as `args` say and becomes the command. Its exit status where it
/// cannot: 97 not bounded, 127 the command not run, 2 a bad command line.
pub(crate) fn main(args: &[String]) -> i32 {
    let asked = match parse(args) {
        Ok(asked) => asked,
        Err(why) => {
            eprintln!("annotations-audit {SUBCOMMAND}: {why}");
            return 2;
        }
    };
    if let Err(why) = bound(&asked) {
        eprintln!("not bounded: {why}");
        return NOT_BOUNDED;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let error = std::process::Command::new(&asked.command[0])
            .args(&asked.command[1..])
            .exec();
        eprintln!("cannot run {}: {error}", asked.command[0]);
    }
    127
}

/// Puts this process in the run's cgroups (where asked) and under its rlimits.
fn bound(asked: &Asked) -> Result<(), String> {
    if asked.cgroup {
        let token = std::env::var(crate::server::RUN_VARIABLE)
            .map_err(|_| "no run to name the cgroup for".to_owned())?;
        make_cgroups(&token, asked.processes, asked.memory)?;
        for cgroup in cgroups_of(&token) {
            std::fs::write(cgroup.join("cgroup.procs"), std::process::id().to_string())
                .map_err(|error| format!("cannot join the run's cgroup ({error})"))?;
        }
    }
    use nix::sys::resource::{Resource, setrlimit};
    let limit = |resource: Resource, value: u64| {
        setrlimit(resource, value, value)
            .map_err(|error| format!("cannot set {resource:?} ({error})"))
    };
    limit(Resource::RLIMIT_DATA, above(asked.memory))?;
    limit(Resource::RLIMIT_FSIZE, asked.file_size)?;
    // Counted per user: what this user runs already, and the run's own. Root is not held by
    // it (the kernel exempts it), which is what the cgroup is for.
    // A few more for the threads the audit starts beside the run as it begins.
    limit(
        Resource::RLIMIT_NPROC,
        user_tasks().saturating_add(above(asked.processes) + 16),
    )?;
    Ok(())
}

/// How many processes and threads this user runs now.
fn user_tasks() -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mine = std::fs::metadata("/proc/self").map(|meta| meta.uid()).ok();
    let Ok(listed) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut tasks = 0;
    for entry in listed.flatten() {
        let is_process = entry
            .file_name()
            .to_str()
            .is_some_and(|name| name.parse::<u32>().is_ok());
        if !is_process || entry.metadata().map(|meta| meta.uid()).ok() != mine {
            continue;
        }
        tasks += std::fs::read_dir(entry.path().join("task")).map_or(1, Iterator::count) as u64;
    }
    tasks
}

#[cfg(test)]
mod tests {
    use super::{Asked, Limits, parse, wrapped};
    use crate::server::bounds::size;

    #[test]
    fn sizes_are_said_as_people_write_them() {
        assert_eq!(size(2 << 30), "2 GiB");
        assert_eq!(size(1536 << 20), "1.5 GiB");
        assert_eq!(size(1500), "1.4 KiB");
        assert_eq!(size(12), "12 bytes");
    }

    #[test]
    fn the_wrapper_reads_back_what_the_audit_writes() {
        let limits = Limits {
            processes: 16,
            memory: 1 << 26,
            disk: 1 << 24,
        };
        let words = wrapped(&limits, 1 << 20, vec!["node".to_owned(), "--".to_owned()]).unwrap();
        assert_eq!(words[1], super::SUBCOMMAND);
        let asked = parse(&words[2..]).unwrap();
        assert_eq!(
            Asked {
                cgroup: false,
                ..asked
            },
            Asked {
                processes: 16,
                memory: 1 << 26,
                file_size: (1 << 20) + (1 << 24) + (1 << 22),
                cgroup: false,
                command: vec!["node".to_owned(), "--".to_owned()],
            }
        );
        assert!(parse(&["--processes".to_owned(), "1".to_owned()]).is_err());
        assert!(parse(&["--bogus".to_owned()]).is_err());
    }
}
