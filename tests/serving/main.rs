//! Serving through rmcp to real clients: `ListingServer`, the listing as rmcp's router, rmcp's
//! own macros under `#[mcp_annotations::tool]`, and the conformance example driven by rmcp's
//! client. (The notes example's tests are its own package's; the audit's, the audit's.)
//!
//! One test binary of several modules, so that tokio, rmcp and the JSON Schema validator are
//! linked once for all of them.

pub mod conformance_example;
pub mod rmcp_filter;
pub mod rmcp_listing_server;
pub mod rmcp_resolve;
pub mod rmcp_router;
pub mod rmcp_serve;
pub mod rmcp_stacked;
pub mod rmcp_versions;
