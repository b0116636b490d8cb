//! What a tool's verdicts say beyond themselves: why each claim left unjudged is, and, for a
//! tool whose calls a host resolves (`tools/resolve`), what its resolutions claimed beyond the
//! listing and whether the calls kept it.

use std::collections::BTreeMap;

use mcp_annotations::descriptor::Hint;
use mcp_annotations::resolution::ResolveResult;
use mcp_annotations::{Tool, ToolAnnotations};
use serde_json::{Value, json};

use super::runs::{Call, broken, untold};
use super::{Classes, REPRODUCTIONS, record};
use crate::report::{ByHint, CallNote, ResolutionReport, Verdict};
use crate::server::{Answer, Peer};

/// The verdict on a claim some call broke, from its reproduction: violated when it broke in
/// every one of the `runs` runs, else nondeterministic.
pub(super) fn settled(reproduced: u32, runs: u32) -> Verdict {
    if reproduced == runs {
        Verdict::Violated
    } else {
        Verdict::Nondeterministic
    }
}

/// A verdict as it stands once every call is made: verified only where a call succeeded (one
/// that failed verifies nothing, however little it changed) and no call may have broken it
/// unseen (`untold`: a change too large to read), whatever the others showed.
pub(super) fn final_verdict(verdict: Verdict, succeeded: u32, untold: bool) -> Verdict {
    match verdict {
        Verdict::Verified if succeeded == 0 || untold => Verdict::Unexercised,
        other => other,
    }
}

/// Whether `call` can judge `hint` at all: closed world only where the server's attempts to
/// reach the network are recorded.
pub(super) fn judgeable(hint: Hint, call: &Call) -> bool {
    hint != Hint::OpenWorld || call.attempts.is_some()
}

/// What a tool's calls came to, for the reason each claim left unjudged is.
pub(super) struct Unjudged<'a> {
    /// Why the tool was not called at all.
    pub(super) skip: Option<&'a str>,
    pub(super) calls: u32,
    pub(super) succeeded: u32,
    pub(super) out_of_time: bool,
    /// What the failed calls answered.
    pub(super) failures: &'a [String],
}

/// Why no call of a tool succeeded: the answer every call gave, said once, or the distinct
/// answers (the three most given), each with how many calls gave it.
fn failed_answers(calls: u32, failures: &[String]) -> String {
    let mut distinct: Vec<(&str, u32)> = Vec::new();
    for failure in failures {
        match distinct
            .iter_mut()
            .find(|(seen, _)| *seen == failure.as_str())
        {
            Some((_, count)) => *count += 1,
            None => distinct.push((failure.as_str(), 1)),
        }
    }
    match distinct.as_slice() {
        [] => format!("{calls} calls, none succeeded"),
        [(only, _)] if calls > 1 => format!("{calls} calls, none succeeded, each answering {only}"),
        [(only, _)] => format!("1 call, which did not succeed: {only}"),
        _ => {
            // The most given first; of as many, the first given.
            distinct.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
            let shown: Vec<String> = distinct
                .iter()
                .take(3)
                .map(|(answer, count)| format!("{answer} ({count} of them)"))
                .collect();
            let more = distinct.len().saturating_sub(3);
            let more = if more > 0 {
                format!("; and {more} other answers")
            } else {
                String::new()
            };
            format!(
                "{calls} calls, none succeeded; they answered {}{more}",
                shown.join("; ")
            )
        }
    }
}

