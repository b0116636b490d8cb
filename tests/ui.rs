//! Compile-fail tests of `#[tool]`: each file under `tests/ui/` is one mistake, and its
//! `.stderr` is the exact error a user sees, with the caret on the offending token.
//!
//! The `.stderr` files are written for the installed stable compiler (rustc's rendering changes
//! between releases). After a deliberate change, regenerate them with
//! `TRYBUILD=overwrite cargo test --test ui` and review every diff by eye.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*/*.rs");
}
