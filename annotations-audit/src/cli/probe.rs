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

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcp_annotations::Tool;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

use super::classes::{Classes, Place};
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
}

/// The script that makes every mount read-only in the server's own mount namespace, then the
/// sandbox (its first argument) and the `--writable` places writable again, and runs the
/// server (the rest). A write outside them fails with "Read-only file system".
const CONFINE: &str = r#"set -e
sandbox="$1"; shift
writable="$1"; shift
for mount in $(awk '{print $5}' /proc/self/mountinfo); do
  mount -o remount,bind,ro "$mount" 2>/dev/null || true
done
for place in "$sandbox" $writable; do
  mount --bind "$place" "$place"
  mount -o remount,bind,rw "$place"
done
# The working folder again, by its path: the one held was the read-only mount's.
cd "$(pwd -P)"
exec "$@""#;

/// How this machine can give a server a mount namespace of its own: the `unshare` command
/// (util-linux) as root, or in a user namespace of its own where that is all there is; why
/// not, where neither works.
fn confinement() -> Result<Vec<String>, String> {
    use std::sync::OnceLock;
    static FOUND: OnceLock<Result<Vec<String>, String>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let tries: [&[&str]; 2] = [
                &["unshare", "--mount", "--propagation", "private"],
                &[
                    "unshare",
                    "--user",
                    "--map-root-user",
                    "--mount",
                    "--propagation",
                    "private",
                ],
            ];
            let mut why = String::from("no `unshare` command");
            // The whole script, on a folder of its own: where it runs, it runs for a server.
            let trial = std::env::temp_dir().join(format!(
                "annotations-audit-confine-{}",
                std::process::id()
            ));
            let _ = std::fs::create_dir_all(&trial);
            let trial_path = trial.to_string_lossy().into_owned();
            for prefix in tries {
                let ran = std::process::Command::new(prefix[0])
                    .args(&prefix[1..])
                    .args(["--", "sh", "-c", CONFINE, "sh", &trial_path, "", "true"])
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .status();
                match ran {
                    Ok(status) if status.success() => {
                        let _ = std::fs::remove_dir_all(&trial);
                        return Ok(prefix.iter().map(|word| (*word).to_owned()).collect());
                    }
                    Ok(_) => why = "`unshare --mount` is not allowed here (neither as this user nor in a user namespace)".to_owned(),
                    Err(_) => {}
                }
            }
            let _ = std::fs::remove_dir_all(&trial);
            Err(why)
        })
        .clone()
}

/// How long the processes a server started get to end after its answer, before the sandbox
/// is observed.
const SETTLE: Duration = Duration::from_secs(2);

/// How long the control session sits idle between its two observations.
const IDLE: Duration = Duration::from_millis(300);

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
    if let (true, Ok(prefix)) = (options.confine, confinement()) {
        let writable: Vec<String> = options
            .writable
            .iter()
            .map(|place| place.to_string_lossy().into_owned())
            .collect();
        let mut wrapped = prefix;
        wrapped.extend([
            "--".into(),
            "sh".into(),
            "-c".into(),
            CONFINE.into(),
            "sh".into(),
        ]);
        wrapped.push(place.to_string());
        wrapped.push(writable.join(" "));
        wrapped.extend(command);
        command = wrapped;
    }
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

/// A call the probe made, to make again in the same order when a run is reproduced.
#[derive(Clone)]
struct Made {
    tool: String,
    arguments: Value,
    twice: bool,
}

/// What the control session saw the server change with no call made.
struct Control {
    /// Places that changed while the server sat idle: volatile.
    volatile: Vec<Place>,
    idle: Vec<String>,
    /// What it changed as it exited.
    exit: Vec<String>,
    /// Why the control session could not be made, if it could not.
    failed: Option<String>,
}

