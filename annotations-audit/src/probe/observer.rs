//! What the user observes for the probe (`--observe 'CMD'`): state it cannot see in the
//! sandbox's files (a database server's dump, a service's records), printed as JSON by a
//! command, and judged as a file's view is, by the same rules. The first command's JSON is the
//! place `@observe1` (`--volatile '@observe1#/rows/*/seen'`), the second's `@observe2`, and so
//! on.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use mcp_annotations_verify::observe::formats::Format;
use mcp_annotations_verify::observe::tree::{Entry, Tree};

/// The most a command may print: what it prints beyond is not read, and the observation fails.
const MAX_OUTPUT: u64 = 64 << 20;

/// How much of a failed command's stderr is shown.
const SHOWN: usize = 400;

/// The place of the `index`-th command (from 0).
pub(super) fn place(index: usize) -> String {
    format!("@observe{}", index + 1)
}

/// The user's commands, run in the sandbox with the server's environment.
#[derive(Clone, Default)]
pub(super) struct Observers {
    /// Each command as the user wrote it (`{sandbox}` still in it).
    pub(super) commands: Vec<String>,
    /// The `--env` pairs (`{sandbox}` still in them).
    pub(super) env: Vec<(String, String)>,
    /// How long a command may take.
    pub(super) timeout: Duration,
}

impl Observers {
    /// Adds each command's observation of the sandbox at `dir` to `tree`: its JSON as the
    /// view, or, where it failed, an [unobserved](Entry::unobserved) entry holding why.
    pub(super) fn add(&self, dir: &Path, tree: &mut Tree) {
        for (index, command) in self.commands.iter().enumerate() {
            let entry = match self.run(command, dir) {
                Ok(value) => {
                    let text = value.to_string();
                    Entry {
                        kind: "observed",
                        size: text.len() as u64,
                        hash: hash(&text),
                        mode: 0,
                        contents: None,
                        view: Some((Format::Observed, value)),
                    }
                }
                Err(why) => Entry::unobserved(why),
            };
            tree.insert(place(index), entry);
        }
    }

    /// The first command that failed on `tree`, with why, in words.
    pub(super) fn failure(&self, tree: &Tree) -> Option<String> {
        self.commands
            .iter()
            .enumerate()
            .find_map(|(index, command)| {
                let why = tree.get(&place(index))?.why_unobserved()?;
                Some(format!("--observe `{command}` failed: {why}"))
            })
    }

    /// Runs one command in `dir`: its output read as JSON, within the timeout and the bound.
    fn run(&self, command: &str, dir: &Path) -> Result<Value, String> {
        let (output, said) = self.execute(command, dir, self.timeout, false)?;
        serde_json::from_slice(&output)
            .map_err(|error| format!("what it printed is not one JSON value: {error}{said}"))
    }

    /// Runs a `--setup` command in the sandbox `dir`, as an observer runs (the same
    /// environment and bounds), within the probe's `--timeout` or a minute, whichever is
    /// longer; what it leaves running in its process group is ended with it. What it prints is
    /// not read (more than 64 MiB is a failure, as an observer's).
    pub(super) fn set_up(&self, command: &str, dir: &Path) -> Result<(), String> {
        let within = self.timeout.max(Duration::from_secs(60));
        self.execute(command, dir, within, true).map(|_| ())
    }

