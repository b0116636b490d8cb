//! The rules of MCP tool descriptors that [`mcp-annotations`](https://docs.rs/mcp-annotations)
//! checks when a value is made or read, and `mcp-annotations-derive` checks while compiling,
//! written once so that what one accepts the other never refuses.
//!
//! The four hints are one list here ([`Hint`]), which every package walks.
//!
//! Use `mcp-annotations`; this crate is what both of its halves depend on. Everything here is
//! std alone, and the name and MIME rules are `const fn`s, so they also run in constants.
//!
//! ```
//! use mcp_annotations_rules::{http, mime, name};
//!
//! assert!(name::is_valid_tool_name("admin.tools.list"));
//! assert_eq!(
//!     name::tool_name_problem("list notes").as_deref(),
//!     Some("' ' is not allowed; a tool name is 1 to 128 characters of A-Z a-z 0-9 _ - .")
//! );
//! assert!(mime::is_icon_mime_type("image/svg+xml"));
//! let put = http::preset("put").unwrap();
//! assert!(put.destructive && put.idempotent && !put.read_only);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod claims;
mod hint;
pub mod http;
pub mod mime;
pub mod name;
pub mod pattern;

pub use hint::{ByHint, Hint};