impl Unjudged<'_> {
    /// Each claim left unjudged (unexercised or nondeterministic) with why: the one reason the
    /// tool was not called, or what its calls answered.
    pub(super) fn reasons(
        &self,
        verdicts: &ByHint<Verdict>,
        unsure: &ByHint<Option<String>>,
        untold: &ByHint<Option<String>>,
    ) -> BTreeMap<&'static str, String> {
        let (calls, succeeded) = (self.calls, self.succeeded);
        let why = if let Some(reason) = self.skip {
            reason.to_owned()
        } else if calls == 0 && self.out_of_time {
            "never called: the probe's time ran out first".to_owned()
        } else if calls == 0 {
            "never called: no arguments could be generated from its input schema".to_owned()
        } else if succeeded == 0 {
            failed_answers(calls, self.failures)
        } else {
            format!("{calls} calls, {succeeded} succeeded, none of them judging it")
        };
        verdicts
            .iter()
            .filter_map(|(hint, verdict)| match verdict {
                Verdict::Unexercised if hint == Hint::OpenWorld && self.skip.is_none() => {
                    let why = match record::recorder() {
                        Err(unrecorded) => format!(
                            "its attempts to reach the network cannot be recorded here: {unrecorded}"
                        ),
                        Ok(()) => why.clone(),
                    };
                    Some((hint.claim(), why))
                }
                Verdict::Unexercised => Some((
                    hint.claim(),
                    untold[hint]
                        .as_ref()
                        .map_or_else(|| why.clone(), |untold| format!("not judged: {untold}")),
                )),
                Verdict::Nondeterministic => Some((
                    hint.claim(),
                    format!(
                        "nondeterministic: {}",
                        unsure[hint].clone().unwrap_or_default()
                    ),
                )),
                _ => None,
            })
            .collect()
    }
}

/// The resolutions of a resolvable tool's calls: each call resolved before it is made, its
/// claims beyond the listing's judged by the call (reproduced in every run, as the listing's
/// are), each hint's verdict on them, and why a call fell back on the listing.
pub(super) struct Resolutions {
    /// Each hint's verdict on what resolutions claimed beyond the listing.
    pub(super) verdicts: ByHint<Verdict>,
    /// How many times each hint's break was tried for reproduction.
    pub(super) tries: ByHint<u32>,
    /// How many calls were resolved.
    resolved: u32,
    /// Why the first call that was not resolved was not.
    fell_back: Option<String>,
    /// Each hint a call may have broken unseen (a change too large to read): never verified.
    untold: ByHint<bool>,
    /// Whether the last `tools/resolve` got no answer at all.
    unanswered: bool,
}

impl Resolutions {
    pub(super) fn new() -> Self {
        Resolutions {
            verdicts: ByHint::default(),
            tries: ByHint::default(),
            resolved: 0,
            fell_back: None,
            untold: ByHint::default(),
            unanswered: false,
        }
    }

    /// Resolves the call of `tool` with `arguments` ([`before_call`](Self::before_call)), then
    /// lets the server settle; a server that resolving killed is started again (`restart`),
    /// said in `findings`, and the call judged by the listed hints.
    ///
    /// # Errors
    ///
    /// The server cannot be started again.
    pub(super) fn resolve(
        &mut self,
        peer: &mut Peer,
        restart: impl FnOnce() -> Result<Peer, String>,
        (tool, arguments, listed): (&Tool, &Value, &ByHint<bool>),
        findings: &mut Vec<String>,
    ) -> Result<Option<(ByHint<bool>, Value)>, String> {
        let resolved = self.before_call(peer, tool, arguments, listed);
        peer.settle(super::SETTLE);
        // A server that gave no answer may be on its way out (its tracer outlives it for a
        // moment): seen dead by waiting, not by a glance.
        if !(self.unanswered && peer.exited()) && peer.alive() {
            return Ok(resolved);
        }
        let why = format!(
            "the server exited while resolving a call of `{}` with {arguments} (tools/resolve); \
             started again, and the call judged by the listed hints",
            tool.name()
        );
        findings.push(peer.explain(why.clone()));
        self.fell_back.get_or_insert(why);
        peer.end();
        *peer = restart()?;
        peer.settle(super::SETTLE);
        Ok(None)
    }

    /// Resolves the call of `tool` with `arguments`: what the resolution claims, with the
    /// hints it gave at their effective values, or `None` where the server gave none acceptable (an error, a malformed result, hints outside the listed
    /// ones), with why kept. Each hint claimed beyond the listing's (`listed`) is exercised
    /// from then on.
    fn before_call(
        &mut self,
        peer: &mut Peer,
        tool: &Tool,
        arguments: &Value,
        listed: &ByHint<bool>,
    ) -> Option<(ByHint<bool>, Value)> {
        let params = json!({"name": tool.name(), "arguments": arguments});
        let asked = peer.request("tools/resolve", params);
        self.unanswered = asked.is_err();
        let read = match asked {
            Ok(Answer::Result(result)) => ResolveResult::from_value(&result)
                .and_then(|read| {
                    read.accept(tool.name(), &tool.annotations)?;
                    Ok(read)
                })
                .map_err(|malformed| format!("an unacceptable result: {}", malformed.reason())),
            Ok(Answer::Error(error)) => Err(format!("a JSON-RPC error {error}")),
            Err(error) => Err(error),
        };
        let read = match read {
            Ok(read) => read,
            Err(why) => {
                self.fell_back.get_or_insert(format!(
                    "a call with {arguments} was judged by the listed hints: tools/resolve \
                     answered {why}"
                ));
                return None;
            }
        };
        self.resolved += 1;
        let claimed = claims(read.annotations());
        for hint in beyond(&claimed, listed) {
            if self.verdicts[hint] == Verdict::Unclaimed {
                self.verdicts[hint] = Verdict::Unexercised;
            }
        }
        Some((claimed, read.to_value()["annotations"].take()))
    }

