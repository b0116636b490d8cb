//! The reports in the forms CI shows them: `--format sarif`, valid against SARIF 2.1.0's own
//! schema (shipped in `tests/schemas/`) with one rule per kind of finding, per hint and per
//! class of change; and `--format markdown` for a pull request's comment.

use std::process::Command;

use serde_json::{Value, json};

mod common;

use common::{audit_binary, example};

/// The binary's stdout with `args`, and its exit status.
fn run(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let output = Command::new(audit_binary())
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

/// SARIF 2.1.0's schema as published, with one repair: the language tags' pattern ends in a
/// stray `]`, which a regular expression in Unicode mode (the one the validator reads) refuses,
/// so it is escaped where it occurs (twice); nothing else is touched.
fn sarif_validator() -> jsonschema::Validator {
    let text = include_str!("schemas/sarif-2.1.0.json");
    let stray = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert_eq!(
        text.matches(stray).count(),
        2,
        "the schema is not the published one"
    );
    let text = text.replace(stray, r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$""#);
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

/// `log`, checked against SARIF 2.1.0's schema, every result naming a rule of its run.
fn valid_sarif(log: &str) -> Value {
    let log: Value = serde_json::from_str(log).unwrap_or_else(|_| panic!("not JSON: {log}"));
    let validator = sarif_validator();
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{log:#}");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let mut prints = std::collections::HashSet::new();
    for result in run["results"].as_array().unwrap() {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"], "{result}");
        // A result is placed in a file where one was given, at its tool by name where it is
        // a tool's; code scanning merges results of one fingerprint: each has its own.
        let location = &result["locations"][0];
        if let Some(uri) = location["physicalLocation"]["artifactLocation"].get("uri") {
            assert!(!uri.as_str().unwrap().is_empty(), "{result}");
        }
        if let Some(print) = result["partialFingerprints"]["mcpTool/v1"].as_str() {
            let tool = location["logicalLocations"][0]["name"].as_str();
            assert!(tool.is_some_and(|tool| print.starts_with(tool)), "{result}");
        }
        // Each rule carries its page, the one `explain` prints.
        let rule = &rules[index];
        let help = rule["help"]["text"].as_str().unwrap_or_default();
        assert!(help.starts_with("**"), "{rule}");
        if let Some(print) = result["partialFingerprints"]["mcpTool/v1"].as_str() {
            assert!(prints.insert(print.to_owned()), "fingerprint {print} twice");
        }
    }
    log
}

/// The schema is able to fail: a log without `version`, or with a level SARIF does not
/// know, is refused.
#[test]
fn the_sarif_schema_refuses_what_is_not_sarif() {
    let validator = sarif_validator();
    let good = json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [
        {"ruleId": "r", "level": "error", "message": {"text": "t"}}]}]});
    assert!(validator.is_valid(&good));
    let mut no_version = good.clone();
    no_version.as_object_mut().unwrap().remove("version");
    assert!(!validator.is_valid(&no_version));
    let mut bad_level = good.clone();
    bad_level["runs"][0]["results"][0]["level"] = json!("fatal");
    assert!(!validator.is_valid(&bad_level));
}

