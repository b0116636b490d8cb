//! What a tool says of itself and what a host reads: the meaning of the hints, their wire form,
//! a host's decisions, lossless interop with rmcp's annotations, and conformance of everything
//! written with the official MCP schemas.
//!
//! One test binary of several modules, so that tokio, rmcp and the JSON Schema validator are
//! linked once for all of them.

pub mod conformance;
pub mod host;
pub mod per_call;
pub mod resolution;
pub mod rmcp_interop;
pub mod semantics;
pub mod wire;
