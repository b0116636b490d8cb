//! What a tool's verdicts say beyond themselves: why each claim left unjudged is, and, for a
//! tool whose calls a host resolves (`tools/resolve`), what its resolutions claimed beyond the
//! listing and whether the calls kept it.

use mcp_annotations::resolution::ResolveResult;
use mcp_annotations::{Tool, ToolAnnotations};
use serde_json::{Value, json};

use super::runs::{Call, broken};
use super::{Classes, HINTS, REPRODUCTIONS, Verdict, network};
use crate::server::{Answer, Peer};

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

impl Unjudged<'_> {
    /// Each claim left unjudged (unexercised or nondeterministic) with why: the one reason the
    /// tool was not called, or what its calls answered.
    pub(super) fn reasons(
        &self,
        verdicts: &[Verdict],
        unsure: &[Option<String>],
    ) -> serde_json::Map<String, Value> {
        let (calls, succeeded) = (self.calls, self.succeeded);
        let why = if let Some(reason) = self.skip {
            reason.to_owned()
        } else if calls == 0 && self.out_of_time {
            "never called: the probe's time ran out first".to_owned()
        } else if calls == 0 {
            "never called: no arguments could be generated from its input schema".to_owned()
        } else if succeeded == 0 {
            let shown: Vec<&str> = self.failures.iter().take(3).map(String::as_str).collect();
            format!(
                "{calls} calls, none succeeded; the first answers: {}",
                shown.join("; ")
            )
        } else {
            format!("{calls} calls, {succeeded} succeeded, none of them judging it")
        };
        HINTS
            .iter()
            .zip(verdicts)
            .enumerate()
            .filter_map(|(at, (hint, verdict))| match verdict {
                Verdict::Unexercised if at == 3 && self.skip.is_none() => {
                    let why = match network::recorder() {
                        Err(unrecorded) => format!(
                            "its attempts to reach the network cannot be recorded here: {unrecorded}"
                        ),
                        Ok(()) => why.clone(),
                    };
                    Some(((*hint).to_owned(), Value::from(why)))
                }
                Verdict::Unexercised => Some(((*hint).to_owned(), Value::from(why.clone()))),
                Verdict::Nondeterministic => Some((
                    (*hint).to_owned(),
                    Value::from(format!(
                        "nondeterministic: {}",
                        unsure.get(at).cloned().flatten().unwrap_or_default()
                    )),
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
    /// Each hint's verdict on what resolutions claimed beyond the listing (as [`HINTS`]).
    pub(super) verdicts: [Verdict; HINTS.len()],
    /// How many times each hint's break was tried for reproduction.
    pub(super) tries: [u32; HINTS.len()],
    /// How many calls were resolved.
    resolved: u32,
    /// Why the first call that was not resolved was not.
    fell_back: Option<String>,
}

impl Resolutions {
    pub(super) fn new() -> Self {
        Resolutions {
            verdicts: [Verdict::Unclaimed; HINTS.len()],
            tries: [0; HINTS.len()],
            resolved: 0,
            fell_back: None,
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
        (tool, arguments, listed): (&Tool, &Value, &[bool; HINTS.len()]),
        findings: &mut Vec<Value>,
    ) -> Result<Option<([bool; HINTS.len()], Value)>, String> {
        let resolved = self.before_call(peer, tool, arguments, listed);
        peer.settle(super::SETTLE);
        if peer.alive() {
            return Ok(resolved);
        }
        let why = format!(
            "the server exited while resolving a call of `{}` with {arguments} (tools/resolve); \
             started again, and the call judged by the listed hints",
            tool.name()
        );
        findings.push(json!(peer.explain(why.clone())));
        self.fell_back.get_or_insert(why);
        *peer = restart()?;
        peer.settle(super::SETTLE);
        Ok(None)
    }

    /// Resolves the call of `tool` with `arguments`: what the resolution claims (as
    /// [`HINTS`]), with the hints it gave at their effective values, or `None` where the
    /// server gave none acceptable (an error, a malformed result, hints outside the listed
    /// ones), with why kept. Each hint claimed beyond the listing's (`listed`) is exercised
    /// from then on.
    fn before_call(
        &mut self,
        peer: &mut Peer,
        tool: &Tool,
        arguments: &Value,
        listed: &[bool; HINTS.len()],
    ) -> Option<([bool; HINTS.len()], Value)> {
        let params = json!({"name": tool.name(), "arguments": arguments});
        let read = match peer.request("tools/resolve", params) {
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
        beyond: &[usize],
        (call, classes): (&Call, &Classes),
        ok: bool,
        broke: &mut Vec<(usize, String)>,
    ) {
        for &hint in beyond {
            // Closed world is judged only where attempts are recorded.
            if self.verdicts[hint] == Verdict::Violated || (hint == 3 && call.attempts.is_none()) {
                continue;
            }
            match broken(hint, call, classes) {
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
        hint: usize,
        (reproduced, runs, seen_in): (u32, u32, Vec<String>),
        what: &str,
        (arguments, sent): (&Value, &Value),
        diff: Vec<String>,
    ) -> Value {
        let claimed = "its resolution (tools/resolve) claimed it for this call";
        let problem = if reproduced == runs {
            self.verdicts[hint] = Verdict::Violated;
            crate::progress::violation();
            format!("{claimed}: {what}")
        } else {
            self.verdicts[hint] = Verdict::Nondeterministic;
            format!(
                "nondeterministic: {claimed}, and it broke in {reproduced} of {runs} runs: {}",
                seen_in.join("; ")
            )
        };
        json!({
            "hint": HINTS[hint],
            "arguments": arguments,
            "resolution": sent,
            "problem": problem,
            "runs": seen_in,
            "diff": diff,
        })
    }

    /// The report's `resolution`: how many calls were resolved, each hint's verdict on what
    /// they claimed beyond the listing, and why a call fell back on the listed hints.
    pub(super) fn report(&self, succeeded: u32) -> Value {
        let mut report: serde_json::Map<String, Value> = HINTS
            .iter()
            .zip(&self.verdicts)
            .map(|(hint, verdict)| {
                // Verified only with a call that did not fail.
                let verdict = match verdict {
                    Verdict::Verified if succeeded == 0 => Verdict::Unexercised,
                    other => *other,
                };
                ((*hint).to_owned(), Value::from(verdict.word()))
            })
            .collect();
        report.insert("resolved".to_owned(), json!(self.resolved));
        if let Some(why) = &self.fell_back {
            report.insert("fellBack".to_owned(), json!(why));
        }
        Value::Object(report)
    }
}

/// What `hints` claim, in the probe's words ([`HINTS`]): read-only, idempotent,
/// non-destructive, closed-world, each at its effective value.
pub(super) fn claims(hints: &ToolAnnotations) -> [bool; HINTS.len()] {
    [
        hints.read_only(),
        hints.idempotent(),
        !hints.destructive(),
        !hints.open_world(),
    ]
}

/// The hints a resolution claims that the listing does not: what the call is judged by
/// beyond the listing's own claims.
pub(super) fn beyond<'a>(
    resolved: &'a [bool; HINTS.len()],
    listed: &'a [bool; HINTS.len()],
) -> impl Iterator<Item = usize> + 'a {
    (0..HINTS.len()).filter(move |&hint| resolved[hint] && !listed[hint])
}
