//! What a server tries on the network: every attempt of its whole process tree (children and
//! statically linked programs too, since it is read from the system calls, not from a
//! library) to open a connection or send a datagram to an IPv4 or IPv6 address, TCP or UDP,
//! DNS and loopback included, recorded by `strace` into a file beside the sandbox with the
//! moment of each. Where the probe does not allow the open world, the server also runs in a
//! network namespace of its own with no route out (see [`super::sandbox::confinement`]), so an
//! attempt reaches nothing.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The system calls that reach an address: `connect` (TCP, and UDP before a `send`), and the
/// sends that name their address themselves.
const CALLS: &str = "trace=connect,sendto,sendmsg,sendmmsg";

/// The most attempts kept for one call.
const MOST: usize = 8;

/// Whether `strace` can record a process tree here, checked once: why not where it cannot
/// (not installed, or tracing refused, as in a container without `ptrace`).
pub(super) fn recorder() -> Result<(), String> {
    use std::sync::OnceLock;
    static FOUND: OnceLock<Result<(), String>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let ran = std::process::Command::new("strace")
                .args(["-f", "-qq", "--seccomp-bpf", "-e", CALLS, "-o", "/dev/null"])
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

/// The file the attempts of the servers started on `sandbox` are recorded in.
pub(super) fn record_of(sandbox: &Path) -> PathBuf {
    let mut name = sandbox.as_os_str().to_owned();
    name.push(".net");
    PathBuf::from(name)
}

/// `command` run under the recorder, appending to the sandbox's record (each server started
/// on it adds its own).
pub(super) fn recorded(sandbox: &Path, command: Vec<String>) -> Vec<String> {
    let record = record_of(sandbox).to_string_lossy().into_owned();
    let mut wrapped: Vec<String> = [
        "strace",
        "-f",
        "-qq",
        "--seccomp-bpf",
        "-e",
        CALLS,
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

/// The attempts recorded for `sandbox` from `from` to `to`, one line each (the call, the
/// address and port, what it came to), at most [`MOST`]; `None` where nothing records them.
pub(super) fn attempts(sandbox: &Path, from: SystemTime, to: SystemTime) -> Option<Vec<String>> {
    recorder().ok()?;
    let since = |at: SystemTime| at.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    let (from, to) = (since(from), since(to));
    let mut found = Vec::new();
    let Ok(file) = std::fs::File::open(record_of(sandbox)) else {
        return Some(found);
    };
    for line in BufReader::new(file).lines().map_while(Result::ok) {
        // `PID SECONDS.MICROS call(...) = result`, the pid padded with spaces.
        let rest = line.trim_start();
        let Some((_pid, rest)) = rest.split_once(' ') else {
            continue;
        };
        let rest = rest.trim_start();
        let Some((moment, call)) = rest.split_once(' ') else {
            continue;
        };
        let Ok(moment) = moment.parse::<f64>() else {
            continue;
        };
        let moment = Duration::from_secs_f64(moment);
        if moment < from || moment > to {
            continue;
        }
        if let Some(attempt) = attempt(call)
            && !found.contains(&attempt)
            && found.len() < MOST
        {
            found.push(attempt);
        }
    }
    Some(found)
}

/// One recorded system call as an attempt in words, when it names an IPv4 or IPv6 address.
fn attempt(call: &str) -> Option<String> {
    let name = call.split('(').next()?;
    let family = if call.contains("sa_family=AF_INET6") {
        6
    } else if call.contains("sa_family=AF_INET") {
        4
    } else {
        return None;
    };
    let between = |start: &str, end: char| {
        let at = call.find(start)? + start.len();
        call[at..].split(end).next()
    };
    let (address, port) = if family == 4 {
        (
            between("inet_addr(\"", '"'),
            between("sin_port=htons(", ')'),
        )
    } else {
        (
            between("inet_pton(AF_INET6, \"", '"'),
            between("sin6_port=htons(", ')'),
        )
    };
    let address = address.unwrap_or("?");
    let shown = if family == 6 {
        format!("[{address}]")
    } else {
        address.to_owned()
    };
    let outcome = call
        .rsplit_once(" = ")
        .map_or("", |(_, result)| result)
        .trim();
    let outcome = match outcome {
        "" | "?" => String::new(),
        outcome => format!(" ({outcome})"),
    };
    Some(format!(
        "{name} to {shown}:{}{outcome}",
        port.unwrap_or("?")
    ))
}

#[cfg(test)]
mod tests {
    use super::attempt;

    #[test]
    fn an_attempt_is_read_from_a_recorded_call() {
        let dns = r#"connect(3, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16) = -1 ENETUNREACH (Network is unreachable)"#;
        assert_eq!(
            attempt(dns).as_deref(),
            Some("connect to 10.255.255.53:53 (-1 ENETUNREACH (Network is unreachable))")
        );
        let six = r#"sendto(4, ""..., 1, 0, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28 <unfinished ...>"#;
        assert_eq!(attempt(six).as_deref(), Some("sendto to [::1]:443"));
        let local =
            r#"connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT"#;
        assert_eq!(attempt(local), None);
    }
}
