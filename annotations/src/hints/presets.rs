//! Presets for the common kinds of tool, and the hints of each HTTP method.

use crate::hints::{ByHint, Hint, ToolAnnotations};

/// Builds a preset with all four hints stated and no title: each hint in `claims` at the
/// value a host trusts ([`Hint::trusted_value`]), every other at its protocol default.
const fn claiming(claims: &[Hint]) -> ToolAnnotations {
    let mut values = ByHint::splat(false);
    let mut at = 0;
    while at < Hint::ALL.len() {
        let hint = Hint::ALL[at];
        values = values.with(hint, hint.default_value());
        at += 1;
    }
    let mut at = 0;
    while at < claims.len() {
        values = values.with(claims[at], claims[at].trusted_value());
        at += 1;
    }
    ToolAnnotations::from_values(values)
}

/// Named presets for the common shapes of tool. Each states all four hints and no title;
/// refine one with the `with_*` builders.
///
/// ```
/// use mcp_annotations::ToolAnnotations;
///
/// const DELETE_NOTE: ToolAnnotations = ToolAnnotations::DESTRUCTIVE_WRITE
///     .with_idempotent(true)
///     .with_title("Delete note");
/// assert!(DELETE_NOTE.destructive() && DELETE_NOTE.idempotent());
/// ```
impl ToolAnnotations {
    /// Reads the server's own data and changes nothing: read-only, non-destructive,
    /// idempotent, closed world. For example listing notes, or reading a file in a workspace.
    pub const LOOKUP: Self = claiming(&Hint::ALL);

    /// Adds to the server's own data without touching what is there: not read-only,
    /// non-destructive, not idempotent (each call adds again), closed world. For example
    /// creating a note.
    pub const ADDITIVE_WRITE: Self = claiming(&[Hint::Destructive, Hint::OpenWorld]);

    /// Changes or removes the server's own data: not read-only, destructive, not idempotent,
    /// closed world. For example deleting or overwriting a note; state `with_idempotent(true)`
    /// where repeating the call changes nothing more, as for a delete by id.
    pub const DESTRUCTIVE_WRITE: Self = claiming(&[Hint::OpenWorld]);

    /// Reads from the outside world and changes nothing: read-only, non-destructive,
    /// idempotent, open world. For example a web search or fetching a public page.
    pub const EXTERNAL_LOOKUP: Self = claiming(&Hint::ALL).with_open_world(true);

    /// Acts on the outside world with effects the server cannot bound: not read-only,
    /// destructive, not idempotent, open world. The protocol's defaults, stated explicitly,
    /// for example sending an email or calling a third party's API.
    pub const EXTERNAL_CALL: Self = claiming(&[]);

    /// The hints that follow from an HTTP method's semantics (RFC 9110), for tools that wrap
    /// an HTTP endpoint. The method is matched case-insensitively; every mapping states all
    /// four hints, all open-world (an HTTP endpoint is someone else's system).
    ///
    /// | method | read-only | destructive | idempotent |
    /// |---|---|---|---|
    /// | `GET`, `HEAD`, `OPTIONS` | yes | no | yes |
    /// | `POST` | no | no | no |
    /// | `PUT` | no | yes | yes |
    /// | `PATCH` | no | yes | no |
    /// | `DELETE` | no | yes | yes |
    ///
    /// Any other method gives `None`.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    ///
    /// let put = ToolAnnotations::from_http_method("put").unwrap();
    /// assert!(put.destructive() && put.idempotent() && put.open_world());
    /// assert_eq!(ToolAnnotations::from_http_method("FETCH"), None);
    /// ```
    #[must_use]
    pub const fn from_http_method(method: &str) -> Option<Self> {
        match mcp_annotations_rules::http::preset(method) {
            Some(preset) => Some(ToolAnnotations::from_values(preset.hints())),
            None => None,
        }
    }
}
