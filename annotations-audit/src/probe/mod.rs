//! `--probe`: a server's hints checked by behaviour. The server runs in a sandbox folder (its
//! working directory, `HOME` and `TMPDIR`); each tool is called with arguments generated from
//! its listed input schema and with values from the sandbox and from earlier calls, and the
//! sandbox is observed as a tree around each call, each file by what its format holds (see
//! [`super::formats`]), once the processes the server started have ended. Not a security
//! boundary.
//!
//! Before the calls, a *control* session (start, initialize, list, wait, exit, no call) shows
//! what the server changes on its own: what changed while it sat idle is volatile (reported,
//! never judged), what it wrote on exit is reported. A violation is reported only when it
//! reproduces in every one of `--runs` independent runs (a fresh sandbox and server, the same
//! calls before it); otherwise the hint is `nondeterministic`, with what each run saw.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use mcp_annotations::Tool;
use proptest::strategy::{Strategy, ValueTree};
use serde_json::{Value, json};

use crate::cli::args::ProbeArgs;

use crate::server::Answer;
use arguments::{pool, reuse};
use mcp_annotations_verify::files::classes::{Classes, Place};
use mcp_annotations_verify::files::judge;

mod arguments;
mod network;
mod observer;
mod parts;
mod runs;
mod sandbox;
mod verdicts;

use parts::{cases_from_file, collect, coverage, first_text, relative_to, runner_for, stop_early};
use runs::{Control, Made, broken, call, concurrently, control, failed, reproduce, tally};
use sandbox::{sandbox, start, surroundings};
use verdicts::{Resolutions, Unjudged};

/// `probe`: the report on the server `args` starts, and the exit status it calls for.
pub fn run(args: &ProbeArgs) -> Result<(i32, String), String> {
    crate::server::keep_log(&args.connection)?;
    let options = Options {
        command: args.command.clone(),
        cases: args.cases,
        seed: args.seed,
        seed_dir: args.seed_dir.clone(),
        env: args.env.clone(),
        allow_open_world: args.allow_open_world,
        timeout: args.connection.timeout,
        total: args.probe_timeout,
        classes: Classes {
            volatile: args.volatile.clone(),
            append_only: args.append_only.clone(),
        },
        cases_file: args.cases_file.clone(),
        runs: args.runs,
        confine: !args.unconfined,
        writable: args.writable.clone(),
        observers: args.observe.clone(),
        // The server the probe starts is on this machine: reached directly, never through
        // a proxy of the environment's.
        http: args.remote.http.clone().map(|url| {
            let remote = crate::server::http::Remote {
                headers: args.remote.headers.clone(),
                ca_cert: args.remote.ca_cert.clone(),
                direct: true,
            };
            (url, remote)
        }),
    };
    let (report, violated) = probe(&options)?;
    crate::progress::finish();
    let text = crate::report::rendered(
        &args.output,
        &report,
        crate::report::table::probe_table,
        crate::report::markdown::probe,
        crate::report::sarif::probe,
    );
    Ok((i32::from(violated), text))
}

/// What `--probe` was asked.
pub struct Options {
    pub command: Vec<String>,
    pub cases: u32,
    pub seed: u64,
    pub seed_dir: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub allow_open_world: bool,
    pub timeout: Duration,
    pub total: Duration,
    /// The places the user classed volatile or append-only.
    pub classes: Classes,
    /// Arguments the user wrote, by tool (`--cases-file`), called before the generated ones.
    pub cases_file: Option<PathBuf>,
    /// In how many independent runs a violation must show to be reported (`--runs`).
    pub runs: u32,
    /// Whether to run the server with the sandbox as the only writable place, where this
    /// machine allows it (off with `--unconfined`).
    pub confine: bool,
    /// Places left writable beside the sandbox (`--writable`): what they hold is not observed.
    pub writable: Vec<PathBuf>,
    /// Commands printing, as JSON, state the sandbox's files do not hold (`--observe`).
    pub observers: Vec<String>,
    /// Where the server the command starts serves Streamable HTTP (`--http`, a loopback
    /// URL), and how it is reached; `None` for a server over stdio.
    pub http: Option<(String, crate::server::http::Remote)>,
}

