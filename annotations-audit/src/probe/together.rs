//! Idempotence under two identical calls in flight at once: on one connection, and to two
//! server processes on one sandbox, each from the sandbox the call found in the main run.

use std::time::Instant;

use serde_json::json;

use super::Options;
use super::SETTLE;
use super::answers::failed;
use super::runs::{From, Made, at_once, prepared, tally};
use super::sandbox::start;
use super::verdicts::settled;
use crate::report::{CallNote, Verdict};
use crate::server::{self, Answer};
use mcp_annotations_verify::judge;
use mcp_annotations_verify::judge::classes::Classes;

/// How two identical calls are put in flight at once.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Together {
    /// Both sent on one connection before either is answered.
    OneConnection,
    /// One to each of two server processes on one sandbox.
    TwoProcesses,
}

impl Together {
    /// In the report's words.
    pub(super) fn word(self) -> &'static str {
        match self {
            Together::OneConnection => "oneConnection",
            Together::TwoProcesses => "twoProcesses",
        }
    }
}

/// Two calls `made` at once, after every call of `history`, in a fresh sandbox: what they did
/// beyond `once` (what one call did in the main run, by [`judge::effect`]), `Ok(None)` when
/// nothing; `Err` when it cannot be judged: the run could not be made, a second server
/// could not start beside the first, both calls failed, or they did not overlap (the first
/// answered before the second was sent).
pub(super) fn together(
    options: &Options,
    classes: &Classes,
    from: From<'_>,
    made: &Made,
    once: &judge::Effect,
    (how, run): (Together, u32),
    deadline: Instant,
) -> Result<Option<String>, String> {
    // Over HTTP each request is answered before the next is sent: two are never in flight.
    if options.http.is_some() {
        return Err(
            "over HTTP the probe sends a request once the one before it is answered, \
                    so two calls are never in flight at once"
                .to_owned(),
        );
    }
    let name = format!("{}{}{run}", from.name, how.word());
    // Both servers at once only where runs may go side by side: a `--writable` place they
    // share would see their starts race.
    let two = how == Together::TwoProcesses && options.side_by_side();
    // Nothing is read of the record here: the servers are not recorded.
    let (sandbox, mut first, started, made, mut before) =
        prepared(options, classes, from, made, (&name, two, false), deadline)?;
    let params = json!({"name": made.tool, "arguments": made.arguments});
    // The second server started beside the first on a copy; on a replayed run, once the
    // calls before this one are made again.
    let mut second = match (how, started) {
        (Together::OneConnection, _) => None,
        (Together::TwoProcesses, Some(second)) => Some(second),
        (Together::TwoProcesses, None) => {
            let second = start(options, &sandbox, deadline).map_err(|error| {
                format!("a second server process could not start on the same sandbox: {error}")
            })?;
            // What the second server wrote as it started is not the calls' doing.
            first.settle(SETTLE);
            let mut second = second;
            second.settle(SETTLE);
            before = sandbox.observe();
            Some(second)
        }
    };
    // Each call resolved first, one after the other, as the main run's was.
    let restart = || start(options, &sandbox, deadline);
    made.resolve_or_restart(&mut first, restart)?;
    match &mut second {
        Some(second) => made.resolve_or_restart(second, restart)?,
        None => made.resolve_or_restart(&mut first, restart)?,
    }
    // The servers stopped while both calls are written, so that both are waiting when
    // they go on: in flight at once however loaded the machine is.
    let mut paused = vec![first.pause()];
    if let Some(second) = &mut second {
        paused.push(second.pause());
    }
    let sent = |a: Result<u64, String>, b: Result<u64, String>| {
        let sent = Instant::now();
        for ids in paused.iter().flatten() {
            server::resume(ids);
        }
        Ok::<_, String>((a?, b?, sent))
    };
    let (answers, sent) = match &mut second {
        None => {
            let a = first.send_request("tools/call", params.clone());
            let b = first.send_request("tools/call", params);
            let (a, b, sent) = sent(a, b)?;
            (first.answers("tools/call", &[a, b]), sent)
        }
        Some(second) => {
            let a = first.send_request("tools/call", params.clone());
            let b = second.send_request("tools/call", params);
            let (a, b, sent) = sent(a, b)?;
            let mut answers = first.answers("tools/call", &[a]);
            answers.extend(second.answers("tools/call", &[b]));
            (answers, sent)
        }
    };
    first.settle(SETTLE);
    if let Some(second) = &mut second {
        second.settle(SETTLE);
    }
    let after = sandbox.observe();
    if let Some(failure) = sandbox.failure([&before, &after]) {
        return Err(failure);
    }
    let succeeded = answers
        .iter()
        .filter(|(answer, _)| matches!(answer, Ok(Answer::Result(result)) if !failed(result)))
        .count();
    if succeeded == 0 {
        return Err("neither of the two calls succeeded".to_owned());
    }
    // Both in flight at once: the first answer read only after the second call was sent.
    if answers.iter().any(|(_, at)| *at <= sent) {
        return Err(
            "the calls did not overlap: one was answered before the other was sent".to_owned(),
        );
    }
    let twice = judge::effect(&before, &after, classes);
    Ok(judge::more_than(once, &twice).map(|what| {
        format!(
            "two identical calls at once ({}) did more than one: {what}",
            match how {
                Together::OneConnection => "on one connection",
                Together::TwoProcesses => "to two server processes on one sandbox",
            }
        )
    }))
}

