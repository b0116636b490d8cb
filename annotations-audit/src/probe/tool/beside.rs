//! The runs beside the main one that go on while the main run makes its next calls, where
//! runs may go side by side ([`Options::side_by_side`](crate::probe::Options)): the
//! reproduction runs of a call that broke a claim, and the runs of two identical calls at
//! once. Each starts from a copy of the sandbox as the call found it, taken aside for it, so
//! that the main run's next calls do not move it. What they show is judged as if they had
//! been made at once: a later call that breaks a claim they judge waits for them first (a
//! second break of a hint waits for the first's verdict), and the tool's row waits for all
//! of them. Their notes go where the call's own end.
//!
//! Only runs whose verdict is the tool's alone go on so: not those of a call that created a
//! path (whether the server's exit removes it in every run classes the path for the rest of
//! the probe), nor those of a resolvable tool (its resolutions' verdicts are kept as its
//! calls go).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::thread::{Scope, ScopedJoinHandle};

use mcp_annotations::descriptor::Hint;
use serde_json::Value;

use super::ToolProbe;
use super::again::{Rerun, rerun};
use crate::probe::REPRODUCTIONS;
use crate::probe::checkpoint::Kept;
use crate::probe::runs::{Call, From, Made, broken};
use crate::probe::session::Session;
use crate::probe::together::{Concurred, concurrently};
use crate::probe::verdicts::{JUDGED, judgeable};
use crate::report::{Note, Verdict};
use mcp_annotations_verify::judge;
use mcp_annotations_verify::judge::classes::Classes;
use mcp_annotations_verify::observe::tree::Tree;

/// Where runs beside the main one are started, where they may go on while it makes its next
/// calls: the probe's scope of threads (every run in it ends before the probe does).
pub(in crate::probe) type Beside<'s, 'e> = Option<&'s Scope<'s, 'e>>;

/// How many calls of a tool may have runs going on beside the main run at once: past it, the
/// main run waits for them before it starts more (each holds a copy of the sandbox).
const MOST_PENDING: usize = 2;

/// How many calls of all tools may have runs going on beside the main run before the next
/// tool's calls start: past it, the earliest tools' are waited for first.
pub(in crate::probe) const MOST_BESIDE: usize = 4;

/// What runs beside the main one came back with.
enum Done {
    Rerun(Rerun),
    Together(Concurred),
}

/// What the main run keeps of a call whose runs go on beside it, to judge what they show.
enum Then {
    /// Reproduction runs of what the call broke.
    Rerun {
        broke: Vec<(Hint, String)>,
        call: Box<Call>,
        arguments: Value,
        /// The places classed when the call was made: what it is judged by.
        classes: Classes,
    },
    /// Two identical calls at once.
    Together,
}

/// Runs going on beside the main one for a call of the tool, or to be made once those
/// before them are judged.
pub(super) struct Pending<'s> {
    runs: Runs<'s>,
    then: Then,
    /// Where their notes go among the tool's: after the call's own.
    at: usize,
}

/// The runs of a [`Pending`].
enum Runs<'s> {
    /// Started.
    Started(ScopedJoinHandle<'s, Done>),
    /// A break of hints whose verdict the runs before it decide: reproduced once they are
    /// judged, where a hint is neither violated then nor out of tries, as the main run would
    /// have reproduced it had their verdict been known at the call.
    Waiting(Box<Waiting>),
}

/// What a break waiting for the verdict of the runs before it is reproduced from.
struct Waiting {
    start: Start,
    made: Made,
}

impl Pending<'_> {
    /// The hints whose verdict the runs decide.
    fn hints(&self) -> Vec<Hint> {
        match &self.then {
            Then::Rerun { broke, .. } => broke.iter().map(|(hint, _)| *hint).collect(),
            Then::Together => vec![judge::BY_REPEATING],
        }
    }
}

/// Where a run beside the main one starts from, owned (what [`From`] borrows): the calls
/// before the call, the copy taken aside for it, and the names of its sandboxes.
struct Start {
    history: Vec<Made>,
    main: String,
    copy: Option<Arc<Kept>>,
    started: Vec<String>,
    name: String,
}

impl Start {
    /// Where the call that found `before`, after the first `earlier` calls, is made again
    /// from: the copy of the sandbox the call found, taken aside once for all its runs
    /// (`kept`), where the checkpoint holds one.
    fn new(
        session: &mut Session<'_>,
        earlier: usize,
        before: &Tree,
        kept: &mut Option<Option<Arc<Kept>>>,
    ) -> Self {
        let copy = kept
            .get_or_insert_with(|| session.checkpoint.detach(before).map(Arc::new))
            .clone();
        session.aside += 1;
        Start {
            history: session.history[..earlier].to_vec(),
            main: session.sandbox_path.clone(),
            copy,
            started: session.started.clone(),
            name: format!("{}-", session.aside),
        }
    }

    fn from(&self) -> From<'_> {
        From {
            history: &self.history,
            main: &self.main,
            copy: self
                .copy
                .as_ref()
                .map(|kept| (kept.dir.as_path(), &kept.tree)),
            started: &self.started,
            name: &self.name,
        }
    }
}

