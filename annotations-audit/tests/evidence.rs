//! `probe --evidence FILE` as a host uses it: the file validates against the schema the package
//! ships, reads back through `mcp_annotations::host::Evidence`, and an untrusted server's tool
//! is acted on for exactly the claims the probe verified; a tool whose descriptor changed since
//! falls back to the untrusted reading.

use std::process::Command;

use mcp_annotations::ToolAnnotations;
use mcp_annotations::descriptor::Hint;
use mcp_annotations::host::{Evidence, Trust};
use serde_json::{Value, json};

mod common;

use common::{audit_binary, example, valid_against, valid_report};

#[test]
fn the_evidence_round_trips_and_a_changed_descriptor_falls_back() {
    let server = example("liar_server");
    let server = server.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("audit-evidence-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("evidence.json");
    // The listing a host receives, and the probe of the same server.
    let listing = Command::new(audit_binary())
        .args(["audit", "--format", "listing", "--", server])
        .output()
        .unwrap();
    let listing: Value = serde_json::from_slice(&listing.stdout).unwrap();
    let probe = Command::new(audit_binary())
        .args(["probe", "--format", "json", "--cases", "12", "--evidence"])
        .arg(&file)
        .args(["--", server])
        .output()
        .unwrap();
    assert_eq!(probe.status.code(), Some(4));
    let report: Value = serde_json::from_slice(&probe.stdout).unwrap();
    valid_report(&report);
    let text = std::fs::read_to_string(&file).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let written: Value = serde_json::from_str(&text).unwrap();
    valid_against(&written, "schemas/evidence-v1.json");
    let evidence: Evidence = text.parse().unwrap();
    assert_eq!(evidence.to_json(), written, "read back as written");
    assert!(evidence.probe().starts_with("annotations-audit "));

    let tools = listing["tools"].as_array().unwrap();
    assert_eq!(evidence.tools().len(), tools.len());
    let mut acted_on = 0;
    for listed in tools {
        let name = listed["name"].as_str().unwrap();
        let row = report["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["name"] == name)
            .unwrap();
        assert_eq!(row["digest"], Evidence::digest(listed), "{name}");
        let annotations: ToolAnnotations =
            serde_json::from_value(listed["annotations"].clone()).unwrap_or_default();
        let trust = evidence.trust(listed, Trust::Untrusted);
        let view = annotations.for_host(trust);
        for hint in Hint::ALL {
            let verdict = row["probe"][hint.claim()].as_str().unwrap();
            // A claim the probe verified is acted on; any other reads as its default.
            let expected = if verdict == "verified" {
                hint.trusted_value()
            } else {
                hint.default_value()
            };
            assert_eq!(view.effective(hint), expected, "{name} {hint:?} {verdict}");
            acted_on += usize::from(verdict == "verified");
        }
        // The policy of the notes example: auto-approve only what is verified read-only.
        assert_eq!(
            !view.needs_approval(),
            row["probe"]["readOnly"] == "verified",
            "{name}"
        );
        // The same tool with another description is not the tool probed.
        let mut changed = listed.clone();
        changed["description"] = json!("changed since the probe");
        assert_eq!(evidence.trust(&changed, Trust::Untrusted), Trust::Untrusted);
        assert!(
            annotations
                .for_host(evidence.trust(&changed, Trust::Untrusted))
                .needs_approval()
        );
        // A claim a run saw broken is not acted on, even where the server is trusted.
        let trusted = evidence.trust(listed, Trust::Trusted);
        for hint in Hint::ALL {
            let broken = row["probe"][hint.claim()] == "violated";
            assert_eq!(trusted.acts_on(hint), !broken, "{name} {hint:?}");
        }
    }
    assert!(acted_on >= 3, "some claims verified: {report}");
}

/// A file that is not evidence is a typed error naming what is wrong, never a panic.
#[test]
fn a_file_that_is_not_evidence_says_why() {
    for (text, said) in [
        ("{", "not JSON"),
        (r#"{"reportVersion": 1}"#, "no evidenceVersion"),
        (r#"{"evidenceVersion": 2}"#, "evidenceVersion 2"),
        (
            r#"{"evidenceVersion": 1, "probe": "p", "confinement": "c", "tools": [{"name": "a", "digest": "d", "claims": {"fast": {"verdict": "verified", "calls": 1}}}]}"#,
            "tools[0].claims.fast",
        ),
        (
            r#"{"evidenceVersion": 1, "probe": "p", "confinement": "c", "tools": [{"name": "a", "digest": "d", "claims": {"readOnly": {"verdict": "sure", "calls": 1}}}]}"#,
            "\"sure\" is no verdict",
        ),
    ] {
        let error = text.parse::<Evidence>().unwrap_err().to_string();
        assert!(error.contains(said), "{text}: {error}");
    }
}
