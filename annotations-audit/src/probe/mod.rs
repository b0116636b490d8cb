//! `--probe`: a server's hints checked by behaviour. The server runs in a sandbox folder (its
//! working directory, `HOME`, `TMPDIR` and the XDG folders); each tool is called with arguments
//! generated from its listed input schema and with values from the sandbox and from earlier calls,
//! and the sandbox is observed as a tree around each call, each file by what its format holds (see
//! `mcp_annotations_verify::observe::formats`), once the processes the server started have ended.
//! Not a security boundary.
//!
//! Before the calls, a *control* session (start, initialize, list, wait, list again, exit, no
//! call) shows what the server changes on its own: what changed while it sat idle and answered
//! the second listing is volatile (reported, never judged), what it wrote on exit is reported. A violation is reported only when it
//! reproduces in every one of `--runs` independent runs (a fresh sandbox and server, started
//! from a copy of the sandbox the call found, or the same calls before it made again where no
//! copy can stand for them); otherwise the hint is `nondeterministic`, with what each run saw.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use mcp_annotations::Tool;
use serde_json::Value;

use crate::cli::args::{Confine, ProbeArgs};
use crate::cli::status::{Failure, Outcome, Status};
use crate::report::{ControlReport, ProbeReport, ProbedTool};
use crate::server::bounds::{self, Limits};
use mcp_annotations_verify::judge::classes::Classes;

mod answers;
mod arguments;
mod checkpoint;
mod control;
mod exit;
mod feedback;
pub(crate) mod landlock;
mod logs;
mod network;
mod observer;
mod origins;
mod parts;
mod primer;
mod record;
mod runs;
mod sandbox;
mod session;
mod together;
mod tool;
mod unreadable;
mod verdicts;
mod writes;

use control::{Control, control};
use parts::{cases_from_file, coverage, relative};
use sandbox::surroundings;
use session::Session;

/// `probe`: the report on the server `args` starts, and the exit status it calls for.
pub fn run(args: &ProbeArgs) -> Outcome {
    let mut ignores =
        crate::report::ignore::Ignores::load(&args.settings, "probe").map_err(Failure::Usage)?;
    // The settings file's part, and a cases file, that cannot be read are the command line's
    // mistakes: refused before any run.
    let file = crate::cli::settings::for_probe(&args.settings).map_err(Failure::Usage)?;
    parts::cases_from_file(args.cases_file.as_deref()).map_err(Failure::Usage)?;
    crate::server::keep_log(&args.connection)?;
    let options = options(args, file)?;
    let mut report = probe(&options)?;
    crate::progress::finish();
    if let Some(path) = &args.evidence {
        crate::report::evidence::write(&report, path)?;
    }
    // What failed the probe fails it still unless an ignore covers every part of it: a
    // violated claim (status 4), else a call that broke the protocol (a finding, status 1).
    let (violations, findings) = crate::report::ignore::probe(&mut report, &mut ignores);
    ignores.say("probe");
    let text = crate::report::rendered(
        &args.output,
        &report,
        crate::report::table::probe,
        crate::report::markdown::probe,
        crate::report::sarif::probe,
    )?;
    let failing = if violations {
        Status::Violations
    } else if findings {
        Status::Findings
    } else {
        Status::Clean
    };
    Ok((Status::of_results(failing, args.output.format), text))
}

/// What `args` ask, the settings file's part `file` beside them: its command where the
/// command line gives none, its seed folder where `--seed-dir` gives none, its environment,
/// set-up commands and places before the command line's, and its cases.
///
/// # Errors
///
/// No server's command, on the command line or in the settings file.
pub(crate) fn options(
    args: &ProbeArgs,
    file: crate::cli::settings::ForProbe,
) -> Result<Options, Failure> {
    let command = if args.command.is_empty() {
        file.command
    } else {
        args.command.clone()
    };
    if command.is_empty() {
        return Err(Failure::Usage(
            "no server to probe: give its command after `--` (or as `command` in the settings \
             file's [probe])"
                .to_owned(),
        ));
    }
    Ok(Options {
        command,
        cases: args.cases,
        seed: args.seed,
        seed_dir: args.seed_dir.clone().or(file.seed_dir),
        env: concat(file.env, &args.env),
        allow_open_world: args.allow_open_world || file.allow_open_world,
        timeout: args.connection.timeout,
        total: args.probe_timeout,
        classes: Classes {
            volatile: concat(file.volatile, &args.volatile),
            append_only: concat(file.append_only, &args.append_only),
        },
        cases_file: args.cases_file.clone(),
        settings_cases: file.cases,
        runs: args.runs,
        confine: if args.unconfined {
            Confine::None
        } else {
            args.confine
        },
        writable: args.writable.clone(),
        limits: Limits {
            processes: args.max_processes,
            memory: args.max_memory,
            disk: args.max_disk,
        },
        observers: args.observe.clone(),
        setup: concat(file.setup, &args.setup),
        // The server the probe starts is on this machine: reached directly, never through
        // a proxy of the environment's.
        http: args.remote.http.clone().or(file.http).map(|url| {
            let remote = crate::server::http::Remote {
                headers: args.remote.headers.clone(),
                ca_cert: args.remote.ca_cert.clone(),
                direct: true,
            };
            (url, remote)
        }),
    })
}

