//! Compile-fail tests of the macros: each file under `tests/ui/` is one mistake, and its
//! `.stderr` is the exact error a user sees, with the caret on the offending token. The folders
//! are the macros (`tool/`, one folder a kind of mistake; `schema/`, `derive-tool/`,
//! `derive-tool-schema/`, `tools/`) and `crate-path/`, the `crate = path` option of all of them.
//!
//! The `.stderr` files are written for one compiler release, [`WRITTEN_FOR`] (rustc's rendering
//! changes between releases); on another, the test says so loudly and compares nothing. After
//! a deliberate change, or a move to a new stable release, regenerate them with
//! `TRYBUILD=overwrite cargo test --test macros ui` and review every diff by eye.

/// The compiler the `.stderr` files were written for: `rustc -V`'s release (major.minor).
const WRITTEN_FOR: &str = "1.95";

#[test]
fn ui() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = std::process::Command::new(rustc)
        .arg("-V")
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
        .unwrap_or_default();
    // `rustc 1.95.0 (...)`: the release, without its patch number.
    let release: String = version
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .splitn(3, '.')
        .take(2)
        .collect::<Vec<_>>()
        .join(".");
    if release != WRITTEN_FOR {
        eprintln!(
            "NOT CHECKED: the UI tests' .stderr files are written for rustc {WRITTEN_FOR}, and this \
             is {}: rustc's rendering changes between releases, so they are not compared here",
            version.trim()
        );
        return;
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*/*.rs");
    cases.compile_fail("tests/ui/tool/*/*.rs");
}
