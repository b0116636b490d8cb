//! `--baseline REPORT`: a JSON report of an earlier run of the same subcommand, whose findings
//! and violations are known: they fail nothing, only what is new does, and what the baseline
//! had and this run did not find is said. Items are keyed by tool, rule and hint (never by
//! wording or order), and counted: a second finding of one key where the baseline had one is
//! new.

use std::path::Path;

use mcp_annotations::descriptor::Hint;
use serde_json::Value;

use super::ignore::Ignores;

/// The hint a finding's words name (`` `readOnlyHint` unset ``), the first in [`Hint::ALL`]'s
/// order: part of the finding's key, as one rule (`unset-hint`) finds each hint apart.
pub fn hint_named(message: &str) -> Option<Hint> {
    Hint::ALL
        .into_iter()
        .find(|hint| message.contains(hint.wire_name()))
}

/// The entries of the baseline `path` (a report of `annotations-audit COMMAND --format json`)
/// added to `ignores` as known. A file that is not such a report is refused, naming it.
pub fn read(path: &Path, command: &str, ignores: &mut Ignores) -> Result<(), String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read the baseline {shown}: {error}"))?;
    let report: Value = serde_json::from_str(&text)
        .map_err(|error| format!("the baseline {shown} is not a JSON report: {error}"))?;
    let key = match command {
        "audit" => "listing",
        "probe" => "coverage",
        _ => "changes",
    };
    if report.get("reportVersion") != Some(&Value::from(super::REPORT_VERSION))
        || report.get(key).is_none()
    {
        return Err(format!(
            "the baseline {shown} is not a report of `annotations-audit {command} --format json` \
             (version {})",
            super::REPORT_VERSION
        ));
    }
    let reason = format!("in the baseline {shown}");
    let items = |value: &Value| value.as_array().cloned().unwrap_or_default();
    let text_of = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    match command {
        "audit" => {
            for finding in items(&report["listing"]) {
                let kind = text_of(&finding["kind"]);
                let hint = hint_named(&text_of(&finding["message"]));
                ignores.known(None, &kind, hint, &reason);
            }
            for tool in items(&report["tools"]) {
                let name = text_of(&tool["name"]);
                for finding in items(&tool["findings"]) {
                    let kind = text_of(&finding["kind"]);
                    let hint = hint_named(&text_of(&finding["message"]));
                    ignores.known(Some(&name), &kind, hint, &reason);
                }
            }
        }
        "probe" => {
            for tool in items(&report["tools"]) {
                let name = text_of(&tool["name"]);
                for hint in Hint::ALL {
                    let violated = |verdicts: &Value| verdicts[hint.claim()] == "violated";
                    if violated(&tool["probe"]) || violated(&tool["resolution"]) {
                        ignores.known(Some(&name), &super::hint_rule(hint), Some(hint), &reason);
                    }
                }
                for note in items(&tool["notes"]) {
                    let problem = text_of(&note["problem"]);
                    if note.get("hint").is_none() && super::breaks_protocol(&problem) {
                        ignores.known(Some(&name), super::CALL_PROBLEM, None, &reason);
                    }
                }
            }
        }
        _ => {
            for change in items(&report["changes"]) {
                let class = text_of(&change["class"]);
                if class == "breaking" || class == "trust" {
                    let rule = format!("{class}-change");
                    ignores.known(Some(&text_of(&change["tool"])), &rule, None, &reason);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_is_found_in_a_findings_words() {
        assert_eq!(hint_named("`openWorldHint` unset"), Some(Hint::OpenWorld));
        assert_eq!(hint_named("no title: hosts show the name"), None);
    }
}
