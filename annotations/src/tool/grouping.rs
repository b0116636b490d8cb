//! What a server groups its tools by, beside what it lists: the toolsets a tool belongs to
//! and the authorization scopes it needs. Neither is on the wire; a [`Filter`](crate::listing::Filter)
//! decides by them which tools a server offers.

use crate::tool::Tool;

/// Whether `name` is a toolset's name: 1 to 64 of `a-z 0-9 _ -` (the rule `#[tool(toolset)]`
/// checks while compiling).
///
/// ```
/// use mcp_annotations::descriptor::is_valid_toolset_name;
///
/// assert!(is_valid_toolset_name("pull_requests"));
/// assert!(!is_valid_toolset_name("Pull Requests"));
/// assert!(!is_valid_toolset_name(""));
/// ```
#[must_use]
pub const fn is_valid_toolset_name(name: &str) -> bool {
    mcp_annotations_rules::name::is_valid_toolset_name(name)
}

/// Whether `scope` is an OAuth scope token (RFC 6749's `scope-token`: one or more printable
/// ASCII characters but space, `"` and `\`; the rule `#[tool(scopes)]` checks while compiling).
///
/// ```
/// use mcp_annotations::descriptor::is_valid_scope;
///
/// assert!(is_valid_scope("read:org"));
/// assert!(!is_valid_scope("rëpo"));
/// ```
#[must_use]
pub const fn is_valid_scope(scope: &str) -> bool {
    mcp_annotations_rules::name::is_valid_scope(scope)
}

impl Tool {
    /// The toolsets the tool belongs to (empty: none named).
    ///
    /// ```
    /// use mcp_annotations::{schema::Schema, Tool};
    ///
    /// const GET_LABEL: Tool = Tool::new("get_label", Schema::NO_INPUT)
    ///     .with_toolsets(&["issues", "labels"])
    ///     .with_scopes(&["repo"]);
    /// assert_eq!(GET_LABEL.toolsets(), ["issues", "labels"]);
    /// assert_eq!(GET_LABEL.scopes(), ["repo"]);
    /// ```
    #[must_use]
    pub const fn toolsets(&self) -> &'static [&'static str] {
        self.toolsets
    }

    /// The authorization scopes a caller must hold for the tool to be offered (empty: none).
    #[must_use]
    pub const fn scopes(&self) -> &'static [&'static str] {
        self.scopes
    }

    /// Sets the toolsets, in `const`.
    #[must_use]
    pub const fn with_toolsets(mut self, toolsets: &'static [&'static str]) -> Self {
        self.toolsets = toolsets;
        self
    }

    /// Sets the scopes, in `const`.
    #[must_use]
    pub const fn with_scopes(mut self, scopes: &'static [&'static str]) -> Self {
        self.scopes = scopes;
        self
    }

    /// The tool in `toolsets` if it names none of its own: what
    /// `tools![toolset = "issues"; ...]` does for each tool it lists.
    #[must_use]
    pub const fn or_toolsets(mut self, toolsets: &'static [&'static str]) -> Self {
        if self.toolsets.is_empty() {
            self.toolsets = toolsets;
        }
        self
    }
}
