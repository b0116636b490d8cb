//! `--probe`: a server's hints checked by behaviour. The server runs in a sandbox folder (its
//! working directory, `HOME` and `TMPDIR`); each tool is called with arguments generated from
//! its listed input schema and with values from the sandbox and from earlier calls, and the
//! sandbox is observed as a tree around each call. Not a security boundary.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcp_annotations::Tool;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

use super::peer::{Answer, Peer};
use super::pool::{pool, reuse};
use super::tree::{self, Tree};

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
}

/// A claimed hint's verdict.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Verified,
    Violated,
    Unexercised,
    Unclaimed,
}

impl Verdict {
    fn word(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Violated => "violated",
            Verdict::Unexercised => "unexercised",
            Verdict::Unclaimed => "unclaimed",
        }
    }
}

/// The three hints the probe judges, in the report's words.
const HINTS: [&str; 3] = ["readOnly", "idempotent", "nonDestructive"];

struct Sandbox {
    dir: PathBuf,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// Starts the server in the sandbox (made again if a call removed it), every answer bounded
/// by the probe's deadline too.
fn start(options: &Options, sandbox: &Path, deadline: Instant) -> Result<Peer, String> {
    std::fs::create_dir_all(sandbox)
        .map_err(|error| format!("cannot make the sandbox again: {error}"))?;
    let place = sandbox.to_string_lossy();
    let fill = |text: &str| text.replace("{sandbox}", &place);
    let mut command: Vec<String> = options.command.iter().map(|arg| fill(arg)).collect();
    // The server runs in the sandbox: a program named by a relative path is found from here.
    if let Some(program) = command.first_mut() {
        let path = Path::new(program.as_str());
        let here = std::env::current_dir().ok();
        match here {
            Some(here) if path.is_relative() && path.components().count() > 1 => {
                *program = here.join(path).to_string_lossy().into_owned();
            }
            _ => {}
        }
    }
    let mut env: Vec<(String, String)> = vec![
        ("HOME".into(), place.to_string()),
        ("TMPDIR".into(), place.to_string()),
    ];
    env.extend(options.env.iter().map(|(k, v)| (k.clone(), fill(v))));
    Peer::start(
        &command,
        Some(sandbox),
        &env,
        options.timeout,
        Some(deadline),
    )
}

/// What a call showed: its answer, and the tree before, after it, and after the same call
/// again.
struct Call {
    answer: Result<Answer, String>,
    before: Tree,
    after: Tree,
    again: Option<Tree>,
}

/// One tool's probe: the verdict on each hint, and the violations and findings found.
pub fn probe(options: &Options) -> Result<(Value, bool), String> {
    let deadline = Instant::now() + options.total;
    let dir = std::env::temp_dir().join(format!(
        "annotations-audit-probe-{}-{}",
        std::process::id(),
        options.seed
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|error| format!("cannot make the sandbox: {error}"))?;
    let sandbox = Sandbox { dir };
    if let Some(seed) = &options.seed_dir {
        copy_dir(seed, &sandbox.dir)
            .map_err(|error| format!("cannot fill the sandbox from {}: {error}", seed.display()))?;
    }
    let mut peer = start(options, &sandbox.dir, deadline)?;
    let (listed, listing_problems) = peer.list_tools()?;
    let tools: Vec<Tool> = listed
        .iter()
        .filter_map(|raw| serde_json::from_value(raw.clone()).ok())
        .collect();
    let mut seen: Vec<Value> = Vec::new();
    let mut violated_any = false;
    let mut rows = Vec::new();
    let mut server_findings: Vec<Value> = listing_problems.into_iter().map(Value::from).collect();
    // The tools that write first, so that the ones that read find something to read.
    let mut order: Vec<&Tool> = tools.iter().collect();
    order.sort_by_key(|tool| tool.annotations.read_only());
    let mut rows_by_name = Vec::new();
    // Whether the server's last exit is reported already (as a call it did not live through).
    let mut exit_reported = false;
    for tool in order {
        let hints = &tool.annotations;
        let claimed = [hints.read_only(), hints.idempotent(), !hints.destructive()];
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
        let mut notes: Vec<Value> = Vec::new();
        // What a call the server did not live through counts as: a failed call.
        let crashed = json!({"isError": true});
        let mut succeeded = 0u32;
        // Every call made, and what the failed ones answered: why a claim was not judged.
        let mut calls = 0u32;
        let mut failures: Vec<String> = Vec::new();
        let mut out_of_time = false;
        let schema = tool.input_schema.to_value();
        let generated = mcp_annotations_verify::arguments(&schema);
        let validator = jsonschema::validator_for(&schema).ok();
        let output = tool
            .output_schema
            .as_ref()
            .and_then(|schema| jsonschema::validator_for(&schema.to_value()).ok());
        let skip = if hints.open_world() && !options.allow_open_world {
            Some("open world: not called without --allow-open-world".to_owned())
        } else {
            generated
                .as_ref()
                .err()
                .map(|error| format!("no arguments can be generated: {error}"))
        };
        if let (None, Ok(strategy), Some(validator)) = (&skip, &generated, &validator) {
            // Each tool its own runner and budget of rejected values, seeded by the seed and
            // its name: a tool whose values are hard to generate starves no other, and its
            // cases do not depend on the tools before it.
            let mut runner = runner_for(options.seed, tool.name());
            let choices = || proptest::collection::vec(proptest::prelude::any::<u8>(), 0..12);
            let case = (strategy.clone(), choices());
            // The first quarter of the cases (one at least) takes every value the schema
            // suggests where it suggests one (its examples, its default, literals quoted in a
            // description): what a server most likely understands, where random values
            // rarely are (SQL, time zones, refs).
            let suggested = (
                mcp_annotations_verify::suggested_arguments(&schema)
                    .unwrap_or_else(|_| strategy.clone()),
                choices(),
            );
            let suggested_cases = options.cases.div_ceil(4);
            for index in 0..options.cases {
                let case = if index < suggested_cases {
                    &suggested
                } else {
                    &case
                };
                if Instant::now() > deadline {
                    notes.push(json!("the probe's time ran out"));
                    out_of_time = true;
                    break;
                }
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
                let arguments = reuse(
                    &arguments,
                    &choices,
                    &pool(&sandbox.dir, &tree::observe(&sandbox.dir), &seen),
                    validator,
                );
                if !peer.alive() {
                    if !std::mem::take(&mut exit_reported) {
                        server_findings.push(json!(format!(
                            "the server died while `{}` was probed; started again",
                            tool.name()
                        )));
                    }
                    peer = start(options, &sandbox.dir, deadline)?;
                }
                let call = call(&mut peer, &sandbox.dir, tool, &arguments, claimed[1]);
                calls += 1;
                let result = match &call.answer {
                    Ok(Answer::Result(result)) => result,
                    Ok(Answer::Error(error)) => {
                        failures.push(format!("a JSON-RPC error {error}"));
                        notes.push(json!({"arguments": arguments, "problem": format!("valid arguments answered with a JSON-RPC error: {error}")}));
                        violated_any = true;
                        continue;
                    }
                    // A call the server did not live through is judged by the sandbox it
                    // left, and is a finding of its own.
                    Err(error) if peer.exited() => {
                        failures.push("the server exited".to_owned());
                        exit_reported = true;
                        server_findings.push(json!(format!(
                            "the server exited while `{}` was called with {arguments} ({error}); \
                             started again",
                            tool.name()
                        )));
                        notes.push(json!({"arguments": arguments, "problem": "the server exited during the call"}));
                        &crashed
                    }
                    Err(error) => {
                        failures.push(error.clone());
                        notes.push(json!({"arguments": arguments, "problem": error}));
                        continue;
                    }
                };
                let ok = result.get("isError") != Some(&Value::Bool(true));
                if !ok && !std::ptr::eq(result, &crashed) {
                    failures.push(format!("a failed result: {:?}", first_text(result)));
                }
                collect(&arguments, result, &mut seen);
                if ok {
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
                let mut judge = |hint: usize, broken: Option<String>, from: &Tree, to: &Tree| {
                    if let Some(what) = broken {
                        if verdicts[hint] != Verdict::Violated {
                            verdicts[hint] = Verdict::Violated;
                            violated_any = true;
                            notes.push(json!({
                                "hint": HINTS[hint],
                                "arguments": arguments,
                                "problem": what,
                                "diff": tree::diff(from, to, 12),
                            }));
                        }
                    } else if ok && verdicts[hint] == Verdict::Unexercised {
                        verdicts[hint] = Verdict::Verified;
                    }
                };
                if claimed[0] {
                    let changed = (!tree::same(&call.before, &call.after))
                        .then(|| "the call changed the sandbox".to_owned());
                    judge(0, changed, &call.before, &call.after);
                }
                if let (true, Some(again)) = (claimed[1], &call.again) {
                    let changed = (!tree::same(&call.after, again)).then(|| "called twice with the same arguments, the second call changed the sandbox again".to_owned());
                    judge(1, changed, &call.after, again);
                }
                if claimed[2] {
                    judge(
                        2,
                        tree::lost(&call.before, &call.after),
                        &call.before,
                        &call.after,
                    );
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
        let probe: serde_json::Map<String, Value> = HINTS
            .iter()
            .zip(&verdicts)
            .map(|(hint, verdict)| ((*hint).to_owned(), Value::from(verdict.word())))
            .collect();
        // Why each claim left unjudged is: the one reason a tool was not called, or what its
        // calls answered.
        let why = if let Some(reason) = &skip {
            reason.clone()
        } else if calls == 0 && out_of_time {
            "never called: the probe's time ran out first".to_owned()
        } else if calls == 0 {
            "never called: no arguments could be generated from its input schema".to_owned()
        } else if succeeded == 0 {
            let shown: Vec<&str> = failures.iter().take(3).map(String::as_str).collect();
            format!(
                "{calls} calls, none succeeded; the first answers: {}",
                shown.join("; ")
            )
        } else {
            format!("{calls} calls, {succeeded} succeeded, none of them judging it")
        };
        let unjudged: serde_json::Map<String, Value> = HINTS
            .iter()
            .zip(&verdicts)
            .filter(|(_, verdict)| **verdict == Verdict::Unexercised)
            .map(|(hint, _)| ((*hint).to_owned(), Value::from(why.clone())))
            .collect();
        rows_by_name.push((
            tool.name().to_owned(),
            json!({"name": tool.name(), "probe": probe, "succeeded": succeeded, "calls": calls,
                "unjudged": unjudged, "notes": notes}),
        ));
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
    Ok((
        json!({"tools": rows, "server": server_findings, "seed": options.seed,
            "coverage": coverage}),
        violated_any,
    ))
}

/// How many of the hints the tools claim were judged (verified or violated), in all and hint
/// by hint, and the share judged.
fn coverage(rows: &[Value]) -> Value {
    let mut by_hint = serde_json::Map::new();
    let (mut claimed, mut judged) = (0u32, 0u32);
    for hint in HINTS {
        let words: Vec<&str> = rows
            .iter()
            .filter_map(|row| row["probe"][hint].as_str())
            .collect();
        let claimed_here = words.iter().filter(|word| **word != "unclaimed").count();
        let judged_here = words
            .iter()
            .filter(|word| matches!(**word, "verified" | "violated"))
            .count();
        #[allow(clippy::cast_possible_truncation)]
        let (claimed_here, judged_here) = (claimed_here as u32, judged_here as u32);
        claimed += claimed_here;
        judged += judged_here;
        by_hint.insert(
            hint.to_owned(),
            json!({"claimed": claimed_here, "judged": judged_here}),
        );
    }
    let share = if claimed == 0 {
        1.0
    } else {
        f64::from(judged) / f64::from(claimed)
    };
    json!({"claimed": claimed, "judged": judged, "share": (share * 100.0).round() / 100.0,
        "byHint": by_hint})
}

/// The first text a result holds, cut to 120 characters.
fn first_text(result: &Value) -> String {
    let text = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|block| block.get("text").and_then(Value::as_str))
        .unwrap_or("");
    text.chars().take(120).collect()
}

/// A runner of its own for `tool`, seeded by `seed` and the tool's name.
fn runner_for(seed: u64, tool: &str) -> TestRunner {
    // FNV-1a of the name: stable across runs and platforms.
    let mut name = 0xcbf2_9ce4_8422_2325u64;
    for byte in tool.bytes() {
        name = (name ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    seed_bytes[8..16].copy_from_slice(&name.to_le_bytes());
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    )
}

/// One call, observed: the tree before and after, and after the same call again when the tool
/// claims idempotence.
fn call(peer: &mut Peer, sandbox: &Path, tool: &Tool, arguments: &Value, twice: bool) -> Call {
    let params = json!({"name": tool.name(), "arguments": arguments});
    let before = tree::observe(sandbox);
    let answer = peer.request("tools/call", params.clone());
    let after = tree::observe(sandbox);
    let again = (twice && answer.is_ok()).then(|| {
        let _ = peer.request("tools/call", params);
        tree::observe(sandbox)
    });
    Call {
        answer,
        before,
        after,
        again,
    }
}

/// The strings and numbers of a call's arguments and structured result, and the numbers its
/// text mentions, for later calls.
fn collect(arguments: &Value, result: &Value, seen: &mut Vec<Value>) {
    let mut found = Vec::new();
    mcp_annotations_verify::scalars(arguments, &mut found);
    if let Some(content) = result.get("structuredContent") {
        mcp_annotations_verify::scalars(content, &mut found);
    }
    for block in result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(text) = block.get("text").and_then(Value::as_str) {
            for word in text.split(|c: char| !c.is_ascii_digit()) {
                if let Ok(number) = word.parse::<u64>() {
                    found.push(Value::from(number));
                }
            }
        }
    }
    for value in found {
        if !seen.contains(&value) && seen.len() < 256 {
            seen.push(value);
        }
    }
}
