//! One tool's cases: its arguments (the user's, then generated ones), each call resolved
//! where the tool is resolvable, made and observed, each claim judged by what the call
//! changed, what broke a claim reproduced in fresh runs, and idempotence tried with two
//! identical calls at once.

use std::collections::BTreeMap;
use std::time::Instant;

use mcp_annotations::Tool;
use mcp_annotations::descriptor::Hint;
use serde_json::Value;

use super::REPRODUCTIONS;
use super::arguments::Cases;
use super::origins::Origins;
use super::parts::{collect, stop_early, unjudged_notes};
use super::runs::{Call, Made, broken, call, untold};
use super::session::Session;
use super::verdicts::{JUDGED, Resolutions, Unjudged, beyond, claims, final_verdict, judgeable};
use crate::report::{ByHint, CallNote, Case, Note, ProbedTool, Verdict};
use mcp_annotations_verify::judge;
use mcp_annotations_verify::judge::classes::Classes;
use mcp_annotations_verify::observe::tree::Tree;

mod again;
mod answered;
mod beside;

pub(super) use beside::{Beside, MOST_BESIDE};

/// How many distinct arguments that succeeded a tool's row keeps (`succeededWith`).
const SUCCEEDED_KEPT: usize = 3;

/// The probe of `tool`, with the user's `written` cases first: its calls made, its row to
/// [`finish`](ToolProbe::finish) once the runs it started `beside` the main one (where they
/// may go on) are done.
///
/// # Errors
///
/// The server died and cannot be started again.
pub(super) fn probe<'t, 's, 'e>(
    session: &mut Session<'e>,
    tool: &'t Tool,
    written: &[(Value, &'static str)],
    beside: Beside<'s, 'e>,
) -> Result<ToolProbe<'t, 's, 'e>, String> {
    let mut probe = ToolProbe::new(tool, beside);
    probe.output = tool
        .output_schema
        .as_ref()
        .and_then(|schema| jsonschema::validator_for(&schema.to_value()).ok());
    let schema = tool.input_schema.to_value();
    let generated = mcp_annotations_verify::arguments(&schema);
    let validator = jsonschema::validator_for(&schema).ok();
    let skip = if tool.annotations.open_world() && !session.options.allow_open_world {
        Some("open world: not called without --allow-open-world".to_owned())
    } else if written.is_empty() {
        generated
            .as_ref()
            .err()
            .map(|error| format!("no arguments can be generated: {error}"))
    } else {
        None
    };
    if let (None, Some(validator)) = (&skip, &validator) {
        let cases = Cases::new(session, tool, written, generated.ok(), validator);
        if let Err(error) = probe.cases(session, cases) {
            probe.abandon();
            return Err(error);
        }
        if !super::judges_a_claim(tool) && written.is_empty() && probe.calls > 0 {
            let calls = probe.calls;
            probe.say(format!(
                "claims nothing the probe judges: called {calls} times (a quarter of the \
                 generated cases), only to feed the other tools' arguments"
            ));
        }
    }
    probe.skip = skip;
    crate::progress::tool_done();
    Ok(probe)
}

/// What a call came back with, once its failures are noted.
enum Outcome<'r> {
    /// A result, which may say the call failed.
    Result(&'r Value),
    /// A JSON-RPC error, or a call the server did not live through: a failed call, judged by
    /// the sandbox it left all the same (a tool may remove, then fail).
    Failed,
    /// No answer in time: judged as a failed call is; its server then started again.
    Unanswered,
}

