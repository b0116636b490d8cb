//! `--format markdown`: a report as a Markdown document for a pull request's comment, a
//! heading and a one-line summary first, then the table, then what needs a sentence. Every
//! word a server wrote is escaped (a cell's text) or fenced (a diff), so that a server cannot
//! write Markdown or HTML into the comment.

use mcp_annotations::host::diff::{Change, Class};
use serde_json::Value;

use super::text::{cell, code};

/// `text` in a fenced block, the fence longer than any run of backticks it holds.
fn fenced(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let text: String = text
        .chars()
        .filter(|c| !c.is_control() || *c == '\n')
        .collect();
    format!("{fence}\n{text}\n{fence}\n")
}

/// `count` and `word`, plural when `count` is not 1.
fn counted(count: usize, word: &str) -> String {
    format!("{count} {word}{}", if count == 1 { "" } else { "s" })
}

/// The audit's report as a comment.
pub fn audit(report: &Value) -> String {
    let tools = report["tools"].as_array().map_or(0, Vec::len);
    let findings = report["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|tool| tool["findings"].as_array().into_iter().flatten())
        .chain(report["listing"].as_array().into_iter().flatten());
    let (mut errors, mut warnings) = (0, 0);
    for finding in findings {
        match finding["severity"].as_str() {
            Some("error") => errors += 1,
            _ => warnings += 1,
        }
    }
    let verdict = if errors > 0 { "fails" } else { "passes" };
    format!(
        "## annotations-audit: the audit {verdict}\n\n{}, {}, {}.\n\n{}",
        counted(tools, "tool"),
        counted(errors, "error"),
        counted(warnings, "warning"),
        super::table::table(report)
    )
}

/// The probe's report as a comment: each hint's verdict, then every violation with its
/// arguments and what the call changed, what could not be judged and why, and the server's
/// own problems.
pub fn probe(report: &Value) -> String {
    let tools = report["tools"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let violated = tools
        .iter()
        .flat_map(|tool| tool["probe"].as_object().into_iter().flatten())
        .filter(|(_, verdict)| *verdict == "violated")
        .count();
    // What resolutions claimed beyond a listing and the calls broke: a lie of its own.
    let resolutions_violated = tools
        .iter()
        .flat_map(|tool| tool["resolution"].as_object().into_iter().flatten())
        .filter(|(_, verdict)| *verdict == "violated")
        .count();
    let coverage = &report["coverage"];
    let mut out = format!(
        "## annotations-audit probe: {}\n\n{} probed; {} of the {} hints claimed judged ({}%).\n\n",
        match (violated, resolutions_violated) {
            (0, 0) => "no hint violated".to_owned(),
            (listed, 0) => format!("{} violated", counted(listed, "hint")),
            (listed, resolved) => format!(
                "{} violated, {} violated by resolutions of calls",
                counted(listed, "listed hint"),
                counted(resolved, "hint")
            ),
        },
        counted(tools.len(), "tool"),
        coverage["judged"],
        coverage["claimed"],
        (coverage["share"].as_f64().unwrap_or(0.0) * 100.0).round()
    );
    out.push_str(
        "| tool | read-only | idempotent | non-destructive | closed world | calls that succeeded |\n\
         |---|---|---|---|---|---|\n",
    );
    for tool in tools {
        let word = |hint: &str| cell(tool["probe"][hint].as_str().unwrap_or("?"));
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} of {} |\n",
            code(tool["name"].as_str().unwrap_or("")),
            word("readOnly"),
            word("idempotent"),
            word("nonDestructive"),
            word("closedWorld"),
            tool["succeeded"],
            tool["calls"],
        ));
    }
    let mut violations = String::new();
    let mut problems = String::new();
    for tool in tools {
        let name = code(tool["name"].as_str().unwrap_or(""));
        for note in tool["notes"].as_array().into_iter().flatten() {
            let Some(problem) = note.get("problem").and_then(Value::as_str) else {
                continue;
            };
            let arguments = note
                .get("arguments")
                .map_or_else(String::new, |a| format!(" with {}", code(&a.to_string())));
            match note.get("hint").and_then(Value::as_str) {
                Some(hint) => {
                    violations.push_str(&format!(
                        "- {name} `{hint}`{arguments}: {}\n",
                        cell(problem)
                    ));
                    let diff = super::diff_lines(note);
                    if !diff.is_empty() {
                        violations.push('\n');
                        for line in fenced(&diff.join("\n")).lines() {
                            violations.push_str(&format!("  {line}\n"));
                        }
                    }
                }
                None if problem.ends_with("not judged") => {}
                None => problems.push_str(&format!("- {name}{arguments}: {}\n", cell(problem))),
            }
        }
    }
    for finding in report["server"].as_array().into_iter().flatten() {
        problems.push_str(&format!(
            "- the server: {}\n",
            cell(finding.as_str().unwrap_or(""))
        ));
    }
    let mut unjudged = String::new();
    for tool in tools {
        for (hint, why) in tool["unjudged"].as_object().into_iter().flatten() {
            unjudged.push_str(&format!(
                "- {} `{}`: {}\n",
                code(tool["name"].as_str().unwrap_or("")),
                cell(hint),
                cell(why.as_str().unwrap_or(""))
            ));
        }
    }
    for (heading, section) in [
        ("Violations and hints broken in some runs only", violations),
        ("Calls and the server", problems),
        ("Not judged, and why", unjudged),
    ] {
        if !section.is_empty() {
            out.push_str(&format!("\n### {heading}\n\n{section}"));
        }
    }
    out
}

/// The changes between two listings as a comment; `refused` says whether they fail the diff.
pub fn diff(changes: &[Change], refused: bool) -> String {
    let count = |class: Class| changes.iter().filter(|c| c.class() == class).count();
    let mut out = format!(
        "## annotations-audit diff: {}\n\n{} breaking, {} trust, {} compatible.\n",
        if refused {
            "refused"
        } else if changes.is_empty() {
            "no changes"
        } else {
            "allowed"
        },
        count(Class::Breaking),
        count(Class::Trust),
        count(Class::Compatible),
    );
    if !changes.is_empty() {
        out.push_str("\n| tool | class | change |\n|---|---|---|\n");
        for change in changes {
            out.push_str(&format!(
                "| {} | {} | {} |\n",
                code(change.tool()),
                change.class(),
                cell(change.what())
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_outlasts_the_backticks_it_holds() {
        let block = fenced("a ```` b");
        assert!(block.starts_with("`````\n"), "{block}");
        assert!(block.ends_with("\n`````\n"), "{block}");
        assert_eq!(fenced("plain"), "```\nplain\n```\n");
    }
}