/// The liar's probe as SARIF: each lie a result on its hint's rule, at level error, naming
/// the tool, with the arguments and what the call changed in its message.
#[test]
fn the_liar_probe_as_sarif_is_valid_and_names_each_lie() {
    let server = example("liar_server");
    let (status, log) = run(
        &[
            "probe",
            "--format",
            "sarif",
            "--sarif-artifact",
            "tests/fixtures/liar_server.rs",
            "--cases",
            "12",
            "--",
            server.to_str().unwrap(),
        ],
        &[],
    );
    // The violations are the log's results, for code scanning to act on: not the status.
    assert_eq!(status, 0, "{log}");
    let log = valid_sarif(&log);
    let run = &log["runs"][0];
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["id"].as_str().unwrap())
        .collect();
    for rule in [
        "read-only-hint",
        "idempotent-hint",
        "destructive-hint",
        "open-world-hint",
    ] {
        assert!(rules.contains(&rule), "{rules:?}");
    }
    let errors: Vec<(&str, &str)> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|result| result["level"] == "error")
        .map(|result| {
            (
                result["ruleId"].as_str().unwrap(),
                result["locations"][0]["logicalLocations"][0]["name"]
                    .as_str()
                    .unwrap(),
            )
        })
        .collect();
    for lie in [
        ("read-only-hint", "read_config"),
        ("idempotent-hint", "append_log"),
        ("destructive-hint", "save_note"),
    ] {
        assert!(errors.contains(&lie), "{lie:?} not in {errors:?}");
    }
    // No honest tool is accused.
    for (_, tool) in &errors {
        assert!(
            !["list_files", "set_greeting", "add_line"].contains(tool),
            "{tool} accused: {errors:?}"
        );
    }
    let read_config = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| result["ruleId"] == "read-only-hint")
        .unwrap();
    let message = read_config["message"]["text"].as_str().unwrap();
    assert!(
        message.contains("+ touched.txt (file, 4 bytes)"),
        "{message}"
    );
    assert!(message.contains("called with {"), "{message}");
    assert!(read_config["properties"]["arguments"].is_object());
    assert_eq!(
        read_config["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "tests/fixtures/liar_server.rs"
    );
}

/// The audit as SARIF: one result per finding of the JSON report, on the finding's kind.
#[test]
fn the_audit_as_sarif_has_a_result_per_finding_on_its_kind() {
    let server = example("bad_server");
    let server = server.to_str().unwrap();
    for tools in ["", "twins", "malformed"] {
        let env = [("BAD_SERVER_TOOLS", tools)];
        let (status, report) = run(&["audit", "--format", "json", "--", server], &env);
        let report: Value = serde_json::from_str(&report).unwrap();
        let (sarif_status, log) = run(
            &[
                "audit",
                "--format",
                "sarif",
                "--sarif-artifact",
                "src/server.rs",
                "--",
                server,
            ],
            &env,
        );
        // The findings are the log's results, not its status.
        assert_eq!(sarif_status, 0, "{status}");
        let log = valid_sarif(&log);
        let mut expected: Vec<(String, String)> = report["listing"]
            .as_array()
            .unwrap()
            .iter()
            .map(|finding| (finding["kind"].as_str().unwrap().to_owned(), String::new()))
            .collect();
        for tool in report["tools"].as_array().unwrap() {
            for finding in tool["findings"].as_array().unwrap() {
                expected.push((
                    finding["kind"].as_str().unwrap().to_owned(),
                    tool["name"].as_str().unwrap().to_owned(),
                ));
            }
        }
        let found: Vec<(String, String)> = log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|result| {
                (
                    result["ruleId"].as_str().unwrap().to_owned(),
                    result["locations"][0]["logicalLocations"][0]["name"]
                        .as_str()
                        .unwrap_or("")
                        .to_owned(),
                )
            })
            .collect();
        assert_eq!(found, expected, "BAD_SERVER_TOOLS={tools:?}");
        assert!(!found.is_empty(), "BAD_SERVER_TOOLS={tools:?}");
        assert_eq!(
            log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "src/server.rs"
        );
    }
    // Without a file, each result on a tool is placed at the tool by name alone.
    let (_, log) = run(&["audit", "--format", "sarif", "--", server], &[]);
    let log = valid_sarif(&log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty(), "{log}");
    for result in results {
        // The listing's own findings have no place; a tool's is its name.
        if let Some(location) = result["locations"].get(0) {
            assert!(location.get("physicalLocation").is_none(), "{result}");
            assert!(
                location["logicalLocations"][0]["name"].is_string(),
                "{result}"
            );
        }
    }
    assert!(log["runs"][0].get("artifacts").is_none(), "{log}");
}

