//! State, check and read what an MCP tool does to the world.
//!
//! The [Model Context Protocol](https://modelcontextprotocol.io) lets a server offer tools to
//! a model, each with optional *annotations*: a display title and four hints (`readOnlyHint`,
//! `destructiveHint`, `idempotentHint`, `openWorldHint`). Hosts read the hints to decide
//! whether to ask the user before a call, which calls may run side by side, and what a
//! read-only plan mode allows.
//!
//! This crate gives tool authors and hosts one type for them, [`ToolAnnotations`]:
//!
//! - exact on the wire: serde reads and writes the protocol's spelling, leaves unset hints
//!   out, and rejects a mistyped hint with an error that names it;
//! - `const` to build, with [presets](ToolAnnotations::LOOKUP) and
//!   [HTTP method mappings](ToolAnnotations::from_http_method);
//! - accessors that apply the protocol's defaults (unset means not read-only, destructive,
//!   not idempotent, open world) and the implications of a read-only tool;
//! - [`check`](ToolAnnotations::check), an author's lint for hints that say the opposite of
//!   what a read-only tool does, at compile time for constants;
//! - for hosts, [`for_host`](ToolAnnotations::for_host) with a [`Trust`], so hints from a
//!   server the host does not trust are never acted on.
//!
//! And for servers, the rest of what a host sees:
//!
//! - [`Tool`](struct@Tool), the protocol's tool descriptor, which [`#[tool]`](macro@tool) writes beside each
//!   handler with its name checked, its description from the doc comment and its input schema
//!   from the parameters (at compile time for the types it knows, through [`ToolSchema`] for
//!   the others), and [`#[derive(Tool)]`](derive@Tool) writes for a struct whose fields are the
//!   inputs;
//! - [`Listing`], built by [`tools!`], which renders the `tools/list` result of each
//!   [`ProtocolVersion`], page by page, and a Markdown table of the tools, and
//!   [calls](Listing::call) them: arguments read by the rules their schema states, results
//!   ([`ToolResult`]) from what the handlers return ([`IntoToolResult`], [`Json`], [`Text`]),
//!   bad arguments and panics as failed results the model can act on.
//!
//! ```
//! use mcp_annotations::{ToolAnnotations, Trust};
//!
//! // A tool author states the hints once, as a constant.
//! const DELETE_NOTE: ToolAnnotations = ToolAnnotations::new()
//!     .with_title("Delete note")
//!     .with_destructive(true)
//!     .with_idempotent(true)
//!     .with_open_world(false);
//! assert!(DELETE_NOTE.check().is_ok());
//! assert_eq!(
//!     serde_json::to_string(&DELETE_NOTE)?,
//!     r#"{"title":"Delete note","destructiveHint":true,"idempotentHint":true,"openWorldHint":false}"#
//! );
//!
//! // A host reads them back from a server and decides what to do.
//! let received: ToolAnnotations = serde_json::from_str(r#"{"readOnlyHint": true}"#)?;
//! assert!(!received.for_host(Trust::Trusted).needs_approval());
//! assert!(received.for_host(Trust::Untrusted).needs_approval());
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! A server's tools, described and listed:
//!
//! ```
//! use mcp_annotations::{ListOptions, Listing, ProtocolVersion, tool, tools};
//!
//! /// List every saved note with its id and title.
//! #[tool(read_only, destructive = false, open_world = false, title = "List notes")]
//! fn list_notes() {}
//!
//! /// Permanently delete a note by id. This cannot be undone.
//! #[tool(read_only = false, destructive, open_world = false, title = "Delete note")]
//! fn delete_note(
//!     /// Id of the note to delete, from list_notes
//!     note_id: u64,
//! ) {}
//!
//! static TOOLS: Listing = tools![ready = strict; list_notes, delete_note];
//!
//! let page = TOOLS.render(&ListOptions::new(ProtocolVersion::LATEST).with_page_size(1), None)?;
//! let page: serde_json::Value = serde_json::from_str(&page).unwrap();
//! assert_eq!(page["tools"][0]["name"], "list_notes");
//! let next = page["nextCursor"].as_str().unwrap();
//! let rest: serde_json::Value = serde_json::from_str(
//!     &TOOLS.render(&ListOptions::new(ProtocolVersion::LATEST).with_page_size(1), Some(next))?,
//! ).unwrap();
//! assert_eq!(rest["tools"][0]["inputSchema"]["required"][0], "note_id");
//! # list_notes(); delete_note(1);
//! # Ok::<(), mcp_annotations::CursorError>(())
//! ```
//!
//! # Features
//!
//! - `derive` (default): re-exports `#[tool]`, `#[derive(Tool)]` and `tools!` from
//!   `mcp-annotations-derive`.
//! - `rmcp`: the bridge to `rmcp`, the official Rust SDK: a [`Listing`] becomes rmcp's
//!   `ToolRouter` (served by rmcp's `#[tool_handler]`, with rmcp's `RequestContext` for
//!   handlers that ask for it), or is served whole by [`ListingServer`] at the listing's own
//!   cost; conversions of `ToolAnnotations` (both ways), `Tool`,
//!   listings, pages and results. The README shows both ways to serve with rmcp: from a
//!   listing, or keeping rmcp's `#[tool]` under `#[mcp_annotations::tool]`.
//! - `schemars`: [`ToolSchema`] for every type that derives `schemars::JsonSchema`, so such
//!   types can be handler parameters.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The folders, from the floor up: `protocol` (the protocol's shared vocabulary), `hints`,
// `tool` (the descriptor), `content` and `result` (what a call gives back), `call` (the call of
// one tool), `listing` (which gathers, renders and calls tools), `diff` (what changed between
// two versions of a tool), `verify` (the hints checked by behaviour), `rmcp` (the bridge), and
// `__private`. Each imports only the folders before it in this list (`tests/layout.rs` holds
// this); rustfmt orders the declarations below by name.
mod call;
mod content;
pub mod diff;
mod hints;
mod listing;
mod protocol;
mod result;
#[cfg(feature = "rmcp")]
mod rmcp;
mod tool;
#[cfg(feature = "verify")]
#[cfg_attr(docsrs, doc(cfg(feature = "verify")))]
pub mod verify;
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
pub use crate::rmcp::{ListingHandler, ListingServer};

