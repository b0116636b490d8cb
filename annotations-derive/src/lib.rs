//! The `#[tool]` attribute for the [`annotations`](https://docs.rs/annotations) crate.
#![forbid(unsafe_code)]