/// One tool's probe as its cases go, and until the runs it started beside the main one are
/// done.
pub(in crate::probe) struct ToolProbe<'t, 's, 'e> {
    tool: &'t Tool,
    /// Where runs beside the main one may go on while it makes its next calls.
    beside: Beside<'s, 'e>,
    /// The runs going on beside the main one, in the order they were started.
    pending: Vec<beside::Pending<'s>>,
    /// Why the tool was not called.
    skip: Option<String>,
    /// What the listing claims.
    claimed: ByHint<bool>,
    verdicts: ByHint<Verdict>,
    /// How many times each hint's break was tried for reproduction.
    tries: ByHint<u32>,
    resolutions: Resolutions,
    /// Why a nondeterministic claim is.
    unsure: ByHint<Option<String>>,
    /// Why a call could not judge a claim it did not break (the last such call's reason).
    untold: ByHint<Option<String>>,
    notes: Vec<Note>,
    succeeded: u32,
    /// Every call made, and what the failed ones answered: why a claim was not judged.
    calls: u32,
    failures: Vec<String>,
    out_of_time: bool,
    /// Whether a write outside the sandbox is said already.
    wrote_outside: bool,
    /// Whether an `--observe` command's failure is noted already.
    unobserved_noted: bool,
    unanswered: u32,
    /// What two identical calls at once showed, once tried.
    concurrency: Option<BTreeMap<&'static str, String>>,
    /// The validator of its output schema, where it lists one.
    output: Option<jsonschema::Validator>,
    /// Values its failed calls named as wanted, by argument: what its next cases try.
    learned: super::feedback::Learned,
    /// For a tool stating `destructiveHint: true` (not read-only): how many of its calls that
    /// succeeded changed the state and lost nothing, and whether one lost something. A claim
    /// safer than needed, which hosts pay for with approval prompts: a note, never a finding.
    only_added: Option<(u32, bool)>,
    /// Each case's arguments, with where each value came from.
    origins: Vec<(Value, Origins)>,
    /// The first distinct arguments that succeeded, with where each value came from.
    succeeded_with: Vec<Case>,
}

impl<'t, 's, 'e> ToolProbe<'t, 's, 'e> {
    fn new(tool: &'t Tool, beside: Beside<'s, 'e>) -> Self {
        let claimed = claims(&tool.annotations);
        ToolProbe {
            tool,
            beside,
            pending: Vec::new(),
            skip: None,
            verdicts: ByHint::from_fn(|hint| {
                if claimed[hint] {
                    Verdict::Unexercised
                } else {
                    Verdict::Unclaimed
                }
            }),
            claimed,
            tries: ByHint::default(),
            resolutions: Resolutions::new(),
            unsure: ByHint::default(),
            untold: ByHint::default(),
            notes: Vec::new(),
            succeeded: 0,
            calls: 0,
            failures: Vec::new(),
            out_of_time: false,
            wrote_outside: false,
            unobserved_noted: false,
            unanswered: 0,
            concurrency: None,
            output: None,
            learned: super::feedback::Learned::new(&tool.input_schema.to_value()),
            only_added: (tool.annotations.destructive_hint == Some(true)
                && !tool.annotations.read_only())
            .then_some((0, false)),
            origins: Vec::new(),
            succeeded_with: Vec::new(),
        }
    }

    /// Where each value of `arguments` came from, as the case that made them said.
    fn origins_of(&self, arguments: &Value) -> Option<&Origins> {
        let mut made = self.origins.iter().rev();
        made.find(|(made, _)| made == arguments)
            .map(|(_, origins)| origins)
    }

    /// `arguments` succeeded: kept, with where each value came from, among the first
    /// [`SUCCEEDED_KEPT`] distinct ones.
    fn worked(&mut self, arguments: &Value) {
        let kept = self.succeeded_with.len() >= SUCCEEDED_KEPT
            || self
                .succeeded_with
                .iter()
                .any(|case| case.arguments == *arguments);
        if !kept {
            let from = self.origins_of(arguments).cloned().unwrap_or_default();
            self.succeeded_with.push(Case {
                arguments: arguments.clone(),
                from,
            });
        }
    }

    /// A sentence on the tool as a whole.
    fn say(&mut self, text: String) {
        self.notes.push(Note::Said(text));
    }

