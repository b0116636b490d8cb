//! `[[ignore]]` entries, as a CI pipeline keeps them beside its workflow: what an entry names
//! stays in the report, marked with its reason (SARIF: a suppression), and no longer fails the
//! run; an entry without a reason is refused by its number, one that matched nothing is
//! warned about, and `--no-ignores` runs as if there were none.

use std::process::Output;

use serde_json::{Value, json};

mod common;

use common::{Folder, example, run_in as run, tool, valid_report};

/// The JSON report of `output`, valid against the schema of its version.
fn json_of(output: &Output) -> Value {
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    valid_report(&report);
    report
}

/// Each error finding of the bad server, by tool and rule.
fn errors(report: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for tool in report["tools"].as_array().unwrap() {
        for finding in tool["findings"].as_array().unwrap() {
            if finding["severity"] == "error" && finding.get("ignored").is_none() {
                found.push((
                    tool["name"].as_str().unwrap().to_owned(),
                    finding["kind"].as_str().unwrap().to_owned(),
                ));
            }
        }
    }
    found
}

#[test]
fn an_audits_ignored_errors_stay_in_the_report_and_fail_nothing() {
    let folder = Folder::new("audit");
    let server = example("bad_server");
    let server = server.to_str().unwrap();
    let audit = |options: &[&str]| {
        let mut args = vec!["audit", "--format", "json"];
        args.extend_from_slice(options);
        args.extend(["--", server]);
        run(&folder.0, &args)
    };
    let plain = audit(&[]);
    assert_eq!(plain.status.code(), Some(1));
    let failing = errors(&json_of(&plain));
    assert!(!failing.is_empty());
    // One entry per failing finding, each with its reason, and one that matches nothing.
    let mut settings = String::new();
    for (tool, rule) in &failing {
        settings.push_str(&format!(
            "[[ignore]]\ntool = {tool:?}\nrule = {rule:?}\nreason = \"kept on purpose: {tool}\"\n\n"
        ));
    }
    settings.push_str("[[ignore]]\ntool = \"gone\"\nrule = \"no-title\"\nreason = \"old\"\n");
    folder.write(".annotations-audit.toml", &settings);

    let ignoring = audit(&[]);
    assert_eq!(
        ignoring.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ignoring.stderr)
    );
    let report = json_of(&ignoring);
    assert!(errors(&report).is_empty(), "{report}");
    for (name, rule) in &failing {
        let row = report["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["name"] == name.as_str())
            .unwrap();
        let marked = row["findings"].as_array().unwrap().iter().any(|f| {
            f["kind"] == rule.as_str() && f["ignored"] == json!(format!("kept on purpose: {name}"))
        });
        assert!(marked, "{row}");
    }
    let stderr = String::from_utf8_lossy(&ignoring.stderr);
    let unused = format!(
        "entry {} (tool = \"gone\", rule = \"no-title\") matched nothing",
        failing.len() + 1
    );
    assert!(stderr.contains(&unused), "{stderr}");

    // SARIF: each ignored result carries its reason as a suppression.
    let sarif = audit(&["--format", "sarif"]);
    let log: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let suppressed = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|result| result["suppressions"][0]["kind"] == "external")
        .count();
    assert_eq!(suppressed, failing.len(), "{log}");

    // The table says it too, and --no-ignores runs as if there were none.
    let table = audit(&["--format", "text"]);
    assert!(String::from_utf8_lossy(&table.stdout).contains("(ignored: kept on purpose"));
    assert_eq!(audit(&["--no-ignores"]).status.code(), Some(1));
    // The same file named with --config, from elsewhere.
    let moved = folder.write("ci.toml", &settings);
    std::fs::remove_file(folder.0.join(".annotations-audit.toml")).unwrap();
    assert_eq!(audit(&[]).status.code(), Some(1));
    assert_eq!(
        audit(&["--config", moved.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

#[test]
fn an_entry_without_a_reason_is_refused_by_its_number() {
    let folder = Folder::new("refused");
    let server = example("clean_server");
    let settings = folder.write(
        "settings.toml",
        "[[ignore]]\nrule = \"no-title\"\nreason = \"shown by name\"\n\n[[ignore]]\ntool = \"x\"\nrule = \"unset-hint\"\n",
    );
    let output = run(
        &folder.0,
        &[
            "audit",
            "--config",
            settings.to_str().unwrap(),
            "--",
            server.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("[[ignore]] entry 2 has no reason"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
    // A settings file named that is not there is refused too, not taken as empty.
    let missing = folder.0.join("missing.toml");
    let output = run(
        &folder.0,
        &[
            "audit",
            "--config",
            missing.to_str().unwrap(),
            "--",
            server.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_diffs_ignored_trust_change_is_allowed_with_its_reason() {
    let folder = Folder::new("diff");
    let old = json!({"tools": [{"name": "delete_note", "inputSchema": {"type": "object"},
        "annotations": {"destructiveHint": true}}]});
    let mut new = old.clone();
    new["tools"][0]["annotations"]["destructiveHint"] = json!(false);
    folder.write("old.json", &old.to_string());
    folder.write("new.json", &new.to_string());
    let diff = || {
        run(
            &folder.0,
            &["diff", "--format", "json", "old.json", "new.json"],
        )
    };
    assert_eq!(diff().status.code(), Some(1));
    folder.write(
        ".annotations-audit.toml",
        "[[ignore]]\ntool = \"delete_note\"\nrule = \"trust-change\"\nreason = \"it only archives now\"\n",
    );
    let output = diff();
    assert_eq!(output.status.code(), Some(0));
    let report = json_of(&output);
    assert_eq!(
        report["changes"][0]["ignored"], "it only archives now",
        "{report}"
    );
}

#[test]
fn a_probes_ignored_violations_fail_nothing() {
    let folder = Folder::new("probe");
    folder.write(
        ".annotations-audit.toml",
        "[[ignore]]\ntool = \"read_config\"\nhint = \"readOnly\"\nreason = \"touches its own cache\"\n\n\
         [[ignore]]\ntool = \"append_log\"\nrule = \"idempotent-hint\"\nreason = \"a log\"\n\n\
         [[ignore]]\ntool = \"save_note\"\nhint = \"nonDestructive\"\nreason = \"overwrites its draft\"\n\n\
         [[ignore]]\ntool = \"lookup_price\"\nrule = \"open-world-hint\"\nreason = \"a price feed\"\n\n\
         [[ignore]]\ntool = \"journal\"\nhint = \"readOnly\"\nreason = \"its reads log\"\n\n\
         [[ignore]]\ntool = \"journal\"\nhint = \"idempotent\"\nreason = \"its reads log\"\n",
    );
    let server = example("liar_server");
    let output = run(
        &folder.0,
        &[
            "probe",
            "--format",
            "json",
            "--cases",
            "12",
            "--",
            server.to_str().unwrap(),
        ],
    );
    let report = json_of(&output);
    assert_eq!(output.status.code(), Some(0), "{report}");
    assert_eq!(
        tool(&report, "read_config")["probe"]["readOnly"],
        "violated"
    );
    assert_eq!(
        tool(&report, "read_config")["ignored"],
        json!({"readOnly": "touches its own cache"})
    );
    assert_eq!(
        tool(&report, "append_log")["ignored"],
        json!({"idempotent": "a log"})
    );
    assert_eq!(
        tool(&report, "save_note")["ignored"],
        json!({"nonDestructive": "overwrites its draft"})
    );
    // A resolution's violated claims are ignored as the listing's are.
    assert_eq!(
        tool(&report, "journal")["resolution"]["readOnly"],
        "violated"
    );
    assert_eq!(
        tool(&report, "journal")["ignored"],
        json!({"readOnly": "its reads log", "idempotent": "its reads log"})
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("matched nothing"), "{stderr}");
    // Without the last entry, what it covered fails the probe again.
    let settings = std::fs::read_to_string(folder.0.join(".annotations-audit.toml")).unwrap();
    let (fewer, _) = settings.rsplit_once("[[ignore]]").unwrap();
    folder.write(".annotations-audit.toml", fewer);
    let output = run(
        &folder.0,
        &[
            "probe",
            "--format",
            "json",
            "--cases",
            "12",
            "--",
            server.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(4));
    assert_eq!(
        tool(&json_of(&output), "journal")["ignored"],
        json!({"readOnly": "its reads log"})
    );
}

/// `--baseline REPORT`: what an earlier report had fails nothing, a finding beyond it does,
/// and what it had that is gone is said; keyed by tool, rule and hint, not by order.
#[test]
fn a_baseline_fails_only_on_what_is_new() {
    let folder = Folder::new("baseline");
    let server = example("bad_server");
    let server = server.to_str().unwrap();
    let audit = |options: &[&str]| {
        let mut args = vec!["audit", "--format", "json"];
        args.extend_from_slice(options);
        args.extend(["--", server]);
        run(&folder.0, &args)
    };
    let first = audit(&[]);
    assert_eq!(first.status.code(), Some(1));
    let mut baseline = json_of(&first);
    folder.write("audit.json", &baseline.to_string());
    let known = audit(&["--baseline", "audit.json"]);
    assert_eq!(known.status.code(), Some(0));
    let report = json_of(&known);
    assert!(errors(&report).is_empty(), "{report}");
    assert!(report.to_string().contains("in the baseline audit.json"));
    // The tools in another order, one error finding taken out of the baseline (so it is new
    // now), and one the server no longer has.
    let tools = baseline["tools"].as_array_mut().unwrap();
    tools.reverse();
    let (tool, kind) = errors(&json_of(&first))[0].clone();
    let row = tools
        .iter_mut()
        .find(|row| row["name"] == tool.as_str())
        .unwrap();
    let findings = row["findings"].as_array_mut().unwrap();
    let at = findings
        .iter()
        .position(|f| f["kind"] == kind.as_str())
        .unwrap();
    findings.remove(at);
    findings.push(json!({"kind": "no-title", "severity": "warning", "message": "no title"}));
    tools.push(json!({"name": "retired", "findings": [
        {"kind": "unset-hint", "severity": "warning", "message": "`openWorldHint` unset"}]}));
    folder.write("edited.json", &baseline.to_string());
    let planted = audit(&["--baseline", "edited.json"]);
    assert_eq!(planted.status.code(), Some(1));
    assert_eq!(errors(&json_of(&planted)), [(tool.clone(), kind)]);
    let stderr = String::from_utf8_lossy(&planted.stderr);
    assert!(
        stderr.contains("gone since the baseline: tool = \"retired\", hint = \"closedWorld\", rule = \"unset-hint\""),
        "{stderr}"
    );

    // The same for a diff.
    let old = json!({"tools": [{"name": "delete_note", "inputSchema": {"type": "object"},
        "annotations": {"destructiveHint": true}}]});
    let mut new = old.clone();
    new["tools"][0]["annotations"]["destructiveHint"] = json!(false);
    folder.write("old.json", &old.to_string());
    folder.write("new.json", &new.to_string());
    let diff = |options: &[&str]| {
        let mut args = vec!["diff", "--format", "json"];
        args.extend_from_slice(options);
        args.extend(["old.json", "new.json"]);
        run(&folder.0, &args)
    };
    let first = diff(&[]);
    assert_eq!(first.status.code(), Some(1));
    folder.write("diff.json", &String::from_utf8_lossy(&first.stdout));
    assert_eq!(diff(&["--baseline", "diff.json"]).status.code(), Some(0));

    // A file that is not a report of the subcommand is refused, not taken as empty.
    for wrong in ["old.json", "audit.json", "missing.json"] {
        let output = diff(&["--baseline", wrong]);
        assert_eq!(output.status.code(), Some(2), "{wrong}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(wrong) && stderr.contains("baseline"),
            "{stderr}"
        );
    }
}

/// A probe against a baseline with a violation taken out: that violation, planted back by the
/// server, is the only thing that fails it.
#[test]
fn a_probe_baseline_fails_on_a_planted_violation() {
    let folder = Folder::new("probe-baseline");
    let server = example("liar_server");
    let probe = |options: &[&str]| {
        let mut args = vec!["probe", "--format", "json", "--cases", "12", "--seed", "1"];
        args.extend_from_slice(options);
        args.extend(["--", server.to_str().unwrap()]);
        run(&folder.0, &args)
    };
    let first = probe(&[]);
    assert_eq!(first.status.code(), Some(4));
    let mut baseline = json_of(&first);
    let tools = baseline["tools"].as_array_mut().unwrap();
    let row = tools
        .iter_mut()
        .find(|row| row["name"] == "read_config")
        .unwrap();
    row["probe"]["readOnly"] = json!("verified");
    folder.write("probe.json", &baseline.to_string());
    let planted = probe(&["--baseline", "probe.json"]);
    let report = json_of(&planted);
    assert_eq!(planted.status.code(), Some(4), "{report}");
    assert_eq!(
        tool(&report, "read_config").get("ignored"),
        None,
        "{report}"
    );
    for name in ["append_log", "save_note", "lookup_price", "journal"] {
        let ignored = tool(&report, name)["ignored"].as_object().unwrap();
        assert!(
            ignored
                .values()
                .all(|why| why == "in the baseline probe.json"),
            "{report}"
        );
    }
}

/// A probe's call problems that are warnings (the server exited during the call) are marked by
/// an entry naming `call-problem`, as an audit's warnings are: the entry is used, not warned
/// about as matching nothing; what the calls violated still fails the probe.
#[test]
fn a_probes_warning_call_problems_are_marked_by_their_entry() {
    let folder = Folder::new("call-problem");
    let server = example("crash_server");
    folder.write(
        ".annotations-audit.toml",
        "[[ignore]]\ntool = \"compact_state\"\nrule = \"call-problem\"\nreason = \"it restarts by design\"\n",
    );
    let output = run(
        &folder.0,
        &[
            "probe",
            "--format",
            "json",
            "--cases",
            "2",
            "--timeout",
            "10",
            "--",
            server.to_str().unwrap(),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(4), "{stderr}");
    assert!(!stderr.contains("matched nothing"), "{stderr}");
    let report = json_of(&output);
    let problems = |name: &str| -> Vec<Value> {
        tool(&report, name)["notes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|note| note.get("hint").is_none() && note.get("problem").is_some())
            .cloned()
            .collect()
    };
    let marked = problems("compact_state");
    assert!(!marked.is_empty(), "{report}");
    for note in marked {
        assert_eq!(note["ignored"], "it restarts by design", "{note}");
    }
    for note in problems("tidy_up") {
        assert!(note.get("ignored").is_none(), "{note}");
    }
}
