//! A host's audit of any MCP server's tools: starts the server command over stdio, lists its
//! tools (following pagination), and prints for each one its effective hints, what a host
//! would do with it trusting the server or not, and every finding.
//!
//! ```text
//! cargo run --example audit -- <command> [args...]
//! cargo run --example audit -- --format json --timeout 10 <command> [args...]
//! cargo run --example audit -- cargo run --example notes
//! ```
//!
//! The audit speaks JSON-RPC to the server itself and reads each listed tool on its own, so one
//! malformed tool is a finding on that tool while the rest are still audited. Every wait is
//! bounded (`--timeout`, 30 seconds by default, for each answer), and so is the listing: a
//! cursor that repeats or more than 1000 pages end it with an error finding.
//!
//! Exit status: 0 when no finding is an error, 1 when one is, 2 when the server could not be
//! audited at all (it did not start, did not answer in time, or wrote something that is not
//! JSON-RPC).

use std::collections::{HashMap, HashSet};
use std::process::Stdio;
use std::time::Duration;

use annotations::{Missing, Readiness, Tool, Trust, is_valid_tool_name};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout};

/// How many pages of `tools/list` the audit reads before it stops.
const MAX_PAGES: usize = 1000;

/// The longest message the audit reads from a server (one line of JSON-RPC).
const MAX_MESSAGE: usize = 64 << 20;

/// How much a finding matters.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Severity {
    /// Breaks the protocol or misleads a host.
    Error,
    /// Worth fixing: a host falls back to a default, a directory would turn the tool down.
    Warning,
}

struct Finding {
    severity: Severity,
    message: String,
}

fn findings(tool: &Tool, duplicates: &HashMap<String, usize>) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut push = |severity, message: String| found.push(Finding { severity, message });
    if !is_valid_tool_name(tool.name()) {
        push(
            Severity::Error,
            "the name breaks the protocol's rule (1 to 128 of A-Z a-z 0-9 _ - .)".into(),
        );
    }
    if duplicates.get(tool.name()).copied().unwrap_or(0) > 1 {
        push(
            Severity::Error,
            format!("{} tools share this name", duplicates[tool.name()]),
        );
    }
    if let Err(error) = tool.input_schema.check_input() {
        push(Severity::Error, error.to_string());
    }
    let hints = &tool.annotations;
    // The protocol's precedence: beside `readOnlyHint: true` these two mean nothing, and SDKs
    // that seed every hint send them with every read-only tool. Worth removing, not wrong.
    if hints.read_only_hint == Some(true) {
        for (name, hint, stated) in [
            ("destructiveHint", hints.destructive_hint, true),
            ("idempotentHint", hints.idempotent_hint, false),
        ] {
            if hint == Some(stated) {
                push(
                    Severity::Warning,
                    format!("`{name}: {stated}` is ignored: the tool is read-only"),
                );
            }
        }
    }
    for (name, hint, default) in [
        ("readOnlyHint", hints.read_only_hint, "not read-only"),
        ("destructiveHint", hints.destructive_hint, "destructive"),
        ("idempotentHint", hints.idempotent_hint, "not idempotent"),
        ("openWorldHint", hints.open_world_hint, "open world"),
    ] {
        let implied = hints.read_only_hint == Some(true)
            && matches!(name, "destructiveHint" | "idempotentHint");
        if hint.is_none() && !implied {
            push(
                Severity::Warning,
                format!("`{name}` unset: a host assumes {default}"),
            );
        }
    }
    if tool.title().is_none() && tool.annotations.title().is_none() {
        push(Severity::Warning, "no title: hosts show the name".into());
    }
    if tool.description().is_none() {
        push(
            Severity::Warning,
            "no description: the model must guess what the tool does".into(),
        );
    }
    for (level, what) in [
        (Readiness::Directory, "a tool directory"),
        (Readiness::Strict, "a strict tool directory"),
    ] {
        // A missing title is reported above.
        if let Some(missing) = tool.missing_for(level).filter(|m| *m != Missing::Title) {
            push(
                Severity::Warning,
                format!("not ready for {what}: it lacks {missing}"),
            );
        }
    }
    found
}

fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}

#[tokio::main]
async fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut json_output = false;
    let mut timeout = Duration::from_secs(30);
    while let Some(option) = args.first().cloned() {
        let value = args.get(1).cloned().unwrap_or_default();
        match option.as_str() {
            "--format" => json_output = value == "json",
            "--timeout" => match value.parse::<f64>().map(Duration::try_from_secs_f64) {
                Ok(Ok(seconds)) if !seconds.is_zero() => timeout = seconds,
                _ => {
                    eprintln!("audit: --timeout takes a number of seconds, got {value:?}");
                    std::process::exit(2);
                }
            },
            _ => break,
        }
        args.drain(..2.min(args.len()));
    }
    let Some((program, rest)) = args.split_first() else {
        eprintln!("usage: audit [--format json] [--timeout SECONDS] <command> [args...]");
        std::process::exit(2);
    };
    match audit(program, rest, timeout).await {
        Ok((report, has_errors)) => {
            if json_output {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&report).unwrap_or_default()
                );
            } else {
                print_table(&report);
            }
            std::process::exit(i32::from(has_errors));
        }
        Err(error) => {
            eprintln!("audit: {error}");
            std::process::exit(2);
        }
    }
}