    /// Every case, until they run out, stop early or the probe's time runs out.
    fn cases(&mut self, session: &mut Session<'e>, mut cases: Cases<'_>) -> Result<(), String> {
        let (started, share) = (Instant::now(), (session.options.total, session.tools));
        for index in 0..cases.total {
            let answers = (self.succeeded, self.unanswered);
            if let Some(why) = stop_early(started.elapsed(), share, answers, (index, cases.total)) {
                self.say(why);
                break;
            }
            if Instant::now() > session.deadline {
                self.say("the probe's time ran out".to_owned());
                self.out_of_time = true;
                break;
            }
            // The sandbox as the call will find it: what generated values are drawn from,
            // and the tree before the call.
            let before = session.settled();
            let arguments = match cases.arguments(index, session, &before, &self.learned.values) {
                Ok(Some((arguments, origins))) => {
                    self.origins.push((arguments.clone(), origins));
                    arguments
                }
                Ok(None) => break,
                Err(reason) => {
                    self.say(format!(
                        "no more arguments could be generated from its input schema \
                         ({reason}): called {} times without an error",
                        self.succeeded
                    ));
                    break;
                }
            };
            self.case(session, arguments, before)?;
        }
        Ok(())
    }

    /// One case: the call with `arguments` on the sandbox `before` shows, resolved first
    /// where the tool is resolvable, made, observed and judged.
    fn case(
        &mut self,
        session: &mut Session<'e>,
        arguments: Value,
        mut before: Tree,
    ) -> Result<(), String> {
        let tool = self.tool;
        if let Some(revived) = session.revived(tool.name())? {
            before = revived;
        }
        // The sandbox as the call finds it, copied aside for the runs that make it again (a
        // tool that claims nothing judged is never made again).
        if super::judges_a_claim(tool) {
            let sandbox = &session.sandbox;
            (session.checkpoint).take(&sandbox.dir, &session.sandbox_path, &before);
        }
        // A resolvable tool's call resolved first, as a host resolves it before it asks for
        // approval: what resolving changed is the call's doing (the call is judged from the
        // tree before it), and said on its own, since a resolution is to run nothing.
        let mut resolved = None;
        let mut resolving = None;
        // What the run did past a bound since the last call was answered is no call's doing.
        let before_call = format!("between calls (before `{}` was called)", tool.name());
        super::parts::past_bounds(session, &before_call);
        let run = session.peer.run().map(str::to_owned);
        let from = std::time::SystemTime::now();
        if tool.resolvable {
            let asked = (tool, &arguments, &self.claimed);
            let (options, sandbox, deadline) =
                (session.options, &session.sandbox, session.deadline);
            let restart = || super::sandbox::start(options, sandbox, deadline);
            resolved = self.resolutions.resolve(
                &mut session.peer,
                restart,
                asked,
                &mut session.findings,
            )?;
            let after = session.sandbox.observe();
            resolving = judge::changed(&before, &after, &session.classes, false);
        }
        let made = Made {
            tool: tool.name().to_owned(),
            arguments: arguments.clone(),
            twice: self.claimed[judge::BY_REPEATING]
                || resolved
                    .as_ref()
                    .is_some_and(|(claims, _)| claims[judge::BY_REPEATING]),
            resolve: tool.resolvable,
            changed: (true, true),
        };
        let call = call(&mut session.peer, &session.sandbox, &made, before, from);
        crate::progress::call();
        let during = format!("while `{}` was called with {arguments}", tool.name());
        super::parts::past_bounds(session, &during);
        // A write the kernel refused outside the places it may write: said whatever the
        // server answered, and the call verifies nothing. Where resolving started the server
        // again, its start-up is in the same record: nothing there is the call's alone.
        let dir = &session.sandbox.dir;
        let outside = if session.peer.run() == run.as_deref() {
            super::writes::outside(&call.recorded, dir, &session.options.writable)
        } else {
            Vec::new()
        };
        if !outside.is_empty() {
            let first = !std::mem::replace(&mut self.wrote_outside, true);
            let (finding, note) = super::writes::said(&outside, tool.name(), &arguments, first);
            session.findings.extend(finding);
            self.notes.push(note);
        }
        if let Some(what) = resolving {
            self.notes.push(Note::Call(CallNote::problem(
                &arguments,
                format!(
                    "resolving the call (tools/resolve, which is to run nothing) changed the \
                     sandbox before the call was made: {what}"
                ),
            )));
        }
        // A call around which a user's observer failed verifies nothing and is made again
        // in a reproduction run: what it did there is not known.
        let unobserved = call.unobserved(&session.sandbox);
        if let Some(failure) = &unobserved
            && !std::mem::replace(&mut self.unobserved_noted, true)
        {
            self.say(format!(
                "{failure}: what it observes was not judged around that call, and the call \
                 verified nothing"
            ));
        }
        let earlier = session.history.len();
        // What each call changed: a call that changed nothing is not made again in a
        // reproduction run.
        let again_changed = call
            .again
            .as_ref()
            .is_some_and(|again| *again != call.after);
        session.history.push(Made {
            changed: (
                unobserved.is_some() || call.before != call.after,
                unobserved.is_some() || again_changed,
            ),
            ..made.clone()
        });
        self.calls += 1;
        let outcome = self.outcome(session, &call, &arguments);
        let late = matches!(outcome, Outcome::Unanswered) || call.again_late;
        let succeeded = match outcome {
            // What a call did before it failed or ran out of time is judged all the same: a
            // server does not dodge a verdict by answering late.
            Outcome::Failed | Outcome::Unanswered => {
                collect(&arguments, &Value::Null, &mut session.seen);
                false
            }
            Outcome::Result(result) => self.result(session, result, &arguments),
        };
        if succeeded {
            self.worked(&arguments);
        }
        // What verifies a claim: a call that succeeded, fully observed.
        let ok = succeeded && unobserved.is_none() && outside.is_empty();
        self.notes
            .extend(unjudged_notes(&call, &arguments, &session.classes));
        session.classify_logs(&call);
        self.count_additions(&call, &session.classes, ok);
        let asked = (&made, earlier, &arguments);
        self.judge_call(session, asked, &call, ok, resolved.as_ref());
        if late {
            // Ended with its server: nothing it does late lands in a later call.
            session.peer.end();
            session.peer = session.restart()?;
        }
        Ok(())
    }

