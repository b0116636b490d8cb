//! `--format markdown`: a report as a Markdown document for a pull request's comment, a
//! heading and a one-line summary first, then the table, then what needs a sentence. Every
//! word a server wrote is escaped (a cell's text) or fenced (a diff), so that a server cannot
//! write Markdown or HTML into the comment.

use mcp_annotations::host::diff::Class;

use super::text::{cell, code, ignored};
use super::{AuditReport, AuditedTool, CLAIMS, DiffReport, Note, ProbeReport, ProbedTool, Verdict};

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
pub fn audit(report: &AuditReport) -> String {
    let findings = report
        .tools
        .iter()
        .flat_map(AuditedTool::findings)
        .chain(&report.listing);
    let (mut errors, mut warnings, mut ignored) = (0, 0, 0);
    for finding in findings {
        match (finding.severity.as_str(), &finding.ignored) {
            (_, Some(_)) => ignored += 1,
            ("error", None) => errors += 1,
            _ => warnings += 1,
        }
    }
    let verdict = if errors > 0 { "fails" } else { "passes" };
    let ignored = if ignored > 0 {
        format!(", {ignored} ignored")
    } else {
        String::new()
    };
    format!(
        "## annotations-audit: the audit {verdict}\n\n{}, {}, {}{ignored}.\n\n{}",
        counted(report.tools.len(), "tool"),
        counted(errors, "error"),
        counted(warnings, "warning"),
        super::table::audit(report)
    )
}

/// The probe's report as a comment: each hint's verdict, then every violation with its
/// arguments and what the call changed, what could not be judged and why, and the server's
/// own problems.
pub fn probe(report: &ProbeReport) -> String {
    let tools = &report.tools;
    // An ignored claim is left out of the headline (its note says why it is ignored).
    let violated = tools
        .iter()
        .flat_map(|tool| tool.probe.iter().map(move |hint| (tool, hint)))
        .filter(|(tool, (hint, verdict))| {
            **verdict == Verdict::Violated && !tool.ignored.contains_key(hint.claim())
        })
        .count();
    // What resolutions claimed beyond a listing and the calls broke: a lie of its own.
    let resolutions_violated = tools
        .iter()
        .filter_map(|tool| {
            tool.resolution
                .as_ref()
                .map(|resolution| (tool, resolution))
        })
        .flat_map(|(tool, resolution)| resolution.verdicts.iter().map(move |hint| (tool, hint)))
        .filter(|(tool, (hint, verdict))| {
            **verdict == Verdict::Violated && !tool.ignored.contains_key(hint.claim())
        })
        .count();
    let coverage = &report.coverage;
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
        coverage.judged,
        coverage.claimed,
        (coverage.share * 100.0).round()
    );
    out.push_str("| tool |");
    for hint in CLAIMS {
        out.push_str(&format!(" {} |", hint.claim_column()));
    }
    out.push_str(" calls that succeeded |\n|---|---|---|---|---|---|\n");
    for tool in tools {
        let verdicts: String = CLAIMS
            .iter()
            .map(|hint| format!(" {} |", cell(tool.probe[*hint].word())))
            .collect();
        out.push_str(&format!(
            "| {} |{verdicts} {} of {} |\n",
            code(&tool.name),
            tool.succeeded,
            tool.calls,
        ));
    }
    let (violations, mut problems) = notes(tools);
    for finding in &report.server {
        problems.push_str(&format!("- the server: {}\n", cell(finding)));
    }
    let mut unjudged = String::new();
    for tool in tools {
        for (hint, why) in &tool.unjudged {
            unjudged.push_str(&format!(
                "- {} `{}`: {}\n",
                code(&tool.name),
                cell(hint),
                cell(why)
            ));
        }
    }
    let mut ran = String::new();
    for (what, said) in report.surroundings() {
        ran.push_str(&format!("- {what}: {}\n", cell(said)));
    }
    for (heading, section) in [
        ("Violations and hints broken in some runs only", violations),
        ("Calls and the server", problems),
        ("Not judged, and why", unjudged),
        ("Where the server ran", ran),
    ] {
        if !section.is_empty() {
            out.push_str(&format!("\n### {heading}\n\n{section}"));
        }
    }
    out
}

/// The notes with a problem, as two lists: the violations (a hint's, each with its diff),
/// and the calls' other problems.
fn notes(tools: &[ProbedTool]) -> (String, String) {
    let mut violations = String::new();
    let mut problems = String::new();
    for tool in tools {
        let name = code(&tool.name);
        for note in &tool.notes {
            let Note::Call(note) = note else { continue };
            let Some(problem) = note.problem.as_deref() else {
                continue;
            };
            let arguments = format!(" with {}", code(&note.arguments.to_string()));
            match note.hint {
                Some(hint) => {
                    let why = ignored(tool.ignored.get(hint.claim()).map(String::as_str));
                    violations.push_str(&format!(
                        "- {name} `{}`{arguments}: {}{why}\n",
                        hint.claim(),
                        cell(problem)
                    ));
                    let diff = note.diff.as_deref().unwrap_or_default();
                    if !diff.is_empty() {
                        violations.push('\n');
                        for line in fenced(&diff.join("\n")).lines() {
                            violations.push_str(&format!("  {line}\n"));
                        }
                    }
                }
                None if problem.ends_with("not judged") => {}
                None => problems.push_str(&format!(
                    "- {name}{arguments}: {}{}\n",
                    cell(problem),
                    ignored(note.ignored.as_deref())
                )),
            }
        }
    }
    (violations, problems)
}

/// The changes between two listings as a comment, and whether they fail the diff.
pub fn diff(report: &DiffReport) -> String {
    let (changes, refused) = (&report.changes, report.refused);
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
        for (at, change) in changes.iter().enumerate() {
            out.push_str(&format!(
                "| {} | {} | {}{} |\n",
                code(change.tool()),
                change.class(),
                cell(change.what()),
                ignored(report.ignored(at))
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