/// The cases written for `tool`: the settings file's, then the cases file's (`user_cases`),
/// each marked with where it was written.
fn written(
    options: &Options,
    user_cases: &serde_json::Map<String, Value>,
    tool: &Tool,
) -> Vec<(Value, &'static str)> {
    [
        (&options.settings_cases, origins::SETTINGS),
        (user_cases, origins::CASES_FILE),
    ]
    .into_iter()
    .flat_map(|(cases, origin)| {
        let listed = cases.get(tool.name()).and_then(Value::as_array);
        listed
            .into_iter()
            .flatten()
            .map(move |case| (case.clone(), origin))
    })
    .collect()
}

/// `first`, then `then`.
fn concat<T: Clone>(first: Vec<T>, then: &[T]) -> Vec<T> {
    first.into_iter().chain(then.iter().cloned()).collect()
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
    /// Arguments the settings file's `[[tool]]` entries give, by tool, called first.
    pub settings_cases: serde_json::Map<String, Value>,
    /// In how many independent runs a violation must show to be reported (`--runs`).
    pub runs: u32,
    /// How the server is confined to the sandbox (`--confine`; `--unconfined` is `none`).
    pub confine: Confine,
    /// Places left writable beside the sandbox (`--writable`): what they hold is not observed.
    pub writable: Vec<PathBuf>,
    /// What one run of the server may take (`--max-processes`, `--max-memory`, `--max-disk`).
    pub limits: Limits,
    /// Commands printing, as JSON, state the sandbox's files do not hold (`--observe`).
    pub observers: Vec<String>,
    /// Commands that set up the server's state in each fresh sandbox (`--setup`).
    pub setup: Vec<String>,
    /// Where the server the command starts serves Streamable HTTP (`--http`, a loopback
    /// URL), and how it is reached; `None` for a server over stdio.
    pub http: Option<(String, crate::server::http::Remote)>,
}

impl Options {
    /// Whether runs of the server may go side by side, each in a sandbox of its own: where
    /// nothing but their sandboxes is theirs to write, so that they share nothing. Not with a
    /// `--writable` place (every run writes the same one: a counter there, a lock, a cache
    /// warmed once would see the runs meet), nor unconfined (a write outside the sandbox
    /// goes anywhere), nor with `--observe` or `--setup` commands (what they observe or set
    /// up may be outside the sandbox too), nor without a network namespace of their own.
    pub(super) fn side_by_side(&self) -> bool {
        // A network of their own too: runs that share the machine's (an open world, a server
        // over HTTP, Landlock's rules) could meet on a port or a socket.
        let own_network = sandbox::closed_world(self)
            && matches!(
                sandbox::confined(self),
                Ok(sandbox::Confined::Namespaces(prefix)) if prefix.iter().any(|word| word == "--net")
            );
        self.writable.is_empty()
            && self.observers.is_empty()
            && self.setup.is_empty()
            && own_network
    }
}

/// Whether `tool` claims a hint the probe judges (read-only, idempotent, non-destructive,
/// closed-world), or is resolvable (its resolutions may claim one).
pub(super) fn judges_a_claim(tool: &Tool) -> bool {
    let claimed = verdicts::claims(&tool.annotations);
    // A resolvable tool's resolutions may claim what its listing does not.
    tool.resolvable || verdicts::JUDGED.into_iter().any(|hint| claimed[hint])
}

/// How long the processes a server started get to end after its answer, before the sandbox
/// is observed.
pub(super) const SETTLE: Duration = Duration::from_secs(2);

/// How long the control session sits idle between its two observations: past a second, so
/// that a stamp of the time in seconds moves.
pub(super) const IDLE: Duration = Duration::from_millis(1100);

/// How many times a hint's violation is tried for reproduction, per tool, before the probe
/// gives up on that hint (each try is a run of its own, from the sandbox the call found).
const REPRODUCTIONS: u32 = 2;

