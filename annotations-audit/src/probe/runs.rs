//! The runs of a probe beside the main one: the reproduction runs a violation must show in,
//! each started from a copy of the sandbox the call found or by making the calls before it
//! again; and one call, observed, and what breaks a hint in it.

use std::time::{Instant, SystemTime};

use serde_json::{Value, json};

use mcp_annotations::descriptor::Hint;

use super::sandbox::{Sandbox, sandbox, start};
use super::{IDLE, Options, SETTLE};
use super::{network, record};
use crate::server::{Answer, Peer};
use mcp_annotations_verify::judge;
use mcp_annotations_verify::judge::classes::Classes;
use mcp_annotations_verify::observe::tree::Tree;

/// What a call showed: its answer, and the tree before, after it, and after the same call
/// again.
#[derive(Clone)]
pub(super) struct Call {
    pub(super) answer: Result<Answer, String>,
    pub(super) before: Tree,
    pub(super) after: Tree,
    pub(super) again: Option<Tree>,
    /// Whether the same call again went unanswered (its server may still be at it).
    pub(super) again_late: bool,
    /// The attempts to reach the network the server's processes made during the call (and
    /// the call again), where they are recorded.
    pub(super) attempts: Option<Vec<String>>,
    /// The calls of the kernel's record that say something (see [`record::calls`]) made
    /// during the call, where they are recorded: the refused writes are read from them.
    pub(super) recorded: Vec<String>,
}

impl Call {
    /// The first `--observe` command that failed around the call, in words.
    pub(super) fn unobserved(&self, sandbox: &Sandbox) -> Option<String> {
        sandbox.failure(
            [Some(&self.before), Some(&self.after), self.again.as_ref()]
                .into_iter()
                .flatten(),
        )
    }
}

/// A call the probe made, to make again in the same order when a run is reproduced.
#[derive(Clone)]
pub(super) struct Made {
    pub(super) tool: String,
    pub(super) arguments: Value,
    pub(super) twice: bool,
    /// Whether the tool is resolvable: each of its calls is resolved first (`tools/resolve`),
    /// as a host does before it asks for approval, and what resolving changed is the call's.
    pub(super) resolve: bool,
    /// Whether it changed the sandbox, and whether the same call again did.
    pub(super) changed: (bool, bool),
}

impl Made {
    /// `tools/resolve` for this call, where the tool is resolvable: its answer is the main
    /// run's to judge, so here only what resolving does counts.
    /// Whether it was answered (or not asked).
    fn resolve(&self, peer: &mut Peer) -> bool {
        if !self.resolve {
            return true;
        }
        let params = json!({"name": self.tool, "arguments": self.arguments});
        peer.request("tools/resolve", params).is_ok()
    }

    /// [`resolve`](Self::resolve), and the server started again (`restart`) where resolving
    /// ended it, as the main run does: the call goes to a live server.
    pub(super) fn resolve_or_restart(
        &self,
        peer: &mut Peer,
        restart: impl FnOnce() -> Result<Peer, String>,
    ) -> Result<(), String> {
        let answered = self.resolve(peer);
        if self.resolve {
            peer.settle(SETTLE);
            // One that gave no answer may be on its way out (its tracer outlives it for a
            // moment), or still at it: started again either way, as a late call is.
            if !answered || !peer.alive() {
                peer.end();
                *peer = restart()?;
                peer.settle(SETTLE);
            }
        }
        Ok(())
    }
}

/// What broke the claim of `hint` in `call`, by `classes`: read-only, any change; idempotent,
/// a change by the second call beyond append-only growth; non-destructive, anything lost;
/// closed-world, an attempt to reach the network.
pub(super) fn broken(hint: Hint, call: &Call, classes: &Classes) -> Option<String> {
    let what = judge::broken(
        hint,
        &call.before,
        &call.after,
        call.again.as_ref(),
        classes,
    );
    match hint {
        hint if judge::needs_again(hint) => what.map(|what| {
            format!(
                "called twice with the same arguments, the second call changed the sandbox \
                 again: {what}"
            )
        }),
        Hint::ReadOnly => what.map(|what| format!("the call changed the sandbox: {what}")),
        // No observation of the sandbox shows the world outside it: the network does.
        Hint::OpenWorld => call
            .attempts
            .as_ref()
            .filter(|attempts| !attempts.is_empty())
            .map(|attempts| {
                format!(
                    "the server's processes tried to reach the network during the call: {}",
                    attempts.join("; ")
                )
            }),
        _ => what,
    }
}

