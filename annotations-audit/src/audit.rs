//! `audit`: a server's listing read as a host reads it, each tool's effective hints, what a
//! host would do with it trusting the server or not, and its findings.

use std::collections::HashMap;

use mcp_annotations::Tool;
use mcp_annotations::descriptor::Hint;
use mcp_annotations::host::{self, FindingKind, HostView, Trust};
use serde_json::{Value, json};

use crate::cli::args::{AuditArgs, Format};
use crate::cli::status::{Failure, Outcome, Status};
use crate::report::ignore::Ignores;
use crate::report::{
    self, AuditReport, AuditedTool, Decisions, Finding, LISTING_PROBLEM, ReadTool, TOOL_RESOLUTION,
    UNREADABLE_TOOL, UnreadableTool, effective_key,
};
use crate::server;

/// `audit`: the report of the server `args` names, and the exit status it calls for.
pub fn run(args: &AuditArgs) -> Outcome {
    let mut ignores = Ignores::load(&args.settings, "audit").map_err(Failure::Usage)?;
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
        return Ok((Status::Clean, report::pretty(&json!({ "tools": listed }))));
    }
    let mut report = report(&listed, &problems, &capabilities);
    let failing = crate::report::ignore::audit(&mut report, &mut ignores);
    ignores.say("audit");
    let text = report::rendered(
        &args.output,
        &report,
        report::table::audit,
        report::markdown::audit,
        report::sarif::audit,
    )?;
    let failing = if failing {
        Status::Findings
    } else {
        Status::Clean
    };
    Ok((Status::of_results(failing, args.output.format), text))
}

/// A finding of `kind` at `severity`.
fn finding(kind: &str, severity: &str, message: String) -> Finding {
    Finding {
        kind: kind.to_owned(),
        severity: severity.to_owned(),
        message,
        ignored: None,
    }
}

/// The tool-resolution findings of a server whose `initialize` answered `capabilities`:
/// on the listing (the capability's settings) and on each raw tool (its marker), by name.
fn resolution_findings(
    listed: &[Value],
    capabilities: &Value,
) -> (Vec<Finding>, HashMap<String, Vec<Finding>>) {
    use mcp_annotations::resolution::{EXTENSION, marker, settings};
    let declared = capabilities
        .get("extensions")
        .and_then(|extensions| extensions.get(EXTENSION));
    let mut listing = Vec::new();
    if let Some(declared) = declared
        && declared != &settings()
    {
        let shown: String = declared.to_string().chars().take(200).collect();
        listing.push(finding(
            TOOL_RESOLUTION,
            "error",
            format!(
                "the server declares {EXTENSION} with the settings {shown}: this revision's are an \
                 empty object, and a client must treat any other as unsupported"
            ),
        ));
    }
    let (_, draft) = marker();
    let mut by_tool: HashMap<String, Vec<Finding>> = HashMap::new();
    for raw in listed {
        let Some(marker) = raw.get("_meta").and_then(|meta| meta.get(EXTENSION)) else {
            continue;
        };
        let name = raw
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("(no name)");
        let mut found = |severity: &str, message: String| {
            by_tool.entry(name.to_owned()).or_default().push(finding(
                TOOL_RESOLUTION,
                severity,
                message,
            ));
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

/// The library's findings on the tools read, with one more where a name is shared with a tool
/// that could not be read (counted over every listed tool, each count made once: the report
/// stays linear in the tools listed).
fn tool_findings(listed: &[Value], tools: &[Tool]) -> Vec<Vec<host::Finding>> {
    let mut listed_names: HashMap<&str, usize> = HashMap::new();
    for raw in listed {
        if let Some(name) = raw.get("name").and_then(Value::as_str) {
            *listed_names.entry(name).or_default() += 1;
        }
    }
    let mut read_names: HashMap<&str, usize> = HashMap::new();
    for tool in tools {
        *read_names.entry(tool.name()).or_default() += 1;
    }
    let mut found = host::findings(tools);
    for (tool, found) in tools.iter().zip(found.iter_mut()) {
        let shared = listed_names.get(tool.name()).copied().unwrap_or(0);
        let counted = read_names.get(tool.name()).copied().unwrap_or(0);
        if shared > counted && counted == 1 {
            found.push(host::Finding::new(
                FindingKind::SharedName,
                format!("{shared} tools share this name"),
            ));
        }
    }
    found
}

/// A host's decisions on a tool, as `view` makes them.
fn decisions(view: HostView<'_>) -> Decisions {
    Decisions {
        approval: view.needs_approval(),
        parallel: view.may_run_in_parallel(),
        plan_mode: view.allowed_in_plan_mode(),
    }
}

/// A tool read, with its findings.
fn read_tool(tool: &Tool, findings: Vec<Finding>) -> ReadTool {
    ReadTool {
        name: tool.name().to_owned(),
        display_name: tool.display_name().to_owned(),
        // Each hint under its wire name without `Hint` (`readOnly`), at its effective value.
        effective: Hint::ALL
            .into_iter()
            .map(|hint| (effective_key(hint), tool.annotations.effective(hint)))
            .collect(),
        resolvable: tool.resolvable,
        trusted: decisions(tool.annotations.for_host(Trust::Trusted)),
        untrusted: decisions(tool.annotations.for_host(Trust::Untrusted)),
        findings,
    }
}

/// The report of the tools a server listed (as the JSON it sent: one that cannot be read is a
/// finding on that tool) and the listing's own problems.
pub fn report(listed: &[Value], listing_problems: &[String], capabilities: &Value) -> AuditReport {
    let (resolution_listing, mut resolution_tools) = resolution_findings(listed, capabilities);
    let mut tools = Vec::new();
    let mut unreadable = Vec::new();
    for raw in listed {
        match serde_json::from_value::<Tool>(raw.clone()) {
            Ok(tool) => tools.push(tool),
            Err(error) => unreadable.push(UnreadableTool {
                name: raw
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("(no name)")
                    .to_owned(),
                readable: false,
                findings: vec![finding(
                    UNREADABLE_TOOL,
                    "error",
                    format!("the tool cannot be read: {error}"),
                )],
            }),
        }
    }
    let found = tool_findings(listed, &tools);
    let mut rows: Vec<AuditedTool> = tools
        .iter()
        .zip(found)
        .map(|(tool, found)| {
            let mut found: Vec<Finding> = found
                .iter()
                .map(|f| finding(f.kind.as_str(), f.severity.as_str(), f.message.clone()))
                .collect();
            found.extend(resolution_tools.remove(tool.name()).unwrap_or_default());
            AuditedTool::Read(read_tool(tool, found))
        })
        .collect();
    // A tool that cannot be read keeps its marker's findings too.
    for tool in &mut unreadable {
        tool.findings
            .extend(resolution_tools.remove(&tool.name).unwrap_or_default());
    }
    rows.extend(unreadable.into_iter().map(AuditedTool::Unreadable));
    let mut listing: Vec<Finding> = listing_problems
        .iter()
        .map(|message| finding(LISTING_PROBLEM, "error", message.clone()))
        .collect();
    listing.extend(resolution_listing);
    AuditReport {
        listing,
        tools: rows,
    }
}
