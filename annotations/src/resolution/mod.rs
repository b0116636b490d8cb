//! Hints per call: the experimental extension `io.modelcontextprotocol/tool-resolution` (the
//! Tool Annotations Interest Group's draft of 2026-08-20, adapted from SEP-1862).
//!
//! A tool such as `manage_files(path, action)` reads for one action and deletes for another,
//! so its listed hints must state the worst case. With the extension, a client sends the
//! exact call it means to make as `tools/resolve` and the server answers the four hints of
//! that call alone, without running it. The listed hints stay the conservative fallback:
//! every resolution must keep within them ([`check_bound`]).
//!
//! This module holds the wire and the rules, for servers and hosts alike:
//!
//! - negotiation: [`Declaration`] reads whether a request (or, before 2026-07-28, the session)
//!   declared the extension, and [`ResolveOptions`] carries the answer to a resolution;
//! - the request and the result, exactly as the draft writes them ([`ResolveRequest`],
//!   [`ResolveResult`]), read strictly, with a typed error for anything else;
//! - the conservative bound ([`check_bound`]) and the narrowest listed hints that bound a set
//!   of resolutions ([`join`]), both `const`;
//! - the errors a server answers with, each with its JSON-RPC code ([`ResolveError`]).
//!
//! ```
//! use mcp_annotations::ToolAnnotations;
//! use mcp_annotations::resolution::{self, ResolveResult};
//!
//! // What `manage_files` lists: the worst of its actions (it may delete; not idempotent).
//! const READ: ToolAnnotations = ToolAnnotations::new().with_read_only(true).with_open_world(false);
//! const DELETE: ToolAnnotations = ToolAnnotations::new()
//!     .with_destructive(true)
//!     .with_idempotent(true)
//!     .with_open_world(false);
//! const APPEND: ToolAnnotations = ToolAnnotations::new()
//!     .with_destructive(false)
//!     .with_open_world(false);
//! const LISTED: ToolAnnotations = resolution::join(resolution::join(READ, DELETE), APPEND);
//! assert!(!LISTED.read_only() && LISTED.destructive() && !LISTED.idempotent() && !LISTED.open_world());
//!
//! // Each action's hints keep within the listed ones; a read that says it is open-world does not.
//! for action in [READ, DELETE, APPEND] {
//!     assert!(resolution::check_bound(&LISTED, &action).is_ok());
//! }
//! assert!(resolution::check_bound(&LISTED, &READ.with_open_world(true)).is_err());
//!
//! // The answer to `tools/resolve` for a read, as the draft's example writes it.
//! let result = ResolveResult::new("manage_files", READ);
//! assert_eq!(
//!     result.to_value(),
//!     serde_json::json!({
//!         "resultType": "complete",
//!         "name": "manage_files",
//!         "annotations": {
//!             "readOnlyHint": true,
//!             "destructiveHint": false,
//!             "idempotentHint": true,
//!             "openWorldHint": false
//!         }
//!     })
//! );
//! ```

// For contributors: the extension's wire and rules, above `host/` (a host reads resolutions
// as it reads listings) and below the calls and the listing, which serve it.

mod bound;
pub(crate) mod by_variant;
mod client;
mod error;
mod wire;

use serde_json::{Map, Value};

use crate::protocol::ProtocolVersion;

pub use self::bound::{OutOfBoundError, check_bound, join};
pub use self::client::{
    CallHints, Fallback, Pending, ResolutionRefusedError, Resolutions, StaleError,
};
pub use self::error::ResolveError;
pub use self::wire::{MalformedResultError, ResolveRequest, ResolveResult};

/// The extension's identifier: the key of its capability (in `capabilities.extensions`) and
/// of its marker (in a tool's `_meta`).
pub const EXTENSION: &str = crate::protocol::TOOL_RESOLUTION;

/// The method the extension defines.
pub const METHOD: &str = "tools/resolve";

/// The key of a request's `_meta` under which a 2026-07-28 client declares its capabilities.
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// The key of a request's `_meta` under which a 2026-07-28 client names its protocol version.
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The JSON-RPC code for a request that needs a client capability it did not declare
/// (`MissingRequiredClientCapabilityError`).
pub const MISSING_CAPABILITY: i32 = -32021;

/// The extension's settings, as this revision defines them: an empty object.
#[must_use]
pub fn settings() -> Value {
    Value::Object(Map::new())
}

/// The marker a resolvable tool carries in `tools/list`:
/// `{"io.modelcontextprotocol/tool-resolution": {"resolvable": true}}`, the entry of its
/// `_meta`.
#[must_use]
pub fn marker() -> (String, Value) {
    let mut marker = Map::new();
    marker.insert("resolvable".to_owned(), Value::Bool(true));
    (EXTENSION.to_owned(), Value::Object(marker))
}

/// Whether a tool's `_meta` (as listed) marks it resolvable: the marker's `resolvable` is
/// `true`.
#[must_use]
pub fn is_marked(meta: Option<&Map<String, Value>>) -> bool {
    meta.and_then(|meta| meta.get(EXTENSION))
        .and_then(|marker| marker.get("resolvable"))
        == Some(&Value::Bool(true))
}

