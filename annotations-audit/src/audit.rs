//! `audit`: a server's listing read as a host reads it, each tool's effective hints, what a
//! host would do with it trusting the server or not, and its findings.

use std::collections::HashMap;

use mcp_annotations::Tool;
use mcp_annotations::descriptor::Hint;
use mcp_annotations::host::{Finding, FindingKind, Severity, Trust, findings};
use serde_json::{Value, json};

use crate::server;

use crate::cli::args::{AuditArgs, Format};
use crate::report::{self, LISTING_PROBLEM, TOOL_RESOLUTION, UNREADABLE_TOOL, effective_key};

/// `audit`: the report of the server `args` names, and the exit status it calls for.
pub fn run(args: &AuditArgs) -> Result<(i32, String), String> {
    server::keep_log(&args.connection)?;
    let mut peer = server::named(&args.command, &args.connection, &args.remote)?;
    let (listed, problems) = peer.list_tools().map_err(|error| peer.explain(error))?;
    let capabilities = peer.capabilities().clone();
    drop(peer);
    if args.output.format == Format::Listing {
        // The listing as the server sent it, to pin and `diff` against later: no judgement.
        for problem in &problems {
            eprintln!("annotations-audit: the listing: {problem}");
        }
        return Ok((0, report::pretty(&json!({ "tools": listed }))));
    }
    let (report, has_errors) = report(&listed, &problems, &capabilities);
    let text = report::rendered(
        &args.output,
        &report,
        report::table::table,
        report::markdown::audit,
        report::sarif::audit,
    );
    Ok((i32::from(has_errors), text))
}

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
