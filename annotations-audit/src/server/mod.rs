//! The audit's side of a conversation with a server over stdio: requests written to its
//! stdin, one JSON-RPC message a line read from its stdout on a thread of its own, every answer
//! awaited for at most the timeout, every line bounded.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cli::args::{Connection, Remote};

pub mod bounds;
pub mod http;
mod listing;
pub mod pinned;
mod processes;
pub mod secrets;
mod served;
pub mod streams;

use nix::sys::signal::Signal;
use processes::{IDLE, QUIET, descendants, signal, stopped};
pub use processes::{RUN_VARIABLE, adopt_orphans, end_all, lifetime, new_run, resume};

pub use served::free_port;

/// Starts keeping the server's stderr in `--server-log`'s file.
pub fn keep_log(connection: &Connection) -> Result<(), String> {
    match &connection.server_log {
        Some(path) => streams::log_to(path),
        None => Ok(()),
    }
}

/// The server the command line names: the command, or `--http`'s endpoint.
pub fn named(command: &[String], connection: &Connection, remote: &Remote) -> Result<Peer, String> {
    match &remote.http {
        Some(url) => Peer::connect(
            url,
            connection.timeout,
            &http::Remote {
                headers: remote.headers.clone(),
                ca_cert: remote.ca_cert.clone(),
                direct: false,
            },
        ),
        None => Peer::start(command, None, &[], connection.timeout, None),
    }
}

/// How many pages of `tools/list` the audit reads before it stops.
const MAX_PAGES: usize = 1000;

/// A server the audit talks to: one it started (killed when dropped), or one over HTTP.
pub struct Peer {
    link: Link,
    next_id: u64,
    timeout: Duration,
    /// A deadline over every answer, beside the timeout of each (`--probe-timeout`).
    deadline: Option<Instant>,
    /// The processes the server had when it last settled: long-lived ones (the server
    /// itself, a helper it keeps), whose quiet is judged over [`QUIET`], not [`IDLE`].
    known: std::collections::HashSet<u32>,
    /// What the last settle saw of each process (CPU time, when last seen at work), kept
    /// until a message is sent: a process whose CPU time has not moved since was quiet since,
    /// so a settle with nothing sent in between does not wait again for a quiet seen already.
    seen: Option<std::collections::HashMap<u32, (u64, Instant)>>,
    /// What the server last wrote on its stderr (one the audit started).
    stderr: Option<streams::Tail>,
    /// The capabilities the server answered `initialize` with.
    capabilities: Value,
    /// The token every process of the server's run carries (one the audit started).
    run: Option<String>,
    /// What watches the run's bounds, where the caller set them: stopped as the run ends.
    watch: Option<bounds::Watch>,
}

enum Link {
    Stdio {
        child: Child,
        /// `None` once closed.
        stdin: Option<ChildStdin>,
        /// Each line with the moment it was read.
        lines: Receiver<Result<(Instant, String), String>>,
    },
    Http {
        http: Box<http::Http>,
        /// The messages the last answer held, not read yet, with the moment it came.
        pending: std::collections::VecDeque<(Instant, String)>,
        /// The server's process, where the audit started it (`probe --http`): the leader of a
        /// process group of its own, ended with it.
        server: Option<Child>,
    },
}

/// What a request came back with.
#[derive(Clone)]
pub enum Answer {
    /// The result.
    Result(Value),
    /// A JSON-RPC error.
    Error(Value),
}

