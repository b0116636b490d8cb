//! The second stage: the rules across keys and against types, on the model read by `model/`.
//! The hints against each other, against an `http` preset and against `&mut` (`hints`); a
//! `#[schema(...)]` against its type, one function a rule (`schema`); the descriptor's inputs:
//! names, fixed types, serde's keys on a struct's fields (`descriptor`); a derive's fields as
//! serde reads them (`fields`). What the literals decide is an error now; what depends on a
//! `const` expression becomes a const assertion for the expansion. A check reports what it
//! finds and makes nothing of the model: the front ends read, check, then apply. Nothing here
//! imports the code generation.

pub(crate) mod descriptor;
pub(crate) mod fields;
pub(crate) mod hints;
pub(crate) mod resolution;
pub(crate) mod schema;