#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;

pub use crate::call::arguments::MAX_ARGUMENT_DEPTH;
pub use crate::call::{CallFuture, CallTool, Context, FromContext};
pub use crate::content::{
    Audio, Content, ContentAnnotations, EmbeddedResource, Image, Priority, ResourceLink, Role,
    TextContent,
};
pub use crate::hints::{ConflictError, HostView, ToolAnnotations, Trust};
pub use crate::listing::render::{RENDER_CACHE_BYTES, render_cache_bytes};
pub use crate::listing::{
    AnnotationsForm, CacheScope, CursorError, Filter, FilterError, Filtered, InvalidListingError,
    ListOptions, Listing, Page, UnknownToolError,
};
pub use crate::protocol::{
    ContentError, Icon, IconTheme, Meta, MimeType, ParseError, ProtocolVersion,
};
pub use crate::result::{IntoToolResult, Json, Text, ToolResult};
pub use crate::tool::findings::{Finding, Severity, findings};
pub use crate::tool::grouping::is_valid_toolset_name;
pub use crate::tool::schema::{Schema, SchemaError, ToolSchema};
pub use crate::tool::{
    InvalidToolError, Missing, Readiness, StaticTool, TaskSupport, Tool, is_valid_tool_name,
};

#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use mcp_annotations_derive::{Tool, ToolSchema, tool, tools};

// The README shows the rmcp bridge, so its examples are tested with the `rmcp` feature (as
// `cargo test --workspace` builds the crate).
#[cfg(all(doctest, feature = "rmcp"))]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