/// The probe of the server `options` start: each tool's verdicts, notes and coverage.
pub fn probe(options: &Options) -> Result<ProbeReport, String> {
    // Confined as asked, or not run at all.
    sandbox::confined(options)?;
    let deadline = Instant::now() + options.total;
    let user_cases = cases_from_file(options.cases_file.as_deref())?;
    // The control session gets a quarter of the time at most; one that cannot be made (a
    // listing without end) leaves nothing found volatile, and says so. Where runs may go side
    // by side, the main run starts at once beside it: what the control session finds is only
    // needed once the first call is judged.
    let control_deadline = Instant::now() + options.total / 4;
    let main = || Session::start(options, deadline);
    let (controlled, started) = if options.side_by_side() {
        std::thread::scope(|scope| {
            let controlled = scope.spawn(move || control(options, control_deadline));
            let started = main();
            let controlled = controlled.join().unwrap_or_else(|_| {
                Err("the control session stopped on an internal error".to_owned())
            });
            (controlled, started)
        })
    } else {
        (control(options, control_deadline), main())
    };
    let (mut control, control_failed) = match controlled {
        Ok(control) => (control, None),
        Err(error) => (Control::default(), Some(error)),
    };
    let (mut session, tools, unreadable) = started?;
    (session.classes.volatile).extend(control.volatile.iter().cloned());
    session.started = std::mem::take(&mut control.started);
    crate::progress::start_probe(tools.len());
    if let Some(error) = &control_failed {
        session.findings.push(format!(
            "the control session (start, list, exit, no call) could not be made, so no state \
             was found volatile: {error}"
        ));
    }
    let listed = |name: &str| {
        tools.iter().any(|tool| tool.name() == name)
            || unreadable.iter().any(|tool| tool.name() == Some(name))
    };
    for (cases, from) in [
        (&options.settings_cases, "the settings file"),
        (&user_cases, "the cases file"),
    ] {
        for unknown in cases.keys().filter(|name| !listed(name)) {
            session.findings.push(format!(
                "{from} names `{unknown}`, which the server does not list"
            ));
        }
    }
    // The tools that write first, so that the ones that read find something to read; among
    // each, the ones that claim nothing the probe judges last (they have a quarter of the
    // cases), so that the time goes to the claims first.
    let mut order: Vec<(usize, &Tool)> = tools.iter().enumerate().collect();
    order.sort_by_key(|(_, tool)| (tool.annotations.read_only(), !judges_a_claim(tool)));
    // Where runs may go side by side, the runs beside the main one (reproductions, two calls
    // at once) go on while it makes its next calls: past `tool::MOST_BESIDE` calls' runs, the
    // earliest tools' are waited for before the next tool's calls start, and every row waits
    // for its own.
    let mut probed = std::thread::scope(|scope| {
        let beside = options.side_by_side().then_some(scope);
        let mut probing: Vec<(usize, tool::ToolProbe<'_, '_, '_>)> = Vec::new();
        for (at, tool) in order {
            for earlier in 0..probing.len() {
                let pending: usize = probing.iter().map(|(_, probe)| probe.pending()).sum();
                if pending <= tool::MOST_BESIDE {
                    break;
                }
                probing[earlier].1.join(&mut session);
            }
            let written = written(options, &user_cases, tool);
            match tool::probe(&mut session, tool, &written, beside) {
                Ok(probe) => probing.push((at, probe)),
                Err(error) => {
                    probing.iter_mut().for_each(|(_, probe)| probe.abandon());
                    return Err(error);
                }
            }
        }
        let rows = probing.into_iter();
        Ok::<Vec<_>, String>(
            rows.map(|(at, row)| (at, row.finish(&mut session)))
                .collect(),
        )
    })?;
    // Tools that failed alike until the server's own set-up tool was called, again after it.
    primer::again(&mut session, &tools, &mut probed, |tool| {
        written(options, &user_cases, tool)
    })?;
    // Reported in the order the server lists them: each row in its own tool's place, however
    // many share its name.
    probed.sort_by_key(|(at, _)| *at);
    let mut listed_rows: Vec<ProbedTool> = probed.into_iter().map(|(_, row)| row).collect();
    // A tool the probe cannot read is reported where it is listed, each claim it may make
    // counted as not judged.
    for tool in &unreadable {
        let row = unreadable::row(tool);
        session.findings.push(format!(
            "`{}` is listed but cannot be read ({}): not probed",
            row.name, tool.error
        ));
        listed_rows.insert(tool.at.min(listed_rows.len()), row);
    }
    // Each row's digest, of the descriptor listed in its place: every row is in it now.
    for (row, raw) in listed_rows.iter_mut().zip(&session.listed) {
        row.digest = mcp_annotations::host::Evidence::digest(raw);
    }
    let rows = listed_rows;
    // A run past its bounds that no call is charged with (the control session, a
    // reproduction run, two calls at once).
    for what in bounds::exceeded() {
        session.findings.push(format!("a run of the server {what}"));
    }
    let (confinement, network) = surroundings(options);
    let mut report = ProbeReport {
        coverage: coverage(&rows),
        tools: rows,
        server: std::mem::take(&mut session.findings),
        seed: options.seed,
        confinement,
        network,
        processes: crate::server::lifetime(),
        limits: bounds::said(&options.limits),
        runs: options.runs.max(1),
        judged_by: crate::report::JUDGED_BY.into_iter().collect(),
        classed_append_only: std::mem::take(&mut session.logs.classed),
        control: ControlReport {
            idle: control.idle,
            exit: control.exit,
            volatile: control
                .volatile
                .iter()
                .map(|place| place.text().to_owned())
                .collect(),
        },
    };
    relative(&mut report, &session.sandbox.dir.to_string_lossy());
    Ok(report)
}
