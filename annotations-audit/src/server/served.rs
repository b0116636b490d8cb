//! A server the audit starts itself and reaches over Streamable HTTP (`probe --http`): started
//! as a process group of its own (no pipe ends it, so its group is signalled), its port awaited,
//! then spoken to at the URL as any HTTP server is.

use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Link, Peer};

/// How long a port something else still listens on (the server of the run before, ending) is
/// waited for before the start is refused.
const FREED: Duration = Duration::from_secs(5);

/// A port of this machine's loopback nothing listens on now, for a server to serve.
pub fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|error| format!("cannot find a free port for the server: {error}"))
}

/// The id a signal is sent to for the process group `leader` leads.
pub(super) fn group(leader: u32) -> i64 {
    -i64::from(leader)
}

/// The addresses `url` names, with its port.
fn addresses(url: &str) -> Result<Vec<SocketAddr>, String> {
    let parsed =
        reqwest::Url::parse(url).map_err(|error| format!("--http: not a URL ({error})"))?;
    let host = parsed.host_str().ok_or("--http: the URL names no host")?;
    let port = parsed
        .port_or_known_default()
        .ok_or("--http: the URL names no port")?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let found: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|error| format!("--http: cannot resolve {host}: {error}"))?
        .collect();
    if found.is_empty() {
        return Err(format!("--http: {host} resolves to no address"));
    }
    Ok(found)
}

/// Whether something listens at one of `addresses`: it accepts a connection, or holds it
/// waiting (a listener whose queue is full; a port nothing listens on refuses at once).
fn listening(addresses: &[SocketAddr]) -> bool {
    addresses.iter().any(|address| {
        match TcpStream::connect_timeout(address, Duration::from_millis(200)) {
            Ok(_) => true,
            Err(error) => error.kind() == std::io::ErrorKind::TimedOut,
        }
    })
}

impl Peer {
    /// Starts `command` (its first word the program) in `dir` with `env`, waits until it
    /// listens at `url`'s port (at most `timeout`), and initializes it there.
    ///
    /// Refused when something listens there already: the audit would speak to a server it
    /// did not start and judge it by a sandbox it never touched.
    pub fn serve(
        command: &[String],
        (dir, env): (&std::path::Path, &[(String, String)]),
        (url, remote): (&str, &super::http::Remote),
        timeout: Duration,
        deadline: Instant,
    ) -> Result<Peer, String> {
        let (program, args) = command.split_first().ok_or("no server command")?;
        let addresses = addresses(url)?;
        let freed = Instant::now() + FREED;
        while listening(&addresses) {
            if Instant::now() >= freed {
                return Err(format!(
                    "something already listens at {} before the server is started: the probe \
                     must reach the server it starts, in its sandbox (stop the other, or give \
                     the server and --http another port)",
                    addresses[0]
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut process = Command::new(program);
        process
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut process, 0);
        for (key, value) in env {
            process.env(key, value);
        }
        let run = super::processes::run_in(env);
        process.env(super::processes::RUN_VARIABLE, &run);
        let starting = super::processes::starting();
        let mut child = process
            .spawn()
            .map_err(|error| format!("cannot start `{program}`: {error}"))?;
        super::processes::started(child.id());
        drop(starting);
        let stderr = child
            .stderr
            .take()
            .map(|pipe| super::streams::Tail::read(pipe, &command.join(" ")));
        let mut peer = Peer {
            link: Link::Http {
                http: Box::new(super::http::Http::new(url, timeout, remote)?),
                pending: std::collections::VecDeque::new(),
                server: Some(child),
            },
            next_id: 1,
            timeout,
            deadline: Some(deadline),
            known: std::collections::HashSet::new(),
            seen: None,
            capabilities: Value::Null,
            stderr,
            run: Some(run),
            watch: None,
        };
        let until = (Instant::now() + timeout).min(deadline);
        loop {
            if !peer.alive() {
                return Err(peer.explain(format!(
                    "the server exited before it listened at {}",
                    addresses[0]
                )));
            }
            if listening(&addresses) {
                break;
            }
            if Instant::now() >= until {
                return Err(peer.explain(format!(
                    "the server did not listen at {} within {} s of its start",
                    addresses[0],
                    timeout.as_secs_f64()
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let stderr = peer.stderr.clone();
        peer.initialize().map_err(|error| match &stderr {
            Some(tail) => tail.explain(error),
            None => error,
        })
    }
}
