//! The command line of `annotations-audit`: `audit` (a server's listing and its findings),
//! `probe` (its hints checked by behaviour), `diff` (what changed between two listings) and
//! `completions`, parsed by `clap` (see [`args`]).

mod args;
mod http;
mod legacy;
mod markdown;
mod peer;
mod pool;
mod probe;
mod progress;
mod report;
mod sarif;
mod streams;

// What the probe observes and the rules it judges by are `verify`'s, so that an author's
// tests and a host's probe judge alike.
use mcp_annotations_verify::files::{classes, formats, judge, tree};

use clap::CommandFactory;
use mcp_annotations::Tool;
use mcp_annotations::host::diff::Class;
use serde_json::{Value, json};

use args::{AuditArgs, Cli, Command, Connection, DiffArgs, Format, Output, ProbeArgs, Remote};

/// Runs the command line; the exit status (0 clean, 1 findings, 2 could not run).
pub fn run(args: Vec<String>) -> i32 {
    let (args, notes) = match legacy::modernize(args) {
        Ok(modern) => modern,
        Err(error) => {
            eprintln!("error: {error}");
            return 2;
        }
    };
    for note in notes {
        eprintln!("{note}");
    }
    let cli = match Cli::parse_checked(std::iter::once("annotations-audit".to_owned()).chain(args))
    {
        Ok(cli) => cli,
        Err(error) => {
            // Help and the version on stdout with 0; a bad command line on stderr with 2.
            let _ = error.print();
            return error.exit_code();
        }
    };
    let outcome = match &cli.command {
        Command::Audit(args) => audit(args),
        Command::Probe(args) => probe(args),
        Command::Diff(args) => diff(args),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(
                *shell,
                &mut Cli::command(),
                "annotations-audit",
                &mut script,
            );
            Ok((0, String::from_utf8_lossy(&script).into_owned()))
        }
    };
    progress::finish();
    match outcome {
        Ok((status, text)) => match write_out(&text) {
            Ok(()) => status,
            Err(error) => {
                eprintln!("annotations-audit: cannot write the report: {error}");
                2
            }
        },
        Err(error) => {
            eprintln!("annotations-audit: {error}");
            2
        }
    }
}

/// Writes `text` on stdout. A reader that stopped reading (`| head`) is no failure of the
/// audit: what it read is what it asked for, and the status stays the audit's.
fn write_out(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Starts keeping the server's stderr in `--server-log`'s file.
fn keep_log(connection: &Connection) -> Result<(), String> {
    match &connection.server_log {
        Some(path) => streams::log_to(path),
        None => Ok(()),
    }
}

/// `report` in the form `output` asks; `table` is its text form, `markdown` and `sarif` its
/// other two (`--format listing` is the audit's alone, written there).
fn rendered(
    output: &Output,
    report: &Value,
    table: fn(&Value) -> String,
    markdown: fn(&Value) -> String,
    sarif: fn(&Value, Option<&str>) -> Value,
) -> String {
    match output.format {
        Format::Text | Format::Listing => table(report),
        Format::Markdown => markdown(report),
        Format::Json => pretty(report),
        Format::Sarif => pretty(&sarif(report, output.sarif_artifact.as_deref())),
    }
}

/// `value` as indented JSON, and a newline.
fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

/// The server the command line names: the command, or `--http`'s endpoint.
fn server(
    command: &[String],
    connection: &Connection,
    remote: &Remote,
) -> Result<peer::Peer, String> {
    match &remote.http {
        Some(url) => peer::Peer::connect(
            url,
            connection.timeout,
            &http::Remote {
                headers: remote.headers.clone(),
                ca_cert: remote.ca_cert.clone(),
                direct: false,
            },
        ),
        None => peer::Peer::start(command, None, &[], connection.timeout, None),
    }
}

fn audit(args: &AuditArgs) -> Result<(i32, String), String> {
    keep_log(&args.connection)?;
    let mut peer = server(&args.command, &args.connection, &args.remote)?;
    let (listed, problems) = peer.list_tools().map_err(|error| peer.explain(error))?;
    let capabilities = peer.capabilities().clone();
    drop(peer);
    if args.output.format == Format::Listing {
        // The listing as the server sent it, to pin and `diff` against later: no judgement.
        for problem in &problems {
            eprintln!("annotations-audit: the listing: {problem}");
        }
        return Ok((0, pretty(&json!({ "tools": listed }))));
    }
    let (report, has_errors) = report::report(&listed, &problems, &capabilities);
    let text = rendered(
        &args.output,
        &report,
        report::table,
        markdown::audit,
        sarif::audit,
    );
    Ok((i32::from(has_errors), text))
}

fn probe(args: &ProbeArgs) -> Result<(i32, String), String> {
    keep_log(&args.connection)?;
    let options = probe::Options {
        command: args.command.clone(),
        cases: args.cases,
        seed: args.seed,
        seed_dir: args.seed_dir.clone(),
        env: args.env.clone(),
        allow_open_world: args.allow_open_world,
        timeout: args.connection.timeout,
        total: args.probe_timeout,
        classes: classes::Classes {
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
            let remote = http::Remote {
                headers: args.remote.headers.clone(),
                ca_cert: args.remote.ca_cert.clone(),
                direct: true,
            };
            (url, remote)
        }),
    };
    let (report, violated) = probe::probe(&options)?;
    progress::finish();
    let text = rendered(
        &args.output,
        &report,
        probe_table,
        markdown::probe,
        sarif::probe,
    );
    Ok((i32::from(violated), text))
}

