//! `--format sarif`: the audit's, the probe's and the diff's findings as a SARIF 2.1.0 log, the
//! format code-scanning services (GitHub's among them) read: one rule per kind of finding, per
//! hint a probe judges and per class of change, each result at its level with the tool's name
//! as its logical location. With `--sarif-artifact PATH`, every result is also placed in that
//! file (the server's source or its pinned listing). Each rule carries its page
//! (`annotations-audit explain ID`) as its help, and an ignored result its reason as a
//! suppression.

use std::borrow::Cow;

use mcp_annotations::descriptor::Hint;
use mcp_annotations::host::FindingKind;
use mcp_annotations::host::diff::Class;
use serde_json::{Value, json};

use super::{
    AuditReport, CALL_PROBLEM, CLAIMS, DiffReport, LISTING_PROBLEM, Note, ProbeReport,
    TOOL_RESOLUTION, UNREADABLE_TOOL, hint_rule,
};

/// Where SARIF's schema for 2.1.0 is published.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// One rule of the log: its id, its name (PascalCase, as SARIF's `name` is), what it checks,
/// and its default level.
struct Rule {
    id: Cow<'static, str>,
    description: Cow<'static, str>,
    level: &'static str,
}

/// The rules of the audit: the library's kinds of finding, and the two only the command line
/// finds (a tool it cannot read, a listing's own problem).
fn audit_rules() -> Vec<Rule> {
    let mut rules: Vec<Rule> = FindingKind::ALL
        .into_iter()
        .map(|kind| Rule {
            id: kind.as_str().into(),
            description: kind.description().into(),
            level: kind.severity().as_str(),
        })
        .collect();
    rules.push(Rule {
        id: UNREADABLE_TOOL.into(),
        description: "A listed tool must be a tool descriptor the protocol's schema allows.".into(),
        level: "error",
    });
    rules.push(Rule {
        id: LISTING_PROBLEM.into(),
        description:
            "tools/list must answer with pages that end, each a result the protocol allows.".into(),
        level: "error",
    });
    rules.push(Rule {
        id: TOOL_RESOLUTION.into(),
        description: "A tool marked resolvable carries the tool-resolution draft's marker, from a server that declares the extension with its empty settings.".into(),
        level: "error",
    });
    rules
}

/// The probe's rules: one per hint it judges (in its tables' order), a call's own problem,
/// and what it found about the server as a whole.
fn probe_rules() -> Vec<Rule> {
    let mut rules: Vec<Rule> = CLAIMS
        .into_iter()
        .map(|hint| Rule {
            id: hint_rule(hint),
            description: format!(
                "A tool that claims {}: {} {}.",
                hint.wire_name(),
                hint.trusted_value(),
                hint.promise()
            )
            .into(),
            level: "error",
        })
        .collect();
    rules.push(Rule {
        id: CALL_PROBLEM.into(),
        description: "A call with valid arguments answers a result its output schema allows, \
                      without a protocol error."
            .into(),
        level: "error",
    });
    rules.push(Rule {
        id: "server-problem".into(),
        description: "A server lives through the probe's calls and answers each in the time given."
            .into(),
        level: "error",
    });
    rules
}

/// The rules of a diff: one per class of change.
const DIFF_RULES: [(Class, &str, &str, &str); 3] = [
    (
        Class::Breaking,
        "breaking-change",
        "A change after which a client's call that worked may fail.",
        "error",
    ),
    (
        Class::Trust,
        "trust-change",
        "A change after which a host would ask less of its user (newly {claims}): harmless if true, and to be reviewed.",
        "error",
    ),
    (
        Class::Compatible,
        "compatible-change",
        "A change neither breaking nor asking less of a host.",
        "note",
    ),
];