/// A fresh sandbox filled from the seed, under `name`.
fn sandbox(options: &Options, name: &str) -> Result<Sandbox, String> {
    let dir = std::env::temp_dir().join(format!(
        "annotations-audit-probe-{}-{}-{name}",
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
    Ok(sandbox)
}

/// The control session: start, initialize, list, sit idle, exit; the sandbox observed after
/// the listing, after the wait and after the exit.
fn control(options: &Options, deadline: Instant) -> Result<Control, String> {
    let sandbox = sandbox(options, "control")?;
    let mut peer = start(options, &sandbox.dir, deadline)?;
    peer.list_tools()?;
    peer.settle(SETTLE);
    let listed = tree::observe(&sandbox.dir);
    std::thread::sleep(IDLE);
    peer.settle(SETTLE);
    let idle = tree::observe(&sandbox.dir);
    peer.finish(SETTLE);
    let exited = tree::observe(&sandbox.dir);
    let mut volatile = Vec::new();
    for (path, entry) in &idle {
        let before = listed.get(path);
        match (before.and_then(|b| b.view.as_ref()), &entry.view) {
            (Some((_, was)), Some((_, is))) => {
                let mut at = Vec::new();
                super::formats::differences(was, is, "", &mut at, 64);
                for line in at {
                    // `~ /pointer (...)`, or the whole value when it starts with no `/`.
                    let pointer = line[2..].split(' ').next().unwrap_or("");
                    let place = if pointer.starts_with('/') {
                        Place::parse(&format!("{path}#{pointer}"))
                    } else {
                        Place::parse(path)
                    };
                    volatile.extend(place);
                }
            }
            _ if before.is_some_and(|b| b.hash == entry.hash && b.size == entry.size) => {}
            _ => volatile.extend(Place::parse(path)),
        }
    }
    Ok(Control {
        volatile,
        idle: tree::diff(&listed, &idle, 12),
        exit: tree::diff(&idle, &exited, 12),
        failed: None,
    })
}

/// Whether a result is a failed call: `isError`, or (for a server that answers its errors as
/// plain text) a result with no structured content whose text starts with "error".
fn failed(result: &Value) -> bool {
    result.get("isError") == Some(&Value::Bool(true))
        || (result.get("structuredContent").is_none()
            && first_text(result, 120)
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("error"))
}

/// What broke hint `hint` (an index into [`HINTS`]) in `call`, by `classes`: read-only, any
/// change; idempotent, a change by the second call beyond append-only growth;
/// non-destructive, anything lost.
fn broken(hint: usize, call: &Call, classes: &Classes) -> Option<String> {
    match hint {
        0 => tree::changed(&call.before, &call.after, classes, false)
            .map(|what| format!("the call changed the sandbox: {what}")),
        1 => call.again.as_ref().and_then(|again| {
            tree::changed(&call.after, again, classes, true).map(|what| {
                format!(
                    "called twice with the same arguments, the second call changed the \
                     sandbox again: {what}"
                )
            })
        }),
        _ => tree::lost(&call.before, &call.after, classes),
    }
}

/// The call `made` made again after every call of `history`, in a fresh sandbox with a fresh
/// server: what broke `hint` there, or `Err` where the run could not be made.
fn reproduce(
    options: &Options,
    classes: &Classes,
    history: &[Made],
    made: &Made,
    hint: usize,
    run: u32,
    deadline: Instant,
) -> Result<Option<String>, String> {
    let sandbox = sandbox(options, &format!("run{run}"))?;
    let mut peer = start(options, &sandbox.dir, deadline)?;
    peer.list_tools()?;
    for earlier in history {
        if Instant::now() > deadline {
            return Err("the probe's time ran out".to_owned());
        }
        if !peer.alive() {
            peer = start(options, &sandbox.dir, deadline)?;
        }
        let params = json!({"name": earlier.tool, "arguments": earlier.arguments});
        let answered = peer.request("tools/call", params.clone()).is_ok();
        if earlier.twice && answered {
            let _ = peer.request("tools/call", params);
        }
        peer.settle(SETTLE);
    }
    if !peer.alive() {
        peer = start(options, &sandbox.dir, deadline)?;
    }
    // A change with no call made is nobody's doing: a run whose sandbox changes while the
    // server sits idle cannot tell the call's doing from it (a heartbeat slower than the
    // control session's wait).
    peer.settle(SETTLE);
    let still = tree::observe(&sandbox.dir);
    std::thread::sleep(IDLE);
    peer.settle(SETTLE);
    if let Some(what) = tree::changed(&still, &tree::observe(&sandbox.dir), classes, false) {
        return Err(format!("the sandbox changed with no call made ({what})"));
    }
    let call = call(
        &mut peer,
        &sandbox.dir,
        &made.tool,
        &made.arguments,
        made.twice,
    );
    Ok(broken(hint, &call, classes))
}

/// The cases the user wrote, by tool name (`--cases-file`: a JSON object of arrays of argument
/// objects).
fn cases_from_file(path: Option<&Path>) -> Result<serde_json::Map<String, Value>, String> {
    let Some(path) = path else {
        return Ok(serde_json::Map::new());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let cases: Value = serde_json::from_str(&text)
        .map_err(|error| format!("{} is not JSON: {error}", path.display()))?;
    let Value::Object(cases) = cases else {
        return Err(format!(
            "{}: a cases file is an object of tool names, each an array of argument objects",
            path.display()
        ));
    };
    for (tool, list) in &cases {
        let fine = list
            .as_array()
            .is_some_and(|list| list.iter().all(Value::is_object));
        if !fine {
            return Err(format!(
                "{}: `{tool}` is not an array of argument objects",
                path.display()
            ));
        }
    }
    Ok(cases)
}

/// Every string in `value` with the sandbox's path written `{sandbox}`: a report that does not
/// depend on where the sandbox was made.
fn relative_to(value: &mut Value, sandbox: &str) {
    match value {
        Value::String(text) if text.contains(sandbox) => *text = text.replace(sandbox, "{sandbox}"),
        Value::Array(items) => items.iter_mut().for_each(|item| relative_to(item, sandbox)),
        Value::Object(map) => map.values_mut().for_each(|item| relative_to(item, sandbox)),
        _ => {}
    }
}

/// One tool's probe: the verdict on each hint, and the violations and findings found.
pub fn probe(options: &Options) -> Result<(Value, bool), String> {
    let deadline = Instant::now() + options.total;
    let user_cases = cases_from_file(options.cases_file.as_deref())?;
    // The control session gets a quarter of the time at most; one that cannot be made (a
    // listing without end) leaves nothing found volatile, and says so.
    let control =
        control(options, Instant::now() + options.total / 4).unwrap_or_else(|error| Control {
            volatile: Vec::new(),
            idle: Vec::new(),
            exit: Vec::new(),
            failed: Some(error),
        });
    let mut classes = options.classes.clone();
    classes.volatile.extend(control.volatile.iter().cloned());
    let sandbox = sandbox(options, "main")?;
    let sandbox_path = sandbox.dir.to_string_lossy().into_owned();
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
    if let Some(error) = &control.failed {
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
        let mut tries = [0u32; 3];
        let mut unsure: [Option<String>; 3] = [None, None, None];
        let mut notes: Vec<Value> = Vec::new();
        // What a call the server did not live through counts as: a failed call.
        let crashed = json!({"isError": true});
        let mut succeeded = 0u32;
        // Every call made, and what the failed ones answered: why a claim was not judged.
        let mut calls = 0u32;
        let mut failures: Vec<String> = Vec::new();
        let mut out_of_time = false;
        let mut wrote_outside = false;
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
            for index in 0..total {
                if Instant::now() > deadline {
                    notes.push(json!("the probe's time ran out"));
                    out_of_time = true;
                    break;
                }
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
                        &pool(&sandbox.dir, &tree::observe(&sandbox.dir), &seen),
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
                }
                let made = Made {
                    tool: tool.name().to_owned(),
                    arguments: arguments.clone(),
                    twice: claimed[1],
                };
                let call = call(&mut peer, &sandbox.dir, &made.tool, &arguments, claimed[1]);
                let earlier = history.len();
                history.push(made.clone());
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
                let ok = !failed(result);
                if !ok && !std::ptr::eq(result, &crashed) {
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
                let volatile = tree::volatile_changes(&call.before, &call.after, &classes);
                if !volatile.is_empty() {
                    notes.push(json!({"arguments": arguments,
                        "volatile": volatile, "problem": "changed volatile state only: not judged"}));
                }
                for hint in 0..HINTS.len() {
                    if !claimed[hint] || verdicts[hint] == Verdict::Violated {
                        continue;
                    }
                    let Some(what) = broken(hint, &call, &classes) else {
                        if ok && verdicts[hint] == Verdict::Unexercised {
                            verdicts[hint] = Verdict::Verified;
                        }
                        continue;
                    };
                    if tries[hint] >= REPRODUCTIONS {
                        continue;
                    }
                    tries[hint] += 1;
                    // Reproduced in every run, or not claimed.
                    let mut seen_in = vec![format!("run 1: {what}")];
                    let mut reproduced = 1;
                    for run in 2..=options.runs.max(1) {
                        let again = reproduce(
                            options,
                            &classes,
                            &history[..earlier],
                            &made,
                            hint,
                            run,
                            deadline,
                        );
                        match again {
                            Ok(Some(what)) => {
                                reproduced += 1;
                                seen_in.push(format!("run {run}: {what}"));
                            }
                            Ok(None) => seen_in.push(format!("run {run}: nothing broke it")),
                            Err(error) => {
                                seen_in.push(format!("run {run} could not be made: {error}"))
                            }
                        }
                    }
                    let (from, to) = match hint {
                        1 => (&call.after, call.again.as_ref().unwrap_or(&call.after)),
                        _ => (&call.before, &call.after),
                    };
                    if reproduced == options.runs.max(1) {
                        verdicts[hint] = Verdict::Violated;
                        violated_any = true;
                        notes.push(json!({
                            "hint": HINTS[hint],
                            "arguments": arguments,
                            "problem": what,
                            "runs": seen_in,
                            "diff": tree::diff(from, to, 12),
                        }));
                    } else {
                        verdicts[hint] = Verdict::Nondeterministic;
                        let why = format!(
                            "broken in {reproduced} of {} runs with {arguments}: {}",
                            options.runs.max(1),
                            seen_in.join("; ")
                        );
                        notes.push(json!({
                            "hint": HINTS[hint],
                            "arguments": arguments,
                            "problem": format!("nondeterministic: {why}"),
                            "diff": tree::diff(from, to, 12),
                        }));
                        unsure[hint] = Some(why);
                    }
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
            .enumerate()
            .filter_map(|(at, (hint, verdict))| match verdict {
                Verdict::Unexercised => Some(((*hint).to_owned(), Value::from(why.clone()))),
                Verdict::Nondeterministic => Some((
                    (*hint).to_owned(),
                    Value::from(format!(
                        "nondeterministic: {}",
                        unsure[at].clone().unwrap_or_default()
                    )),
                )),
                _ => None,
            })
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
    let confined = match (options.confine, confinement()) {
        (false, _) => "not confined (--unconfined): a write outside the sandbox goes unseen".to_owned(),
        (true, Ok(_)) => "the sandbox (and --writable places) the only writable places: the server ran in a mount namespace of its own".to_owned(),
        (true, Err(why)) => format!("not confined ({why}): a write outside the sandbox goes unseen"),
    };
    let mut report = json!({"tools": rows, "server": server_findings, "seed": options.seed,
        "confinement": confined,
        "coverage": coverage, "runs": options.runs.max(1),
        "control": {"idle": control.idle, "exit": control.exit,
            "volatile": control.volatile.iter().map(Place::text).collect::<Vec<_>>()}});
    relative_to(&mut report, &sandbox.dir.to_string_lossy());
    Ok((report, violated_any))
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

/// The first text a result holds, cut to `most` characters.
fn first_text(result: &Value, most: usize) -> String {
    let text = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|block| block.get("text").and_then(Value::as_str))
        .unwrap_or("");
    text.chars().take(most).collect()
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

/// One call, observed once the processes the server started have ended: the tree before
/// and after, and after the same call again when the tool claims idempotence.
fn call(peer: &mut Peer, sandbox: &Path, tool: &str, arguments: &Value, twice: bool) -> Call {
    let params = json!({"name": tool, "arguments": arguments});
    peer.settle(SETTLE);
    let before = tree::observe(sandbox);
    let answer = peer.request("tools/call", params.clone());
    peer.settle(SETTLE);
    let after = tree::observe(sandbox);
    let again = (twice && answer.is_ok()).then(|| {
        let _ = peer.request("tools/call", params);
        peer.settle(SETTLE);
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
