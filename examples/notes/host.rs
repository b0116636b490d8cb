//! A host's approval policy, acting on a probe's evidence: the notes server is not trusted, so
//! its hints count only where `annotations-audit probe --evidence` verified them, and only a
//! tool verified read-only is called without asking the user.
//!
//! ```sh
//! annotations-audit probe --evidence notes.evidence.json --env NOTES_FILE='{sandbox}/notes.json' -- target/debug/notes
//! cargo run -p notes --example host -- notes.evidence.json target/debug/notes
//! ```
//!
//! It speaks just enough MCP over the server's stdio to list its tools as the server sent them
//! (the evidence is on the descriptor as listed, by its digest), declaring the tool-resolution
//! extension as the probe does, so that both are listed the same descriptors.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use mcp_annotations::ToolAnnotations;
use mcp_annotations::host::{Evidence, Trust};
use serde_json::{Value, json};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(evidence), Some(server)) = (args.next(), args.next()) else {
        return Err("usage: host EVIDENCE SERVER [ARGS...]".into());
    };
    let evidence: Evidence = std::fs::read_to_string(&evidence)?.parse()?;
    let listed = list_tools(&server, &args.collect::<Vec<_>>())?;
    println!("| tool | verified claims acted on | approval |");
    println!("|---|---|---|");
    for tool in &listed {
        let annotations: ToolAnnotations =
            serde_json::from_value(tool["annotations"].clone()).unwrap_or_default();
        // The server is untrusted: only what the probe verified, on this very descriptor.
        let trust = evidence.trust(tool, Trust::Untrusted);
        let view = annotations.for_host(trust);
        let acted: Vec<&str> = mcp_annotations::descriptor::Hint::ALL
            .into_iter()
            .filter(|hint| trust.acts_on(*hint))
            .map(|hint| hint.claim())
            .collect();
        println!(
            "| {} | {} | {} |",
            tool["name"].as_str().unwrap_or("?"),
            if acted.is_empty() {
                "none".to_owned()
            } else {
                acted.join(", ")
            },
            if view.needs_approval() {
                "asks the user"
            } else {
                "auto-approved"
            },
        );
    }
    Ok(())
}

/// The tools `server` lists, as it sent them.
fn list_tools(server: &str, args: &[String]) -> Result<Vec<Value>, Box<dyn std::error::Error>> {
    let mut child = Command::new(server)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut input = child.stdin.take().ok_or("no stdin")?;
    let mut output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let mut ask = |message: Value| -> Result<Value, Box<dyn std::error::Error>> {
        writeln!(input, "{message}")?;
        // A notification has no answer.
        let Some(id) = message.get("id").cloned() else {
            return Ok(Value::Null);
        };
        loop {
            let mut line = String::new();
            if output.read_line(&mut line)? == 0 {
                return Err("the server closed its output".into());
            }
            let answer: Value = serde_json::from_str(&line)?;
            if answer.get("id") == Some(&id) {
                return Ok(answer);
            }
        }
    };
    // The host declares tool-resolution, as the probe does: a server lists its resolvable
    // tools with their marker only to such a client, and the evidence is on that descriptor.
    ask(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {"extensions": {
            mcp_annotations::resolution::EXTENSION: mcp_annotations::resolution::settings(),
        }},
        "clientInfo": {"name": "notes-host-example", "version": "0.1.0"}}}),
    )?;
    ask(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    let mut tools = Vec::new();
    let mut cursor: Option<Value> = None;
    for id in 2.. {
        let mut params = json!({});
        if let Some(cursor) = cursor.take() {
            params["cursor"] = cursor;
        }
        let answer =
            ask(json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params}))?;
        let result = answer.get("result").ok_or("tools/list failed")?;
        tools.extend(result["tools"].as_array().cloned().unwrap_or_default());
        match result.get("nextCursor") {
            Some(next) if !next.is_null() => cursor = Some(next.clone()),
            _ => break,
        }
    }
    child.kill()?;
    child.wait()?;
    Ok(tools)
}