/// What a client declared of the extension, on the request or in its session.
///
/// ```
/// use mcp_annotations::ProtocolVersion;
/// use mcp_annotations::resolution::Declaration;
/// use serde_json::json;
///
/// // 2026-07-28: read from the request's own `_meta`, never from the session.
/// let meta = json!({
///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities": {
///         "extensions": {"io.modelcontextprotocol/tool-resolution": {}}
///     }
/// });
/// let declared = Declaration::read(ProtocolVersion::V2026_07_28, meta.as_object(), None);
/// assert_eq!(declared, Declaration::Declared);
/// let session = json!({"extensions": {"io.modelcontextprotocol/tool-resolution": {}}});
/// let on_session_only = Declaration::read(ProtocolVersion::V2026_07_28, None, Some(&session));
/// assert_eq!(on_session_only, Declaration::Absent);
///
/// // Before 2026-07-28: read from the client's capabilities in `initialize`.
/// assert_eq!(
///     Declaration::read(ProtocolVersion::V2025_06_18, None, Some(&session)),
///     Declaration::Declared
/// );
/// // Settings this revision does not define: unsupported, not assumed compatible.
/// let unknown = json!({"extensions": {"io.modelcontextprotocol/tool-resolution": {"partial": true}}});
/// assert_eq!(
///     Declaration::read(ProtocolVersion::V2025_11_25, None, Some(&unknown)),
///     Declaration::UnsupportedSettings
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declaration {
    /// Declared, with the empty settings of this revision.
    Declared,
    /// Not declared where this version reads it.
    Absent,
    /// Declared with settings this revision does not define (a non-empty object, or not an
    /// object): the draft has it treated as unsupported.
    UnsupportedSettings,
}

impl Declaration {
    /// What a client declared: for 2026-07-28 in the request's `_meta` (`request_meta`,
    /// under [`CLIENT_CAPABILITIES_KEY`]), never inferred from an earlier request; before it,
    /// in the capabilities the client sent in `initialize` (`session_capabilities`).
    #[must_use]
    pub fn read(
        version: ProtocolVersion,
        request_meta: Option<&Map<String, Value>>,
        session_capabilities: Option<&Value>,
    ) -> Declaration {
        let capabilities = if version.has_per_request_capabilities() {
            request_meta.and_then(|meta| meta.get(CLIENT_CAPABILITIES_KEY))
        } else {
            session_capabilities
        };
        match capabilities
            .and_then(|capabilities| capabilities.get("extensions"))
            .and_then(|extensions| extensions.get(EXTENSION))
        {
            None => Declaration::Absent,
            Some(Value::Object(settings)) if settings.is_empty() => Declaration::Declared,
            Some(_) => Declaration::UnsupportedSettings,
        }
    }

    /// Whether the extension may be used: declared with settings this revision knows.
    #[must_use]
    pub const fn is_declared(self) -> bool {
        matches!(self, Declaration::Declared)
    }
}

/// How a resolution is asked: what the client declared of the extension, for the request
/// being answered.
///
/// ```
/// use mcp_annotations::ProtocolVersion;
/// use mcp_annotations::resolution::{Declaration, ResolveOptions};
///
/// let options = ResolveOptions::new(Declaration::Declared);
/// assert!(options.declaration().is_declared());
/// // What a 2026-07-28 request without the capability in its `_meta` gets.
/// let bare = ResolveOptions::for_request(ProtocolVersion::V2026_07_28, None, None);
/// assert_eq!(bare.declaration(), Declaration::Absent);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolveOptions {
    declaration: Declaration,
}

impl ResolveOptions {
    /// A resolution whose request declared the extension as `declaration` says.
    #[must_use]
    pub const fn new(declaration: Declaration) -> Self {
        ResolveOptions { declaration }
    }

    /// The options of a request of a session of `version`: its declaration read by
    /// [`Declaration::read`].
    #[must_use]
    pub fn for_request(
        version: ProtocolVersion,
        request_meta: Option<&Map<String, Value>>,
        session_capabilities: Option<&Value>,
    ) -> Self {
        ResolveOptions::new(Declaration::read(
            version,
            request_meta,
            session_capabilities,
        ))
    }

    /// What the client declared.
    #[must_use]
    pub const fn declaration(&self) -> Declaration {
        self.declaration
    }

    /// Whether the extension may be used for this request: `Ok` when the client declared it.
    ///
    /// # Errors
    ///
    /// [`ResolveError::MissingCapability`] (JSON-RPC -32021) unless the extension is declared.
    pub fn require(&self) -> Result<(), ResolveError> {
        self.declared().map(|_| ())
    }

    /// [`require`](Self::require), with the proof it passed: the [`ExtensionDeclared`] a
    /// resolution asks for, so that the capability is checked once however many steps come
    /// after.
    pub(crate) fn declared(&self) -> Result<ExtensionDeclared, ResolveError> {
        if self.declaration.is_declared() {
            Ok(ExtensionDeclared(()))
        } else {
            Err(ResolveError::MissingCapability(self.declaration))
        }
    }
}

/// That the request being answered declared the extension: made only by
/// [`ResolveOptions::declared`] (its field is this module's), and asked for by the resolution
/// itself, so the check that comes first in the draft's order is the one the answer rests on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExtensionDeclared(());
