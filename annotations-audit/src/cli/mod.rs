//! The command line of `annotations-audit`: the audit of a server's listing (the default),
//! `--probe` (its hints checked by behaviour) and `--diff` (what changed between two
//! listings).

mod http;
mod peer;
mod pool;
mod probe;
mod report;
mod streams;

// What the probe observes and the rules it judges by are `verify`'s, so that an author's
// tests and a host's probe judge alike.
use mcp_annotations_verify::files::{classes, formats, judge, tree};

use std::time::Duration;

use mcp_annotations::Tool;
use mcp_annotations::host::diff::Class;
use serde_json::{Value, json};

const USAGE: &str = "\
usage: annotations-audit [--format json] [--timeout SECONDS] [--server-log FILE] ([--] <command> [args...] | --http URL)
       annotations-audit --probe [--cases N] [--seed S] [--seed-dir DIR] [--env KEY=VALUE]...
                         [--allow-open-world] [--probe-timeout SECONDS] [--runs N] [--cases-file FILE]
                         [--volatile PLACE]... [--append-only PLACE]... [--unconfined] [--writable DIR]...
                         [--observe CMD]... [--format json] -- <command> [args...]
       annotations-audit --diff OLD.json (NEW.json | -- <command> [args...]) [--allow breaking,trust] [--format json]

