//! The reports users read, held byte for byte: each subcommand's report in each format, on
//! fixture servers whose answers never change, equal to the report saved beside this file
//! (`tests/saved/`). A change to a report's keys, order or wording fails here first; where the
//! change is meant, `ANNOTATIONS_AUDIT_SAVE=1 cargo test -p mcp-annotations-audit --test saved`
//! writes the new reports, to be read in review like any other change.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::{audit_binary, example, valid_report};

/// The folder of the saved reports (and of the listings `diff` reads).
fn saved() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/saved")
}

/// The binary's stdout with `args`, run in the saved folder (so that SARIF's paths are
/// relative to it), and its exit status.
fn run(args: &[&str]) -> (i32, String) {
    let output = Command::new(audit_binary())
        .args(args)
        .current_dir(saved())
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

/// `report` equal to the saved file `name` (written there when `ANNOTATIONS_AUDIT_SAVE` is
/// set), with its exit status saved beside it.
fn holds(name: &str, (status, report): (i32, String)) {
    let path = saved().join(name);
    let text = format!("exit status {status}\n{report}");
    if std::env::var_os("ANNOTATIONS_AUDIT_SAVE").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let kept = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    if kept != text {
        let line = kept
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(kept.lines().count().min(text.lines().count()));
        panic!(
            "{name} differs from the saved report from line {}:\nsaved: {:?}\nnow:   {:?}\n\n{text}",
            line + 1,
            kept.lines().nth(line),
            text.lines().nth(line)
        );
    }
}

#[test]
fn the_audit_reports_stay_as_saved() {
    let server = example("bad_server");
    let server = server.to_str().unwrap();
    for (format, file) in [
        ("json", "audit.json"),
        ("text", "audit.txt"),
        ("markdown", "audit.md"),
        ("listing", "audit.listing.json"),
    ] {
        holds(file, run(&["audit", "--format", format, "--", server]));
    }
    let sarif = ["--format", "sarif", "--sarif-artifact", "src/main.rs"];
    holds(
        "audit.sarif",
        run(&[&["audit"], &sarif[..], &["--", server]].concat()),
    );
}

#[test]
fn the_diff_reports_stay_as_saved() {
    // A clean server's listing against the bad server's, both saved: every class of change.
    let files = ["clean.listing.json", "bad.listing.json"];
    for (format, file) in [
        ("json", "diff.json"),
        ("text", "diff.txt"),
        ("markdown", "diff.md"),
        ("sarif", "diff.sarif"),
    ] {
        holds(
            file,
            run(&[&["diff", "--format", format], &files[..]].concat()),
        );
    }
    let allowed = [
        "diff", "--allow", "breaking", "--allow", "trust", "--format", "json",
    ];
    holds(
        "diff.allowed.json",
        run(&[&allowed[..], &files[..]].concat()),
    );
}

/// The probe's report on the liar fixture, whose verdicts do not depend on timing. What this
/// machine allows (its confinement, network record and what holds each run's bounds) is said
/// in the report in words of its own: those sentences are held apart from the rest, which must
/// match where they do.
#[test]
fn the_probe_reports_stay_as_saved() {
    let server = example("liar_server");
    let server = server.to_str().unwrap();
    let probe = |format: &[&str]| {
        run(&[
            &["probe", "--cases", "12", "--seed", "1"],
            format,
            &["--", server],
        ]
        .concat())
    };
    let (status, json) = probe(&["--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let said = |key: &str| report[key].as_str().unwrap().to_owned();
    let (confinement, network, limits) = (said("confinement"), said("network"), said("limits"));
    if !confinement.contains("namespace") || !network.contains("recorded") {
        eprintln!(
            "NOT CHECKED: the saved probe reports were made confined in namespaces with strace \
             recording; this machine says: {confinement}; {network}"
        );
        return;
    }
    let masked = |text: String| {
        text.replace(&confinement, "{confinement}")
            .replace(&network, "{network}")
            .replace(&limits, "{limits}")
    };
    holds("probe.json", (status, masked(json)));
    for (format, file) in [("text", "probe.txt"), ("markdown", "probe.md")] {
        let (status, text) = probe(&["--format", format]);
        holds(file, (status, masked(text)));
    }
    let (status, sarif) = probe(&["--format", "sarif", "--sarif-artifact", "src/main.rs"]);
    holds("probe.sarif", (status, masked(sarif)));
}

/// Every saved JSON report is valid against the schema of its version, and the schema is able
/// to refuse: a report without its version, or with a verdict it does not know, is not.
#[test]
fn the_saved_reports_are_valid_against_the_schema_of_their_version() {
    for file in ["audit.json", "diff.json", "diff.allowed.json", "probe.json"] {
        let text = std::fs::read_to_string(saved().join(file)).unwrap();
        let (_, json) = text
            .split_once('\n')
            .expect("the status line, then the report");
        valid_report(&serde_json::from_str(json).unwrap());
    }
    let text = std::fs::read_to_string(saved().join("probe.json")).unwrap();
    let (_, json) = text.split_once('\n').unwrap();
    let mut report: serde_json::Value = serde_json::from_str(json).unwrap();
    report["tools"][0]["probe"]["readOnly"] = "proven".into();
    let refused = std::panic::catch_unwind(|| valid_report(&report));
    assert!(refused.is_err(), "a verdict the schema does not know");
    report["tools"][0]["probe"]["readOnly"] = "violated".into();
    report["tools"][0]["surprise"] = true.into();
    assert!(
        std::panic::catch_unwind(|| valid_report(&report)).is_err(),
        "an undescribed key"
    );
}