/// The tools of a side of `diff`: a saved `tools/list` result (or an array of tools), or
/// the live server's listing.
fn tools_of(args: &DiffArgs, file: Option<&str>) -> Result<Vec<Tool>, String> {
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
            let mut peer = server(&args.command, &args.connection, &args.remote)?;
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

fn diff(args: &DiffArgs) -> Result<(i32, String), String> {
    if args.new.is_none() && args.command.is_empty() && args.remote.http.is_none() {
        return Err(
            "diff needs the new side: a file (diff OLD NEW), a server after `--`, or --http URL"
                .to_owned(),
        );
    }
    keep_log(&args.connection)?;
    let (old, new) = (
        tools_of(args, Some(&args.old))?,
        tools_of(args, args.new.as_deref())?,
    );
    let changes = mcp_annotations::host::diff::listings(&old, &new);
    let refused = changes.iter().any(|change| match change.class() {
        Class::Breaking => !args.allow.iter().any(|a| a == "breaking"),
        Class::Trust => !args.allow.iter().any(|a| a == "trust"),
        _ => false,
    });
    progress::finish();
    let text = match args.output.format {
        Format::Json => {
            let listed: Vec<Value> = changes
                .iter()
                .map(|change| json!({"tool": change.tool(), "change": change.what(), "class": change.class().to_string()}))
                .collect();
            pretty(&json!({ "changes": listed }))
        }
        Format::Sarif => {
            // Placed in the pinned (old) listing's file, which the repository holds, unless
            // told otherwise.
            let artifact = args
                .output
                .sarif_artifact
                .clone()
                .unwrap_or_else(|| sarif::relative(&args.old));
            pretty(&sarif::diff(&changes, &args.allow, Some(&artifact)))
        }
        Format::Markdown => markdown::diff(&changes, refused),
        Format::Text | Format::Listing if changes.is_empty() => "no changes\n".to_owned(),
        Format::Text | Format::Listing => {
            changes.iter().map(|change| format!("{change}\n")).collect()
        }
    };
    Ok((i32::from(refused), text))
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
    // What each resolvable tool's resolutions claimed beyond its listing, and how it held.
    for tool in report["tools"].as_array().into_iter().flatten() {
        let Some(resolution) = tool.get("resolution") else {
            continue;
        };
        let words: Vec<String> = [
            ("readOnly", "read-only"),
            ("idempotent", "idempotent"),
            ("nonDestructive", "non-destructive"),
            ("closedWorld", "closed world"),
        ]
        .iter()
        .filter(|(key, _)| resolution[*key] != "unclaimed")
        .map(|(key, shown)| format!("{shown} {}", resolution[*key].as_str().unwrap_or("?")))
        .collect();
        let claimed = if words.is_empty() {
            "nothing beyond the listing".to_owned()
        } else {
            words.join(", ")
        };
        out.push_str(&format!(
            "{}: {} calls resolved first (tools/resolve); what they claimed beyond the listing: {claimed}\n",
            report::code(tool["name"].as_str().unwrap_or("")),
            resolution["resolved"]
        ));
        if let Some(why) = resolution.get("fellBack").and_then(Value::as_str) {
            out.push_str(&format!(
                "{}: {}\n",
                report::code(tool["name"].as_str().unwrap_or("")),
                report::cell(why)
            ));
        }
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