/// The server's side of the conversation: requests written to its stdin, one JSON-RPC message a
/// line read from its stdout, every answer awaited for at most `timeout`.
struct Peer {
    stdin: ChildStdin,
    output: BufReader<ChildStdout>,
    next_id: u64,
    timeout: Duration,
}

/// The next line of `output` (`None` at its end), refused past `MAX_MESSAGE` bytes so that a
/// server writing without end costs an error, not the audit's memory.
async fn read_line(output: &mut BufReader<ChildStdout>) -> Result<Option<String>, String> {
    let mut line = Vec::new();
    loop {
        let buffer = output
            .fill_buf()
            .await
            .map_err(|error| format!("cannot read the server's output: {error}"))?;
        if buffer.is_empty() {
            return Ok((!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned()));
        }
        let (taken, end) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        line.extend_from_slice(&buffer[..taken]);
        output.consume(taken);
        if line.len() > MAX_MESSAGE {
            return Err(format!(
                "the server wrote a message longer than {} MiB",
                MAX_MESSAGE >> 20
            ));
        }
        if end {
            let text = String::from_utf8_lossy(&line);
            return Ok(Some(text.trim_end_matches(['\n', '\r']).to_owned()));
        }
    }
}

impl Peer {
    async fn send(&mut self, message: &Value) -> Result<(), String> {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .await
            .map_err(|error| format!("cannot write to the server: {error}"))
    }

    /// The result of `method`, skipping what the server sends meanwhile (notifications, its
    /// own requests).
    async fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        let timeout = self.timeout;
        let answer = async {
            loop {
                let Some(line) = read_line(&mut self.output).await? else {
                    return Err(format!(
                        "the server closed its output before answering `{method}`"
                    ));
                };
                if line.trim().is_empty() {
                    continue;
                }
                let message: Value = serde_json::from_str(&line).map_err(|_| {
                    let shown: String = line.chars().take(80).collect();
                    format!("the server wrote something that is not JSON-RPC: {shown:?}")
                })?;
                // A request of the server's own is answered (`ping` as the protocol asks, any
                // other as not supported), so that a server waiting for the answer goes on.
                if let (Some(theirs), Some(asked)) = (message.get("id"), message.get("method")) {
                    let reply = if asked == "ping" {
                        json!({"jsonrpc": "2.0", "id": theirs, "result": {}})
                    } else {
                        json!({"jsonrpc": "2.0", "id": theirs,
                            "error": {"code": -32601, "message": "the audit answers no requests"}})
                    };
                    self.send(&reply).await?;
                    continue;
                }
                if message.get("id") != Some(&json!(id)) {
                    continue;
                }
                if let Some(error) = message.get("error") {
                    return Err(format!(
                        "the server answered `{method}` with an error: {error}"
                    ));
                }
                return message
                    .get("result")
                    .cloned()
                    .ok_or_else(|| format!("the server's answer to `{method}` has no result"));
            }
        };
        tokio::time::timeout(timeout, answer)
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "the server did not answer `{method}` within {} s",
                    timeout.as_secs_f64()
                ))
            })
    }
}

/// Every tool the server lists, as the JSON it sent, and what went wrong with the listing
/// itself (a cursor that repeats, too many pages).
async fn list_tools(peer: &mut Peer) -> Result<(Vec<Value>, Vec<String>), String> {
    let mut tools = Vec::new();
    let mut problems = Vec::new();
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    for page in 0.. {
        if page == MAX_PAGES {
            problems.push(format!(
                "the listing has more than {MAX_PAGES} pages: read up to there"
            ));
            break;
        }
        let params = cursor
            .as_ref()
            .map_or_else(|| json!({}), |cursor| json!({ "cursor": cursor }));
        let result = peer.request("tools/list", params).await?;
        match result.get("tools") {
            Some(Value::Array(listed)) => tools.extend(listed.iter().cloned()),
            _ => return Err("the server's tools/list result has no `tools` array".to_owned()),
        }
        match result.get("nextCursor") {
            None | Some(Value::Null) => break,
            Some(Value::String(next)) if seen.insert(next.clone()) => cursor = Some(next.clone()),
            Some(Value::String(next)) => {
                let shown: String = next.chars().take(40).collect();
                problems.push(format!(
                    "the listing's cursor {shown:?} comes back, so a client following it never \
                     ends: read up to there"
                ));
                break;
            }
            Some(other) => {
                problems.push(format!(
                    "`nextCursor` is not a string ({other}): read up to there"
                ));
                break;
            }
        }
    }
    Ok((tools, problems))
}

