//! What a server tries on the network: every attempt of its whole process tree (children and
//! statically linked programs too, since it is read from the system calls, not from a
//! library) to open a connection or send a datagram to an IPv4 or IPv6 address, TCP or UDP,
//! DNS and loopback included, recorded by `strace` (see [`super::record`]) with the moment of
//! each. Where the probe does not allow the open world, the server also runs in a
//! network namespace of its own with no route out (see [`super::sandbox::confinement`]), so an
//! attempt reaches nothing.

/// The system calls that reach an address: `connect` (TCP, and UDP before a `send`), and the
/// sends that name their address themselves.
pub(super) const CALLS: &[&str] = &["connect", "sendto", "sendmsg", "sendmmsg"];

/// The most attempts kept for one call.
const MOST: usize = 8;

/// The attempts among `calls` (the record of a call's moment, see [`super::record::calls`]),
/// one line each (the call, the address and port, what it came to), at most [`MOST`].
pub(super) fn attempts(calls: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for attempt in calls.iter().filter_map(|call| attempt(call)) {
        if !found.contains(&attempt) && found.len() < MOST {
            found.push(attempt);
        }
    }
    found
}

/// One recorded system call as an attempt in words, when it names an IPv4 or IPv6 address.
pub(super) fn attempt(call: &str) -> Option<String> {
    let name = call.split('(').next()?;
    if !CALLS.contains(&name) {
        return None;
    }
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