The audit lists a server's tools (over stdio) and prints each one's effective hints, what a
host would do with it trusting the server or not, and every finding; exit 1 on an error
finding, 2 when the server could not be audited (a server that fails to start is shown with the
last lines of its stderr; --server-log keeps all of it, each server's after a line naming it).
--probe runs the server in a fresh sandbox folder (its working directory, HOME and TMPDIR;
`{sandbox}` in --env values and arguments is its path; not a security boundary) and checks its
hints by what each call does there; exit 1
on a violation, a call the server does not live through being judged by what it left;
--probe-timeout (180 s) bounds the whole probe, its listing, calls and restarts alike; a
violation is reported only when it shows in each of --runs (3) independent runs, else the hint
is nondeterministic; --cases-file is a JSON object of arrays of arguments by tool name, called
before the generated ones; a PLACE is a path of the sandbox, or PATH#/json/pointer into what a
file holds (a SQLite file's /tables/NAME/rows/KEY/COLUMN, `*` for any segment): changes in a
--volatile one are reported, never judged, and an --append-only one may grow under an
idempotent or non-destructive tool, never under a read-only one. --observe runs CMD (with
`sh -c`, in the sandbox, with the --env values) around each call for state the sandbox's files
do not hold: the JSON it prints is judged as a file's contents are, as the place @observe1
(the second command's @observe2, ...); one that fails leaves that call unjudged there. Where the machine allows a
mount namespace (Linux, as root or in a user namespace), the sandbox and the --writable
places are the only places the server can write: a write elsewhere fails, and is a finding
(--unconfined runs it as any process). --diff classifies what changed between two listings (a saved tools/list
result, or a live server); exit 1 on a breaking or trust change not --allow'ed.";

/// What the command line asked.
struct Args {
    json: bool,
    timeout: Duration,
    probe: Option<probe::Options>,
    diff: Option<(String, Option<String>)>,
    allow: Vec<String>,
    command: Vec<String>,
    http: Option<String>,
    help: bool,
    /// Where all of each server's stderr is kept (`--server-log`).
    server_log: Option<std::path::PathBuf>,
}

fn parse(mut args: Vec<String>) -> Result<Args, String> {
    let mut parsed = Args {
        json: false,
        timeout: Duration::from_secs(30),
        probe: None,
        diff: None,
        allow: Vec::new(),
        command: Vec::new(),
        http: None,
        help: false,
        server_log: None,
    };
    let mut probe = probe::Options {
        command: Vec::new(),
        cases: 16,
        seed: 1,
        seed_dir: None,
        env: Vec::new(),
        allow_open_world: false,
        timeout: Duration::from_secs(30),
        total: Duration::from_secs(180),
        classes: classes::Classes::default(),
        cases_file: None,
        runs: 3,
        confine: true,
        writable: Vec::new(),
        observers: Vec::new(),
    };
    let mut probing = false;
    let seconds = |value: &str| -> Result<Duration, String> {
        match value.parse::<f64>().map(Duration::try_from_secs_f64) {
            Ok(Ok(seconds)) if !seconds.is_zero() => Ok(seconds),
            _ => Err(format!("expected a number of seconds, got {value:?}")),
        }
    };
    args.reverse();
    while let Some(arg) = args.pop() {
        let mut value = || {
            args.pop()
                .ok_or_else(|| format!("{arg} takes a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--format" => parsed.json = value()? == "json",
            "--timeout" => parsed.timeout = seconds(&value()?)?,
            "--probe" => probing = true,
            "--cases" => probe.cases = value()?.parse().map_err(|_| "--cases takes a number")?,
            "--seed" => probe.seed = value()?.parse().map_err(|_| "--seed takes a number")?,
            "--seed-dir" => probe.seed_dir = Some(value()?.into()),
            "--env" => {
                let pair = value()?;
                let (key, val) = pair.split_once('=').ok_or("--env takes KEY=VALUE")?;
                probe.env.push((key.to_owned(), val.to_owned()));
            }
            "--allow-open-world" => probe.allow_open_world = true,
            "--probe-timeout" => probe.total = seconds(&value()?)?,
            "--runs" => {
                probe.runs = match value()?.parse() {
                    Ok(runs) if runs >= 1 => runs,
                    _ => return Err("--runs takes a number, 1 or more".to_owned()),
                };
            }
            "--cases-file" => probe.cases_file = Some(value()?.into()),
            "--observe" => probe.observers.push(value()?),
            "--unconfined" => probe.confine = false,
            "--writable" => {
                let place = std::path::PathBuf::from(value()?);
                let place = std::fs::canonicalize(&place)
                    .map_err(|error| format!("--writable {}: {error}", place.display()))?;
                if place.to_string_lossy().contains(char::is_whitespace) {
                    return Err(format!(
                        "--writable {}: a path with spaces is not supported",
                        place.display()
                    ));
                }
                probe.writable.push(place);
            }
            "--volatile" => probe
                .classes
                .volatile
                .push(classes::Place::parse(&value()?)?),
            "--append-only" => probe
                .classes
                .append_only
                .push(classes::Place::parse(&value()?)?),
            "--allow" => parsed.allow = value()?.split(',').map(str::to_owned).collect(),
            "--diff" => {
                let old = value()?;
                let new = match args.last() {
                    Some(next) if !next.starts_with("--") => args.pop(),
                    _ => None,
                };
                parsed.diff = Some((old, new));
            }
            "--http" => parsed.http = Some(value()?),
            "--server-log" => parsed.server_log = Some(value()?.into()),
            "--help" | "-h" => parsed.help = true,
            "--" => {
                args.reverse();
                parsed.command = std::mem::take(&mut args);
            }
            other if other.starts_with("--") => {
                return Err(format!("unknown option {other}\n{USAGE}"));
            }
            _ => {
                args.push(arg);
                args.reverse();
                parsed.command = std::mem::take(&mut args);
            }
        }
    }
    if probing {
        probe.command = parsed.command.clone();
        probe.timeout = parsed.timeout;
        parsed.probe = Some(probe);
    }
    Ok(parsed)
}

/// Runs the command line; the exit status.
pub fn run(args: Vec<String>) -> i32 {
    let args = match parse(args) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    if args.help {
        println!("{USAGE}");
        return 0;
    }
    if let Some(path) = &args.server_log
        && let Err(error) = streams::log_to(path)
    {
        eprintln!("annotations-audit: {error}");
        return 2;
    }
    let outcome = if let Some((old, new)) = &args.diff {
        diff(&args, old, new.as_deref())
    } else if let Some(options) = &args.probe {
        probe::probe(options).map(|(report, violated)| {
            print(&args, &report, probe_table);
            i32::from(violated)
        })
    } else {
        audit(&args)
    };
    outcome.unwrap_or_else(|error| {
        eprintln!("annotations-audit: {error}");
        2
    })
}

fn print(args: &Args, report: &Value, table: fn(&Value) -> String) {
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(report).unwrap_or_default()
        );
    } else {
        print!("{}", table(report));
    }
}

/// The server the command line names: the command, or `--http`'s endpoint.
fn server(args: &Args) -> Result<peer::Peer, String> {
    match &args.http {
        Some(url) => peer::Peer::connect(url, args.timeout),
        None => peer::Peer::start(&args.command, None, &[], args.timeout, None),
    }
}

fn audit(args: &Args) -> Result<i32, String> {
    let mut peer = server(args)?;
    let (listed, problems) = peer.list_tools().map_err(|error| peer.explain(error))?;
    drop(peer);
    let (report, has_errors) = report::report(&listed, &problems);
    print(args, &report, report::table);
    Ok(i32::from(has_errors))
}

/// The tools of a side of `--diff`: a saved `tools/list` result (or an array of tools), or
/// the live server's listing.
fn tools_of(args: &Args, file: Option<&str>) -> Result<Vec<Tool>, String> {
    let listed: Vec<Value> = match file {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|error| format!("{path}: {error}"))?;
            let value: Value =
                serde_json::from_str(&text).map_err(|error| format!("{path}: {error}"))?;
            let tools = value.get("tools").cloned().unwrap_or(value);
            match tools {
                Value::Array(tools) => tools,
                _ => {
                    return Err(format!(
                        "{path}: neither a tools/list result nor an array of tools"
                    ));
                }
            }
        }
        None => {
            let mut peer = server(args)?;
            peer.list_tools().map_err(|error| peer.explain(error))?.0
        }
    };
    listed
        .into_iter()
        .map(|raw| {
            let name = raw
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("(no name)")
                .to_owned();
            serde_json::from_value(raw).map_err(|error| format!("`{name}` cannot be read: {error}"))
        })
        .collect()
}

fn diff(args: &Args, old: &str, new: Option<&str>) -> Result<i32, String> {
    let (old, new) = (tools_of(args, Some(old))?, tools_of(args, new)?);
    let changes = mcp_annotations::host::diff::listings(&old, &new);
    let refused = changes.iter().any(|change| match change.class() {
        Class::Breaking => !args.allow.iter().any(|a| a == "breaking"),
        Class::Trust => !args.allow.iter().any(|a| a == "trust"),
        _ => false,
    });
    if args.json {
        let listed: Vec<Value> = changes
            .iter()
            .map(|change| json!({"tool": change.tool(), "change": change.what(), "class": change.class().to_string()}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({ "changes": listed })).unwrap_or_default()
        );
    } else if changes.is_empty() {
        println!("no changes");
    } else {
        for change in &changes {
            println!("{change}");
        }
    }
    Ok(i32::from(refused))
}

fn probe_table(report: &Value) -> String {
    let mut out = String::from(
        "| name | read-only | idempotent | non-destructive | closed world | calls that succeeded |\n\
         |---|---|---|---|---|---|\n",
    );
    for tool in report["tools"].as_array().into_iter().flatten() {
        let word = |hint: &str| tool["probe"][hint].as_str().unwrap_or("?").to_owned();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            report::code(tool["name"].as_str().unwrap_or("")),
            word("readOnly"),
            word("idempotent"),
            word("nonDestructive"),
            word("closedWorld"),
            tool["succeeded"]
        ));
    }
    for tool in report["tools"].as_array().into_iter().flatten() {
        for note in tool["notes"].as_array().into_iter().flatten() {
            let text = note.get("problem").map_or_else(
                || note.to_string(),
                |p| {
                    format!(
                        "{} with {}: {}",
                        note.get("hint").and_then(Value::as_str).unwrap_or("call"),
                        note["arguments"],
                        p.as_str().unwrap_or("")
                    )
                },
            );
            out.push_str(&format!(
                "{}: {}\n",
                report::code(tool["name"].as_str().unwrap_or("")),
                report::cell(&text)
            ));
            for line in note
                .get("diff")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                // A path the server made: no escape sequence of its reaches the terminal.
                out.push_str(&format!(
                    "    {}\n",
                    report::cell(line.as_str().unwrap_or(""))
                ));
            }
        }
    }
    for tool in report["tools"].as_array().into_iter().flatten() {
        for (hint, why) in tool["unjudged"].as_object().into_iter().flatten() {
            out.push_str(&format!(
                "{} {hint} not judged: {}\n",
                report::code(tool["name"].as_str().unwrap_or("")),
                report::cell(why.as_str().unwrap_or(""))
            ));
        }
    }
    for finding in report["server"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "server: {}\n",
            report::cell(finding.as_str().unwrap_or(""))
        ));
    }
    let coverage = &report["coverage"];
    out.push_str(&format!(
        "judged {} of the {} hints claimed ({}%)\n",
        coverage["judged"],
        coverage["claimed"],
        (coverage["share"].as_f64().unwrap_or(0.0) * 100.0).round()
    ));
    out
}
