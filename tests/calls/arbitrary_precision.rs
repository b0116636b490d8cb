//! Integers past 64 bits, read exactly when serde_json keeps every number's text: the tests in
//! `tests/arbitrary-precision/`, a package of its own with serde_json's `arbitrary_precision`
//! on (cargo unifies features across a build, so turning it on here would change every other
//! test's build). Run from here so that `cargo test --workspace` runs them too.

use std::process::Command;

#[test]
fn integers_past_64_bits_are_exact_with_serde_jsons_arbitrary_precision() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["test", "--quiet", "--manifest-path"])
        .arg(format!("{root}/tests/arbitrary-precision/Cargo.toml"))
        .arg("--target-dir")
        .arg(format!("{root}/target/arbitrary-precision"))
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Whatever the count, every test there ran and none failed.
    assert!(stdout.contains("test result: ok."), "{stdout}");
    assert!(stdout.contains(" 0 failed"), "{stdout}");
}
