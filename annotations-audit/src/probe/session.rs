//! The main run of a probe: its sandbox and server, started once and again where the server
//! dies, and what every tool's cases share (the values earlier calls showed, the calls made
//! so far, the findings on the server as a whole).

use std::time::Instant;

use mcp_annotations::Tool;
use serde_json::Value;

use super::runs::Made;
use super::sandbox::{Sandbox, sandbox, start};
use super::unreadable::Unreadable;
use super::{Options, SETTLE};
use crate::server::Peer;
use mcp_annotations_verify::judge::classes::Classes;
use mcp_annotations_verify::observe::tree::Tree;

/// The main run, and what its tools' cases share.
pub(super) struct Session<'a> {
    pub(super) options: &'a Options,
    /// The places the user classed, and those the control session found volatile.
    pub(super) classes: Classes,
    /// When the probe's time runs out.
    pub(super) deadline: Instant,
    /// The server: declared before the sandbox, so that it is ended (dropped) before the
    /// sandbox's folder is removed.
    pub(super) peer: Peer,
    pub(super) sandbox: Sandbox,
    /// The sandbox's path, as a server's answers may quote it.
    pub(super) sandbox_path: String,
    /// The strings and numbers earlier calls showed, for later arguments.
    pub(super) seen: Vec<Value>,
    /// What each tool's answers that succeeded named, by tool: what a tool sharing a word of
    /// its name is given first (`list_boxes` names what `open_box` opens).
    pub(super) answered: Vec<(String, Vec<Value>)>,
    /// Every call made, in order, to make again in a reproduction run.
    pub(super) history: Vec<Made>,
    /// What the server did beside its tools' calls.
    pub(super) findings: Vec<String>,
    /// Whether the server's last exit is reported already (as a call it did not live through).
    pub(super) exit_reported: bool,
    /// How many tools share the probe's time.
    pub(super) tools: usize,
    /// The tools as the server listed them, in its order: what each report row's digest is of.
    pub(super) listed: Vec<Value>,
    /// The tables the calls showed to be logs, classed append-only as they are found.
    pub(super) logs: super::logs::Logs,
    /// The sandbox as the last call of a judged tool found it, copied aside for the runs
    /// that make that call again.
    pub(super) checkpoint: super::checkpoint::Checkpoint,
    /// The files the server changed as it started in the control session.
    pub(super) started: Vec<String>,
    /// How many calls had runs started beside the main run: each one's sandboxes are named
    /// for its number.
    pub(super) aside: u32,
}

impl<'a> Session<'a> {
    /// The main run's sandbox and server, started and listed, with the places the user classed
    /// (the control session's are added by the caller once it ends); the tools the probe can read,
    /// and those it cannot, each with its place in the listing and why (the listing's own
    /// problems are its first findings).
    ///
    /// # Errors
    ///
    /// The server cannot be started or listed, or an `--observe` command cannot observe it
    /// once started: the command's problem, said before anything is judged.
    pub(super) fn start(
        options: &'a Options,
        deadline: Instant,
    ) -> Result<(Self, Vec<Tool>, Vec<Unreadable>), String> {
        let sandbox = sandbox(options, "main")?;
        let mut peer = start(options, &sandbox, deadline)?;
        let (listed, listing_problems) = peer.list_tools()?;
        peer.settle(SETTLE);
        if let Some(failure) = sandbox.failure([&sandbox.observe()]) {
            return Err(failure);
        }
        let mut tools = Vec::new();
        let mut unreadable = Vec::new();
        for (at, raw) in listed.iter().enumerate() {
            match serde_json::from_value::<Tool>(raw.clone()) {
                Ok(tool) => tools.push(tool),
                Err(error) => unreadable.push(Unreadable {
                    at,
                    raw: raw.clone(),
                    error: error.to_string(),
                }),
            }
        }
        // No copy stands for what an observer sees outside the folder, or for what a set-up
        // command prepares (perhaps outside it too) in each fresh sandbox.
        let copied = options.observers.is_empty() && options.setup.is_empty();
        let checkpoint = super::checkpoint::Checkpoint::new(&sandbox.dir, copied);
        let session = Session {
            checkpoint,
            started: Vec::new(),
            aside: 0,
            options,
            classes: options.classes.clone(),
            deadline,
            sandbox_path: sandbox.dir.to_string_lossy().into_owned(),
            sandbox,
            peer,
            seen: Vec::new(),
            answered: Vec::new(),
            history: Vec::new(),
            findings: listing_problems,
            exit_reported: false,
            tools: tools.len(),
            listed,
            logs: super::logs::Logs::default(),
        };
        Ok((session, tools, unreadable))
    }

