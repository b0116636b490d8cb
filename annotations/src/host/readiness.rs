//! Whether a tool is ready for a tool directory: what each [`Readiness`] level asks of a
//! descriptor, and what a tool lacks for it ([`Missing`]).

use std::fmt;

use crate::tool::Tool;

impl Tool {
    /// The first thing that keeps this tool from being listed in a directory at `level`, or
    /// `None` if it is ready. `const`, so `tools!` checks it while compiling.
    ///
    /// ```
    /// use mcp_annotations::{host::Readiness, schema::Schema, Tool, ToolAnnotations};
    ///
    /// let mut tool = Tool::new("list_notes", Schema::NO_INPUT);
    /// assert_eq!(tool.missing_for(Readiness::Directory), Some(Missing::Title));
    /// tool.title = Some("List notes".into());
    /// tool.annotations = ToolAnnotations::new().with_read_only(true);
    /// assert_eq!(tool.missing_for(Readiness::Directory), None);
    /// assert_eq!(tool.missing_for(Readiness::Strict), Some(Missing::DestructiveHint));
    /// # use mcp_annotations::host::Missing;
    /// ```
    #[must_use]
    pub const fn missing_for(&self, level: Readiness) -> Option<Missing> {
        if self.title().is_none() && self.annotations.title().is_none() {
            return Some(Missing::Title);
        }
        let hints = &self.annotations;
        match level {
            Readiness::Directory => {
                if hints.read_only_hint.is_none() && hints.destructive_hint.is_none() {
                    return Some(Missing::ReadOnlyOrDestructiveHint);
                }
            }
            Readiness::Strict => {
                if hints.read_only_hint.is_none() {
                    return Some(Missing::ReadOnlyHint);
                }
                if hints.destructive_hint.is_none() {
                    return Some(Missing::DestructiveHint);
                }
                if hints.open_world_hint.is_none() {
                    return Some(Missing::OpenWorldHint);
                }
            }
        }
        None
    }
}

/// How ready for a tool directory a listing must be, from `tools![ready = ...; ...]` or
/// [`Tool::missing_for`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Readiness {
    /// A display title, and at least one of `readOnlyHint` and `destructiveHint` stated (what
    /// Anthropic's MCP directory asks of each tool).
    Directory,
    /// A display title, and `readOnlyHint`, `destructiveHint` and `openWorldHint` all stated
    /// (what OpenAI's Apps SDK lists as required).
    Strict,
}

/// What a tool lacks for a [`Readiness`] level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Missing {
    /// No `title`, top-level or in the annotations.
    Title,
    /// Neither `readOnlyHint` nor `destructiveHint` is stated.
    ReadOnlyOrDestructiveHint,
    /// `readOnlyHint` is not stated.
    ReadOnlyHint,
    /// `destructiveHint` is not stated.
    DestructiveHint,
    /// `openWorldHint` is not stated.
    OpenWorldHint,
}

impl Missing {
    /// What is missing, as a phrase: "a title", "`readOnlyHint`", ...
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Missing::Title => "a title",
            Missing::ReadOnlyOrDestructiveHint => "`readOnlyHint` or `destructiveHint`",
            Missing::ReadOnlyHint => "`readOnlyHint`",
            Missing::DestructiveHint => "`destructiveHint`",
            Missing::OpenWorldHint => "`openWorldHint`",
        }
    }

    /// The `#[tool]` key that supplies it, as a phrase: for
    /// [`ReadOnlyOrDestructiveHint`](Self::ReadOnlyOrDestructiveHint), "read_only or
    /// destructive", either of which does. [`remedy`](Self::remedy) says it as attributes.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Missing::Title => "title = \"...\"",
            Missing::ReadOnlyOrDestructiveHint => "read_only or destructive",
            Missing::ReadOnlyHint => "read_only",
            Missing::DestructiveHint => "destructive",
            Missing::OpenWorldHint => "open_world",
        }
    }

    /// What to write to supply it: `#[tool(title = "...")]`, `#[tool(read_only)] or
    /// #[tool(destructive)]`, ...
    #[must_use]
    pub const fn remedy(self) -> &'static str {
        match self {
            Missing::Title => "#[tool(title = \"...\")]",
            Missing::ReadOnlyOrDestructiveHint => "#[tool(read_only)] or #[tool(destructive)]",
            Missing::ReadOnlyHint => "#[tool(read_only)]",
            Missing::DestructiveHint => "#[tool(destructive)]",
            Missing::OpenWorldHint => "#[tool(open_world)]",
        }
    }
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