/// How long the processes a server started get to end after its answer, before the sandbox
/// is observed.
pub(super) const SETTLE: Duration = Duration::from_secs(2);

/// How long the control session sits idle between its two observations.
pub(super) const IDLE: Duration = Duration::from_millis(300);

/// How many times a hint's violation is tried for reproduction, per tool, before the probe
/// gives up on that hint (each try replays every call before it).
const REPRODUCTIONS: u32 = 2;

/// A claimed hint's verdict.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Verified,
    Violated,
    /// Seen to break in some runs and not in others.
    Nondeterministic,
    Unexercised,
    Unclaimed,
}

impl Verdict {
    fn word(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Violated => "violated",
            Verdict::Nondeterministic => "nondeterministic",
            Verdict::Unexercised => "unexercised",
            Verdict::Unclaimed => "unclaimed",
        }
    }
}

/// The four hints the probe judges, in the report's words: `readOnlyHint: true`,
/// `idempotentHint: true`, `destructiveHint: false`, `openWorldHint: false`.
pub(super) const HINTS: [&str; 4] = ["readOnly", "idempotent", "nonDestructive", "closedWorld"];

/// One tool's probe: the verdict on each hint, and the violations and findings found.
pub fn probe(options: &Options) -> Result<(Value, bool), String> {
    let deadline = Instant::now() + options.total;
    let user_cases = cases_from_file(options.cases_file.as_deref())?;
    // The control session gets a quarter of the time at most; one that cannot be made (a
    // listing without end) leaves nothing found volatile, and says so.
    let (control, control_failed) = match control(options, Instant::now() + options.total / 4) {
        Ok(control) => (control, None),
        Err(error) => (Control::default(), Some(error)),
    };
    let mut classes = options.classes.clone();
    classes.volatile.extend(control.volatile.iter().cloned());
    let sandbox = sandbox(options, "main")?;
    let sandbox_path = sandbox.dir.to_string_lossy().into_owned();
    let mut peer = start(options, &sandbox.dir, deadline)?;
    let (listed, listing_problems) = peer.list_tools()?;
    // A command that cannot observe the server once it has started is the command's problem:
    // said before anything is judged.
    peer.settle(SETTLE);
    if let Some(failure) = sandbox.failure(&sandbox.observe()) {
        return Err(failure);
    }
    let tools: Vec<Tool> = listed
        .iter()
        .filter_map(|raw| serde_json::from_value(raw.clone()).ok())
        .collect();
    crate::progress::start_probe(tools.len());
    let mut seen: Vec<Value> = Vec::new();
    let mut violated_any = false;
    let mut rows = Vec::new();
    let mut server_findings: Vec<Value> = listing_problems.into_iter().map(Value::from).collect();
    if let Some(error) = &control_failed {
        server_findings.push(json!(format!(
            "the control session (start, list, exit, no call) could not be made, so no state \
             was found volatile: {error}"
        )));
    }
    for unknown in user_cases
        .keys()
        .filter(|name| !tools.iter().any(|tool| tool.name() == name.as_str()))
    {
        server_findings.push(json!(format!(
            "the cases file names `{unknown}`, which the server does not list"
        )));
    }
    let mut history: Vec<Made> = Vec::new();
    // The tools that write first, so that the ones that read find something to read.
    let mut order: Vec<&Tool> = tools.iter().collect();
    order.sort_by_key(|tool| tool.annotations.read_only());
    let mut rows_by_name = Vec::new();
    // Whether the server's last exit is reported already (as a call it did not live through).
    let mut exit_reported = false;
    for tool in order {
        let hints = &tool.annotations;
        let claimed = verdicts::claims(hints);
        let mut verdicts: Vec<Verdict> = claimed
            .iter()
            .map(|&c| {
                if c {
                    Verdict::Unexercised
                } else {
                    Verdict::Unclaimed
                }
            })
            .collect();
        let mut tries = [0u32; HINTS.len()];
        let mut resolutions = Resolutions::new();
        let mut unsure: [Option<String>; HINTS.len()] = Default::default();
        let mut notes: Vec<Value> = Vec::new();
        // What a call the server did not live through counts as: a failed call.
        let crashed = json!({"isError": true});
        let mut succeeded = 0u32;
        // Every call made, and what the failed ones answered: why a claim was not judged.
        let mut calls = 0u32;
        let mut failures: Vec<String> = Vec::new();
        let mut out_of_time = false;
        let mut wrote_outside = false;
        // Whether an `--observe` command's failure is noted for this tool already.
        let mut unobserved_noted = false;
        let mut unanswered = 0u32;
        // What two identical calls at once showed, once tried.
        let mut concurrency: Option<serde_json::Map<String, Value>> = None;
        let schema = tool.input_schema.to_value();
        let generated = mcp_annotations_verify::arguments(&schema);
        let validator = jsonschema::validator_for(&schema).ok();
        let output = tool
            .output_schema
            .as_ref()
            .and_then(|schema| jsonschema::validator_for(&schema.to_value()).ok());
        let written: Vec<Value> = user_cases
            .get(tool.name())
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let skip = if hints.open_world() && !options.allow_open_world {
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
            // Each tool its own runner and budget of rejected values, seeded by the seed and
            // its name: a tool whose values are hard to generate starves no other, and its
            // cases do not depend on the tools before it.
            let mut runner = runner_for(options.seed, tool.name());
            let choices = || proptest::collection::vec(proptest::prelude::any::<u8>(), 0..12);
            let strategy = generated.as_ref().ok();
            let case = strategy.map(|strategy| (strategy.clone(), choices()));
            // The first quarter of the cases (one at least) takes every value the schema
            // suggests where it suggests one (its examples, its default, literals quoted in a
            // description): what a server most likely understands, where random values
            // rarely are (SQL, time zones, refs).
            let suggested = strategy.map(|strategy| {
                (
                    mcp_annotations_verify::suggested_arguments(&schema)
                        .unwrap_or_else(|_| strategy.clone()),
                    choices(),
                )
            });
            let suggested_cases = options.cases.div_ceil(4);
            // The user's cases first, as written; then the generated ones.
            let total = written.len() as u32 + if strategy.is_some() { options.cases } else { 0 };
            let (started, share) = (Instant::now(), (options.total, tools.len()));
            for index in 0..total {
                let answers = (succeeded, unanswered);
                if let Some(why) = stop_early(started.elapsed(), share, answers, (index, total)) {
                    notes.push(json!(why));
                    break;
                }
                if Instant::now() > deadline {
                    notes.push(json!("the probe's time ran out"));
                    out_of_time = true;
                    break;
                }
                // The sandbox as the call will find it: what generated values are drawn from,
                // and the tree before the call.
                peer.settle(SETTLE);
                let mut before = sandbox.observe();
                let arguments = if let Some(given) = written.get(index as usize) {
                    given.clone()
                } else {
                    let generated_index = index - written.len() as u32;
                    let case = if generated_index < suggested_cases {
                        suggested.as_ref()
                    } else {
                        case.as_ref()
                    };
                    let Some(case) = case else { break };
                    let value = match case.new_tree(&mut runner) {
                        Ok(value) => value,
                        Err(reason) => {
                            notes.push(json!(format!(
                                "no more arguments could be generated from its input schema \
                                 ({reason}): called {succeeded} times without an error"
                            )));
                            break;
                        }
                    };
                    let (arguments, choices) = value.current();
                    reuse(
                        &arguments,
                        &choices,
                        &pool(&sandbox.dir, &before, &seen),
                        validator,
                    )
                };
                if !peer.alive() {
                    if !std::mem::take(&mut exit_reported) {
                        server_findings.push(json!(format!(
                            "the server died while `{}` was probed; started again",
                            tool.name()
                        )));
                    }
                    peer = start(options, &sandbox.dir, deadline)?;
                    // What the server wrote as it started is not the call's doing.
                    peer.settle(SETTLE);
                    before = sandbox.observe();
                }
                // A resolvable tool's call resolved first, and observed again after, whatever
                // came of it: what resolving changed is not the call's doing.
                let mut resolved = None;
                if tool.resolvable {
                    let restart = || start(options, &sandbox.dir, deadline);
                    let asked = (tool, &arguments, &claimed);
                    resolved =
                        resolutions.resolve(&mut peer, restart, asked, &mut server_findings)?;
                    before = sandbox.observe();
                }
                let made = Made {
                    tool: tool.name().to_owned(),
                    arguments: arguments.clone(),
                    twice: claimed[1] || resolved.as_ref().is_some_and(|(claims, _)| claims[1]),
                    changed: (true, true),
                };
                let call = call(&mut peer, &sandbox, &made, before);
                crate::progress::call();
                // A call around which a user's observer failed verifies nothing and is made
                // again in a reproduction run: what it did there is not known.
                let unobserved = call.unobserved(&sandbox);
                if let Some(failure) = &unobserved
                    && !std::mem::replace(&mut unobserved_noted, true)
                {
                    notes.push(json!(format!(
                        "{failure}: what it observes was not judged around that call, and the \
                         call verified nothing"
                    )));
                }
                let earlier = history.len();
                // What each call changed: a call that changed nothing is not made again
                // in a reproduction run.
                history.push(Made {
                    changed: (
                        unobserved.is_some() || call.before != call.after,
                        unobserved.is_some()
                            || call
                                .again
                                .as_ref()
                                .is_some_and(|again| *again != call.after),
                    ),
                    ..made.clone()
                });
                calls += 1;
                let result = match &call.answer {
                    Ok(Answer::Result(result)) => result,
                    // A failed call, and a finding; what it did to the sandbox is judged all
                    // the same (a tool may remove, then fail).
                    Ok(Answer::Error(error)) => {
                        failures.push(format!("a JSON-RPC error {error}"));
                        notes.push(json!({"arguments": arguments, "problem": format!("valid arguments answered with a JSON-RPC error: {error}")}));
                        violated_any = true;
                        &crashed
                    }
                    // A call the server did not live through is judged by the sandbox it
                    // left, and is a finding of its own.
                    Err(error) if peer.exited() => {
                        failures.push("the server exited".to_owned());
                        exit_reported = true;
                        server_findings.push(json!(format!(
                            "the server exited while `{}` was called with {arguments} ({}); \
                             started again",
                            tool.name(),
                            peer.explain(error.clone())
                        )));
                        notes.push(json!({"arguments": arguments, "problem": "the server exited during the call"}));
                        &crashed
                    }
                    Err(error) => {
                        unanswered += 1;
                        failures.push(error.clone());
                        notes.push(json!({"arguments": arguments, "problem": error}));
                        continue;
                    }
                };
                let succeeded_call = !failed(result);
                // What verifies a claim: a call that succeeded, fully observed.
                let ok = succeeded_call && unobserved.is_none();
                if !succeeded_call && !std::ptr::eq(result, &crashed) {
                    let text = first_text(result, usize::MAX).replace(&sandbox_path, "{sandbox}");
                    if text.contains("Read-only file system") && !wrote_outside {
                        wrote_outside = true;
                        let shown: String = text.chars().take(200).collect();
                        server_findings.push(json!(format!(
                            "`{}` tried to write outside the sandbox, the only writable place: \
                             {shown:?}",
                            tool.name()
                        )));
                    }
                    let text: String = text.chars().take(120).collect();
                    failures.push(format!("a failed result: {text:?}"));
                }
                let mut shown = result.clone();
                relative_to(&mut shown, &sandbox_path);
                collect(&arguments, &shown, &mut seen);
                if succeeded_call {
                    succeeded += 1;
                    let outside = match (&output, result.get("structuredContent")) {
                        (Some(output), Some(content)) => output
                            .iter_errors(content)
                            .next()
                            .map(|error| error.to_string()),
                        _ => None,
                    };
                    if let Some(error) = outside {
                        violated_any = true;
                        notes.push(json!({"arguments": arguments, "problem": format!("a result outside the output schema: {error}")}));
                    }
                }
                let volatile = judge::volatile_changes(&call.before, &call.after, &classes);
                if !volatile.is_empty() {
                    notes.push(json!({"arguments": arguments,
                        "volatile": volatile, "problem": "changed volatile state only: not judged"}));
                }
                if let Some(attempts) = call.attempts.as_ref().filter(|a| !a.is_empty()) {
                    notes.push(json!({"arguments": arguments, "network": attempts}));
                }
                // The hints this call broke, to reproduce together.
                let mut broke: Vec<(usize, String)> = Vec::new();
                for hint in 0..HINTS.len() {
                    if !claimed[hint] || verdicts[hint] == Verdict::Violated {
                        continue;
                    }
                    // Closed world is judged only where attempts are recorded.
                    if hint == 3 && call.attempts.is_none() {
                        continue;
                    }
                    let Some(what) = broken(hint, &call, &classes) else {
                        if ok && verdicts[hint] == Verdict::Unexercised {
                            verdicts[hint] = Verdict::Verified;
                        }
                        continue;
                    };
                    if tries[hint] < REPRODUCTIONS {
                        tries[hint] += 1;
                        broke.push((hint, what));
                    }
                }
                // What this call's resolution claimed beyond the listing, judged the same way.
                let beyond = resolved.as_ref().map_or_else(Vec::new, |(claims, _)| {
                    verdicts::beyond(claims, &claimed).collect::<Vec<_>>()
                });
                resolutions.judge(&beyond, (&call, &classes), ok, &mut broke);
                if !broke.is_empty() {
                    // Reproduced in every run, or not claimed: each run made once, for every
                    // hint this call broke.
                    let runs = options.runs.max(1);
                    let hints_broken: Vec<usize> = broke.iter().map(|(hint, _)| *hint).collect();
                    let whats: Vec<String> = broke.iter().map(|(_, what)| what.clone()).collect();
                    let tallied = tally(
                        runs,
                        &whats,
                        |run| {
                            reproduce(
                                options,
                                &classes,
                                (&history[..earlier], &sandbox_path),
                                &made,
                                &hints_broken,
                                run,
                                deadline,
                            )
                        },
                        ("nothing broke it", "could not be made"),
                    );
                    for ((hint, what), (reproduced, seen_in)) in broke.into_iter().zip(tallied) {
                        let (from, to) = match hint {
                            1 => (&call.after, call.again.as_ref().unwrap_or(&call.after)),
                            _ => (&call.before, &call.after),
                        };
                        // A claim of the call's resolution, not the listing's: its verdict.
                        if let Some((_, sent)) =
                            resolved.as_ref().filter(|_| beyond.contains(&hint))
                        {
                            let diff = judge::diff(from, to, 12);
                            let seen = (reproduced, runs, seen_in);
                            notes.push(resolutions.tallied(
                                hint,
                                seen,
                                &what,
                                (&arguments, sent),
                                diff,
                            ));
                            violated_any |= resolutions.verdicts[hint] == Verdict::Violated;
                            continue;
                        }
                        if reproduced == runs {
                            verdicts[hint] = Verdict::Violated;
                            violated_any = true;
                            crate::progress::violation();
                            notes.push(json!({
                                "hint": HINTS[hint],
                                "arguments": arguments,
                                "problem": what,
                                "runs": seen_in,
                                "diff": judge::diff(from, to, 12),
                            }));
                        } else {
                            verdicts[hint] = Verdict::Nondeterministic;
                            let why = format!(
                                "broken in {reproduced} of {runs} runs with {arguments}: {}",
                                seen_in.join("; ")
                            );
                            notes.push(json!({
                                "hint": HINTS[hint],
                                "arguments": arguments,
                                "problem": format!("nondeterministic: {why}"),
                                "diff": judge::diff(from, to, 12),
                            }));
                            unsure[hint] = Some(why);
                        }
                    }
                }
                // Idempotence under two identical calls at once, tried once per tool, on a
                // call that one at a time kept it (a read-only claim judges every call).
                if ok
                    && concurrency.is_none()
                    && !hints.read_only()
                    && verdicts[1] == Verdict::Verified
                {
                    let once = judge::effect(&call.before, &call.after, &classes);
                    let (verdict, outcomes, found) = concurrently(
                        options,
                        &classes,
                        (&history[..earlier], &sandbox_path),
                        &made,
                        &once,
                        deadline,
                    );
                    if let Some(verdict) = verdict {
                        verdicts[1] = verdict;
                        violated_any |= verdict == Verdict::Violated;
                        if verdict == Verdict::Violated {
                            crate::progress::violation();
                        }
                        if verdict == Verdict::Nondeterministic {
                            unsure[1] = Some("two identical calls at once did more than one in some runs, not in others".to_owned());
                        }
                    }
                    notes.extend(found);
                    concurrency = Some(outcomes);
                }
            }
        }
        if let Some(reason) = &skip {
            notes.push(json!(reason));
        }
        // Verified only with a call that did not fail.
        if succeeded == 0 {
            for verdict in &mut verdicts {
                if *verdict == Verdict::Verified {
                    *verdict = Verdict::Unexercised;
                }
            }
        }
        if claimed[1] && concurrency.is_none() {
            let why = if hints.read_only() {
                "not tried: the tool claims read-only, which each call is judged by"
            } else {
                "not tried: no call kept idempotence one at a time"
            };
            concurrency = Some(serde_json::Map::from_iter([(
                "tried".to_owned(),
                Value::from(why),
            )]));
        }
        let probe: serde_json::Map<String, Value> = HINTS
            .iter()
            .zip(&verdicts)
            .map(|(hint, verdict)| ((*hint).to_owned(), Value::from(verdict.word())))
            .collect();
        let why = Unjudged {
            skip: skip.as_deref(),
            calls,
            succeeded,
            out_of_time,
            failures: &failures,
        };
        let unjudged = why.reasons(&verdicts, &unsure);
        crate::progress::tool_done();
        let mut row = json!({"name": tool.name(), "probe": probe, "succeeded": succeeded,
            "calls": calls, "unjudged": unjudged, "notes": notes, "concurrency": concurrency});
        if tool.resolvable {
            row["resolution"] = resolutions.report(succeeded);
        }
        rows_by_name.push((tool.name().to_owned(), row));
    }
    // Reported in the order the server lists them.
    for tool in &tools {
        if let Some(at) = rows_by_name
            .iter()
            .position(|(name, _)| name == tool.name())
        {
            rows.push(rows_by_name.remove(at).1);
        }
    }
    let coverage = coverage(&rows);
    let (confined, network) = surroundings(options);
    let mut report = json!({"tools": rows, "server": server_findings, "seed": options.seed,
        "confinement": confined, "network": network,
        "coverage": coverage, "runs": options.runs.max(1),
        "control": {"idle": control.idle, "exit": control.exit,
            "volatile": control.volatile.iter().map(Place::text).collect::<Vec<_>>()}});
    relative_to(&mut report, &sandbox.dir.to_string_lossy());
    Ok((report, violated_any))
}
