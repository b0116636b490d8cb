//! Compile-fail tests of the macros: each file under `tests/ui/` is one mistake, and its
//! `.stderr` is the exact error a user sees, with the caret on the offending token. The folders
//! are the macros (`tool/`, one folder a kind of mistake; `schema/`, `derive-tool/`,
//! `derive-tool-schema/`, `tools/`) and `crate-path/`, the `crate = path` option of all of them.
//!
//! The `.stderr` files are written for the installed stable compiler (rustc's rendering changes
//! between releases). After a deliberate change, regenerate them with
//! `TRYBUILD=overwrite cargo test --test macros ui` and review every diff by eye.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*/*.rs");
    cases.compile_fail("tests/ui/tool/*/*.rs");
}
