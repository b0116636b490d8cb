//! Listings and calls: `tools![...]` rendered for each protocol version, the call path at its
//! edges, arguments read by the rules their schemas state, every kind of result, a port of the
//! official memory server, and integers past 64 bits.
//!
//! One test binary of several modules, so that tokio, rmcp and the JSON Schema validator are
//! linked once for all of them.

pub mod arbitrary_precision;
pub mod arguments;
pub mod calls;
pub mod context;
pub mod filter;
pub mod github_port;
pub mod listing;
pub mod memory_port;
pub mod results;