/// A rule's `name`: its id in PascalCase (`read-only-hint` is `ReadOnlyHint`).
fn pascal(id: &str) -> String {
    id.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// The log: one run of the tool, its rules and results. `artifact` places every result in
/// that file.
fn log(rules: &[Rule], results: Vec<Value>, artifact: Option<&str>) -> Value {
    let artifact = artifact.map(|path| uri_reference(&relative(path)));
    let artifact = artifact.as_deref();
    let rules_json: Vec<Value> = rules
        .iter()
        .map(|rule| {
            json!({
                "id": rule.id,
                "name": pascal(&rule.id),
                "shortDescription": {"text": rule.description},
                "fullDescription": {"text": rule.description},
                "defaultConfiguration": {"level": rule.level},
                "help": {
                    "text": super::rules::page(&rule.id).unwrap_or_default(),
                    "markdown": super::rules::page(&rule.id).unwrap_or_default(),
                },
                "helpUri": super::rules::HELP_URI,
            })
        })
        .collect();
    let mut results = results;
    // A fingerprint seen before (the same note twice, two tools of one name) gets its
    // occurrence's number, so that no alert is merged into another.
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for result in &mut results {
        if let Some(print) = result["partialFingerprints"]["mcpTool/v1"].as_str() {
            let count = seen.entry(print.to_owned()).or_insert(0);
            *count += 1;
            if *count > 1 {
                result["partialFingerprints"]["mcpTool/v1"] = json!(format!("{print}#{count}"));
            }
        }
        let id = result["ruleId"].as_str().unwrap_or("");
        if let Some(index) = rules.iter().position(|rule| rule.id == id) {
            result["ruleIndex"] = json!(index);
        }
        if let Some(uri) = artifact {
            let located = json!({
                "physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": {"startLine": 1},
                },
            });
            if let Some(location) = result["locations"]
                .as_array_mut()
                .and_then(|locations| locations.first_mut())
                .and_then(Value::as_object_mut)
            {
                location.extend(located.as_object().cloned().unwrap_or_default());
            } else {
                result["locations"] = json!([located]);
            }
        }
    }
    let mut run = json!({
        "tool": {"driver": {
            "name": "annotations-audit",
            "version": env!("CARGO_PKG_VERSION"),
            "informationUri": "https://crates.io/crates/mcp-annotations-audit",
            "rules": rules_json,
        }},
        "results": results,
    });
    if let Some(uri) = artifact {
        run["artifacts"] = json!([{"location": {"uri": uri}}]);
    }
    json!({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]})
}

/// `path` as a SARIF artifact's URI: relative to the working folder (the repository, in CI)
/// where it lies under it, with forward slashes.
pub fn relative(path: &str) -> String {
    let given = std::path::Path::new(path);
    let shown = std::env::current_dir()
        .ok()
        .and_then(|here| {
            let absolute = if given.is_absolute() {
                given.to_path_buf()
            } else {
                here.join(given)
            };
            let absolute = absolute.canonicalize().unwrap_or(absolute);
            let here = here.canonicalize().unwrap_or(here);
            absolute
                .strip_prefix(&here)
                .ok()
                .map(std::path::Path::to_path_buf)
        })
        .unwrap_or_else(|| given.to_path_buf());
    shown
        .to_string_lossy()
        .replace('\\', "/")
        .trim_start_matches("./")
        .to_owned()
}