    /// The call's claims judged, once it is observed (`ok` where it judges): what it broke
    /// made again in fresh runs (at once, or beside the main run's next calls, or once the
    /// runs that decide the hint are done), and idempotence tried with two calls at once.
    fn judge_call(
        &mut self,
        session: &mut Session<'e>,
        asked: (&Made, usize, &Value),
        call: &Call,
        ok: bool,
        resolved: Option<&(ByHint<bool>, Value)>,
    ) {
        // A break of a hint that runs beside the main one decide waits for their verdict.
        // (Runs that may not go on beside the main one are waited for here, as then made.)
        let (made, earlier, _) = asked;
        // A call that also breaks another hint waits for them now: its breaks are reproduced
        // together, as then.
        let mut waiting = self.waiting(call, &session.classes);
        if !waiting.is_empty()
            && (self.beside_for(call).is_none() || self.breaks_beyond(call, &waiting, session))
        {
            self.join(session);
            waiting.clear();
        }
        let hints: Vec<Hint> = waiting.iter().map(|(hint, _)| *hint).collect();
        let mut broke = self.judge(call, (&session.classes, &hints), ok);
        // What this call's resolution claimed beyond the listing, judged the same way.
        let beyond: Vec<Hint> = resolved.map_or_else(Vec::new, |(claims, _)| {
            beyond(claims, &self.claimed).collect()
        });
        let judged = (call, &session.classes);
        self.resolutions.judge(&beyond, judged, ok, &mut broke);
        // Made at once, or by runs going on beside the main run: one copy taken aside for all.
        let mut kept = None;
        if !waiting.is_empty() {
            self.defer(session, asked, waiting, call, &mut kept);
        }
        if !broke.is_empty() {
            let sent = resolved.map(|(_, sent)| sent);
            match self.beside_for(call) {
                Some(scope) => {
                    let here = (scope, &mut *session);
                    self.rerun_beside(here, asked, broke, call, &mut kept);
                }
                None => self.reproduce(session, asked, broke, call, (sent, &beyond)),
            }
        }
        match self.beside.filter(|_| ok) {
            Some(scope) => {
                let here = (scope, &mut *session);
                self.together_beside(here, (made, earlier), call, &mut kept);
            }
            None if ok => self.concurrently(session, made, earlier, call),
            None => {}
        }
    }

