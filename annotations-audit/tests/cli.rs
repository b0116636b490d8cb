//! The command line as its users meet it, run on the binary the package installs: every
//! subcommand and its help, `--version`, completions, options in any order, a misspelled
//! option, the spellings of earlier releases, and the exit statuses (0 clean, 1 findings, 2
//! could not run).

use std::process::{Command, Output};

use serde_json::Value;

mod common;

use common::{audit_binary, example};

fn run(args: &[&str]) -> Output {
    Command::new(audit_binary()).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn version_and_help_answer_with_status_0() {
    let output = run(&["--version"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        text(&output.stdout).trim(),
        format!("annotations-audit {}", env!("CARGO_PKG_VERSION"))
    );
    let help = text(&run(&["--help"]).stdout);
    for word in ["audit", "probe", "diff", "completions", "Exit status:"] {
        assert!(help.contains(word), "{word} missing from\n{help}");
    }
    // Each subcommand's help has its examples and the exit statuses.
    for (subcommand, example) in [
        ("audit", "annotations-audit audit -- npx"),
        ("probe", "annotations-audit probe -- node server.js"),
        ("diff", "annotations-audit diff pinned.json new.json"),
    ] {
        let output = run(&[subcommand, "--help"]);
        assert_eq!(output.status.code(), Some(0));
        let help = text(&output.stdout);
        assert!(help.contains(example), "{help}");
        assert!(help.contains("3  could not run"), "{help}");
    }
}

#[test]
fn a_misspelled_option_is_refused_with_a_suggestion_and_status_2() {
    let output = run(&["audit", "--timout", "5", "--", "true"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("--timout"), "{stderr}");
    assert!(stderr.contains("--timeout"), "no suggestion: {stderr}");
    // An unknown format, a value that is not a number, a missing server: each refused.
    for args in [
        &["audit", "--format", "yaml", "--", "true"][..],
        &["probe", "--cases", "many", "--", "true"],
        &["audit"],
        &["diff", "old.json"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn completions_are_printed_for_each_shell() {
    for (shell, mark) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef annotations-audit"),
        ("fish", "complete -c annotations-audit"),
    ] {
        let output = run(&["completions", shell]);
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = text(&output.stdout);
        assert!(script.contains(mark), "{shell}: {script}");
        // The subcommands and their options are completed.
        assert!(
            script.contains("probe") && script.contains("probe-timeout"),
            "{shell}"
        );
    }
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(2));
}

/// The exit statuses, each its own and each from a real case: a clean server 0, a bad one 1,
/// a bad command line or settings file 2, a server that cannot start 3, a lying one probed 4;
/// with `--format sarif` the findings and violations are the log's, and the status 0.
#[test]
fn the_exit_status_says_clean_findings_usage_could_not_run_or_violations() {
    let clean = example("clean_server");
    let bad = example("bad_server");
    let liar = example("liar_server");
    let output = run(&["audit", "--", clean.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let output = run(&["audit", "--", bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let output = run(&["audit", "--timeout", "soon", "--", clean.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    let missing = std::env::temp_dir().join(format!("no-settings-{}.toml", std::process::id()));
    let output = run(&[
        "audit",
        "--config",
        missing.to_str().unwrap(),
        "--",
        clean.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("settings file"));
    // An endpoint or a header that cannot be used is the command line's too, said before any
    // connection.
    for args in [
        &["audit", "--http", "notaurl"][..],
        &["audit", "--http", "ftp://example.com/mcp"],
        &[
            "diff",
            "old.json",
            "--http",
            "https://example.com/mcp",
            "--header",
            "a(b: x",
        ],
    ] {
        let output = run(args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&output.stderr)
        );
        assert!(
            text(&output.stderr).contains("--h"),
            "{}",
            text(&output.stderr)
        );
    }
    let output = run(&["audit", "--", "/nonexistent/server"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(text(&output.stderr).contains("/nonexistent/server"));
    let output = run(&["probe", "--cases", "4", "--", liar.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(4), "{}", text(&output.stderr));
    for args in [
        &["audit", "--format", "sarif", "--", bad.to_str().unwrap()][..],
        &[
            "probe",
            "--format",
            "sarif",
            "--cases",
            "4",
            "--",
            liar.to_str().unwrap(),
        ],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        let log: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(
            log["runs"][0]["results"]
                .as_array()
                .unwrap()
                .iter()
                .any(|result| result["level"] == "error"),
            "{args:?}: {log}"
        );
    }
    // The table is every subcommand's help's.
    let help = text(&run(&["probe", "--help"]).stdout);
    assert!(
        help.contains("4  violations") && help.contains("3  could not run"),
        "{help}"
    );
}

/// Options before the server, after the subcommand, in any order, give the same report; the
/// server's own arguments are its own even when they look like the audit's.
#[test]
fn options_come_in_any_order() {
    let clean = example("clean_server");
    let clean = clean.to_str().unwrap();
    let reports: Vec<Value> = [
        &["audit", "--format", "json", "--timeout", "20", "--", clean][..],
        &["audit", "--timeout", "20", "--format", "json", clean],
        &["audit", "--timeout=20", "--format=json", "--", clean],
    ]
    .iter()
    .map(|args| {
        let output = run(args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).unwrap()
    })
    .collect();
    assert_eq!(reports[0], reports[1]);
    assert_eq!(reports[0], reports[2]);
    // `--format` after the server's command is the server's: the audit prints its table.
    let output = run(&["audit", clean, "--format", "json"]);
    assert!(
        text(&output.stdout).starts_with("| name |"),
        "{}",
        text(&output.stdout)
    );
}

/// The diff's files may come before or after its options; the reported failure of earlier
/// releases (`--diff --format json OLD NEW`, the files taken for options) is gone.
#[test]
fn the_diff_reads_its_files_wherever_they_are() {
    let dir = std::env::temp_dir().join(format!("audit-cli-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let listing = dir.join("tools.json");
    std::fs::write(&listing, r#"{"tools": []}"#).unwrap();
    let path = listing.to_str().unwrap();
    for args in [
        &["diff", "--format", "json", path, path][..],
        &["diff", path, "--format", "json", path],
        &[
            "diff",
            path,
            path,
            "--format",
            "json",
            "--allow",
            "breaking,trust",
        ],
    ] {
        let output = run(args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&output.stderr)
        );
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["changes"], serde_json::json!([]), "{args:?}");
    }
    // A class --allow does not know is refused, naming the ones it does.
    let output = run(&["diff", path, path, "--allow", "everything"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("breaking"),
        "{}",
        text(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the README and scripts of earlier releases wrote keeps working: the bare form is the
/// audit, and `--probe` and `--diff` run their subcommands with a note naming the new spelling.
#[test]
fn earlier_spellings_keep_working_and_name_the_new_one() {
    let clean = example("clean_server");
    let clean = clean.to_str().unwrap();
    let output = run(&["--format", "json", "--", clean]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["tools"].as_array().unwrap().len(), 3);

    let dir = std::env::temp_dir().join(format!("audit-cli-old-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let listing = dir.join("tools.json");
    std::fs::write(&listing, r#"{"tools": []}"#).unwrap();
    let path = listing.to_str().unwrap();
    let output = run(&["--format", "json", "--diff", path, path]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains("`annotations-audit diff`"),
        "{}",
        text(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `explain ID` prints a rule's page, how to fix the server and how to ignore it; a verdict's
/// page has nothing to ignore; an unknown id is refused with the known ones; without an id,
/// every rule and verdict is listed. Every rule a SARIF log names has a page.
#[test]
fn explain_prints_each_rules_page() {
    let output = run(&["explain", "read-only-hint"]);
    assert_eq!(output.status.code(), Some(0));
    let page = text(&output.stdout);
    assert!(
        page.starts_with("read-only-hint\n\n**Probe, error.**"),
        "{page}"
    );
    assert!(
        page.contains("Fix:") && page.contains("rule = \"read-only-hint\""),
        "{page}"
    );
    let verdict = text(&run(&["explain", "unexercised"]).stdout);
    assert!(verdict.contains("no call judged it") && !verdict.contains("[[ignore]]"));
    let unknown = run(&["explain", "readonly"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("read-only-hint"));
    let listed = text(&run(&["explain"]).stdout);
    let server = example("bad_server");
    for tools in ["", "twins", "malformed"] {
        let output = Command::new(audit_binary())
            .args(["audit", "--format", "sarif", "--", server.to_str().unwrap()])
            .env("BAD_SERVER_TOOLS", tools)
            .output()
            .unwrap();
        let log: Value = serde_json::from_slice(&output.stdout).unwrap();
        for rule in log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
        {
            let id = rule["id"].as_str().unwrap();
            assert!(
                listed.contains(&format!("  {id} ")),
                "{id} not in\n{listed}"
            );
            assert_eq!(run(&["explain", id]).status.code(), Some(0), "{id}");
        }
    }
}
