//! The audit of a large listing, as a directory runs it: `annotations-audit --format json --
//! <server>` against a server listing N tools (this bench itself, started as the server), for
//! N from 1000 to 50 000. The report must stay linear in N: the time per tool is printed beside
//! the whole command's time.
//!
//! `cargo bench -p mcp-annotations-audit --bench report`.

use std::io::{BufRead, Write};
use std::process::Command;
use std::time::Instant;

use serde_json::{Value, json};

/// Serves `tools` tools over stdio: `initialize` and one `tools/list` page, as raw JSON lines.
fn serve(tools: usize) {
    let listed: Vec<Value> = (0..tools)
        .map(|index| {
            json!({
                "name": format!("tool_{index}"),
                "title": format!("Tool {index}"),
                "description": "A tool of a large listing.",
                "inputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}},
                "annotations": {"readOnlyHint": index % 2 == 0, "destructiveHint": false,
                    "openWorldHint": false},
            })
        })
        .collect();
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = message.get("id") else {
            continue;
        };
        let result = match message["method"].as_str() {
            Some("initialize") => json!({"protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}}, "serverInfo": {"name": "many", "version": "0"}}),
            Some("tools/list") => json!({ "tools": listed }),
            _ => json!({}),
        };
        let answer = json!({"jsonrpc": "2.0", "id": id, "result": result});
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, tools] = args.as_slice()
        && flag == "--serve"
    {
        return serve(tools.parse().expect("a number of tools"));
    }
    let this = std::env::current_exe().expect("the bench's own path");
    println!("{:>7} {:>10} {:>12}", "tools", "audit s", "µs per tool");
    for tools in [1000usize, 12_000, 50_000] {
        let mut times = Vec::new();
        for _ in 0..3 {
            let started = Instant::now();
            let output = Command::new(env!("CARGO_BIN_EXE_annotations-audit"))
                .args(["--format", "json", "--timeout", "120", "--"])
                .arg(&this)
                .args(["--serve", &tools.to_string()])
                .output()
                .expect("the audit runs");
            times.push(started.elapsed().as_secs_f64());
            let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
            assert_eq!(report["tools"].as_array().map(Vec::len), Some(tools));
        }
        times.sort_by(f64::total_cmp);
        let median = times[1];
        #[allow(clippy::cast_precision_loss)]
        let per_tool = median * 1e6 / tools as f64;
        println!("{tools:>7} {median:>10.2} {per_tool:>12.1}");
    }
}