async fn audit(
    program: &str,
    args: &[String],
    timeout: Duration,
) -> Result<(Value, bool), Box<dyn std::error::Error>> {
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("cannot talk to the server".into());
    };
    let mut peer = Peer {
        stdin,
        output: BufReader::new(stdout),
        next_id: 1,
        timeout,
    };
    peer.request(
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "annotations-audit", "version": env!("CARGO_PKG_VERSION")},
        }),
    )
    .await?;
    peer.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await?;
    let (listed, listing_problems) = list_tools(&mut peer).await?;
    drop(peer);
    let _ = child.kill().await;

    // Each tool read on its own, as a host reads a peer's JSON: tolerant of what peers differ
    // on, strict on types; one that cannot be read is a finding, not the end of the audit.
    let mut tools = Vec::new();
    let mut unreadable = Vec::new();
    for raw in &listed {
        match serde_json::from_value::<Tool>(raw.clone()) {
            Ok(tool) => tools.push(tool),
            Err(error) => unreadable.push(json!({
                "name": raw.get("name").and_then(Value::as_str).unwrap_or("(no name)"),
                "readable": false,
                "findings": [{
                    "severity": "error",
                    "message": format!("the tool cannot be read: {error}"),
                }],
            })),
        }
    }
    // Names counted over every listed tool, the unreadable ones included.
    let mut duplicates: HashMap<String, usize> = HashMap::new();
    for raw in &listed {
        if let Some(name) = raw.get("name").and_then(Value::as_str) {
            *duplicates.entry(name.to_owned()).or_default() += 1;
        }
    }
    let mut has_errors = !unreadable.is_empty() || !listing_problems.is_empty();
    let mut rows: Vec<Value> = tools
        .iter()
        .map(|tool| {
            let found = findings(tool, &duplicates);
            has_errors |= found.iter().any(|f| f.severity == Severity::Error);
            let trusted = tool.annotations.for_host(Trust::Trusted);
            let untrusted = tool.annotations.for_host(Trust::Untrusted);
            let decisions = |view: annotations::HostView<'_>| {
                json!({
                    "approval": view.needs_approval(),
                    "parallel": view.may_run_in_parallel(),
                    "planMode": view.allowed_in_plan_mode(),
                })
            };
            json!({
                "name": tool.name(),
                "displayName": tool.display_name(),
                "effective": {
                    "readOnly": trusted.read_only(),
                    "destructive": trusted.destructive(),
                    "idempotent": trusted.idempotent(),
                    "openWorld": trusted.open_world(),
                },
                "trusted": decisions(trusted),
                "untrusted": decisions(untrusted),
                "findings": found.iter().map(|f| json!({
                    "severity": match f.severity { Severity::Error => "error", Severity::Warning => "warning" },
                    "message": f.message,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    rows.extend(unreadable);
    let listing: Vec<Value> = listing_problems
        .iter()
        .map(|message| json!({"severity": "error", "message": message}))
        .collect();
    Ok((json!({ "listing": listing, "tools": rows }), has_errors))
}

/// Text for a table cell from a server: `\`, `|`, backticks and `<` escaped (they would end
/// the cell, open code or HTML), line breaks as spaces, other control characters (a
/// terminal's escape sequences) dropped.
fn cell(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\r')
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('`', "\\`")
        .replace('<', "&lt;")
        .replace(['\r', '\n'], " ")
}

/// A name in a code span, fenced with more backticks than it holds (in code only `|` and line
/// breaks need escaping).
fn code(name: &str) -> String {
    let name: String = name
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    let fence = "`".repeat(name.split(|c| c != '`').map(str::len).max().unwrap_or(0) + 1);
    let pad = if fence.len() > 1 { " " } else { "" };
    format!("{fence}{pad}{}{pad}{fence}", name.replace('|', "\\|"))
}

fn print_table(report: &Value) {
    for finding in report["listing"].as_array().into_iter().flatten() {
        println!(
            "listing: {}: {}",
            finding["severity"].as_str().unwrap_or(""),
            finding["message"].as_str().unwrap_or("")
        );
    }
    println!(
        "| name | display name | read-only | destructive | idempotent | open world | trusted: approval / parallel / plan | untrusted: approval / parallel / plan | findings |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for tool in report["tools"].as_array().into_iter().flatten() {
        // An unreadable tool's hints and decisions are unknown, not "no".
        let flag = |v: &Value| v.as_bool().map_or("?", yes_no);
        let decisions = |v: &Value| {
            format!(
                "{} / {} / {}",
                flag(&v["approval"]),
                flag(&v["parallel"]),
                flag(&v["planMode"])
            )
        };
        let findings: Vec<String> = tool["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| {
                format!(
                    "{}: {}",
                    f["severity"].as_str().unwrap_or(""),
                    f["message"].as_str().unwrap_or("")
                )
            })
            .collect();
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            code(tool["name"].as_str().unwrap_or("")),
            cell(tool["displayName"].as_str().unwrap_or("")),
            flag(&tool["effective"]["readOnly"]),
            flag(&tool["effective"]["destructive"]),
            flag(&tool["effective"]["idempotent"]),
            flag(&tool["effective"]["openWorld"]),
            decisions(&tool["trusted"]),
            decisions(&tool["untrusted"]),
            if findings.is_empty() {
                "none".to_owned()
            } else {
                cell(&findings.join("; "))
            },
        );
    }
}
