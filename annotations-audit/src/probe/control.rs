//! The control session: the server started, listed, left idle and listed again with no call
//! made, then ended: what it changes by itself (volatile places) is no call's doing.

use std::time::Instant;

use super::sandbox::{sandbox, start};
use super::{IDLE, Options, SETTLE};
use mcp_annotations_verify::judge;
use mcp_annotations_verify::judge::classes::Place;
use mcp_annotations_verify::observe::tree::{Tree, UNOBSERVED};

/// What the control session saw the server change with no call made.
#[derive(Default)]
pub(super) struct Control {
    /// The files the server changed as it started on the seeded sandbox, up to its first
    /// listing.
    pub(super) started: Vec<String>,
    /// Places that changed while the server sat idle: volatile.
    pub(super) volatile: Vec<Place>,
    pub(super) idle: Vec<String>,
    /// What it changed as it exited.
    pub(super) exit: Vec<String>,
}

/// The control session: start, initialize, list, sit idle, list again, exit; the sandbox
/// observed after the first listing, after the wait, after the second listing and after the
/// exit.
pub(super) fn control(options: &Options, deadline: Instant) -> Result<Control, String> {
    let mut sandbox = sandbox(options, "control")?;
    // No call is made, so nothing is read of the record: the server is not recorded.
    sandbox.recorded = false;
    let seeded = sandbox.observe();
    let mut peer = start(options, &sandbox, deadline)?;
    peer.list_tools()?;
    peer.settle(SETTLE);
    let listed = sandbox.observe();
    // A command that cannot observe the server as it starts is the command's problem, said
    // before anything is judged.
    if let Some(failure) = sandbox.failure([&listed]) {
        return Err(failure);
    }
    std::thread::sleep(IDLE);
    peer.settle(SETTLE);
    let idle = sandbox.observe();
    // One more request that asks nothing of a tool (the listing again): what a server writes
    // on every request (a token's last use, an access stamp) is no call's doing either. Only
    // the places within a file's view are classed so (a key, a row's column): a text file
    // stamped on every request keeps its other lines judged. A second listing that fails
    // classes nothing more.
    let asked = match peer.list_tools() {
        Ok(_) => {
            peer.settle(SETTLE);
            Some(sandbox.observe())
        }
        Err(_) => None,
    };
    peer.finish(SETTLE);
    let exited = sandbox.observe();
    let mut volatile = changed_places(&listed, &idle, true);
    if let Some(asked) = &asked {
        for place in changed_places(&idle, asked, false) {
            if !volatile.iter().any(|found| found.text() == place.text()) {
                volatile.push(place);
            }
        }
    }
    let last = asked.as_ref().unwrap_or(&idle);
    Ok(Control {
        started: changed_files(&seeded, &listed),
        volatile,
        idle: judge::diff(&listed, last, 12),
        exit: judge::diff(last, &exited, 12),
    })
}

/// The files that changed from `before` to `after`, added and removed ones too.
pub(super) fn changed_files(before: &Tree, after: &Tree) -> Vec<String> {
    let mut paths: Vec<String> = after
        .iter()
        .filter(|(path, entry)| before.get(*path) != Some(*entry))
        .map(|(path, _)| path.clone())
        .chain(
            before
                .keys()
                .filter(|path| !after.contains_key(*path))
                .cloned(),
        )
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// The places that changed from `before` to `after`: each pointer that changed within a
/// file's view, and (where `whole_files`) each other file that changed, whole.
fn changed_places(before: &Tree, after: &Tree, whole_files: bool) -> Vec<Place> {
    let mut places = Vec::new();
    for (path, entry) in after {
        let was = before.get(path);
        // An observation that failed says nothing of what changes by itself.
        if entry.kind == UNOBSERVED || was.is_some_and(|was| was.kind == UNOBSERVED) {
            continue;
        }
        match (was.and_then(|b| b.view.as_ref()), &entry.view) {
            (Some((_, was)), Some((_, is))) => {
                let mut at = Vec::new();
                mcp_annotations_verify::compare::differences(was, is, "", &mut at, 64);
                // A view that is the whole value (text) is the whole file.
                for difference in at {
                    if whole_files || !difference.pointer.is_empty() {
                        places.push(Place::literal(path, Some(&difference.pointer)));
                    }
                }
            }
            _ if was.is_some_and(|b| b.hash == entry.hash && b.size == entry.size) => {}
            _ if whole_files => places.push(Place::literal(path, None)),
            _ => {}
        }
    }
    places
}