/// Why `call` cannot judge the claim of `hint` where it did not break it: a change to a file
/// too large to read (one that did not shrink: what it lost, or whether it grew only at its
/// end, cannot be told), by either call. `None` where the call judges it.
pub(super) fn untold(hint: Hint, call: &Call, classes: &Classes) -> Option<String> {
    let again = || {
        call.again
            .as_ref()
            .and_then(|again| judge::untold(&call.after, again, classes))
    };
    match hint {
        hint if judge::needs_again(hint) => again(),
        Hint::Destructive => judge::untold(&call.before, &call.after, classes).or_else(again),
        _ => None,
    }
}

/// Where a run beside the main one starts from, to make a call of the main run again.
#[derive(Clone, Copy)]
pub(super) struct From<'a> {
    /// The main run's calls before that call.
    pub(super) history: &'a [Made],
    /// The main run's sandbox path, as the calls' arguments may hold it.
    pub(super) main: &'a str,
    /// A copy of the main run's sandbox as the call found it, and the tree observed then,
    /// where one is kept (see [`Checkpoint`](super::checkpoint::Checkpoint)).
    pub(super) copy: Option<(&'a std::path::Path, &'a Tree)>,
    /// The files the server changed as it started in the control session.
    pub(super) started: &'a [String],
    /// What its sandboxes' names start with: runs beside the main one at once never share one.
    pub(super) name: &'a str,
}

/// A fresh run, called `name`, up to the call `made`: started from the copy of the main run's
/// sandbox as the call found it, where there is one and a server started on it finds the
/// sandbox as the main run's call did; else [`replayed`]. The sandbox, the server, a second
/// server started beside the first on the same copy where `second` asks for one (never on a
/// replayed run, whose calls go to the first alone: its caller starts the second then), the
/// call rebased, and the tree the call will start from. Its servers are recorded where
/// `recorded` asks (see [`Sandbox::recorded`]).
pub(super) fn prepared(
    options: &Options,
    classes: &Classes,
    from: From<'_>,
    made: &Made,
    (name, second, recorded): (&str, bool, bool),
    deadline: Instant,
) -> Result<Prepared, String> {
    let run = (name, second, recorded);
    if let Some(copy) = from.copy
        && let Ok(prepared) = restored(options, classes, from, copy, made, run, deadline)
    {
        return Ok(prepared);
    }
    let (sandbox, peer, made, before) = replayed(
        options,
        classes,
        (from.history, from.main),
        made,
        (name, recorded),
        deadline,
    )?;
    Ok((sandbox, peer, None, made, before))
}

/// A run prepared up to its call: the sandbox, the server, a second server on the same
/// sandbox where one was asked for and started, the call rebased, and the tree it starts from.
pub(super) type Prepared = (Sandbox, Peer, Option<Peer>, Made, Tree);

/// A fresh run up to the call `made` from `copy`, a copy of the main run's sandbox (whose
/// path is `from.main`) as the call found it, and `found`, the tree observed then: a fresh
/// sandbox holding the copy, and a server started, listed and settled on it, with a second
/// one started beside it at once where `second` asks (both settled before the tree is
/// seen: what either wrote as it started is no call's). The sandbox, the servers, the
/// call rebased, and the tree the call will start from; `Err` where that tree lost something
/// of the main run's (the server rewrote its state as it started, or something there cannot
/// be copied), or the server, having written as it started where it did not on the seed,
/// did not then stay still with no call: the run is then made by replaying the calls.
fn restored(
    options: &Options,
    classes: &Classes,
    from: From<'_>,
    (copy, found): (&std::path::Path, &Tree),
    made: &Made,
    (name, second, recorded): (&str, bool, bool),
    deadline: Instant,
) -> Result<Prepared, String> {
    let mut sandbox = super::sandbox::restored(options, name, copy)?;
    sandbox.recorded = recorded;
    let mut made = made.clone();
    super::parts::rebase(
        &mut made.arguments,
        from.main,
        &sandbox.dir.to_string_lossy(),
    );
    let (mut peer, mut second) = if second {
        let both = at_once(&[(); 2], |()| start(options, &sandbox, deadline));
        let [first, second]: [Result<Peer, String>; 2] = both
            .try_into()
            .map_err(|_| "two servers asked, not two".to_owned())?;
        (first?, Some(second?))
    } else {
        (start(options, &sandbox, deadline)?, None)
    };
    peer.list_tools()?;
    peer.settle(SETTLE);
    if let Some(second) = &mut second {
        second.settle(SETTLE);
    }
    let before = sandbox.observe();
    if let Some(failure) = sandbox.failure([&before]) {
        return Err(failure);
    }
    // What the server writes as it starts (a boot logged) is no call's, here as in the main
    // run; what it lost or overwrote of the copy would make the run another one.
    if let Some(what) = judge::broken(Hint::Destructive, found, &before, None, classes) {
        return Err(format!("the copy was not as the call found it: {what}"));
    }
    // A start that wrote only where it wrote as it started on the seed (where the control
    // session saw it still for 1.1 s after) goes straight to the call; one that wrote
    // elsewhere (work that grows with the state the copy holds: an index of it, a scan) is
    // seen to stay still with no call first, as a replayed run is.
    let elsewhere = super::control::changed_files(found, &before)
        .iter()
        .any(|path| !from.started.contains(path));
    let before = if elsewhere {
        let mut peers: Vec<&mut Peer> = std::iter::once(&mut peer).chain(&mut second).collect();
        stays_still(&mut peers, &sandbox, classes, &before)?
    } else {
        before
    };
    Ok((sandbox, peer, second, made, before))
}

