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
//! - for hosts, [`for_host`](ToolAnnotations::for_host) with a [`Trust`](host::Trust), so hints from a
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
//! use mcp_annotations::{ToolAnnotations, host::Trust};
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
//! use mcp_annotations::{listing::ListOptions, Listing, ProtocolVersion, tool, tools};
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
//! # Ok::<(), mcp_annotations::listing::CursorError>(())
//! ```
//!
//! # Features
//!
//! As `Cargo.toml` states them:
//!
#![doc = include_str!("../docs/features.md")]
//!
//! Without `regex`, a `#[schema(pattern)]` is refused while compiling (it would be listed and
//! never checked), with an error that names the feature; the same tool without the pattern
//! compiles:
//!
//! ```
//! #[mcp_annotations::tool(read_only, open_world = false)]
//! fn find(#[schema(max_length = 8)] code: String) -> String { code }
//! # fn main() { find("A".into()); }
//! ```
#![cfg_attr(
    all(feature = "derive", not(feature = "regex")),
    doc = r#"
```compile_fail
#[mcp_annotations::tool(read_only, open_world = false)]
fn find(#[schema(max_length = 8, pattern = "^[A-Z]+$")] code: String) -> String { code }
# fn main() { find("A".into()); }
```
"#
)]
#![cfg_attr(
    feature = "regex",
    doc = "(Built with `regex` here, so the pattern compiles, and is enforced on every call.)"
)]
//!
#![doc = include_str!("../docs/hints.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The folders, from the floor up: `protocol` (the protocol's shared vocabulary), `hints`,
// `schema` (a tool's input and output schemas and the constraints a call checks), `tool` (the
// descriptor), `host` (what a host reads of descriptors: trust, findings, readiness, the
// diff), `resolution` (hints per call: the tool-resolution extension's wire and rules),
// `content` and `result` (what a call gives back), `call` (the call of one tool), `listing`
// (which gathers, renders and calls tools), `rmcp` (the bridge), and `__private`. Each
// imports only the folders before it in this list (`tests/layout.rs` holds this); rustfmt
// orders the declarations below by name. The public modules are some of these folders
// (`call`, `content`, `host`, `listing`, `resolution`, `rmcp`, `schema`) and `descriptor`
// below, which gathers from several.
pub mod call;
pub mod content;
mod hints;
pub mod host;
pub mod listing;
mod protocol;
pub mod resolution;
mod result;
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
pub mod rmcp;
pub mod schema;
mod tool;

#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;

pub use crate::call::Context;
pub use crate::hints::ToolAnnotations;
pub use crate::listing::Listing;
pub use crate::protocol::ProtocolVersion;
pub use crate::result::{IntoToolResult, Json, Text, ToolResult};
pub use crate::schema::ToolSchema;
pub use crate::tool::Tool;

pub mod descriptor {
    //! The parts of a tool descriptor beside [`Tool`](struct@crate::Tool) and
    //! [`ToolAnnotations`](crate::ToolAnnotations): the rules of its names, its icons, its
    //! `_meta`, its task support, and the errors of a descriptor that breaks the protocol's
    //! rules.
    //!
    //! ```
    //! use mcp_annotations::descriptor::{TaskSupport, is_valid_tool_name};
    //!
    //! assert!(is_valid_tool_name("admin.tools.list"));
    //! assert_eq!(TaskSupport::parse("optional"), Some(TaskSupport::Optional));
    //! ```

    pub use crate::hints::{ByHint, ConflictError, Hint};
    pub use crate::protocol::{Icon, IconTheme, Meta, MimeType, ParseError};
    pub use crate::tool::grouping::{is_valid_scope, is_valid_toolset_name};
    pub use crate::tool::{InvalidToolError, StaticTool, TaskSupport, is_valid_tool_name};
}

#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use mcp_annotations_derive::{Tool, ToolSchema, tool, tools};

// The README shows the rmcp bridge, so its examples are tested with the `rmcp` feature (as
// `cargo test --workspace` builds the crate).
#[cfg(all(doctest, feature = "rmcp"))]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
