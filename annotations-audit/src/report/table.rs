//! `--format text`: each report as a Markdown table (readable on a terminal and in a pull
//! request alike), then a line for each note.

use mcp_annotations::descriptor::Hint;
use serde_json::Value;

use super::effective_key;
use super::text::{cell, code};

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

/// The probe's report as a table of verdicts, then what each resolvable tool's resolutions
/// claimed, each note, what was not judged and why, the server's findings and the coverage.
pub fn probe_table(report: &Value) -> String {
    let mut out = String::from(
        "| name | read-only | idempotent | non-destructive | closed world | calls that succeeded |\n\
         |---|---|---|---|---|---|\n",
    );
    for tool in report["tools"].as_array().into_iter().flatten() {
        let word = |hint: &str| tool["probe"][hint].as_str().unwrap_or("?").to_owned();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            code(tool["name"].as_str().unwrap_or("")),
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
            code(tool["name"].as_str().unwrap_or("")),
            resolution["resolved"]
        ));
        if let Some(why) = resolution.get("fellBack").and_then(Value::as_str) {
            out.push_str(&format!(
                "{}: {}\n",
                code(tool["name"].as_str().unwrap_or("")),
                cell(why)
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
                code(tool["name"].as_str().unwrap_or("")),
                cell(&text)
            ));
            for line in note
                .get("diff")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                // A path the server made: no escape sequence of its reaches the terminal.
                out.push_str(&format!("    {}\n", cell(line.as_str().unwrap_or(""))));
            }
        }
    }
    for tool in report["tools"].as_array().into_iter().flatten() {
        for (hint, why) in tool["unjudged"].as_object().into_iter().flatten() {
            out.push_str(&format!(
                "{} {hint} not judged: {}\n",
                code(tool["name"].as_str().unwrap_or("")),
                cell(why.as_str().unwrap_or(""))
            ));
        }
    }
    for finding in report["server"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "server: {}\n",
            cell(finding.as_str().unwrap_or(""))
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
