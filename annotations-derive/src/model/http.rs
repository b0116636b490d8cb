//! `#[tool(http = "METHOD")]`: the hints each HTTP method states, by the method's semantics.

use crate::leaf::hint::HintKind;

/// The hints of an HTTP method (RFC 9110), the same table as
/// `mcp_annotations::ToolAnnotations::from_http_method` (a test holds the two equal).
pub(crate) struct HttpPreset {
    /// The method, upper case.
    pub(crate) method: &'static str,
    pub(crate) read_only: bool,
    pub(crate) destructive: bool,
    pub(crate) idempotent: bool,
    pub(crate) open_world: bool,
}

const fn preset(
    method: &'static str,
    read_only: bool,
    destructive: bool,
    idempotent: bool,
) -> HttpPreset {
    HttpPreset {
        method,
        read_only,
        destructive,
        idempotent,
        open_world: true,
    }
}

pub(crate) const PRESETS: [HttpPreset; 7] = [
    preset("GET", true, false, true),
    preset("HEAD", true, false, true),
    preset("OPTIONS", true, false, true),
    preset("POST", false, false, false),
    preset("PUT", false, true, true),
    preset("PATCH", false, true, false),
    preset("DELETE", false, true, true),
];

pub(crate) fn lookup(method: &str) -> Option<&'static HttpPreset> {
    PRESETS
        .iter()
        .find(|preset| preset.method.eq_ignore_ascii_case(method))
}

impl HttpPreset {
    /// Whether the method's semantics settle this hint, so that an explicit key saying
    /// otherwise contradicts it. RFC 9110 settles safety (read-only) and idempotency; what a
    /// method does to a resource settles destructiveness, except for POST, whose effects the
    /// RFC leaves to the resource. No method says whether the server behind it is an open
    /// world (it may be the tool's own back end), so `open_world` is always free to refine.
    pub(crate) fn settles(&self, hint: HintKind) -> bool {
        match hint {
            HintKind::ReadOnly | HintKind::Idempotent => true,
            HintKind::Destructive => self.method != "POST",
            HintKind::OpenWorld => false,
        }
    }

    pub(crate) fn value(&self, hint: HintKind) -> bool {
        match hint {
            HintKind::ReadOnly => self.read_only,
            HintKind::Destructive => self.destructive,
            HintKind::Idempotent => self.idempotent,
            HintKind::OpenWorld => self.open_world,
        }
    }
}
