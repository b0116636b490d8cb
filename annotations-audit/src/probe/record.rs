//! The record of what a server's processes asked of the kernel: every attempt to reach an
//! address (see [`super::network`]) and every attempt to write a file (see [`super::writes`]),
//! of its whole process tree, children and statically linked programs too, written by
//! `strace` into a file beside the sandbox with the moment of each. The tracer runs outside the
//! server's confinement (its namespaces and Landlock rules), so a confined server cannot reach
//! the record; an unconfined one could, and the report says it ran unconfined.
//!
//! A record is read as it grows, each line once: only the calls that say something (an
//! address, a write) are kept, with their moments, for the calls whose moments they fall in.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Whether `strace` can record a process tree here, checked once: why not where it cannot
/// (not installed, or tracing refused, as in a container without `ptrace`).
pub(super) fn recorder() -> Result<(), String> {
    use std::sync::OnceLock;
    static FOUND: OnceLock<Result<(), String>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let ran = std::process::Command::new("strace")
                .args([
                    "-f",
                    "-qq",
                    "--seccomp-bpf",
                    "-e",
                    &traced(),
                    "-o",
                    "/dev/null",
                ])
                .args(["--", "true"])
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status();
            match ran {
                Ok(status) if status.success() => Ok(()),
                Ok(_) => Err("`strace` cannot trace a process here".to_owned()),
                Err(_) => Err("no `strace` command to record them with".to_owned()),
            }
        })
        .clone()
}

/// strace's `trace=` list: the network's calls and the writes' (a `?` before each of the
/// latter, since some of them do not exist on every architecture).
fn traced() -> String {
    let mut list = format!("trace={}", super::network::CALLS.join(","));
    for call in super::writes::CALLS {
        list.push_str(",?");
        list.push_str(call);
    }
    list
}

/// The file the calls of the servers started on `sandbox` are recorded in.
pub(super) fn record_of(sandbox: &Path) -> PathBuf {
    let mut name = sandbox.as_os_str().to_owned();
    name.push(".net");
    PathBuf::from(name)
}

/// `command` run under the recorder, appending to the sandbox's record (each server started
/// on it adds its own).
pub(super) fn recorded(sandbox: &Path, command: Vec<String>) -> Vec<String> {
    let record = record_of(sandbox).to_string_lossy().into_owned();
    let traced = traced();
    let mut wrapped: Vec<String> = [
        "strace",
        "-f",
        "-qq",
        "--seccomp-bpf",
        "-e",
        &traced,
        "-e",
        "signal=none",
        "-ttt",
        "-s",
        "0",
        "-A",
        "-o",
        &record,
        "--",
    ]
    .map(str::to_owned)
    .to_vec();
    wrapped.extend(command);
    wrapped
}

/// What has been read of one record.
#[derive(Default)]
struct Read {
    /// The bytes read, up to the end of the last whole line.
    offset: u64,
    /// Calls begun and not yet finished, by process (`<unfinished ...>`).
    pending: HashMap<String, (Duration, String)>,
    /// The calls kept, with their moments.
    kept: Vec<(Duration, String)>,
    /// Whether more than [`MOST_KEPT`] calls were to be kept: the record then says nothing.
    overflowed: bool,
}

/// The most calls kept of one record: a server that floods it past this is not judged by it
/// (its attempts to reach the network are "not recorded"), and the audit's memory stays
/// bounded.
const MOST_KEPT: usize = 100_000;

/// Each record read so far, by its path.
static READ: Mutex<Option<HashMap<PathBuf, Read>>> = Mutex::new(None);

/// The calls recorded for `sandbox` from `from` to `to` that say something (an address, a
/// write), each as strace wrote it (`openat(AT_FDCWD, "/etc/x", O_WRONLY) = -1 EROFS (...)`);
/// `None` where nothing records them, or the server flooded the record past what is kept.
pub(super) fn calls(sandbox: &Path, from: SystemTime, to: SystemTime) -> Option<Vec<String>> {
    recorder().ok()?;
    let since = |at: SystemTime| at.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    let (from, to) = (since(from), since(to));
    let path = record_of(sandbox);
    let mut records = READ.lock().unwrap_or_else(PoisonError::into_inner);
    let read = records
        .get_or_insert_with(HashMap::new)
        .entry(path.clone())
        .or_default();
    read_on(&path, read);
    if read.overflowed {
        return None;
    }
    Some(
        read.kept
            .iter()
            .filter(|(moment, _)| (from..=to).contains(moment))
            .map(|(_, call)| call.clone())
            .collect(),
    )
}