impl Peer {
    /// Starts `command` (its first word the program) in `dir` with `env`, and initializes it.
    pub fn start(
        command: &[String],
        dir: Option<&std::path::Path>,
        env: &[(String, String)],
        timeout: Duration,
        deadline: Option<Instant>,
    ) -> Result<Peer, String> {
        let (program, args) = command.split_first().ok_or("no server command")?;
        let mut process = Command::new(program);
        process
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = dir {
            process.current_dir(dir);
        }
        for (key, value) in env {
            process.env(key, value);
        }
        let run = processes::run_in(env);
        process.env(processes::RUN_VARIABLE, &run);
        let starting = processes::starting();
        let mut child = process
            .spawn()
            .map_err(|error| format!("cannot start `{program}`: {error}"))?;
        processes::started(child.id());
        drop(starting);
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("cannot talk to the server".into());
        };
        let started = command.join(" ");
        let stderr = child
            .stderr
            .take()
            .map(|pipe| streams::Tail::read(pipe, &started));
        let lines = streams::lines(stdout);
        let peer = Peer {
            link: Link::Stdio {
                child,
                stdin: Some(stdin),
                lines,
            },
            next_id: 1,
            timeout,
            deadline,
            known: std::collections::HashSet::new(),
            seen: None,
            capabilities: Value::Null,
            stderr: stderr.clone(),
            run: Some(run),
            watch: None,
        };
        // A server that fails to start says why on its stderr, more often than not.
        peer.initialize().map_err(|error| match &stderr {
            Some(tail) => tail.explain(error),
            None => error,
        })
    }

    /// `error`, with what the server last wrote on its stderr, where it wrote anything: for a
    /// server that died.
    pub fn explain(&self, error: String) -> String {
        match &self.stderr {
            Some(tail) => tail.explain(error),
            None => error,
        }
    }

    /// The server at the Streamable HTTP endpoint `url` (reached as `remote` says), initialized.
    pub fn connect(url: &str, timeout: Duration, remote: &http::Remote) -> Result<Peer, String> {
        let peer = Peer {
            link: Link::Http {
                http: Box::new(http::Http::new(url, timeout, remote)?),
                pending: std::collections::VecDeque::new(),
                server: None,
            },
            next_id: 1,
            timeout,
            deadline: None,
            known: std::collections::HashSet::new(),
            seen: None,
            capabilities: Value::Null,
            stderr: None,
            run: None,
            watch: None,
        };
        peer.initialize()
    }

    /// Whether the server has exited, waiting up to a second for it (a server that closed
    /// its output is usually exiting).
    pub fn exited(&mut self) -> bool {
        let waited = Instant::now() + Duration::from_secs(1);
        loop {
            if !self.alive() {
                return true;
            }
            if Instant::now() >= waited {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn initialize(mut self) -> Result<Peer, String> {
        let peer = &mut self;
        let initialized = peer.result(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                // The tool-resolution extension declared, so that a server marks its
                // resolvable tools and answers `tools/resolve` (the probe judges its answers).
                "capabilities": {"extensions": {
                    mcp_annotations::resolution::EXTENSION: mcp_annotations::resolution::settings(),
                }},
                "clientInfo": {"name": "annotations-audit", "version": env!("CARGO_PKG_VERSION")},
            }),
        )?;
        peer.capabilities = initialized
            .get("capabilities")
            .cloned()
            .unwrap_or(Value::Null);
        // Over HTTP, every request after `initialize` names the version the server chose.
        if let Link::Http { http, .. } = &mut peer.link {
            let chosen = initialized
                .get("protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or("2025-06-18");
            http.set_version(chosen);
        }
        peer.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(self)
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        self.send_until(message, None)
    }

    /// [`send`](Self::send), its answer (over HTTP) awaited until `deadline` at most.
    fn send_until(&mut self, message: &Value, deadline: Option<Instant>) -> Result<(), String> {
        // What the server does from here on is new: the next settle sees it afresh.
        self.seen = None;
        match &mut self.link {
            Link::Stdio { stdin, .. } => {
                let mut line = message.to_string();
                line.push('\n');
                let stdin = stdin.as_mut().ok_or("the server's input is closed")?;
                stdin
                    .write_all(line.as_bytes())
                    .and_then(|()| stdin.flush())
                    .map_err(|error| format!("cannot write to the server: {error}"))
            }
            Link::Http { http, pending, .. } => {
                let messages = http.post(message, deadline)?;
                let now = Instant::now();
                pending.extend(messages.into_iter().map(|message| (now, message)));
                Ok(())
            }
        }
    }

    /// The next message from the server and when it was read, waited for until `deadline`.
    fn next(&mut self, method: &str, deadline: Instant) -> Result<(Instant, String), String> {
        let overall = self.deadline.is_some_and(|overall| overall <= deadline);
        let timeout = self.timeout;
        let late = || {
            if overall {
                format!("the time given (--probe-timeout) ran out waiting for `{method}`")
            } else {
                format!(
                    "the server did not answer `{method}` within {} s",
                    timeout.as_secs_f64()
                )
            }
        };
        match &mut self.link {
            Link::Stdio { lines, .. } => {
                // The deadline holds however many other messages the server sends meanwhile.
                if Instant::now() >= deadline {
                    return Err(late());
                }
                let left = deadline.saturating_duration_since(Instant::now());
                match lines.recv_timeout(left) {
                    Ok(line) => line,
                    Err(RecvTimeoutError::Timeout) => Err(late()),
                    Err(RecvTimeoutError::Disconnected) => Err(format!(
                        "the server closed its output before answering `{method}`"
                    )),
                }
            }
            Link::Http { pending, .. } => {
                // However many requests of its own the server sends in its answers (each of
                // which is answered by a new POST), the deadline holds.
                if Instant::now() >= deadline {
                    return Err(late());
                }
                pending
                    .pop_front()
                    .ok_or_else(|| format!("the server's answer to `{method}` held no answer"))
            }
        }
    }

    /// The answer to `method`, skipping what the server sends meanwhile (notifications; its
    /// own requests answered: `ping` as the protocol asks, any other as not supported).
    pub fn request(&mut self, method: &str, params: Value) -> Result<Answer, String> {
        let id = self.send_request(method, params)?;
        self.answers(method, &[id])
            .pop()
            .map(|(answer, _)| answer)
            .ok_or_else(|| format!("no answer to `{method}`"))?
    }

    /// Sends a request without waiting for its answer: its id, for [`Peer::answers`].
    pub fn send_request(&mut self, method: &str, params: Value) -> Result<u64, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        Ok(id)
    }

    /// The answers to the requests `ids` (sent with [`Peer::send_request`]), in their order,
    /// each with the moment it was read; every answer awaited for at most the timeout from
    /// now (and the probe's deadline). Once one cannot be read, neither can the ones after it.
    pub fn answers(&mut self, method: &str, ids: &[u64]) -> Vec<(Result<Answer, String>, Instant)> {
        let mut deadline = Instant::now() + self.timeout;
        if let Some(overall) = self.deadline {
            deadline = deadline.min(overall);
        }
        let mut found: Vec<Option<(Result<Answer, String>, Instant)>> =
            ids.iter().map(|_| None).collect();
        while found.iter().any(Option::is_none) {
            let (at, line) = match self.next(method, deadline) {
                Ok(read) => read,
                Err(error) => {
                    fail_rest(&mut found, &error, Instant::now());
                    break;
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                let shown: String = line.chars().take(80).collect();
                let error = format!("the server wrote something that is not JSON-RPC: {shown:?}");
                fail_rest(&mut found, &error, at);
                break;
            };
            if let (Some(theirs), Some(asked)) = (message.get("id"), message.get("method")) {
                let reply = if asked == "ping" {
                    json!({"jsonrpc": "2.0", "id": theirs, "result": {}})
                } else {
                    json!({"jsonrpc": "2.0", "id": theirs,
                        "error": {"code": -32601, "message": "the audit answers no requests"}})
                };
                if let Err(error) = self.send_until(&reply, Some(deadline)) {
                    fail_rest(&mut found, &error, at);
                    break;
                }
                continue;
            }
            let Some(slot) = ids
                .iter()
                .position(|id| message.get("id") == Some(&json!(id)))
                .and_then(|at| found.get_mut(at))
            else {
                continue;
            };
            let answer = if let Some(error) = message.get("error") {
                Ok(Answer::Error(error.clone()))
            } else {
                message
                    .get("result")
                    .cloned()
                    .map(Answer::Result)
                    .ok_or_else(|| format!("the server's answer to `{method}` has no result"))
            };
            *slot = Some((answer, at));
        }
        found.into_iter().flatten().collect()
    }

    /// The result of `method`; an error answer is an error here.
    pub fn result(&mut self, method: &str, params: Value) -> Result<Value, String> {
        match self.request(method, params)? {
            Answer::Result(result) => Ok(result),
            Answer::Error(error) => Err(format!(
                "the server answered `{method}` with an error: {error}"
            )),
        }
    }

    /// Waits, up to `max`, until no process the server started is still at work: a child
    /// (`git status`, a shell) may still be writing after the server answered, and what it
    /// writes is the call's doing. A process is at work while it runs or waits on a disk, or
    /// while its CPU time grows; one started since the last settle must then sit [`IDLE`]
    /// with no CPU spent (CPU time is counted in ticks of 10 ms), one the server had then (the
    /// server itself, a helper it keeps waiting for its next request, like
    /// `git cat-file --batch`) [`QUIET`].
    pub fn settle(&mut self, max: Duration) {
        let Some(pid) = self.child().map(|child| child.id()) else {
            return;
        };
        let until = Instant::now() + max;
        // Each process's CPU time, and since when it was seen at work last: as the last
        // settle left it where nothing was sent since.
        let mut seen = self.seen.take().unwrap_or_default();
        loop {
            let now = Instant::now();
            let mut busy = false;
            let processes = descendants(pid);
            for process in &processes {
                let last = seen.get(&process.id).copied();
                let at_work = process.running || last.is_none_or(|(cpu, _)| cpu != process.cpu);
                let since = match last {
                    Some((_, since)) if !at_work => since,
                    _ => now,
                };
                seen.insert(process.id, (process.cpu, since));
                let quiet = if self.known.contains(&process.id) {
                    QUIET
                } else {
                    IDLE
                };
                busy |= now.duration_since(since) < quiet;
            }
            if !busy || now >= until {
                self.known = processes.iter().map(|process| process.id).collect();
                seen.retain(|id, _| self.known.contains(id));
                self.seen = Some(seen);
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Stops every process of the server (by `kill -STOP`, the recorder that traces them
    /// aside), each seen stopped before this returns: requests written now are all waiting
    /// when it goes on, so that two of them are in flight at once whatever the machine's load.
    /// The processes stopped, for [`resume`]; `None` where they cannot be (not Linux, no
    /// `kill`, one not stopped within a second: the ones stopped are resumed).
    /// Over HTTP, where each request is answered before the next is sent, `None` too.
    pub fn pause(&mut self) -> Option<Vec<u32>> {
        let Link::Stdio { child, .. } = &self.link else {
            return None;
        };
        let root = child.id();
        let mut ids: Vec<u32> = std::iter::once(root)
            .chain(descendants(root).iter().map(|process| process.id))
            .filter(|id| {
                std::fs::read_to_string(format!("/proc/{id}/comm"))
                    .is_ok_and(|name| name.trim() != "strace")
            })
            .collect();
        ids.sort_unstable();
        if ids.is_empty() || !signal(Signal::SIGSTOP, &ids) {
            return None;
        }
        let until = Instant::now() + Duration::from_secs(1);
        loop {
            if ids.iter().all(|id| stopped(*id)) {
                return Some(ids);
            }
            if Instant::now() >= until {
                resume(&ids);
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Ends the server as a client would: its input closed (one over HTTP the audit started:
    /// asked to end, by `SIGTERM` to its process group), then its exit awaited (up to `max`,
    /// then it is killed), then its children settled.
    pub fn finish(mut self, max: Duration) {
        let until = Instant::now() + max;
        let pid = match &mut self.link {
            Link::Stdio { child, stdin, .. } => {
                drop(stdin.take());
                child.id()
            }
            Link::Http {
                server: Some(child),
                ..
            } => {
                signal(Signal::SIGTERM, &[served::group(child.id())]);
                child.id()
            }
            Link::Http { server: None, .. } => return,
        };
        if let Some(child) = self.child() {
            while matches!(child.try_wait(), Ok(None)) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        self.end();
        let until = Instant::now() + max;
        while descendants(pid).iter().any(|d| d.running) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The capabilities the server answered `initialize` with.
    pub fn capabilities(&self) -> &Value {
        &self.capabilities
    }

    /// Whether the server is still running (one the audit did not start: as far as it knows).
    pub fn alive(&mut self) -> bool {
        self.child()
            .is_none_or(|child| matches!(child.try_wait(), Ok(None)))
    }

    /// The server's process, where the audit started it.
    fn child(&mut self) -> Option<&mut Child> {
        match &mut self.link {
            Link::Stdio { child, .. } => Some(child),
            Link::Http { server, .. } => server.as_mut(),
        }
    }

    /// Kills the server the audit started and every process of its run (see
    /// [`processes::end_run`]: its tree, what left it, what it stopped), and reaps it; over
    /// HTTP, its whole process group too (a server there holds no pipe whose end would end
    /// it). A second call does nothing.
    pub fn end(&mut self) {
        // Ended already (or never the audit's to end): a run with no token would take every
        // other live run's orphans for its own.
        let Some(run) = self.run.take() else {
            return;
        };
        if let Some(watch) = &self.watch {
            watch.halt();
        }
        let served = matches!(self.link, Link::Http { .. });
        if let Some(child) = self.child() {
            // Once waited on, the server's id may be another process's: only its run's token
            // finds what is left.
            let root = matches!(child.try_wait(), Ok(None)).then(|| child.id());
            if served && let Some(root) = root {
                signal(Signal::SIGKILL, &[served::group(root)]);
            }
            processes::end_run(root, Some(&run));
            processes::forget(child.id());
            let _ = child.kill();
            let _ = child.wait();
        }
        // Its bounds' last word, once nothing of the run is left.
        drop(self.watch.take());
    }

    /// The token of the server's run (one the audit started, until it is ended): another
    /// after the server was started again.
    #[must_use]
    pub fn run(&self) -> Option<&str> {
        self.run.as_deref()
    }

    /// What the server's run did past its bounds, not yet said (none where it is not
    /// watched).
    pub fn exceeded(&self) -> Vec<String> {
        self.watch
            .as_ref()
            .map_or_else(Vec::new, bounds::Watch::exceeded)
    }

    /// The server, its run watched by `watch` (made before the server started, so that it
    /// saw the server start): stopped when the run ends.
    #[must_use]
    pub fn watched(mut self, watch: bounds::Watch) -> Peer {
        if let Some(child) = self.child() {
            watch.started(child.id());
        }
        self.watch = Some(watch);
        self
    }
}

/// Each answer not read yet failed with `error`: once a message cannot be read, no answer
/// after it can.
fn fail_rest(found: &mut [Option<(Result<Answer, String>, Instant)>], error: &str, at: Instant) {
    for slot in found.iter_mut().filter(|slot| slot.is_none()) {
        *slot = Some((Err(error.to_owned()), at));
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.end();
    }
}
