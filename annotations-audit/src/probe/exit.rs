//! What a server's exit does with what a call created: a path it removes (a registration of
//! its process under `$HOME`, a lock) lived as long as the process, and is not the call's
//! write.

use mcp_annotations_verify::judge;
use mcp_annotations_verify::judge::classes::{Classes, Place};
use mcp_annotations_verify::observe::tree::Tree;

use super::SETTLE;
use super::runs::Call;
use super::sandbox::Sandbox;
use crate::server::Peer;

/// What the paths a call created came to once its server exited, in one run, each by its
/// [`shape`]: those its exit removed (a registration of its process, a lock), and those
/// still there.
#[derive(Default)]
pub(super) struct Exit {
    pub(super) removed: Vec<String>,
    pub(super) kept: Vec<String>,
}

/// Where `call` (made by `peer` in `sandbox`) created a path: the server ended as a client
/// ends it (its input closed, its exit awaited) and the sandbox observed again. `classes`
/// with each path the exit removed, changing nothing else, classed volatile (the entry alone,
/// a folder without what it holds), and what the exit did with each path the call created,
/// by its shape. A call that created nothing leaves the server running.
pub(super) fn at_exit(
    peer: Peer,
    sandbox: &Sandbox,
    call: &Call,
    classes: &Classes,
) -> (Classes, Exit) {
    let created = created(call);
    let mut exit = Exit::default();
    let mut here = classes.clone();
    if created.is_empty() {
        return (here, exit);
    }
    peer.finish(SETTLE);
    let exited = sandbox.observe();
    let last = call.again.as_ref().unwrap_or(&call.after);
    // An exit that could not be seen whole, or that changed more than what the call created
    // (a journal folded into its store as it closed), tells nothing: every path the call
    // created counts as kept.
    let removed = exit_removed(&created, last, &exited, classes)
        .filter(|_| sandbox.failure([&exited]).is_none())
        .unwrap_or_default();
    for path in &created {
        if removed.contains(path) {
            here.volatile.push(Place::entry(path));
            exit.removed.push(shape(path));
        } else {
            exit.kept.push(shape(path));
        }
    }
    (here, exit)
}

/// Of `created`, the paths the server's exit removed: each gone from `exited` (the sandbox
/// once the server exited; `last`, after the call), and each folder there but empty once
/// every path the call created in it is gone. `None` where the exit changed anything else
/// (outside the volatile places of `classes`): what it removed is then no process's own
/// alone.
fn exit_removed(
    created: &[String],
    last: &Tree,
    exited: &Tree,
    classes: &Classes,
) -> Option<Vec<String>> {
    let others = |tree: &Tree| -> Tree {
        tree.iter()
            .filter(|(path, _)| !created.contains(*path))
            .map(|(path, entry)| (path.clone(), entry.clone()))
            .collect()
    };
    if judge::changed(&others(last), &others(exited), classes, false).is_some() {
        return None;
    }
    let mut removed: Vec<String> = created
        .iter()
        .filter(|path| !exited.contains_key(*path))
        .cloned()
        .collect();
    for path in created {
        let beneath = format!("{path}/");
        let mut made_in_it = created.iter().filter(|inner| inner.starts_with(&beneath));
        let emptied = exited.get(path).is_some_and(|entry| entry.kind == "dir")
            && made_in_it.clone().next().is_some()
            && made_in_it.all(|inner| removed.contains(inner))
            && !exited.keys().any(|key| key.starts_with(&beneath));
        if emptied {
            removed.push(path.clone());
        }
    }
    Some(removed)
}

/// The paths `call` (or the same call again) created: absent before it.
pub(super) fn created(call: &Call) -> Vec<String> {
    let mut created: Vec<String> = [Some(&call.after), call.again.as_ref()]
        .into_iter()
        .flatten()
        .flat_map(|tree| tree.keys())
        .filter(|path| !call.before.contains_key(*path))
        .cloned()
        .collect();
    created.sort();
    created.dedup();
    created
}

/// A path with each run of digits in it as `#` (a process id, a count): what stays the same
/// from run to run of a file named for its process.
pub(super) fn shape(path: &str) -> String {
    let mut shaped = String::new();
    for c in path.chars() {
        if c.is_ascii_digit() {
            if !shaped.ends_with('#') {
                shaped.push('#');
            }
        } else {
            shaped.push(c);
        }
    }
    shaped
}
