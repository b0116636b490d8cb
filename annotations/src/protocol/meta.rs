//! `_meta`: the JSON object any protocol value may carry for its extensions.

use serde_json::{Map, Value};

/// A block's `_meta`: a JSON object.
pub type Meta = Map<String, Value>;

/// The tool-resolution extension's identifier: the key of its marker in a tool's `_meta`
/// (and of its capability). Here, on the floor, so that the descriptor can mark a tool; the
/// extension's rules are `crate::resolution`'s.
pub(crate) const TOOL_RESOLUTION: &str = "io.modelcontextprotocol/tool-resolution";

/// The marker's text as a tool's `_meta` entry.
pub(crate) const RESOLVABLE_MARKER: &str =
    "\"io.modelcontextprotocol/tool-resolution\":{\"resolvable\":true}";
