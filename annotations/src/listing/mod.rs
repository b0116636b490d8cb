//! A server's list of tools, [`Listing`]: its `tools/list` result for each protocol version,
//! page by page, a Markdown table, the filters that decide what a server offers, and the calls
//! of its tools by name.
//!
#![doc = include_str!("../../docs/listing.md")]

// For contributors: A server's list of tools, [`Listing`], and what is done with it: the `tools/list` result
// for each protocol version ([`options`], [`render`] through the [`json`] writer), served a
// [`page`] at a time, and a [`markdown`] table, and finding a tool's call by name ([`call`]);
// the call itself is the call stage's ([`crate::call`]).

pub(crate) mod call;
pub(crate) mod filter;
pub(crate) mod filtered;
pub(crate) mod index;
pub(crate) mod json;
pub(crate) mod markdown;
pub(crate) mod options;
pub(crate) mod page;
pub(crate) mod render;
pub(crate) mod resolve;

use std::fmt;

use crate::call::handler::Run;
use crate::host::{Missing, Readiness};
use crate::tool::{InvalidToolError, Tool};

pub use self::call::UnknownToolError;
pub use self::filter::{Filter, FilterError};
pub use self::filtered::Filtered;
pub use self::options::{AnnotationsForm, CacheScope, ListOptions};
pub use self::page::{CursorError, Page};
pub use self::render::{RENDER_CACHE_BYTES, render_cache_bytes};
pub use crate::protocol::ProtocolVersion;

/// The tools a server offers, in a fixed order: what `tools/list` returns.
///
/// Build one with [`tools!`](crate::tools), which checks while compiling that no two tools
/// share a name (and, if asked, that each is ready for a tool directory). The listing is a
/// `&'static` slice of [`Tool`](struct@Tool)s, so it can live in a `const` or `static` and costs nothing to
/// copy.
///
/// ```
/// use mcp_annotations::{listing::ListOptions, ProtocolVersion, tool, tools};
///
/// /// List every saved note.
/// #[tool(read_only, open_world = false, title = "List notes")]
/// fn list_notes() {}
///
/// /// Permanently delete a note by id.
/// #[tool(destructive, idempotent, open_world = false, title = "Delete note")]
/// fn delete_note(note_id: u64) {}
///
/// static TOOLS: mcp_annotations::Listing = tools![list_notes, delete_note];
///
/// let result = TOOLS.render(&ListOptions::new(ProtocolVersion::V2025_06_18), None)?;
/// let result: serde_json::Value = serde_json::from_str(&result).unwrap();
/// assert_eq!(result["tools"][1]["name"], "delete_note");
/// assert_eq!(result["tools"][1]["inputSchema"]["required"][0], "note_id");
/// # list_notes(); delete_note(1);
/// # Ok::<(), mcp_annotations::listing::CursorError>(())
/// ```
pub struct Listing<S: 'static = ()> {
    tools: &'static [Tool],
    /// One call per tool, in the same order; empty for a listing of descriptors only.
    calls: &'static [&'static dyn Run<S>],
    /// The name index `tools!` builds while compiling (see `index.rs`); empty for a listing
    /// made with `new`, which finds a name by comparing each.
    slots: &'static [u32],
}

impl<S> Clone for Listing<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Listing<S> {}

impl<S> fmt::Debug for Listing<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Listing")
            .field("tools", &self.tools)
            .field("callable", &self.is_callable())
            .finish()
    }
}