/// Forgets what was read of `sandbox`'s record (removed with it).
pub(super) fn forget(sandbox: &Path) {
    let mut records = READ.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(records) = records.as_mut() {
        records.remove(&record_of(sandbox));
    }
}

/// Reads the whole lines `path` gained since `read` last looked.
fn read_on(path: &Path, read: &mut Read) {
    let Ok(mut file) = std::fs::File::open(path) else {
        return;
    };
    // A record that shrank was rewritten: read again from its start.
    if file.metadata().is_ok_and(|meta| meta.len() < read.offset) {
        *read = Read::default();
    }
    if file.seek(SeekFrom::Start(read.offset)).is_err() {
        return;
    }
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            // A line still being written is read whole the next time.
            Ok(_) if line.last() != Some(&b'\n') => break,
            Ok(bytes) => {
                read.offset += bytes as u64;
                let text = String::from_utf8_lossy(&line);
                if let Some((moment, call)) = whole(text.trim_end(), &mut read.pending)
                    && says_something(&call)
                {
                    if read.kept.len() >= MOST_KEPT {
                        read.overflowed = true;
                        read.kept = Vec::new();
                        read.pending = HashMap::new();
                    }
                    if !read.overflowed {
                        read.kept.push((moment, call));
                    }
                }
            }
        }
    }
}

/// The call a line finishes (`PID SECONDS.MICROS call(...) = result`, the pid padded), with
/// the moment it began: one begun on an earlier line (`<unfinished ...>`) is kept in `pending`
/// until its `<... call resumed>` line.
fn whole(
    line: &str,
    pending: &mut HashMap<String, (Duration, String)>,
) -> Option<(Duration, String)> {
    let (pid, rest) = line.trim_start().split_once(' ')?;
    let (moment, call) = rest.trim_start().split_once(' ')?;
    let moment = seconds(moment)?;
    if let Some(begun) = call.strip_suffix(" <unfinished ...>") {
        pending.insert(pid.to_owned(), (moment, begun.to_owned()));
        return None;
    }
    if let Some(rest) = call.strip_prefix("<... ") {
        let (_, rest) = rest.split_once(" resumed>")?;
        let (moment, begun) = pending.remove(pid)?;
        return Some((moment, format!("{begun}{rest}")));
    }
    Some((moment, call.to_owned()))
}

/// `SECONDS.MICROS` as strace writes a moment (`-ttt`), read exactly.
fn seconds(text: &str) -> Option<Duration> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, "0"));
    let micros: String = fraction
        .chars()
        .chain(std::iter::repeat('0'))
        .take(6)
        .collect();
    Some(Duration::from_secs(whole.parse().ok()?) + Duration::from_micros(micros.parse().ok()?))
}

/// Whether a recorded call is one a probe reads: an attempt to reach an address, or a write.
fn says_something(call: &str) -> bool {
    super::network::attempt(call).is_some() || super::writes::refused(call).is_some()
}

#[cfg(test)]
mod tests {
    use super::whole;
    use std::collections::HashMap;

    #[test]
    fn a_call_split_across_lines_is_read_whole() {
        let mut pending = HashMap::new();
        let begun = r#"  412 1733450000.250000 openat(AT_FDCWD, "/etc/x", O_WRONLY|O_CREAT <unfinished ...>"#;
        assert_eq!(whole(begun, &mut pending), None);
        let other = r#"413 1733450000.260000 mkdir("/y", 0777) = -1 EROFS (Read-only file system)"#;
        let (_, call) = whole(other, &mut pending).unwrap();
        assert_eq!(
            call,
            r#"mkdir("/y", 0777) = -1 EROFS (Read-only file system)"#
        );
        let resumed =
            "  412 1733450000.270000 <... openat resumed>, 0666) = -1 EACCES (Permission denied)";
        let (moment, call) = whole(resumed, &mut pending).unwrap();
        assert_eq!(
            call,
            r#"openat(AT_FDCWD, "/etc/x", O_WRONLY|O_CREAT, 0666) = -1 EACCES (Permission denied)"#
        );
        assert_eq!(moment.as_micros(), 1_733_450_000_250_000);
        assert_eq!(whole("+++ exited with 0 +++", &mut pending), None);
    }
}