    /// A table `call` showed to be a log (a repeated call only added rows, each stamped with
    /// the time; no call changed one) classed append-only before the call is judged; what it
    /// changed noted for the tables it touched.
    pub(super) fn classify_logs(&mut self, call: &super::runs::Call) {
        self.logs.watch(&call.before, &call.after);
        if let Some(again) = &call.again {
            let found = self.logs.infer(&call.after, again);
            self.classes.append_only.extend(found);
            self.logs.watch(&call.after, again);
        }
    }

    /// Where a run that makes the call after the first `earlier` calls again starts from:
    /// those calls, and the copy of the sandbox where it holds `before`, the tree the call
    /// found.
    pub(super) fn from<'s>(&'s self, earlier: usize, before: &'s Tree) -> super::runs::From<'s> {
        super::runs::From {
            history: &self.history[..earlier],
            main: &self.sandbox_path,
            copy: self.checkpoint.of(before).map(|copy| (copy, before)),
            started: &self.started,
            name: "",
        }
    }

    /// The server started again, in the same sandbox.
    ///
    /// # Errors
    ///
    /// It cannot be started.
    pub(super) fn restart(&self) -> Result<Peer, String> {
        start(self.options, &self.sandbox, self.deadline)
    }

    /// Keeps what `result`, an answer of `tool` that succeeded, names (at most 64 values a
    /// tool).
    pub(super) fn answered(&mut self, tool: &str, result: &Value) {
        let mut found = Vec::new();
        super::parts::collect(&Value::Null, result, &mut found);
        let at = match self.answered.iter().position(|(name, _)| name == tool) {
            Some(at) => at,
            None => {
                self.answered.push((tool.to_owned(), Vec::new()));
                self.answered.len() - 1
            }
        };
        let kept = &mut self.answered[at].1;
        for value in found {
            if kept.len() < 64 && !kept.contains(&value) {
                kept.push(value);
            }
        }
    }

    /// What the answers of the other tools sharing a word of `tool`'s name named (a word's
    /// plural or singular alike): the values a chain feeds `tool` first.
    pub(super) fn related(&self, tool: &str) -> Vec<Value> {
        // The words that say what a tool does, not what to: shared by tools of any thing.
        const VERBS: [&str; 18] = [
            "get", "set", "list", "add", "put", "create", "update", "delete", "remove", "read",
            "write", "search", "find", "open", "view", "show", "edit", "all",
        ];
        let words = |name: &str| -> Vec<String> {
            name.split(|c: char| !c.is_alphanumeric())
                .filter(|word| word.len() > 2 && !VERBS.contains(&word.to_lowercase().as_str()))
                .map(|word| {
                    let word = word.to_lowercase();
                    let stem = word.strip_suffix("es").filter(|_| word.ends_with("xes"));
                    let stem = stem.or_else(|| word.strip_suffix('s'));
                    stem.unwrap_or(&word).to_owned()
                })
                .collect()
        };
        let mine = words(tool);
        let mut related = Vec::new();
        for (name, values) in &self.answered {
            if name != tool && words(name).iter().any(|word| mine.contains(word)) {
                related.extend(values.iter().cloned());
            }
        }
        related
    }

    /// The sandbox as the next call will find it, once the server has settled.
    pub(super) fn settled(&mut self) -> Tree {
        self.peer.settle(SETTLE);
        self.sandbox.observe()
    }

    /// Where the server died while `tool` was probed: said (unless its exit in a call is said
    /// already) and started again; the sandbox as it left it, settled. `None` where it lives.
    ///
    /// # Errors
    ///
    /// It cannot be started again.
    pub(super) fn revived(&mut self, tool: &str) -> Result<Option<Tree>, String> {
        if self.peer.alive() {
            return Ok(None);
        }
        if !std::mem::take(&mut self.exit_reported) {
            self.findings.push(format!(
                "the server died while `{tool}` was probed; started again"
            ));
        }
        // What is left of the dead server's run ends before another starts.
        self.peer.end();
        self.peer = self.restart()?;
        // What the server wrote as it started is not the call's doing.
        Ok(Some(self.settled()))
    }
}