/// A fresh run up to the call `made`: a fresh sandbox and server, every call of `history`
/// that changed the sandbox made again (the main run's sandbox path, `main`, rebased onto
/// this run's), the server
/// settled and seen to change nothing while idle. The sandbox, the server, the call rebased,
/// and the tree the call will start from.
fn replayed(
    options: &Options,
    classes: &Classes,
    (history, main): (&[Made], &str),
    made: &Made,
    (name, recorded): (&str, bool),
    deadline: Instant,
) -> Result<(Sandbox, Peer, Made, Tree), String> {
    let mut sandbox = sandbox(options, name)?;
    sandbox.recorded = recorded;
    let here = sandbox.dir.to_string_lossy().into_owned();
    let rebased = |made: &Made| {
        let mut made = made.clone();
        super::parts::rebase(&mut made.arguments, main, &here);
        made
    };
    let history: Vec<Made> = history.iter().map(rebased).collect();
    let made = rebased(made);
    let mut peer = start(options, &sandbox, deadline)?;
    peer.list_tools()?;
    for earlier in &history {
        if Instant::now() > deadline {
            return Err("the probe's time ran out".to_owned());
        }
        if !peer.alive() {
            peer.end();
            peer = start(options, &sandbox, deadline)?;
        }
        // What the main run saw change nothing is not made again: a run reproduces the
        // sandbox the call found, not the server's memory (a violation that depends on it
        // shows in fewer runs, so it is not claimed).
        let params = json!({"name": earlier.tool, "arguments": earlier.arguments});
        let (first, again) = earlier.changed;
        let mut answered = true;
        let restart = || start(options, &sandbox, deadline);
        if first {
            earlier.resolve_or_restart(&mut peer, restart)?;
            answered = peer.request("tools/call", params.clone()).is_ok();
        }
        if earlier.twice && again && answered {
            earlier.resolve_or_restart(&mut peer, restart)?;
            answered = peer.request("tools/call", params).is_ok();
        }
        if first || again {
            peer.settle(SETTLE);
        }
        // A call the server did not live through, or did not answer in time: started again,
        // as the main run was before the next call (a dead one seen dead first: its tracer
        // may outlive it for a moment; a late one ended, so that nothing it does late lands
        // in the next call).
        if !answered {
            peer.end();
            peer = start(options, &sandbox, deadline)?;
        }
    }
    if !peer.alive() {
        peer.end();
        peer = start(options, &sandbox, deadline)?;
    }
    peer.settle(SETTLE);
    let still = sandbox.observe();
    let before = stays_still(&mut [&mut peer], &sandbox, classes, &still)?;
    Ok((sandbox, peer, made, before))
}

/// The sandbox, as `first` showed it, seen again once the servers `peers` (on that sandbox)
/// sat [`IDLE`] and settled: the later tree; `Err` where it changed (outside the volatile places of
/// `classes`) or either observation failed. A change with no call made is nobody's doing: a
/// run whose sandbox changes while the server sits idle cannot tell the call's doing from it
/// (a heartbeat slower than the control session's wait, work that grows with the state).
fn stays_still(
    peers: &mut [&mut Peer],
    sandbox: &Sandbox,
    classes: &Classes,
    first: &Tree,
) -> Result<Tree, String> {
    std::thread::sleep(IDLE);
    for peer in peers.iter_mut() {
        peer.settle(SETTLE);
    }
    let later = sandbox.observe();
    if let Some(what) = judge::changed(first, &later, classes, false) {
        return Err(format!("the sandbox changed with no call made ({what})"));
    }
    if let Some(failure) = sandbox.failure([first, &later]) {
        return Err(failure);
    }
    Ok(later)
}

