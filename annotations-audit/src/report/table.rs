//! `--format text`: each report as a Markdown table (readable on a terminal and in a pull
//! request alike), then a line for each note.

use mcp_annotations::descriptor::Hint;

use super::text::{cell, code, ignored, printable};
use super::{AuditReport, AuditedTool, CLAIMS, Decisions, DiffReport, Note, ProbeReport, Verdict};

/// The audit's report as a Markdown table, the listing's problems first (escaped like every
/// cell: a problem quotes what the server sent), a blank line between them and the table.
pub fn audit(report: &AuditReport) -> String {
    let mut out = String::new();
    for finding in &report.listing {
        out.push_str(&format!(
            "listing: {}: {}{}\n",
            cell(&finding.severity),
            cell(&finding.message),
            ignored(finding.ignored.as_deref())
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
    for tool in &report.tools {
        out.push_str(&audit_row(tool));
    }
    out
}

/// One tool's row of the audit's table.
fn audit_row(tool: &AuditedTool) -> String {
    // An unreadable tool's hints and decisions are unknown, not "no".
    let flag = |v: Option<bool>| v.map_or("?", |b| if b { "yes" } else { "no" });
    let decisions = |v: Option<&Decisions>| {
        format!(
            "{} / {} / {}",
            flag(v.map(|v| v.approval)),
            flag(v.map(|v| v.parallel)),
            flag(v.map(|v| v.plan_mode))
        )
    };
    let read = match tool {
        AuditedTool::Read(read) => Some(read),
        AuditedTool::Unreadable(_) => None,
    };
    let findings: Vec<String> = tool
        .findings()
        .iter()
        .map(|f| match &f.ignored {
            Some(why) => format!("{}: {} (ignored: {why})", f.severity, f.message),
            None => format!("{}: {}", f.severity, f.message),
        })
        .collect();
    let hints: String = Hint::ALL
        .into_iter()
        .map(|hint| {
            let effective = read.and_then(|read| read.effective.get(super::effective_key(hint)));
            format!(" {} |", flag(effective.copied()))
        })
        .collect();
    // A resolvable tool's listed hints are the worst of its calls: a host resolves each.
    let resolvable = if read.is_some_and(|read| read.resolvable) {
        " (resolvable: hints per call)"
    } else {
        ""
    };
    format!(
        "| {}{resolvable} | {} |{hints} {} | {} | {} |\n",
        code(tool.name()),
        cell(read.map_or("", |read| &read.display_name)),
        decisions(read.map(|read| &read.trusted)),
        decisions(read.map(|read| &read.untrusted)),
        if findings.is_empty() {
            "none".to_owned()
        } else {
            cell(&findings.join("; "))
        },
    )
}

/// The probe's report as a table of verdicts, then what each resolvable tool's resolutions
/// claimed, each note, what was not judged and why, the server's findings and the coverage.
pub fn probe(report: &ProbeReport) -> String {
    let mut out = String::from("| name |");
    for hint in CLAIMS {
        out.push_str(&format!(" {} |", hint.claim_column()));
    }
    out.push_str(" calls that succeeded |\n|---|---|---|---|---|---|\n");
    for tool in &report.tools {
        let verdicts: String = CLAIMS
            .iter()
            .map(|hint| format!(" {} |", tool.probe[*hint].word()))
            .collect();
        out.push_str(&format!(
            "| {} |{verdicts} {} |\n",
            code(&tool.name),
            tool.succeeded
        ));
    }
    // What each resolvable tool's resolutions claimed beyond its listing, and how it held.
    for tool in &report.tools {
        let Some(resolution) = &tool.resolution else {
            continue;
        };
        let words: Vec<String> = CLAIMS
            .iter()
            .filter(|hint| resolution.verdicts[**hint] != Verdict::Unclaimed)
            .map(|hint| {
                let verdict = resolution.verdicts[*hint].word();
                format!("{} {verdict}", hint.claim_column())
            })
            .collect();
        let claimed = if words.is_empty() {
            "nothing beyond the listing".to_owned()
        } else {
            words.join(", ")
        };
        out.push_str(&format!(
            "{}: {} calls resolved first (tools/resolve); what they claimed beyond the listing: {claimed}\n",
            code(&tool.name),
            resolution.resolved
        ));
        if let Some(why) = &resolution.fell_back {
            out.push_str(&format!("{}: {}\n", code(&tool.name), cell(why)));
        }
    }
    for tool in &report.tools {
        for note in &tool.notes {
            let (text, diff) = match note {
                Note::Call(call) if call.problem.is_some() => (
                    format!(
                        "{} with {}: {}",
                        call.hint.map_or("call", Hint::claim),
                        call.arguments,
                        call.problem.as_deref().unwrap_or_default()
                    ),
                    call.diff.as_deref().unwrap_or_default(),
                ),
                // A note without a problem is shown as its JSON.
                _ => (
                    serde_json::to_value(note)
                        .map(|value| value.to_string())
                        .unwrap_or_default(),
                    &[][..],
                ),
            };
            let why = match note {
                Note::Call(call) => ignored(call.ignored.as_deref()),
                Note::Said(_) => String::new(),
            };
            out.push_str(&format!("{}: {}{why}\n", code(&tool.name), cell(&text)));
            for line in diff {
                // A path the server made: no escape sequence of its reaches the terminal.
                out.push_str(&format!("    {}\n", cell(line)));
            }
        }
    }
    for tool in &report.tools {
        for (claim, why) in &tool.ignored {
            out.push_str(&format!(
                "{} {claim} violated, ignored: {}\n",
                code(&tool.name),
                cell(why)
            ));
        }
        for (hint, why) in &tool.unjudged {
            out.push_str(&format!(
                "{} {hint} not judged: {}\n",
                code(&tool.name),
                cell(why)
            ));
        }
    }
    for finding in &report.server {
        out.push_str(&format!("server: {}\n", cell(finding)));
    }
    let coverage = &report.coverage;
    out.push_str(&format!(
        "judged {} of the {} hints claimed ({}%)\n",
        coverage.judged,
        coverage.claimed,
        (coverage.share * 100.0).round()
    ));
    for (what, said) in report.surroundings() {
        out.push_str(&format!("{what}: {}\n", cell(said)));
    }
    out
}

/// The diff's changes, a line each, or `no changes`.
pub fn diff(report: &DiffReport) -> String {
    if report.changes.is_empty() {
        return "no changes\n".to_owned();
    }
    report
        .changes
        .iter()
        .enumerate()
        .map(|(at, change)| {
            let why = ignored(report.ignored(at));
            format!("{}{}\n", printable(&change.to_string()), printable(&why))
        })
        .collect()
}