    /// Runs `command` with `sh -c` in `dir`: what it printed (at most [`MAX_OUTPUT`]) and the
    /// end of its stderr, said in parentheses; `Err` with why where it failed to start, ran
    /// past `timeout`, printed too much or exited with an error. With `end_rest`, what it left
    /// running in its group is ended once it exits.
    fn execute(
        &self,
        command: &str,
        dir: &Path,
        timeout: Duration,
        end_rest: bool,
    ) -> Result<(Vec<u8>, String), String> {
        let place = dir.to_string_lossy();
        let fill = |text: &str| text.replace("{sandbox}", &place);
        let mut child = Command::new("sh");
        // A group of its own, so that a pipeline's every process is ended with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut child, 0);
        let mut child = child
            .args(["-c", &fill(command)])
            .current_dir(dir)
            .envs(self.env.iter().map(|(key, value)| (key, fill(value))))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| format!("it could not start: {error}"))?;
        let bounded = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                if let Some(mut pipe) = pipe {
                    let _ = (&mut pipe).take(MAX_OUTPUT + 1).read_to_end(&mut bytes);
                    // What is past the bound is read and dropped, so that the command is not
                    // left blocked on a full pipe.
                    let _ = std::io::copy(&mut pipe, &mut std::io::sink());
                }
                bytes
            })
        };
        let stdout = bounded(child.stdout.take().map(|pipe| Box::new(pipe) as _));
        let stderr = bounded(child.stderr.take().map(|pipe| Box::new(pipe) as _));
        let until = Instant::now() + timeout;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => {
                    end_group(child.id());
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "it did not finish within {} s",
                        timeout.as_secs_f64()
                    ));
                }
            }
        };
        // What the command left running holds the pipes open: it is ended with the command
        // (its group still has members then, so the group's id is no one else's); a reader
        // still waiting after that is not waited for.
        std::thread::sleep(Duration::from_millis(1));
        if end_rest || !(stdout.is_finished() && stderr.is_finished()) {
            end_group(child.id());
        }
        let output = join_within(stdout, Duration::from_secs(1)).unwrap_or_default();
        let errors = join_within(stderr, Duration::from_secs(1)).unwrap_or_default();
        let said = String::from_utf8_lossy(&errors);
        let said = said.trim();
        let said = if said.is_empty() {
            String::new()
        } else {
            let start = said.len().saturating_sub(SHOWN);
            let start = (start..said.len())
                .find(|&at| said.is_char_boundary(at))
                .unwrap_or(0);
            format!(" ({})", &said[start..])
        };
        if output.len() as u64 > MAX_OUTPUT {
            return Err(format!("it printed more than {} MiB", MAX_OUTPUT >> 20));
        }
        if !status.success() {
            return Err(format!("it exited with {status}{said}"));
        }
        Ok((output, said))
    }
}

/// Ends every process of the group `id` leads (with the `kill` command: no unsafe code).
fn end_group(id: u32) {
    #[cfg(unix)]
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{id}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

fn hash(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// A reader's bytes, if it finishes within `wait`.
fn join_within(reader: std::thread::JoinHandle<Vec<u8>>, wait: Duration) -> Option<Vec<u8>> {
    let until = Instant::now() + wait;
    while !reader.is_finished() {
        if Instant::now() > until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    reader.join().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observers(command: &str) -> Observers {
        Observers {
            commands: vec![command.to_owned()],
            env: vec![("WHAT".into(), "{sandbox}/x".into())],
            timeout: Duration::from_secs(5),
        }
    }

    #[test]
    fn a_command_is_read_as_json_in_the_sandbox_and_a_failure_says_why() {
        let dir = std::env::temp_dir().join(format!("annotations-observe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("state"), "7").unwrap();
        let mut tree = Tree::new();
        observers("printf '{\"n\": %s, \"at\": \"%s\"}' \"$(cat state)\" \"$WHAT\"")
            .add(&dir, &mut tree);
        let entry = &tree["@observe1"];
        let view = &entry.view.as_ref().unwrap().1;
        assert_eq!(view["n"], 7);
        assert_eq!(view["at"], format!("{}/x", dir.display()));

        for (command, why) in [
            (
                "echo oops >&2; exit 3",
                "it exited with exit status: 3 (oops)",
            ),
            ("echo not json", "what it printed is not one JSON value"),
            ("sleep 30", "it did not finish within 1 s"),
        ] {
            let mut tree = Tree::new();
            let mut observers = observers(command);
            observers.timeout = Duration::from_secs(1);
            observers.add(&dir, &mut tree);
            let failure = observers.failure(&tree).unwrap();
            assert!(
                failure.starts_with(&format!("--observe `{command}` failed: {why}")),
                "{failure}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
