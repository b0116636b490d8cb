//! The audit's report of a listing: each tool's effective hints, what a host would do with it
//! trusting the server or not, and its findings; as JSON or as a Markdown table.

use std::collections::HashMap;

use mcp_annotations::Tool;
use mcp_annotations::descriptor::Hint;
use mcp_annotations::host::{Finding, FindingKind, Severity, Trust, findings};
use serde_json::{Value, json};

/// The kind of the finding on a tool the audit cannot read (not one of the library's: the
/// library's findings are about tools it has read).
pub const UNREADABLE_TOOL: &str = "unreadable-tool";
/// The kind of a finding on the listing itself (its pages, its cursor, its answers).
pub const LISTING_PROBLEM: &str = "listing-problem";
/// The kind of a finding on the tool-resolution extension as the server states it: a tool
/// marked resolvable by a server that does not declare the extension, a marker that is not
/// the draft's, the extension declared with settings this revision does not define.
pub const TOOL_RESOLUTION: &str = "tool-resolution";

/// The tool-resolution findings of a server whose `initialize` answered `capabilities`:
/// on the listing (the capability's settings) and on each raw tool (its marker), by name.
fn resolution_findings(
    listed: &[Value],
    capabilities: &Value,
) -> (Vec<Value>, HashMap<String, Vec<Value>>) {
    use mcp_annotations::resolution::{EXTENSION, marker, settings};
    let declared = capabilities
        .get("extensions")
        .and_then(|extensions| extensions.get(EXTENSION));
    let mut listing = Vec::new();
    if let Some(declared) = declared
        && declared != &settings()
    {
        let shown: String = declared.to_string().chars().take(200).collect();
        listing.push(
            json!({"kind": TOOL_RESOLUTION, "severity": "error", "message": format!(
                "the server declares {EXTENSION} with the settings {shown}: this revision's are an \
                 empty object, and a client must treat any other as unsupported"
            )}),
        );
    }
    let (_, draft) = marker();
    let mut by_tool: HashMap<String, Vec<Value>> = HashMap::new();
    for raw in listed {
        let Some(marker) = raw.get("_meta").and_then(|meta| meta.get(EXTENSION)) else {
            continue;
        };
        let name = raw
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("(no name)");
        let mut found = |severity: &str, message: String| {
            by_tool
                .entry(name.to_owned())
                .or_default()
                .push(json!({"kind": TOOL_RESOLUTION, "severity": severity, "message": message}));
        };
        if marker != &draft {
            let shown: String = marker.to_string().chars().take(200).collect();
            found(
                "warning",
                format!(
                    "its `_meta[\"{EXTENSION}\"]` is {shown}, not the draft's marker \
                     {{\"resolvable\": true}} (its schema allows no other key or value): a \
                     host that reads it as the draft writes it does not resolve its calls"
                ),
            );
        } else if declared.is_none() {
            found(
                "error",
                format!(
                    "marked resolvable, but the server does not declare {EXTENSION} in its \
                     capabilities: a host may not assume `tools/resolve` exists, so the marker \
                     promises what it cannot use"
                ),
            );
        }
    }
    (listing, by_tool)
}

