//! The errors a server answers `tools/resolve` with, each with the JSON-RPC code the draft
//! gives it.

use std::fmt;

use serde_json::{Map, Value, json};

use crate::hints::ToolAnnotations;
use crate::resolution::{Declaration, EXTENSION, MISSING_CAPABILITY, OutOfBoundError};

/// Why `tools/resolve` is not answered with hints, and the JSON-RPC error it is answered with
/// instead ([`code`](Self::code), [`to_error`](Self::to_error)).
///
/// ```
/// use mcp_annotations::resolution::{Declaration, ResolveError};
///
/// let missing = ResolveError::MissingCapability(Declaration::Absent);
/// assert_eq!(missing.code(), -32021);
/// assert_eq!(
///     missing.to_error()["data"]["requiredCapabilities"],
///     serde_json::json!({"extensions": {"io.modelcontextprotocol/tool-resolution": {}}})
/// );
/// assert_eq!(ResolveError::NotResolvable("ping".into()).code(), -32602);
/// assert_eq!(ResolveError::CannotResolve("no parser for that dialect".into()).code(), -32603);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolveError {
    /// The request did not declare the extension where its version reads it, or declared
    /// settings this revision does not define (-32021, with the capability required in
    /// `data.requiredCapabilities`).
    MissingCapability(Declaration),
    /// The request's params are not `{name, arguments, _meta?}` as the draft writes them
    /// (-32602).
    InvalidRequest(String),
    /// No tool of this name is listed (to this client) (-32602).
    UnknownTool(String),
    /// The tool is listed but not marked resolvable (-32602).
    NotResolvable(String),
    /// The arguments are not a complete, valid set for the tool's input schema (-32602): what
    /// is wrong with them.
    InvalidArguments {
        /// The tool.
        tool: String,
        /// Every problem found, as a call would report it.
        problems: String,
    },
    /// The resolver could not compute trustworthy hints for these arguments (-32603): its
    /// reason.
    CannotResolve(String),
    /// The resolver answered hints that break the conservative bound of the listed ones
    /// (-32603): the answer is refused, never sent.
    OutOfBound {
        /// The tool.
        tool: String,
        /// The rule broken.
        rule: OutOfBoundError,
        /// What the resolver answered.
        resolved: ToolAnnotations,
    },
}

impl ResolveError {
    /// JSON-RPC's invalid params.
    pub const INVALID_PARAMS: i32 = -32602;
    /// JSON-RPC's internal error.
    pub const INTERNAL_ERROR: i32 = -32603;

    /// The JSON-RPC error code to answer with.
    #[must_use]
    pub const fn code(&self) -> i32 {
        match self {
            ResolveError::MissingCapability(_) => MISSING_CAPABILITY,
            ResolveError::InvalidRequest(_)
            | ResolveError::UnknownTool(_)
            | ResolveError::NotResolvable(_)
            | ResolveError::InvalidArguments { .. } => Self::INVALID_PARAMS,
            ResolveError::CannotResolve(_) | ResolveError::OutOfBound { .. } => {
                Self::INTERNAL_ERROR
            }
        }
    }

    /// The JSON-RPC error object: `{"code", "message"}`, and for -32021 the capability the
    /// request lacked as `data.requiredCapabilities`.
    #[must_use]
    pub fn to_error(&self) -> Value {
        let mut error = Map::new();
        error.insert("code".to_owned(), json!(self.code()));
        error.insert("message".to_owned(), json!(self.to_string()));
        if let ResolveError::MissingCapability(_) = self {
            error.insert(
                "data".to_owned(),
                json!({"requiredCapabilities": {"extensions": {EXTENSION: {}}}}),
            );
        }
        Value::Object(error)
    }
}

/// At most this many characters of a name or a reason from a peer are repeated in a message.
const SHOWN: usize = 200;

fn shown(text: &str) -> String {
    text.chars().take(SHOWN).collect()
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::MissingCapability(Declaration::UnsupportedSettings) => write!(
                f,
                "the request declares {EXTENSION} with settings this server does not know \
                 (this revision's settings are an empty object)"
            ),
            ResolveError::MissingCapability(_) => write!(
                f,
                "the request does not declare the client capability {EXTENSION}"
            ),
            ResolveError::InvalidRequest(why) => {
                write!(f, "invalid tools/resolve request: {}", shown(why))
            }
            ResolveError::UnknownTool(name) => write!(f, "unknown tool: {}", shown(name)),
            ResolveError::NotResolvable(name) => {
                write!(f, "tool `{}` is not resolvable", shown(name))
            }
            ResolveError::InvalidArguments { tool, problems } => write!(
                f,
                "invalid arguments for tool `{}`: {}",
                shown(tool),
                problems
            ),
            ResolveError::CannotResolve(why) => {
                write!(f, "the call's hints could not be resolved: {}", shown(why))
            }
            ResolveError::OutOfBound { tool, rule, .. } => write!(
                f,
                "the hints resolved for tool `{}` were refused: {rule}",
                shown(tool)
            ),
        }
    }
}

impl std::error::Error for ResolveError {}
