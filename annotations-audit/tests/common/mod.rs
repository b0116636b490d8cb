//! What the audit's tests share: the binary under test and the fixture servers.

/// A fixture server (an example of this package), built by `cargo test` beside the test
/// binaries.
#[allow(dead_code)] // not every test binary starts a fixture server
pub fn example(name: &str) -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe
        .parent()
        .expect("the test binary is in target/<profile>/deps");
    let dir = deps.parent().expect("target/<profile>");
    let binary = dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "the fixture server {} is missing: cargo test builds it",
        binary.display()
    );
    binary
}

/// The `annotations-audit` binary itself.
pub fn audit_binary() -> &'static str {
    env!("CARGO_BIN_EXE_annotations-audit")
}

/// A probe report's verdicts on read-only, idempotent and non-destructive, tool by tool, in
/// the order listed.
#[allow(dead_code)] // the probe's tests read verdicts, the others do not
pub fn verdicts(report: &serde_json::Value) -> Vec<(String, [String; 3])> {
    report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            let word = |hint: &str| tool["probe"][hint].as_str().unwrap().to_owned();
            (
                tool["name"].as_str().unwrap().to_owned(),
                [word("readOnly"), word("idempotent"), word("nonDestructive")],
            )
        })
        .collect()
}