    /// For a tool stating `destructiveHint: true`: whether `call` (one that judges, `ok`, and
    /// changed the state) only added, or lost something.
    fn count_additions(&mut self, call: &Call, classes: &Classes, ok: bool) {
        if let Some((added, lost)) = &mut self.only_added
            && ok
            && untold(Hint::Destructive, call, classes).is_none()
            && judge::changed(&call.before, &call.after, classes, false).is_some()
        {
            match broken(Hint::Destructive, call, classes) {
                Some(_) => *lost = true,
                None => *added += 1,
            }
        }
    }

    /// The listed claims `call` broke, each with what broke it, to reproduce together (each
    /// hint twice at most); each it kept, on a call that judges (`ok`), verified. The hints
    /// `waiting` (broken, while runs beside the main one decide them) are left to those runs.
    fn judge(
        &mut self,
        call: &Call,
        (classes, waiting): (&Classes, &[Hint]),
        ok: bool,
    ) -> Vec<(Hint, String)> {
        let mut broke = Vec::new();
        for hint in JUDGED {
            if !self.claimed[hint]
                || self.verdicts[hint] == Verdict::Violated
                || !judgeable(hint, call)
                || waiting.contains(&hint)
            {
                continue;
            }
            let Some(what) = broken(hint, call, classes) else {
                // What cannot be told is no verification (a file too large to read).
                if let Some(why) = untold(hint, call, classes) {
                    self.untold[hint] = Some(why);
                } else if ok && self.verdicts[hint] == Verdict::Unexercised {
                    self.verdicts[hint] = Verdict::Verified;
                }
                continue;
            };
            if self.tries[hint] < REPRODUCTIONS {
                self.tries[hint] += 1;
                broke.push((hint, what));
            }
        }
        broke
    }

    /// The tool's row of the report, once the runs it started beside the main one are done:
    /// its verdicts final.
    pub(in crate::probe) fn finish(mut self, session: &mut Session<'_>) -> ProbedTool {
        self.join(session);
        let skip = self.skip.take();
        if let Some(reason) = &skip {
            self.say(reason.clone());
        }
        if let Some((added, false)) = self.only_added
            && added > 0
        {
            self.say(format!(
                "over-declared: it states destructiveHint: true, yet none of its {added} calls \
                 that changed the state removed or overwrote anything (in this run); if no call \
                 of it can (no overwrite of what exists, no update, no removal), \
                 destructiveHint: false would spare a host's approval prompts (a note, not a \
                 finding)"
            ));
        }
        let succeeded = self.succeeded;
        let verdicts = ByHint::from_fn(|hint| {
            final_verdict(self.verdicts[hint], succeeded, self.untold[hint].is_some())
        });
        if self.claimed[judge::BY_REPEATING] && self.concurrency.is_none() {
            let why = if self.tool.annotations.read_only() {
                "not tried: the tool claims read-only, which each call is judged by"
            } else {
                "not tried: no call kept idempotence one at a time"
            };
            self.concurrency = Some(BTreeMap::from([("tried", why.to_owned())]));
        }
        let why = Unjudged {
            skip: skip.as_deref(),
            calls: self.calls,
            succeeded,
            out_of_time: self.out_of_time,
            failures: &self.failures,
        };
        let unjudged = why.reasons(&verdicts, &self.unsure, &self.untold);
        // Each call shown says where its arguments came from.
        let mut notes = std::mem::take(&mut self.notes);
        for note in &mut notes {
            if let Note::Call(note) = note
                && note.from.is_none()
            {
                note.from = self.origins_of(&note.arguments).cloned();
            }
        }
        ProbedTool {
            name: self.tool.name().to_owned(),
            // Set from the listing once every row is in its listed place.
            digest: String::new(),
            probe: verdicts,
            succeeded,
            calls: self.calls,
            unjudged,
            notes,
            succeeded_with: self.succeeded_with,
            failed_alike: (succeeded == 0 && self.calls > 0)
                .then(|| self.failures.first())
                .flatten()
                .filter(|first| self.failures.iter().all(|failure| failure == *first))
                .cloned(),
            concurrency: self.concurrency,
            resolution: self
                .tool
                .resolvable
                .then(|| self.resolutions.report(succeeded)),
            ignored: BTreeMap::new(),
        }
    }
}
