//! What a call that broke a claim is made again for: the same calls in fresh runs, where every
//! run must show the break for a violation; and idempotence tried with two identical calls at
//! once.

use mcp_annotations::descriptor::Hint;
use serde_json::Value;

use super::ToolProbe;
use crate::probe::Options;
use crate::probe::exit::{Exit, created, shape};
use crate::probe::runs::{Call, From, Made, broken, reproduce, tally};
use crate::probe::session::Session;
use crate::probe::together::{Concurred, concurrently};
use crate::probe::verdicts::settled;
use crate::report::{CallNote, Note, Verdict};
use mcp_annotations_verify::judge;
use mcp_annotations_verify::judge::classes::{Classes, Place};

impl ToolProbe<'_, '_, '_> {
    /// What `call` broke, reproduced in every run (each run made once, for every hint it
    /// broke): violated where every run broke it, else nondeterministic; a hint its
    /// resolution (`sent`) claimed `beyond` the listing is the resolution's verdict.
    pub(super) fn reproduce(
        &mut self,
        session: &mut Session<'_>,
        (made, earlier, arguments): (&Made, usize, &Value),
        broke: Vec<(Hint, String)>,
        call: &Call,
        (sent, beyond): (Option<&Value>, &[Hint]),
    ) {
        let from = session.from(earlier, &call.before);
        let runs = rerun(
            (session.options, &session.classes, session.deadline),
            from,
            made,
            &broke,
        );
        self.reproduced(
            session,
            (arguments, None),
            broke,
            call,
            (sent, beyond),
            runs,
        );
    }

    /// What the runs that made `call` again showed (`runs`, by [`rerun`]) of what it broke,
    /// judged by the places classed when the call was made (`classes`; the session's own
    /// where it is judged at once): see [`reproduce`](Self::reproduce).
    pub(super) fn reproduced(
        &mut self,
        session: &mut Session<'_>,
        (arguments, classes): (&Value, Option<&Classes>),
        broke: Vec<(Hint, String)>,
        call: &Call,
        (sent, beyond): (Option<&Value>, &[Hint]),
        (tallied, exits): Rerun,
    ) {
        let runs = session.options.runs.max(1);
        let transient = self.transient(session, call, &exits);
        for ((hint, what), (reproduced, seen_in)) in broke.into_iter().zip(tallied) {
            // What broke it was only what the server's process keeps while it runs: the try
            // given back. Else what broke it, said without that.
            let what = if transient.is_empty() {
                what
            } else {
                match broken(hint, call, &session.classes) {
                    None => {
                        self.tries[hint] = self.tries[hint].saturating_sub(1);
                        continue;
                    }
                    Some(what) => what,
                }
            };
            // The pair that broke it: the second call's, where the first kept it.
            let again = call.again.as_ref().unwrap_or(&call.after);
            let by = classes.unwrap_or(&session.classes);
            let first = judge::broken(hint, &call.before, &call.after, None, by);
            let (from, to) = match hint {
                _ if judge::needs_again(hint) || first.is_none() => (&call.after, again),
                _ => (&call.before, &call.after),
            };
            let diff = judge::diff(from, to, 12);
            // A claim of the call's resolution, not the listing's: its verdict.
            if let Some(sent) = sent.filter(|_| beyond.contains(&hint)) {
                let seen = (reproduced, runs, seen_in);
                let note = self
                    .resolutions
                    .tallied(hint, seen, &what, (arguments, sent), diff);
                self.notes.push(Note::Call(note));
                continue;
            }
            self.verdicts[hint] = settled(reproduced, runs);
            let note = if self.verdicts[hint] == Verdict::Violated {
                crate::progress::violation();
                CallNote {
                    runs: Some(seen_in),
                    ..CallNote::problem(arguments, what)
                }
            } else {
                let why = format!(
                    "broken in {reproduced} of {runs} runs with {arguments}: {}",
                    seen_in.join("; ")
                );
                let note = CallNote::problem(arguments, format!("nondeterministic: {why}"));
                self.unsure[hint] = Some(why);
                note
            };
            self.notes.push(Note::Call(CallNote {
                hint: Some(hint),
                diff: Some(diff),
                ..note
            }));
        }
    }

    /// The paths `call` created in the main run that the server's exit removed in the runs
    /// that made it again (each by its shape: a file named for its process has another name in
    /// each run), and in none of them outlived it: the server's process's own (a registration,
    /// a lock, created on first use and removed at exit), classed volatile for the rest of
    /// the run, and said.
    fn transient(&mut self, session: &mut Session<'_>, call: &Call, exits: &[Exit]) -> Vec<String> {
        let removed = |shape: &String| exits.iter().any(|exit| exit.removed.contains(shape));
        let kept = |shape: &String| exits.iter().any(|exit| exit.kept.contains(shape));
        let transient: Vec<String> = created(call)
            .into_iter()
            .filter(|path| {
                let shape = shape(path);
                removed(&shape) && !kept(&shape)
            })
            .collect();
        for path in &transient {
            let place = Place::entry(path);
            if !session
                .classes
                .volatile
                .iter()
                .any(|had| had.text() == place.text())
            {
                session.classes.volatile.push(place);
            }
        }
        if !transient.is_empty() {
            self.say(format!(
                "{} created by a call and removed as the server exited in the runs that made \
                 the call again (and outlived it in none): the server's process's own while \
                 it runs (a registration, a lock), not judged",
                transient
                    .iter()
                    .map(|path| format!("`{path}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        transient
    }

    /// Idempotence under two identical calls at once, tried once per tool, on a call that
    /// one at a time kept it (a read-only claim judges every call).
    pub(super) fn concurrently(
        &mut self,
        session: &mut Session<'_>,
        made: &Made,
        earlier: usize,
        call: &Call,
    ) {
        if !self.tries_together() {
            return;
        }
        let classes = &session.classes;
        let once = judge::effect(&call.before, &call.after, classes);
        let from = session.from(earlier, &call.before);
        let options = session.options;
        let found = concurrently(options, classes, from, made, &once, session.deadline);
        self.concurred(found);
    }

    /// Whether two identical calls at once are still to be tried: once per tool, where one
    /// call at a time kept idempotence (a read-only claim judges every call).
    pub(super) fn tries_together(&self) -> bool {
        self.concurrency.is_none()
            && !self.tool.annotations.read_only()
            && self.verdicts[judge::BY_REPEATING] == Verdict::Verified
    }

    /// What two identical calls at once showed (by [`concurrently`]), judged.
    pub(super) fn concurred(&mut self, (verdict, outcomes, found): Concurred) {
        if let Some(verdict) = verdict {
            self.verdicts[judge::BY_REPEATING] = verdict;
            if verdict == Verdict::Violated {
                crate::progress::violation();
            }
            if verdict == Verdict::Nondeterministic {
                self.unsure[judge::BY_REPEATING] = Some(
                    "two identical calls at once did more than one in some runs, not in others"
                        .to_owned(),
                );
            }
        }
        self.notes.extend(found.into_iter().map(Note::Call));
        self.concurrency = Some(outcomes);
    }
}

/// What runs 2 to `--runs` showed of what a call broke (`broke`): each run made once, the
/// call `made` again from where it started (`from`), every hint it broke judged there. For
/// each thing it broke, in how many runs it showed and what each run saw; and what each run's
/// exit did with the paths the call created.
pub(super) type Rerun = (Vec<(u32, Vec<String>)>, Vec<Exit>);

/// The runs of a [`Rerun`], made with `options` and `classes` by the probe's `deadline`.
pub(super) fn rerun(
    (options, classes, deadline): (&Options, &Classes, std::time::Instant),
    from: From<'_>,
    made: &Made,
    broke: &[(Hint, String)],
) -> Rerun {
    let runs = options.runs.max(1);
    let hints: Vec<Hint> = broke.iter().map(|(hint, _)| *hint).collect();
    let whats: Vec<String> = broke.iter().map(|(_, what)| what.clone()).collect();
    let exits = std::sync::Mutex::new(Vec::new());
    let tallied = tally(
        (options, runs),
        &whats,
        |run| {
            let (broke, exit) = reproduce(options, classes, from, made, &hints, run, deadline)?;
            exits
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(exit);
            Ok(broke)
        },
        ("nothing broke it", "could not be made"),
    );
    let exits = exits
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    (tallied, exits)
}