    /// Judges `call` by what its resolution claimed beyond the listing (`beyond`): a hint kept
    /// by a call that succeeded is verified, one broken is put in `broke`, to be reproduced
    /// with the listing's (twice at most a hint, as theirs).
    pub(super) fn judge(
        &mut self,
        beyond: &[Hint],
        (call, classes): (&Call, &Classes),
        ok: bool,
        broke: &mut Vec<(Hint, String)>,
    ) {
        for &hint in beyond {
            if self.verdicts[hint] == Verdict::Violated || !judgeable(hint, call) {
                continue;
            }
            match broken(hint, call, classes) {
                None if untold(hint, call, classes).is_some() => self.untold[hint] = true,
                None if ok && self.verdicts[hint] == Verdict::Unexercised => {
                    self.verdicts[hint] = Verdict::Verified;
                }
                Some(what) if self.tries[hint] < REPRODUCTIONS => {
                    self.tries[hint] += 1;
                    broke.push((hint, what));
                }
                _ => {}
            }
        }
    }

    /// The verdict on a hint a resolution claimed and a call broke, from its reproduction (in
    /// `reproduced` of `runs` runs, with what each saw): violated when every run broke it,
    /// else nondeterministic; and its note, naming the resolution (`sent`) that was wrong.
    pub(super) fn tallied(
        &mut self,
        hint: Hint,
        (reproduced, runs, seen_in): (u32, u32, Vec<String>),
        what: &str,
        (arguments, sent): (&Value, &Value),
        diff: Vec<String>,
    ) -> CallNote {
        let claimed = "its resolution (tools/resolve) claimed it for this call";
        self.verdicts[hint] = settled(reproduced, runs);
        let problem = if self.verdicts[hint] == Verdict::Violated {
            crate::progress::violation();
            format!("{claimed}: {what}")
        } else {
            format!(
                "nondeterministic: {claimed}, and it broke in {reproduced} of {runs} runs: {}",
                seen_in.join("; ")
            )
        };
        CallNote {
            hint: Some(hint),
            arguments: arguments.clone(),
            resolution: Some(sent.clone()),
            problem: Some(problem),
            runs: Some(seen_in),
            diff: Some(diff),
            ..CallNote::default()
        }
    }

    /// The report's `resolution`: how many calls were resolved, each hint's verdict on what
    /// they claimed beyond the listing, and why a call fell back on the listed hints.
    pub(super) fn report(&self, succeeded: u32) -> ResolutionReport {
        ResolutionReport {
            verdicts: ByHint::from_fn(|hint| {
                final_verdict(self.verdicts[hint], succeeded, self.untold[hint])
            }),
            resolved: self.resolved,
            fell_back: self.fell_back.clone(),
        }
    }
}

/// Which hints `hints` claim: each at its effective value, its trusted one.
pub(super) fn claims(hints: &ToolAnnotations) -> ByHint<bool> {
    ByHint::from_fn(|hint| hints.claims(hint))
}

/// The hints a resolution claims that the listing does not: what the call is judged by
/// beyond the listing's own claims.
pub(super) fn beyond<'a>(
    resolved: &'a ByHint<bool>,
    listed: &'a ByHint<bool>,
) -> impl Iterator<Item = Hint> + 'a {
    JUDGED
        .into_iter()
        .filter(move |&hint| resolved[hint] && !listed[hint])
}

/// The order the probe judges a call's claims in, and so the order of their notes: the order
/// its report lists claims in.
pub(super) const JUDGED: [Hint; 4] = crate::report::CLAIMS;