impl Listing {
    /// A listing of these tool descriptors, in this order, without handlers: it lists and
    /// renders, but [`call`](Self::call) finds no tool.
    ///
    /// Prefer [`tools!`](crate::tools), which also checks the names while compiling and
    /// makes the tools callable; a listing built here can be checked with
    /// [`check`](Self::check).
    ///
    /// The descriptors `#[tool]` writes can be listed in place; ones built with
    /// [`Tool::new`] are kept in a `static` of their own first (a constant made by function
    /// calls cannot be borrowed for `'static` in place).
    ///
    /// ```
    /// use mcp_annotations::{Listing, schema::Schema, Tool, tool};
    ///
    /// /// List every saved note.
    /// #[tool(read_only, title = "List notes")]
    /// fn list_notes() {}
    ///
    /// static GENERATED: Listing = Listing::new(&[LIST_NOTES_TOOL]);
    ///
    /// static BY_HAND: [Tool; 1] = [Tool::new("ping", Schema::NO_INPUT).with_title("Ping")];
    /// static MIXED: Listing = Listing::new(&BY_HAND);
    ///
    /// assert_eq!(GENERATED.tools()[0].name(), "list_notes");
    /// assert!(MIXED.check().is_ok());
    /// # list_notes();
    /// ```
    #[must_use]
    pub const fn new(tools: &'static [Tool]) -> Self {
        Listing {
            tools,
            calls: &[],
            slots: &[],
        }
    }
}

impl<S> Listing<S> {
    /// What `tools!` builds: descriptors, their calls in the same order (or none), and the
    /// name index. Not public API.
    #[doc(hidden)]
    #[must_use]
    pub const fn from_parts(
        tools: &'static [Tool],
        calls: &'static [&'static dyn Run<S>],
        slots: &'static [u32],
    ) -> Self {
        assert!(
            calls.is_empty() || tools.len() == calls.len(),
            "one call per tool"
        );
        assert!(
            slots.is_empty() || slots.len().is_power_of_two(),
            "a name index"
        );
        Listing {
            tools,
            calls,
            slots,
        }
    }

    /// The position of the tool named `name`: through the name index of a `tools!` listing,
    /// in constant time.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        index::position(self.tools, self.slots, name)
    }

    /// Whether the tools can be called (the listing came from `tools!`).
    #[must_use]
    pub const fn is_callable(&self) -> bool {
        self.calls.len() == self.tools.len()
    }

    /// The call of the tool at `index`, if the listing has calls.
    pub(crate) fn call_at(&self, index: usize) -> Option<&'static dyn Run<S>> {
        self.calls.get(index).copied()
    }

    /// The tools, in order.
    #[must_use]
    pub const fn tools(&self) -> &'static [Tool] {
        self.tools
    }

    /// How many tools there are.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there are none.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The tool with this name.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&'static Tool> {
        self.position(name).map(|at| &self.tools[at])
    }

    /// Checks every tool ([`Tool::check`]) and that no two share a name.
    ///
    /// # Errors
    ///
    /// The first problem found, naming the tool.
    pub fn check(&self) -> Result<(), InvalidListingError> {
        let mut seen = std::collections::HashSet::new();
        for tool in self.tools {
            tool.check().map_err(|error| InvalidListingError::Tool {
                name: tool.name().to_owned(),
                error,
            })?;
            if !seen.insert(tool.name()) {
                return Err(InvalidListingError::DuplicateName(tool.name().to_owned()));
            }
        }
        Ok(())
    }

    /// The tools that are not ready for a directory at `level`, each with what it lacks.
    pub fn not_ready(&self, level: Readiness) -> impl Iterator<Item = (&'static Tool, Missing)> {
        self.tools
            .iter()
            .filter_map(move |tool| tool.missing_for(level).map(|missing| (tool, missing)))
    }
}

/// Why a listing breaks the protocol's rules, from [`Listing::check`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidListingError {
    /// A tool of the listing is not a valid descriptor.
    Tool {
        /// The tool's name, as listed.
        name: String,
        /// What is wrong with it.
        error: InvalidToolError,
    },
    /// Two tools have this name.
    DuplicateName(String),
}

impl fmt::Display for InvalidListingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Tool { name, error } => write!(f, "tool `{name}`: {error}"),
            Self::DuplicateName(name) => write!(f, "duplicate tool name `{name}`"),
        }
    }
}

impl std::error::Error for InvalidListingError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Tool { error, .. } => Some(error),
            Self::DuplicateName(_) => None,
        }
    }
}
