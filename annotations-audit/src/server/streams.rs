//! What a server the audit started writes, each stream read on a thread of its own: its stdout
//! as JSON-RPC messages, one a line, each bounded; its stderr's last lines, bounded, to show
//! when the server fails to start or dies ("missing API key" says more than "closed its
//! output"), so that a server that logs a lot never waits on the audit.

use std::collections::VecDeque;
use std::io::Write as _;
use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The longest message the audit reads from a server (one line of JSON-RPC).
const MAX_MESSAGE: u64 = 64 << 20;

/// A server's stdout, read a line at a time on a thread of its own: each line with the moment
/// it was read, or why it could not be (the last item then). Bounded: a server that writes
/// faster than the audit reads waits for it.
pub fn lines(stdout: impl Read + Send + 'static) -> Receiver<Result<(Instant, String), String>> {
    let (send, lines) = sync_channel(64);
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut line = Vec::new();
            let read = (&mut reader)
                .take(MAX_MESSAGE + 1)
                .read_until(b'\n', &mut line);
            let message = match read {
                Ok(0) => break,
                Ok(_) if line.len() as u64 > MAX_MESSAGE => Err(format!(
                    "the server wrote a message longer than {} MiB",
                    MAX_MESSAGE >> 20
                )),
                Ok(_) => Ok((
                    Instant::now(),
                    String::from_utf8_lossy(&line).trim_end().to_owned(),
                )),
                Err(error) => Err(format!("cannot read the server's output: {error}")),
            };
            let stop = message.is_err();
            if send.send(message).is_err() || stop {
                break;
            }
        }
    });
    lines
}

/// How many of the last lines are kept.
const LINES: usize = 12;

/// How much of one line is kept.
const LINE: usize = 300;

/// The most bytes one line is read to, whatever the server writes.
const READ: u64 = 64 << 10;

/// Where every line of every server's stderr goes too (`--server-log FILE`), once set.
static LOG: OnceLock<Mutex<std::fs::File>> = OnceLock::new();

/// Keeps all of each server's stderr in the file at `path` (made anew), each server's lines
/// marked with its number (`[2] `), after a line naming its command with it: servers side by
/// side write at once, and each line says whose it is.
pub fn log_to(path: &std::path::Path) -> Result<(), String> {
    let file = std::fs::File::create(path)
        .map_err(|error| format!("--server-log {}: {error}", path.display()))?;
    let _ = LOG.set(Mutex::new(file));
    Ok(())
}

/// The number of the next server whose stderr is read, from 1.
static SERVERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Writes `line` to the `--server-log` file, where there is one, its secrets redacted, after
/// `mark`.
fn log(mark: &str, line: &[u8]) {
    if let Some(Ok(mut file)) = LOG.get().map(Mutex::lock) {
        let line = super::secrets::redact(&String::from_utf8_lossy(line));
        let _ = file.write_all(mark.as_bytes());
        let _ = file.write_all(line.as_bytes());
        if !line.ends_with('\n') {
            let _ = file.write_all(b"\n");
        }
    }
}

/// The last lines a server wrote on its stderr, as they come.
#[derive(Clone)]
pub struct Tail {
    lines: Arc<Mutex<VecDeque<String>>>,
    /// Whether the stream ended (the server and every process holding it are gone).
    ended: Arc<AtomicBool>,
}

impl Tail {
    /// Reads `pipe` (the stderr of the server started as `command`) to its end on a thread of
    /// its own, keeping its last lines.
    pub fn read(pipe: impl Read + Send + 'static, command: &str) -> Tail {
        let tail = Tail {
            lines: Arc::default(),
            ended: Arc::default(),
        };
        let kept = tail.clone();
        let mark = format!("[{}] ", SERVERS.fetch_add(1, Ordering::Relaxed));
        log("== ", format!("{mark}{command}").as_bytes());
        std::thread::spawn(move || {
            let mut reader = BufReader::new(pipe);
            loop {
                let mut line = Vec::new();
                match (&mut reader).take(READ).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        log(&mark, &line);
                        // The rest of a line too long to keep is read and dropped.
                        if !line.ends_with(b"\n") {
                            let _ = reader.skip_until(b'\n');
                        }
                        let text = super::secrets::redact(&String::from_utf8_lossy(&line));
                        let text: String = text.trim_end().chars().take(LINE).collect();
                        if text.trim().is_empty() {
                            continue;
                        }
                        if let Ok(mut lines) = kept.lines.lock() {
                            if lines.len() == LINES {
                                lines.pop_front();
                            }
                            lines.push_back(text);
                        }
                    }
                }
            }
            kept.ended.store(true, Ordering::Release);
        });
        tail
    }

    /// The last lines, after waiting up to `wait` for the stream to end (what a server that
    /// just exited wrote last may still be on its way); `None` when it wrote nothing.
    pub fn last_lines(&self, wait: Duration) -> Option<String> {
        let until = Instant::now() + wait;
        while !self.ended.load(Ordering::Acquire) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        let lines = self.lines.lock().ok()?;
        // Redacted again: a secret kept after the line was read.
        (!lines.is_empty()).then(|| {
            lines
                .iter()
                .map(|line| format!("  {}", super::secrets::redact(line)))
                .collect::<Vec<_>>()
                .join("\n")
        })
    }

    /// `error`, with what the server last wrote on its stderr where it wrote anything.
    pub fn explain(&self, error: String) -> String {
        match self.last_lines(Duration::from_millis(300)) {
            Some(lines) => format!("{error}; the server's stderr ended with:\n{lines}"),
            None => error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_lines_are_kept_each_bounded_and_long_lines_cut() {
        let mut text = String::new();
        for i in 0..40 {
            text.push_str(&format!("line {i}\n"));
        }
        text.push_str(&"x".repeat(200_000));
        text.push_str("\nthe end\n");
        let tail = Tail::read(std::io::Cursor::new(text.into_bytes()), "test");
        let lines = tail.last_lines(Duration::from_secs(5)).unwrap();
        let lines: Vec<&str> = lines.lines().collect();
        assert_eq!(lines.len(), LINES);
        assert_eq!(lines[LINES - 1], "  the end");
        assert_eq!(lines[LINES - 2].len(), 2 + LINE);
        assert_eq!(lines[0], "  line 30");
        let quiet = Tail::read(std::io::Cursor::new(Vec::new()), "test");
        assert_eq!(quiet.explain("it failed".into()), "it failed");
    }
}
