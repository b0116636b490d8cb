//! The bridge to rmcp, the official Rust SDK, behind the `rmcp` feature: lossless conversions of
//! [`annotations`], descriptors ([`tool`]), [`listing`]s and pages, and [`result`]s; rmcp's
//! request [`context`] for `#[context]` parameters; and a listing as rmcp's [`router`].

mod annotations;
mod context;
mod listing;
mod result;
mod router;
mod tool;
