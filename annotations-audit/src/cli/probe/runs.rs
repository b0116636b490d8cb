//! The runs of a probe beside the main one: the control session, with no call, and the
//! reproduction runs a violation must show in; and one call, observed, and what breaks a hint
//! in it.

use std::path::Path;
use std::time::Instant;

use serde_json::{Value, json};

use super::super::classes::{Classes, Place};
use super::super::judge;
use super::super::peer::{Answer, Peer};
use super::super::tree::{self, Tree};
use super::parts::first_text;
use super::sandbox::{sandbox, start};
use super::{IDLE, Options, SETTLE};

/// What a call showed: its answer, and the tree before, after it, and after the same call
/// again.
pub(super) struct Call {
    pub(super) answer: Result<Answer, String>,
    pub(super) before: Tree,
    pub(super) after: Tree,
    pub(super) again: Option<Tree>,
}

/// A call the probe made, to make again in the same order when a run is reproduced.
#[derive(Clone)]
pub(super) struct Made {
    pub(super) tool: String,
    pub(super) arguments: Value,
    pub(super) twice: bool,
}

/// What the control session saw the server change with no call made.
#[derive(Default)]
pub(super) struct Control {
    /// Places that changed while the server sat idle: volatile.
    pub(super) volatile: Vec<Place>,
    pub(super) idle: Vec<String>,
    /// What it changed as it exited.
    pub(super) exit: Vec<String>,
}

/// The control session: start, initialize, list, sit idle, exit; the sandbox observed after
/// the listing, after the wait and after the exit.
pub(super) fn control(options: &Options, deadline: Instant) -> Result<Control, String> {
    let sandbox = sandbox(options, "control")?;
    let mut peer = start(options, &sandbox.dir, deadline)?;
    peer.list_tools()?;
    peer.settle(SETTLE);
    let listed = tree::observe(&sandbox.dir);
    std::thread::sleep(IDLE);
    peer.settle(SETTLE);
    let idle = tree::observe(&sandbox.dir);
    peer.finish(SETTLE);
    let exited = tree::observe(&sandbox.dir);
    let mut volatile = Vec::new();
    for (path, entry) in &idle {
        let before = listed.get(path);
        match (before.and_then(|b| b.view.as_ref()), &entry.view) {
            (Some((_, was)), Some((_, is))) => {
                let mut at = Vec::new();
                super::super::formats::differences(was, is, "", &mut at, 64);
                for difference in at {
                    volatile.push(Place::literal(path, Some(&difference.pointer)));
                }
            }
            _ if before.is_some_and(|b| b.hash == entry.hash && b.size == entry.size) => {}
            _ => volatile.push(Place::literal(path, None)),
        }
    }
    Ok(Control {
        volatile,
        idle: judge::diff(&listed, &idle, 12),
        exit: judge::diff(&idle, &exited, 12),
    })
}

/// Whether a result is a failed call: `isError`, or (for a server that answers its errors as
/// plain text) a result with no structured content whose text starts with "error".
pub(super) fn failed(result: &Value) -> bool {
    result.get("isError") == Some(&Value::Bool(true))
        || (result.get("structuredContent").is_none()
            && first_text(result, 120)
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("error"))
}

/// What broke hint `hint` (an index into [`super::HINTS`]) in `call`, by `classes`: read-only, any
/// change; idempotent, a change by the second call beyond append-only growth;
/// non-destructive, anything lost.
pub(super) fn broken(hint: usize, call: &Call, classes: &Classes) -> Option<String> {
    match hint {
        0 => judge::changed(&call.before, &call.after, classes, false)
            .map(|what| format!("the call changed the sandbox: {what}")),
        1 => call.again.as_ref().and_then(|again| {
            judge::changed(&call.after, again, classes, true).map(|what| {
                format!(
                    "called twice with the same arguments, the second call changed the \
                     sandbox again: {what}"
                )
            })
        }),
        _ => judge::lost(&call.before, &call.after, classes),
    }
}

/// The call `made` made again after every call of `history`, in a fresh sandbox with a fresh
/// server: what broke `hint` there, or `Err` where the run could not be made.
pub(super) fn reproduce(
    options: &Options,
    classes: &Classes,
    (history, main): (&[Made], &str),
    made: &Made,
    hint: usize,
    run: u32,
    deadline: Instant,
) -> Result<Option<String>, String> {
    let sandbox = sandbox(options, &format!("run{run}"))?;
    // The calls as the main run made them, its sandbox's paths now this run's.
    let here = sandbox.dir.to_string_lossy().into_owned();
    let rebased = |made: &Made| {
        let mut made = made.clone();
        super::parts::rebase(&mut made.arguments, main, &here);
        made
    };
    let history: Vec<Made> = history.iter().map(rebased).collect();
    let made = &rebased(made);
    let mut peer = start(options, &sandbox.dir, deadline)?;
    peer.list_tools()?;
    for earlier in &history {
        if Instant::now() > deadline {
            return Err("the probe's time ran out".to_owned());
        }
        if !peer.alive() {
            peer = start(options, &sandbox.dir, deadline)?;
        }
        let params = json!({"name": earlier.tool, "arguments": earlier.arguments});
        let answered = peer.request("tools/call", params.clone()).is_ok();
        if earlier.twice && answered {
            let _ = peer.request("tools/call", params);
        }
        peer.settle(SETTLE);
    }
    if !peer.alive() {
        peer = start(options, &sandbox.dir, deadline)?;
    }
    // A change with no call made is nobody's doing: a run whose sandbox changes while the
    // server sits idle cannot tell the call's doing from it (a heartbeat slower than the
    // control session's wait).
    peer.settle(SETTLE);
    let still = tree::observe(&sandbox.dir);
    std::thread::sleep(IDLE);
    peer.settle(SETTLE);
    let before = tree::observe(&sandbox.dir);
    if let Some(what) = judge::changed(&still, &before, classes, false) {
        return Err(format!("the sandbox changed with no call made ({what})"));
    }
    let call = call(&mut peer, &sandbox.dir, made, before);
    Ok(broken(hint, &call, classes))
}

/// One call, observed once the processes the server started have ended: `before` (the
/// sandbox as the caller last observed it, settled), after, and after the same call again
/// when the tool claims idempotence.
pub(super) fn call(peer: &mut Peer, sandbox: &Path, made: &Made, before: Tree) -> Call {
    let params = json!({"name": made.tool, "arguments": made.arguments});
    let answer = peer.request("tools/call", params.clone());
    peer.settle(SETTLE);
    let after = tree::observe(sandbox);
    let again = (made.twice && answer.is_ok()).then(|| {
        let _ = peer.request("tools/call", params);
        peer.settle(SETTLE);
        tree::observe(sandbox)
    });
    Call {
        answer,
        before,
        after,
        again,
    }
}