/// The call `made` made again from the sandbox it found in the main run, in a fresh sandbox
/// with a fresh server: what broke each of `hints` there, and, where the call created a path,
/// what the server's exit did with it; `Err` where the run could not be made. A path the call
/// created and the server removed as it exited, changing nothing else (with a folder created
/// for it, empty then), lived as long as the process: it is not judged in this run.
pub(super) fn reproduce(
    options: &Options,
    classes: &Classes,
    from: From<'_>,
    made: &Made,
    hints: &[Hint],
    run: u32,
    deadline: Instant,
) -> Result<(Vec<Option<String>>, super::exit::Exit), String> {
    let name = format!("{}run{run}", from.name);
    // Only a closed-world claim is judged from the record.
    let recorded = hints.contains(&Hint::OpenWorld);
    let (sandbox, mut peer, _, made, before) = prepared(
        options,
        classes,
        from,
        made,
        (&name, false, recorded),
        deadline,
    )?;
    let from = SystemTime::now();
    made.resolve_or_restart(&mut peer, || start(options, &sandbox, deadline))?;
    let call = call(&mut peer, &sandbox, &made, before, from);
    if let Some(failure) = call.unobserved(&sandbox) {
        return Err(failure);
    }
    let (here, exit) = super::exit::at_exit(peer, &sandbox, &call, classes);
    let broke = hints
        .iter()
        .map(|&hint| broken(hint, &call, &here))
        .collect();
    Ok((broke, exit))
}

/// One call, observed once the processes the server started have ended: `before` (the
/// sandbox as the caller last observed it, settled, before the call was resolved where it
/// is), after, and after the same call again (resolved again) when the tool claims
/// idempotence. The caller resolved the call already, where its tool is resolvable, from the
/// moment `from` (from which the network's record is read).
pub(super) fn call(
    peer: &mut Peer,
    sandbox: &Sandbox,
    made: &Made,
    before: Tree,
    from: SystemTime,
) -> Call {
    let params = json!({"name": made.tool, "arguments": made.arguments});
    let answer = peer.request("tools/call", params.clone());
    peer.settle(SETTLE);
    let after = sandbox.observe();
    let mut again_late = false;
    let again = (made.twice && answer.is_ok()).then(|| {
        let _ = made.resolve(peer);
        again_late = peer.request("tools/call", params).is_err();
        peer.settle(SETTLE);
        sandbox.observe()
    });
    // A server started unrecorded has no record to read: nothing is judged by one.
    let recorded = sandbox
        .recorded
        .then(|| record::calls(&sandbox.dir, from, SystemTime::now()))
        .flatten();
    Call {
        answer,
        before,
        after,
        again,
        again_late,
        attempts: recorded.as_deref().map(network::attempts),
        recorded: recorded.unwrap_or_default(),
    }
}

/// `each` of `items`, all at once, each on a thread of its own: what each gave, in their order
/// (one whose thread panicked, an `Err` that says so).
pub(super) fn at_once<I: Copy + Send, T: Send>(
    items: &[I],
    each: impl Fn(I) -> Result<T, String> + Sync,
) -> Vec<Result<T, String>> {
    std::thread::scope(|scope| {
        let each = &each;
        let started: Vec<_> = items
            .iter()
            .map(|&item| scope.spawn(move || each(item)))
            .collect();
        started
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|_| Err("the run stopped on an internal error".to_owned()))
            })
            .collect()
    })
}

/// What runs 2 to `runs` showed of what run 1 showed (`first`, one line for each thing it
/// broke), each run made by `again` (what it showed of each, or why it could not be made),
/// where `options` let runs share nothing ([`Options::side_by_side`]) as many side by side
/// as this machine has cores, else one after the other: for each thing, in how many runs it
/// showed, and what each run saw, in words (`none` for a run that did not show it, `failed`
/// before the reason of one that could not be made).
pub(super) fn tally(
    (options, runs): (&Options, u32),
    first: &[String],
    again: impl Fn(u32) -> Result<Vec<Option<String>>, String> + Sync,
    (none, failed): (&str, &str),
) -> Vec<(u32, Vec<String>)> {
    let mut found: Vec<(u32, Vec<String>)> = first
        .iter()
        .map(|what| (1, vec![format!("run 1: {what}")]))
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let side_by_side = if options.side_by_side() { cores } else { 1 };
    let numbers: Vec<u32> = (2..=runs).collect();
    let mut shown_by_run = Vec::new();
    for these in numbers.chunks(side_by_side) {
        shown_by_run.extend(these.iter().copied().zip(at_once(these, &again)));
    }
    for (run, shown) in shown_by_run {
        for (at, (reproduced, seen)) in found.iter_mut().enumerate() {
            match shown.as_ref().map(|shown| shown.get(at).cloned().flatten()) {
                Ok(Some(what)) => {
                    *reproduced += 1;
                    seen.push(format!("run {run}: {what}"));
                }
                Ok(None) => seen.push(format!("run {run}: {none}")),
                Err(why) => seen.push(format!("run {run} {failed}: {why}")),
            }
        }
    }
    found
}