/// A diff as SARIF and as Markdown: the refused trust change an error, an allowed one a note.
#[test]
fn a_diff_as_sarif_and_markdown() {
    let dir = std::env::temp_dir().join(format!("audit-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let old = json!({"tools": [{"name": "delete_note", "inputSchema": {"type": "object"},
        "annotations": {"destructiveHint": true}}]});
    let mut new = old.clone();
    new["tools"][0]["annotations"]["destructiveHint"] = json!(false);
    let (old_path, new_path) = (dir.join("old.json"), dir.join("new.json"));
    std::fs::write(&old_path, old.to_string()).unwrap();
    std::fs::write(&new_path, new.to_string()).unwrap();
    let (old_arg, new_arg) = (old_path.to_str().unwrap(), new_path.to_str().unwrap());

    // Run where the listings are, as CI runs in the repository: the results are placed in the
    // pinned (old) listing's file, by its path from there.
    let output = Command::new(audit_binary())
        .args(["diff", "--format", "sarif", old_arg, new_arg])
        .current_dir(&dir)
        .output()
        .unwrap();
    // A refused change is a result of the log, not a failing status.
    assert_eq!(output.status.code(), Some(0));
    let log = valid_sarif(&String::from_utf8(output.stdout).unwrap());
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "trust-change");
    assert_eq!(result["level"], "error");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "old.json"
    );
    let (status, log) = run(
        &[
            "diff", "--format", "sarif", "--allow", "trust", old_arg, new_arg,
        ],
        &[],
    );
    assert_eq!(status, 0);
    assert_eq!(valid_sarif(&log)["runs"][0]["results"][0]["level"], "note");

    let (status, comment) = run(&["diff", "--format", "markdown", old_arg, new_arg], &[]);
    assert_eq!(status, 1);
    assert!(
        comment.starts_with("## annotations-audit diff: refused\n"),
        "{comment}"
    );
    assert!(
        comment.contains("| `delete_note` | trust | newly non-destructive |"),
        "{comment}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The audit as a comment: a heading with the verdict, the counts, the table.
#[test]
fn the_audit_as_markdown_leads_with_its_verdict() {
    let (status, comment) = run(
        &[
            "audit",
            "--format",
            "markdown",
            "--",
            example("clean_server").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(status, 0);
    assert!(
        comment.starts_with(
            "## annotations-audit: the audit passes\n\n3 tools, 0 errors, 0 warnings.\n"
        ),
        "{comment}"
    );
    assert!(comment.contains("\n| name | display name |"), "{comment}");
}

/// What a server sends cannot write Markdown into the comment: a listing's problem that quotes
/// a link, emphasis and HTML from the server shows them as text.
#[test]
fn the_comment_escapes_what_the_server_sends() {
    let server = example("bad_server");
    let (status, comment) = run(
        &[
            "audit",
            "--format",
            "markdown",
            "--",
            server.to_str().unwrap(),
        ],
        &[("BAD_SERVER_TOOLS", "injecting")],
    );
    assert_eq!(status, 1, "{comment}");
    assert!(
        comment.contains("click me"),
        "the problem is shown: {comment}"
    );
    for raw in ["[click me](", "**the audit", "<img"] {
        assert!(!comment.contains(raw), "{raw} unescaped: {comment}");
    }
}

/// `--format listing` writes the server's listing as it sent it, which `diff` reads back: the
/// file CI pins.
#[test]
fn the_listing_written_is_the_one_diff_reads() {
    let server = example("clean_server");
    let server = server.to_str().unwrap();
    let (status, listing) = run(&["audit", "--format", "listing", "--", server], &[]);
    assert_eq!(status, 0);
    let listed: Value = serde_json::from_str(&listing).unwrap();
    assert_eq!(listed["tools"].as_array().unwrap().len(), 3, "{listed}");
    let path = std::env::temp_dir().join(format!("audit-listing-{}.json", std::process::id()));
    std::fs::write(&path, &listing).unwrap();
    let (status, changes) = run(&["diff", path.to_str().unwrap(), "--", server], &[]);
    let _ = std::fs::remove_file(&path);
    assert_eq!((status, changes.as_str()), (0, "no changes\n"));
    // The probe and the diff write no listing.
    for args in [
        &["probe", "--format", "listing", "--", server][..],
        &["diff", "--format", "listing", "a", "b"],
    ] {
        assert_eq!(run(args, &[]).0, 2, "{args:?}");
    }
}
