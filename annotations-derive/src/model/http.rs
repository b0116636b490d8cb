//! `#[tool(http = "METHOD")]`: the hints each HTTP method states, by the method's semantics.

use mcp_annotations_rules::Hint;

/// The hints of an HTTP method (RFC 9110): `mcp_annotations_rules::http`'s table, the one
/// `mcp_annotations::ToolAnnotations::from_http_method` reads too.
pub(crate) use mcp_annotations_rules::http::{PRESETS, Preset as HttpPreset, preset as lookup};

/// Whether the method's semantics settle this hint, so that an explicit key saying otherwise
/// contradicts it. RFC 9110 settles safety (read-only) and idempotency; what a method does to
/// a resource settles destructiveness, except for POST, whose effects the RFC leaves to the
/// resource. No method says whether the server behind it is an open world (it may be the
/// tool's own back end), so `open_world` is always free to refine.
pub(crate) fn settles(preset: &HttpPreset, hint: Hint) -> bool {
    match hint {
        Hint::OpenWorld => false,
        Hint::Destructive => preset.method != "POST",
        _ => true,
    }
}

/// The value the method states for `hint`.
pub(crate) fn value(preset: &HttpPreset, hint: Hint) -> bool {
    preset.hints()[hint]
}
