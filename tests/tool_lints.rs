//! Expansions of `#[tool]` compile without a warning under strict lints: generated constants
//! are documented, fully qualified only where needed, and clean under clippy's pedantic group
//! (checked when CI runs `cargo clippy --all-targets`).
#![deny(warnings, missing_docs, unused_qualifications, clippy::pedantic)]

use mcp_annotations::tool;

/// Flags for const-expression hints.
pub const CLOSED: bool = true;

/// A tool with every kind of key.
#[tool(read_only, destructive = false, idempotent, open_world = !CLOSED, title = "Lookup")]
#[must_use]
pub fn lookup(id: u64) -> u64 {
    id
}

/// A tool from an HTTP preset, refined.
#[tool(http = "DELETE", open_world = false, title = "Delete")]
#[must_use]
pub fn delete(id: u64) -> u64 {
    id
}

/// A tool whose hints are checked by const assertions in its body.
#[tool(read_only = cfg!(all()), destructive = (CLOSED && !CLOSED), idempotent = CLOSED)]
#[must_use]
pub fn checked(id: u64) -> u64 {
    id
}

/// A server.
pub struct Server;

impl Server {
    /// A method tool.
    #[tool(read_only, open_world = false, title = "Count")]
    #[must_use]
    pub fn count(&self, #[context] server: &Self) -> usize {
        let _ = (self, server);
        0
    }

    /// A tool that takes `&mut`, which the crate allows but a listing cannot call.
    #[tool(read_only, allow_mut, open_world = false, title = "Clear")]
    pub fn clear(&mut self, #[context] cache: &mut [u64]) -> usize {
        cache.fill(0);
        cache.len()
    }
}

#[test]
fn expansions_are_lint_clean() {
    assert_eq!(lookup(1) + delete(2) + checked(3), 6);
    assert_eq!(Server.count(&Server), 0);
    assert_eq!(Server.clear(&mut []), 0);
    assert!(LOOKUP_ANNOTATIONS.read_only() && !DELETE_ANNOTATIONS.read_only());
    assert!(CHECKED_ANNOTATIONS.read_only() && Server::COUNT_ANNOTATIONS.read_only());
    assert_eq!(paint(&Colour, None), 1);
    assert_eq!(LISTING.len(), 5);
    assert!(LISTING.is_callable());
    assert!(LISTING.check().is_ok());
}

/// A listing of the tools above, with a user type's schema built at run time.
pub static LISTING: mcp_annotations::Listing<Server> =
    mcp_annotations::tools![lookup, delete, checked, Server::count, paint];

/// A colour of this crate's own.
#[derive(serde::Deserialize)]
pub struct Colour;

impl mcp_annotations::ToolSchema for Colour {
    fn tool_schema() -> serde_json::Value {
        serde_json::json!({"type": "string"})
    }
}

/// Paint with a colour.
#[tool(destructive = false, title = "Paint")]
#[must_use]
pub fn paint(
    /// The colour
    colour: &Colour,
    /// How many coats
    coats: Option<u8>,
) -> u8 {
    let _ = colour;
    coats.unwrap_or(1)
}

/// Search the documentation.
#[derive(mcp_annotations::Tool, serde::Deserialize)]
#[tool(read_only, destructive = false, open_world = CLOSED, title = "Search")]
pub struct Search {
    /// Words to look for
    pub query: String,
    /// A colour to filter by
    pub colour: Option<Colour>,
}

impl mcp_annotations::call::CallTool<()> for Search {
    type Output = String;

    async fn call(self, _state: &(), _context: mcp_annotations::Context<'_>) -> String {
        self.query
    }
}

/// The struct-based tool in a listing.
pub static WITH_STRUCT: mcp_annotations::Listing = mcp_annotations::tools![Search, lookup];

/// The runtime crate under another path.
pub mod renamed {
    pub use mcp_annotations::*;
}

/// A tool that names the runtime crate through `crate = path`.
#[tool(crate = renamed, read_only = CLOSED, idempotent, title = "Renamed")]
#[must_use]
pub fn through_path(id: u64) -> u64 {
    id
}

/// A listing through `crate = path`.
pub static THROUGH_PATH: renamed::Listing = mcp_annotations::tools![crate = renamed; through_path];