/// A relative path as a URI reference: every byte but the unreserved ones and `/`
/// percent-encoded, so that a space or a `#` in a file's name (`src/my server#1.py`) stays
/// part of its path rather than making the reference invalid or a fragment of it.
fn uri_reference(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Marks `result` suppressed where `reason` says why the user ignores it (an `[[ignore]]`
/// entry, kept outside the source: SARIF's `external` kind).
fn suppressed(result: &mut Value, reason: Option<&str>) {
    if let Some(reason) = reason {
        result["suppressions"] = json!([{"kind": "external", "justification": reason}]);
    }
}

/// The rule of a class of change (`breaking-change`, ...).
pub fn diff_rule(class: Class) -> &'static str {
    DIFF_RULES
        .iter()
        .find(|(known, ..)| *known == class)
        .map_or(DIFF_RULES[2].1, |rule| rule.1)
}

/// A result of `rule` at `level` about `tool` (none for the listing or the server as a whole).
fn result(rule: &str, level: &str, tool: Option<&str>, text: String) -> Value {
    let mut result = json!({
        "ruleId": rule,
        "level": level,
        "message": {"text": text},
    });
    if let Some(tool) = tool {
        result["locations"] = json!([{
            "logicalLocations": [{"name": tool, "fullyQualifiedName": tool, "kind": "function"}],
        }]);
        // The same finding on the same tool is the same alert from one run to the next.
        result["partialFingerprints"] = json!({"mcpTool/v1": format!("{tool}:{rule}")});
    }
    result
}

/// The audit's report as a SARIF log.
pub fn audit(report: &AuditReport, artifact: Option<&str>) -> Value {
    let mut results = Vec::new();
    for finding in &report.listing {
        let mut found = result(
            &finding.kind,
            &finding.severity,
            None,
            format!("the listing: {}", finding.message),
        );
        suppressed(&mut found, finding.ignored.as_deref());
        results.push(found);
    }
    for tool in &report.tools {
        let name = tool.name();
        for finding in tool.findings() {
            let message = &finding.message;
            let mut found = result(
                &finding.kind,
                &finding.severity,
                Some(name),
                format!("`{name}`: {message}"),
            );
            // Two findings of one kind on one tool (two unset hints) are two alerts.
            found["partialFingerprints"]["mcpTool/v1"] =
                json!(format!("{name}:{}:{message}", finding.kind));
            suppressed(&mut found, finding.ignored.as_deref());
            results.push(found);
        }
    }
    log(&audit_rules(), results, artifact)
}

/// The probe's report as a SARIF log: each violated hint an error with the arguments and the
/// state's diff, each hint the probe could not settle (it broke in some runs only) a note
/// saying so, each call's and the server's problems.
pub fn probe(report: &ProbeReport, artifact: Option<&str>) -> Value {
    let mut results = Vec::new();
    for tool in &report.tools {
        let name = tool.name.as_str();
        for note in &tool.notes {
            let Note::Call(note) = note else { continue };
            let Some(problem) = note.problem.as_deref() else {
                continue;
            };
            let with = format!(" with {}", note.arguments);
            match note.hint {
                Some(hint) => {
                    let id = hint_rule(hint);
                    // A hint broken in some runs only is one the probe cannot settle.
                    let level = if problem.starts_with("nondeterministic") {
                        "note"
                    } else {
                        "error"
                    };
                    let mut text = format!("`{name}` called{with}: {problem}");
                    let diff = note.diff.as_deref().unwrap_or_default();
                    if !diff.is_empty() {
                        text.push_str("\nwhat the call changed:\n");
                        text.push_str(&diff.join("\n"));
                    }
                    let mut found = result(&id, level, Some(name), text);
                    found["properties"] = json!({"arguments": note.arguments});
                    // A resolution's lie names the hints the resolution gave.
                    if let Some(resolution) = &note.resolution {
                        found["properties"]["resolution"] = resolution.clone();
                    }
                    // One alert per hint and arguments: each call that broke it is its own.
                    found["partialFingerprints"]["mcpTool/v1"] =
                        json!(format!("{name}:{id}:{}", note.arguments));
                    suppressed(
                        &mut found,
                        tool.ignored.get(hint.claim()).map(String::as_str),
                    );
                    results.push(found);
                }
                None if !note.is_call_problem() => {}
                None => {
                    let level = if note.breaks_protocol() {
                        "error"
                    } else {
                        "warning"
                    };
                    let mut found = result(
                        CALL_PROBLEM,
                        level,
                        Some(name),
                        format!("`{name}` called{with}: {problem}"),
                    );
                    found["partialFingerprints"]["mcpTool/v1"] =
                        json!(format!("{name}:call-problem:{problem}"));
                    suppressed(&mut found, note.ignored.as_deref());
                    results.push(found);
                }
            }
        }
    }
    for finding in &report.server {
        results.push(result("server-problem", "warning", None, finding.clone()));
    }
    let mut log = log(&probe_rules(), results, artifact);
    // Where the server ran (its confinement, its network, what ended its processes), for
    // whoever reads the run: a verdict means only as much as these say.
    log["runs"][0]["properties"] = report
        .surroundings()
        .into_iter()
        .map(|(what, said)| (what.to_owned(), Value::from(said.to_owned())))
        .collect::<serde_json::Map<_, _>>()
        .into();
    log
}

/// Every hint's claim in words, `"read-only, ... or closed-world"`.
fn claims_in_words() -> String {
    let words = Hint::ALL.map(|hint| hint.words(hint.trusted_value()));
    let (last, first) = words.split_last().expect("four hints");
    format!("{} or {last}", first.join(", "))
}

/// The changes between two listings as a SARIF log: each breaking or trust change not
/// `allowed` at its rule's level, allowed ones and compatible ones as notes.
pub fn diff(report: &DiffReport, artifact: Option<&str>) -> Value {
    let (changes, allowed) = (&report.changes, &report.allowed);
    let rules: Vec<Rule> = DIFF_RULES
        .iter()
        .map(|&(_, id, description, level)| Rule {
            id: id.into(),
            description: description.replace("{claims}", &claims_in_words()).into(),
            level,
        })
        .collect();
    let results = changes
        .iter()
        .enumerate()
        .map(|(at, change)| {
            let (class, id, _, level) = DIFF_RULES
                .iter()
                .find(|(class, ..)| *class == change.class())
                .copied()
                .unwrap_or(DIFF_RULES[2]);
            let level = if allowed.iter().any(|a| *a == class.to_string()) {
                "note"
            } else {
                level
            };
            let mut found = result(
                id,
                level,
                Some(change.tool()),
                format!("`{}`: {}", change.tool(), change.what()),
            );
            found["partialFingerprints"]["mcpTool/v1"] =
                json!(format!("{}:{id}:{}", change.tool(), change.what()));
            suppressed(&mut found, report.ignored(at));
            found
        })
        .collect();
    log(&rules, results, artifact)
}

#[cfg(test)]
mod tests {
    /// A file's name with a space and a `#` is one URI reference, percent-encoded.
    #[test]
    fn an_artifact_is_a_valid_uri_reference() {
        let log = super::log(&[], Vec::new(), Some("src/my server#1.py"));
        assert_eq!(
            log["runs"][0]["artifacts"][0]["location"]["uri"],
            "src/my%20server%231.py"
        );
    }

    use super::*;
    use crate::report::{AuditedTool, Finding, UnreadableTool};

    #[test]
    fn rule_names_are_pascal_case() {
        assert_eq!(pascal("read-only-hint"), "ReadOnlyHint");
        assert_eq!(pascal("no-title"), "NoTitle");
    }

    #[test]
    fn every_result_names_a_rule_of_its_log_by_index() {
        let finding = |kind: &str, severity: &str, message: &str| Finding {
            kind: kind.to_owned(),
            severity: severity.to_owned(),
            message: message.to_owned(),
            ignored: None,
        };
        let report = AuditReport {
            listing: vec![finding(LISTING_PROBLEM, "error", "a cursor came back")],
            tools: vec![AuditedTool::Unreadable(UnreadableTool {
                name: "t".to_owned(),
                readable: false,
                findings: vec![
                    finding("unset-hint", "warning", "`destructiveHint` unset"),
                    finding("unset-hint", "warning", "`openWorldHint` unset"),
                ],
            })],
        };
        let log = audit(&report, Some("server.js"));
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), 3);
        for result in results {
            let index = result["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(rules[index]["id"], result["ruleId"]);
            assert_eq!(
                result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                "server.js"
            );
        }
        // The two unset hints are two alerts, not one.
        assert_ne!(
            results[1]["partialFingerprints"],
            results[2]["partialFingerprints"]
        );
    }
}
