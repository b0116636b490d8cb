//! The hints of each HTTP method, by its semantics (RFC 9110): what
//! `ToolAnnotations::from_http_method` returns and what `#[tool(http = "...")]` states.

use crate::{ByHint, Hint};

/// The hints one HTTP method states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The method, upper case.
    pub method: &'static str,
    /// Safe methods only read.
    pub read_only: bool,
    /// What the method does to a resource: replaced or removed.
    pub destructive: bool,
    /// Idempotent methods may be repeated.
    pub idempotent: bool,
    /// An HTTP server is another system: always `true`.
    pub open_world: bool,
}

impl Preset {
    /// The four hints the method states, in a table by [`Hint`].
    ///
    /// ```
    /// use mcp_annotations_rules::{http, Hint};
    ///
    /// let delete = http::preset("DELETE").unwrap().hints();
    /// assert!(delete[Hint::Destructive] && !delete[Hint::ReadOnly]);
    /// ```
    #[must_use]
    pub const fn hints(&self) -> ByHint<bool> {
        ByHint::splat(false)
            .with(Hint::ReadOnly, self.read_only)
            .with(Hint::Destructive, self.destructive)
            .with(Hint::Idempotent, self.idempotent)
            .with(Hint::OpenWorld, self.open_world)
    }
}

const fn stated(
    method: &'static str,
    read_only: bool,
    destructive: bool,
    idempotent: bool,
) -> Preset {
    Preset {
        method,
        read_only,
        destructive,
        idempotent,
        open_world: true,
    }
}

/// Every method with a preset, in RFC 9110's order of safe methods first.
pub const PRESETS: [Preset; 7] = [
    stated("GET", true, false, true),
    stated("HEAD", true, false, true),
    stated("OPTIONS", true, false, true),
    stated("POST", false, false, false),
    stated("PUT", false, true, true),
    stated("PATCH", false, true, false),
    stated("DELETE", false, true, true),
];

/// The preset of `method`, in any letter case; `None` for a method without one.
///
/// ```
/// use mcp_annotations_rules::http::preset;
///
/// assert_eq!(preset("get").unwrap().method, "GET");
/// assert!(preset("FETCH").is_none());
/// ```
#[must_use]
pub const fn preset(method: &str) -> Option<&'static Preset> {
    let mut i = 0;
    while i < PRESETS.len() {
        if eq_ignore_ascii_case(PRESETS[i].method.as_bytes(), method.as_bytes()) {
            return Some(&PRESETS[i]);
        }
        i += 1;
    }
    None
}

/// ASCII case-insensitive comparison, in `const`.
const fn eq_ignore_ascii_case(left: &[u8], right: &[u8]) -> bool {
    if left.len() != right.len() {
        return false;
    }
    let mut i = 0;
    while i < left.len() {
        if !left[i].eq_ignore_ascii_case(&right[i]) {
            return false;
        }
        i += 1;
    }
    true
}
