//! Serving through rmcp to real clients: `ListingServer`, the listing as rmcp's router, rmcp's
//! own macros under `#[annotations::tool]`, the conformance and notes examples driven by rmcp's
//! client, and the audit example.
//!
//! One test binary of several modules, so that tokio, rmcp and the JSON Schema validator are
//! linked once for all of them.

pub mod audit;
pub mod conformance_example;
pub mod notes_e2e;
pub mod probe;
pub mod rmcp_filter;
pub mod rmcp_listing_server;
pub mod rmcp_router;
pub mod rmcp_serve;
pub mod rmcp_stacked;
