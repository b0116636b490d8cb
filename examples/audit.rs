//! A host's audit of any MCP server's tools: starts the server command over stdio, lists its
//! tools (following pagination), and prints for each one its effective hints, what a host
//! would do with it trusting the server or not, and every finding.
//!
//! ```text
//! cargo run --example audit -- <command> [args...]
//! cargo run --example audit -- --format json <command> [args...]
//! cargo run --example audit -- cargo run --example notes
//! ```
//!
//! Exit status: 0 when no finding is an error, 1 when one is, 2 when the server could not be
//! audited at all.

use std::collections::HashMap;
use std::process::Stdio;

use annotations::{Missing, Readiness, Tool, Trust, is_valid_tool_name};
use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

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
    let json_output = if args.first().map(String::as_str) == Some("--format") {
        let format = args.get(1).cloned().unwrap_or_default();
        args.drain(..2.min(args.len()));
        format == "json"
    } else {
        false
    };
    let Some((program, rest)) = args.split_first() else {
        eprintln!("usage: audit [--format json] <command> [args...]");
        std::process::exit(2);
    };
    match audit(program, rest).await {
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

async fn audit(
    program: &str,
    args: &[String],
) -> Result<(Value, bool), Box<dyn std::error::Error>> {
    let mut command = tokio::process::Command::new(program);
    command.args(args);
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()?;
    let client = ().serve(transport).await?;
    let listed = client.list_all_tools().await?;
    let _ = client.cancel().await;

    let mut tools = Vec::new();
    for theirs in &listed {
        // Read as a host reads a peer's JSON: tolerant of what peers differ on, strict on types.
        let tool: Tool = serde_json::from_value(serde_json::to_value(theirs)?)?;
        tools.push(tool);
    }
    let mut duplicates: HashMap<String, usize> = HashMap::new();
    for tool in &tools {
        *duplicates.entry(tool.name().to_owned()).or_default() += 1;
    }
    let mut has_errors = false;
    let rows: Vec<Value> = tools
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
    Ok((json!({ "tools": rows }), has_errors))
}

fn print_table(report: &Value) {
    println!(
        "| name | display name | read-only | destructive | idempotent | open world | trusted: approval / parallel / plan | untrusted: approval / parallel / plan | findings |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for tool in report["tools"].as_array().into_iter().flatten() {
        let flag = |v: &Value| yes_no(v.as_bool().unwrap_or(false));
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
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} |",
            tool["name"].as_str().unwrap_or(""),
            tool["displayName"]
                .as_str()
                .unwrap_or("")
                .replace('|', "\\|"),
            flag(&tool["effective"]["readOnly"]),
            flag(&tool["effective"]["destructive"]),
            flag(&tool["effective"]["idempotent"]),
            flag(&tool["effective"]["openWorld"]),
            decisions(&tool["trusted"]),
            decisions(&tool["untrusted"]),
            if findings.is_empty() {
                "none".to_owned()
            } else {
                findings.join("; ").replace('|', "\\|")
            },
        );
    }
}