/// The report of the tools a server listed (as the JSON it sent: one that cannot be read is a
/// finding on that tool) and the listing's own problems; whether any finding is an error.
pub fn report(
    listed: &[Value],
    listing_problems: &[String],
    capabilities: &Value,
) -> (Value, bool) {
    let (resolution_listing, mut resolution_tools) = resolution_findings(listed, capabilities);
    let mut tools = Vec::new();
    let mut unreadable = Vec::new();
    for raw in listed {
        match serde_json::from_value::<Tool>(raw.clone()) {
            Ok(tool) => tools.push(tool),
            Err(error) => unreadable.push(json!({
                "name": raw.get("name").and_then(Value::as_str).unwrap_or("(no name)"),
                "readable": false,
                "findings": [{
                    "kind": UNREADABLE_TOOL,
                    "severity": "error",
                    "message": format!("the tool cannot be read: {error}"),
                }],
            })),
        }
    }
    let mut has_errors =
        !unreadable.is_empty() || !listing_problems.is_empty() || !resolution_listing.is_empty();
    // Names are counted over every listed tool, the unreadable ones included, each count
    // made once (the report stays linear in the tools listed).
    let mut listed_names: HashMap<&str, usize> = HashMap::new();
    for raw in listed {
        if let Some(name) = raw.get("name").and_then(Value::as_str) {
            *listed_names.entry(name).or_default() += 1;
        }
    }
    let mut read_names: HashMap<&str, usize> = HashMap::new();
    for tool in &tools {
        *read_names.entry(tool.name()).or_default() += 1;
    }
    let mut found = findings(&tools);
    for (tool, found) in tools.iter().zip(found.iter_mut()) {
        let shared = listed_names.get(tool.name()).copied().unwrap_or(0);
        let counted = read_names.get(tool.name()).copied().unwrap_or(0);
        if shared > counted && counted == 1 {
            found.push(Finding::new(
                FindingKind::SharedName,
                format!("{shared} tools share this name"),
            ));
        }
    }
    let mut rows: Vec<Value> = tools
        .iter()
        .zip(found)
        .map(|(tool, found)| {
            has_errors |= found.iter().any(|f| f.severity == Severity::Error);
            let mut found: Vec<Value> = found
                .iter()
                .map(|f| {
                    json!({
                        "kind": f.kind.as_str(),
                        "severity": f.severity.as_str(),
                        "message": f.message,
                    })
                })
                .collect();
            if let Some(resolution) = resolution_tools.remove(tool.name()) {
                has_errors |= resolution.iter().any(|f| f["severity"] == "error");
                found.extend(resolution);
            }
            let trusted = tool.annotations.for_host(Trust::Trusted);
            let untrusted = tool.annotations.for_host(Trust::Untrusted);
            let decisions = |view: mcp_annotations::host::HostView<'_>| {
                json!({
                    "approval": view.needs_approval(),
                    "parallel": view.may_run_in_parallel(),
                    "planMode": view.allowed_in_plan_mode(),
                })
            };
            // Each hint under its wire name without `Hint` (`readOnly`), at its effective value.
            let effective: serde_json::Map<String, Value> = Hint::ALL
                .into_iter()
                .map(|hint| {
                    (
                        effective_key(hint).to_owned(),
                        json!(tool.annotations.effective(hint)),
                    )
                })
                .collect();
            json!({
                "name": tool.name(),
                "displayName": tool.display_name(),
                "effective": effective,
                "resolvable": tool.resolvable,
                "trusted": decisions(trusted),
                "untrusted": decisions(untrusted),
                "findings": found,
            })
        })
        .collect();
    // A tool that cannot be read keeps its marker's findings too.
    for row in &mut unreadable {
        let name = row["name"].as_str().unwrap_or_default().to_owned();
        if let Some(resolution) = resolution_tools.remove(&name)
            && let Some(found) = row["findings"].as_array_mut()
        {
            found.extend(resolution);
        }
    }
    rows.extend(unreadable);
    let mut listing: Vec<Value> = listing_problems
        .iter()
        .map(|message| json!({"kind": LISTING_PROBLEM, "severity": "error", "message": message}))
        .collect();
    listing.extend(resolution_listing);
    (json!({ "listing": listing, "tools": rows }), has_errors)
}

/// The lines of the state's diff a probe's note carries (`"diff"`), none when it has none.
pub fn diff_lines(note: &Value) -> Vec<&str> {
    note["diff"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// Text for a table cell from a server: `\\`, `|`, backticks, `*`, `~`, `[`, `]` and `<`
/// escaped (they would end the cell, open code, emphasis, a link or an image, or HTML), line
/// breaks as spaces, other control characters (a terminal's escape sequences) dropped.
pub fn cell(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\r')
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('`', "\\`")
        .replace('*', "\\*")
        .replace('~', "\\~")
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace('<', "&lt;")
        .replace(['\r', '\n'], " ")
}

/// A name in a code span, fenced with more backticks than it holds (in code only `|` and line
/// breaks need escaping).
pub fn code(name: &str) -> String {
    let name: String = name
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    let fence = "`".repeat(name.split(|c| c != '`').map(str::len).max().unwrap_or(0) + 1);
    let pad = if fence.len() > 1 { " " } else { "" };
    format!("{fence}{pad}{}{pad}{fence}", name.replace('|', "\\|"))
}

/// The report as a Markdown table, the listing's problems first (escaped like every cell: a
/// problem quotes what the server sent), a blank line between them and the table.
pub fn table(report: &Value) -> String {
    let mut out = String::new();
    for finding in report["listing"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "listing: {}: {}\n",
            cell(finding["severity"].as_str().unwrap_or("")),
            cell(finding["message"].as_str().unwrap_or(""))
        ));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str("| name | display name |");
    for hint in Hint::ALL {
        out.push_str(&format!(" {} |", hint.column()));
    }
    out.push_str(
        " trusted: approval / parallel / plan | untrusted: approval / parallel / plan | findings |\n|---|---|",
    );
    out.push_str(&"---|".repeat(Hint::ALL.len() + 3));
    out.push('\n');
    for tool in report["tools"].as_array().into_iter().flatten() {
        // An unreadable tool's hints and decisions are unknown, not "no".
        let flag = |v: &Value| v.as_bool().map_or("?", |b| if b { "yes" } else { "no" });
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
        let hints: String = Hint::ALL
            .into_iter()
            .map(|hint| format!(" {} |", flag(&tool["effective"][effective_key(hint)])))
            .collect();
        // A resolvable tool's listed hints are the worst of its calls: a host resolves each.
        let resolvable = if tool["resolvable"] == true {
            " (resolvable: hints per call)"
        } else {
            ""
        };
        out.push_str(&format!(
            "| {}{resolvable} | {} |{hints} {} | {} | {} |\n",
            code(tool["name"].as_str().unwrap_or("")),
            cell(tool["displayName"].as_str().unwrap_or("")),
            decisions(&tool["trusted"]),
            decisions(&tool["untrusted"]),
            if findings.is_empty() {
                "none".to_owned()
            } else {
                cell(&findings.join("; "))
            },
        ));
    }
    out
}

/// A hint's key in the report's `effective` object: its wire name without `Hint`.
fn effective_key(hint: Hint) -> &'static str {
    hint.wire_name().trim_end_matches("Hint")
}