/// What two identical calls at once showed of an idempotence claim: the verdict where they
/// judged it, each way's outcome in words, and the report's notes (see [`concurrently`]).
pub(super) type Concurred = (
    Option<Verdict>,
    std::collections::BTreeMap<&'static str, String>,
    Vec<CallNote>,
);

/// What two identical calls at once showed of an idempotence claim, in every mode: the
/// verdict where they judged it (violated only when every one of `--runs` runs shows it,
/// nondeterministic when some do), each mode's outcome in words, and the report's note of a
/// violation.
pub(super) fn concurrently(
    options: &Options,
    classes: &Classes,
    from: From<'_>,
    made: &Made,
    once: &judge::Effect,
    deadline: Instant,
) -> Concurred {
    let runs = options.runs.max(1);
    let mut verdict = None;
    let mut outcomes = std::collections::BTreeMap::new();
    let mut notes = Vec::new();
    let first_of = |how| together(options, classes, from, made, once, (how, 1), deadline);
    // Where runs may go side by side, the first run of each way at once: the second way's is
    // set aside where the first way's is a violation.
    let ways = [Together::OneConnection, Together::TwoProcesses];
    let mut early: Vec<Option<_>> = if options.side_by_side() {
        at_once(&ways, first_of).into_iter().map(Some).collect()
    } else {
        vec![None, None]
    };
    for (at, how) in ways.into_iter().enumerate() {
        if verdict == Some(Verdict::Violated) {
            let said = if early[at].is_some() {
                "made beside the run on one connection, not counted: violated on one \
                 connection already"
            } else {
                "not tried: violated on one connection already"
            };
            outcomes.insert(how.word(), said.to_owned());
            continue;
        }
        let first = early[at].take().unwrap_or_else(|| first_of(how));
        let outcome = match first {
            Err(why) => format!("not judged: {why}"),
            Ok(None) => "overlapped, and did no more than one call".to_owned(),
            Ok(Some(what)) => {
                let (reproduced, seen_in) = tally(
                    (options, runs),
                    std::slice::from_ref(&what),
                    |run| {
                        together(options, classes, from, made, once, (how, run), deadline)
                            .map(|found| vec![found])
                    },
                    ("did no more than one call", "not judged"),
                )
                .remove(0);
                let problem = match settled(reproduced, runs) {
                    Verdict::Violated => {
                        verdict = Some(Verdict::Violated);
                        what.clone()
                    }
                    unsure => {
                        verdict.get_or_insert(unsure);
                        format!("nondeterministic: in {reproduced} of {runs} runs, {what}")
                    }
                };
                notes.push(CallNote {
                    hint: Some(judge::BY_REPEATING),
                    runs: Some(seen_in),
                    ..CallNote::problem(&made.arguments, problem.clone())
                });
                problem
            }
        };
        outcomes.insert(how.word(), outcome);
    }
    (verdict, outcomes, notes)
}