impl<'s, 'e> ToolProbe<'_, 's, 'e> {
    /// Where the reproduction runs of `call` (which broke `broke`) may go on beside the main
    /// run, the scope to start them in.
    pub(super) fn beside_for(&self, call: &Call) -> Beside<'s, 'e> {
        self.beside
            .filter(|_| !self.tool.resolvable && crate::probe::exit::created(call).is_empty())
    }

    /// The claims `call` broke whose verdict runs beside the main one decide, each with what
    /// broke it: they wait for that verdict (a break of a hint already violated is not
    /// reproduced, and a second break is tried once the first's verdict is known).
    pub(super) fn waiting(&self, call: &Call, classes: &Classes) -> Vec<(Hint, String)> {
        let mut hints: Vec<Hint> = self.pending.iter().flat_map(Pending::hints).collect();
        hints.sort_by_key(|hint| JUDGED.iter().position(|judged| judged == hint));
        hints.dedup();
        hints
            .into_iter()
            .filter_map(|hint| {
                self.broken_claim(hint, call, classes)
                    .map(|what| (hint, what))
            })
            .collect()
    }

    /// What broke the claim of `hint` in `call`, where the tool claims it and the call can
    /// judge it.
    fn broken_claim(&self, hint: Hint, call: &Call, classes: &Classes) -> Option<String> {
        (self.claimed[hint] && judgeable(hint, call))
            .then(|| broken(hint, call, classes))
            .flatten()
    }

    /// The break of hints `waiting` for the verdict of the runs before it: reproduced once
    /// they are judged, where it still needs to be (see [`Runs::Waiting`]). A hint whose
    /// tries the breaks before it used, or wait to use, is not reproduced again, as one out of
    /// tries is not.
    pub(super) fn defer(
        &mut self,
        session: &mut Session<'_>,
        (made, earlier, arguments): (&Made, usize, &Value),
        waiting: Vec<(Hint, String)>,
        call: &Call,
        kept: &mut Option<Option<Arc<Kept>>>,
    ) {
        // A try for each break waiting already, besides those the hint used.
        let waits = |hint: Hint| {
            let waiting = self.pending.iter().filter(|pending| {
                matches!(pending.runs, Runs::Waiting(_)) && pending.hints().contains(&hint)
            });
            u32::try_from(waiting.count()).unwrap_or(u32::MAX)
        };
        let broke: Vec<(Hint, String)> = waiting
            .into_iter()
            .filter(|(hint, _)| self.tries[*hint].saturating_add(waits(*hint)) < REPRODUCTIONS)
            .collect();
        if broke.is_empty() {
            return;
        }
        let start = Start::new(session, earlier, &call.before, kept);
        self.pending.push(Pending {
            runs: Runs::Waiting(Box::new(Waiting {
                start,
                made: made.clone(),
            })),
            then: Then::Rerun {
                broke,
                call: Box::new(call.clone()),
                arguments: arguments.clone(),
                classes: session.classes.clone(),
            },
            at: self.notes.len(),
        });
    }

    /// Whether `call` breaks a claim besides those `waiting` for runs beside the main one,
    /// that it would have reproduced (not violated already, a try left).
    pub(super) fn breaks_beyond(
        &self,
        call: &Call,
        waiting: &[(Hint, String)],
        session: &Session<'_>,
    ) -> bool {
        JUDGED.into_iter().any(|hint| {
            self.verdicts[hint] != Verdict::Violated
                && self.tries[hint] < REPRODUCTIONS
                && !waiting.iter().any(|(waits, _)| *waits == hint)
                && self.broken_claim(hint, call, &session.classes).is_some()
        })
    }

    /// Whether runs beside the main one decide the idempotence claim one call at a time:
    /// whether two calls at once are tried waits for them.
    pub(super) fn idempotence_pending(&self) -> bool {
        self.pending.iter().any(|pending| {
            matches!(pending.then, Then::Rerun { .. })
                && pending.hints().contains(&judge::BY_REPEATING)
        })
    }

    /// What `call` broke (`broke`), reproduced by runs started in `scope` that go on beside
    /// the main run; judged once they are joined.
    pub(super) fn rerun_beside(
        &mut self,
        (scope, session): (&'s Scope<'s, 'e>, &mut Session<'e>),
        (made, earlier, arguments): (&Made, usize, &Value),
        broke: Vec<(Hint, String)>,
        call: &Call,
        kept: &mut Option<Option<Arc<Kept>>>,
    ) {
        self.make_room(session);
        let start = Start::new(session, earlier, &call.before, kept);
        let (options, classes, deadline) =
            (session.options, session.classes.clone(), session.deadline);
        let (made, tried, judged) = (made.clone(), broke.clone(), classes.clone());
        let runs = scope.spawn(move || {
            Done::Rerun(rerun(
                (options, &classes, deadline),
                start.from(),
                &made,
                &tried,
            ))
        });
        self.pending.push(Pending {
            runs: Runs::Started(runs),
            then: Then::Rerun {
                broke,
                call: Box::new(call.clone()),
                arguments: arguments.clone(),
                classes: judged,
            },
            at: self.notes.len(),
        });
    }

    /// Two identical calls `made` at once, where they are still to be tried (see
    /// [`tries_together`](Self::tries_together)), by runs started in `scope` that go on
    /// beside the main run; judged once they are joined.
    pub(super) fn together_beside(
        &mut self,
        (scope, session): (&'s Scope<'s, 'e>, &mut Session<'e>),
        (made, earlier): (&Made, usize),
        call: &Call,
        kept: &mut Option<Option<Arc<Kept>>>,
    ) {
        if self.idempotence_pending() {
            self.join(session);
        }
        if !self.tries_together() {
            return;
        }
        self.make_room(session);
        let once = judge::effect(&call.before, &call.after, &session.classes);
        let start = Start::new(session, earlier, &call.before, kept);
        let (options, classes, deadline) =
            (session.options, session.classes.clone(), session.deadline);
        let made = made.clone();
        let runs = scope.spawn(move || {
            Done::Together(concurrently(
                options,
                &classes,
                start.from(),
                &made,
                &once,
                deadline,
            ))
        });
        // Tried already, as far as the tool's later calls go.
        self.concurrency = Some(BTreeMap::from([("tried", "in flight".to_owned())]));
        self.pending.push(Pending {
            runs: Runs::Started(runs),
            then: Then::Together,
            at: self.notes.len(),
        });
    }

    /// How many calls of the tool have runs going on beside the main one, or waiting.
    pub(in crate::probe) fn pending(&self) -> usize {
        self.pending.len()
    }

    /// The runs going on beside the main one waited for and set aside, where the probe stops
    /// on an error: none outlives it, and what they showed is not judged.
    pub(in crate::probe) fn abandon(&mut self) {
        for pending in std::mem::take(&mut self.pending) {
            if let Runs::Started(runs) = pending.runs {
                let _ = runs.join();
            }
        }
    }

    /// Where [`MOST_PENDING`] calls have runs going on beside the main one, the main run
    /// waits for them.
    fn make_room(&mut self, session: &mut Session<'_>) {
        if self.pending.len() >= MOST_PENDING {
            self.join(session);
        }
    }

    /// Every run going on beside the main one for the tool waited for, in the order they
    /// were started, and what each showed judged, its notes where the call's own end.
    pub(in crate::probe) fn join(&mut self, session: &mut Session<'_>) {
        let mut pending = std::mem::take(&mut self.pending);
        pending.reverse();
        while let Some(Pending { runs, then, at }) = pending.pop() {
            let had = self.notes.len();
            match (then, runs) {
                (
                    Then::Rerun {
                        broke,
                        call,
                        arguments,
                        classes,
                    },
                    runs,
                ) => {
                    let (broke, shown) = match runs {
                        Runs::Started(runs) => match runs.join() {
                            Ok(Done::Rerun(shown)) => (broke, shown),
                            _ => (broke.clone(), stopped(&broke, session.options.runs.max(1))),
                        },
                        Runs::Waiting(waiting) => {
                            let broke: Vec<(Hint, String)> = broke
                                .into_iter()
                                .filter(|(hint, _)| {
                                    self.verdicts[*hint] != Verdict::Violated
                                        && self.tries[*hint] < REPRODUCTIONS
                                })
                                .collect();
                            if broke.is_empty() {
                                continue;
                            }
                            for (hint, _) in &broke {
                                self.tries[*hint] += 1;
                            }
                            let asked = (session.options, &classes, session.deadline);
                            let shown = rerun(asked, waiting.start.from(), &waiting.made, &broke);
                            (broke, shown)
                        }
                    };
                    let judged = (&arguments, Some(&classes));
                    self.reproduced(session, judged, broke, &call, (None, &[]), shown);
                }
                (Then::Together, runs) => {
                    let done = match runs {
                        Runs::Started(runs) => runs.join().ok(),
                        Runs::Waiting(_) => None,
                    };
                    let shown = match done {
                        Some(Done::Together(shown)) => shown,
                        _ => (
                            None,
                            BTreeMap::from([(
                                "tried",
                                "not judged: the runs stopped on an internal error".to_owned(),
                            )]),
                            Vec::new(),
                        ),
                    };
                    self.concurred(shown);
                }
            }
            let notes: Vec<Note> = self.notes.drain(had..).collect();
            let count = notes.len();
            let at = at.min(self.notes.len());
            self.notes.splice(at..at, notes);
            for later in &mut pending {
                later.at += count;
            }
        }
    }
}

/// What reproduction runs that stopped on an internal error showed of `broke`: the first run
/// alone (so no violation).
fn stopped(broke: &[(Hint, String)], runs: u32) -> Rerun {
    let seen = |what: &String| {
        let mut seen = vec![format!("run 1: {what}")];
        if runs > 1 {
            seen.push(format!(
                "runs 2 to {runs} could not be made: they stopped on an internal error"
            ));
        }
        seen
    };
    let tallied = broke.iter().map(|(_, what)| (1, seen(what))).collect();
    (tallied, Vec::new())
}
