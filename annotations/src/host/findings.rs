//! What a host or a tool directory finds wrong with a server's tools, read from their
//! descriptors alone: the findings the audit reports, for a host to run in-process on a
//! listing it received.

use std::collections::HashMap;
use std::fmt;

use crate::hints::Hint;
use crate::host::{Missing, Readiness};
use crate::tool::Tool;
use crate::tool::name::is_valid_tool_name;

/// How much a [`Finding`] matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Severity {
    /// Breaks the protocol or misleads a host.
    Error,
    /// Worth fixing: a host falls back to a default, a directory would turn the tool down.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// What kind of thing a [`Finding`] is: one per rule the findings check, each with a stable
/// id (`as_str`) for reports that group findings by rule (a SARIF log's `ruleId`, a CI filter).
///
/// ```
/// use mcp_annotations::host::{FindingKind, Severity};
///
/// assert_eq!(FindingKind::UnsetHint.as_str(), "unset-hint");
/// assert_eq!(FindingKind::SharedName.severity(), Severity::Error);
/// assert!(FindingKind::ALL.iter().all(|kind| !kind.description().is_empty()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum FindingKind {
    /// The name breaks the protocol's rule (1 to 128 of `A-Z a-z 0-9 _ - .`).
    InvalidName,
    /// Another tool of the listing bears the same name.
    SharedName,
    /// The input schema is not one the protocol allows (not an object schema).
    InvalidInputSchema,
    /// A hint that means nothing beside `readOnlyHint: true` is sent at its default.
    IgnoredHint,
    /// A hint is unset: a host falls back to the protocol's pessimistic default.
    UnsetHint,
    /// No title: hosts show the bare name.
    NoTitle,
    /// No description: the model must guess what the tool does.
    NoDescription,
    /// The tool lacks what a tool directory asks of a listed tool.
    NotDirectoryReady,
    /// The tool lacks what a strict tool directory asks of a listed tool.
    NotStrictDirectoryReady,
}

impl FindingKind {
    /// Every kind, in the order the findings are made.
    pub const ALL: [FindingKind; 9] = [
        FindingKind::InvalidName,
        FindingKind::SharedName,
        FindingKind::InvalidInputSchema,
        FindingKind::IgnoredHint,
        FindingKind::UnsetHint,
        FindingKind::NoTitle,
        FindingKind::NoDescription,
        FindingKind::NotDirectoryReady,
        FindingKind::NotStrictDirectoryReady,
    ];

    /// The kind's stable id, in kebab case (`"invalid-name"`, `"unset-hint"`, ...).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            FindingKind::InvalidName => "invalid-name",
            FindingKind::SharedName => "shared-name",
            FindingKind::InvalidInputSchema => "invalid-input-schema",
            FindingKind::IgnoredHint => "ignored-hint",
            FindingKind::UnsetHint => "unset-hint",
            FindingKind::NoTitle => "no-title",
            FindingKind::NoDescription => "no-description",
            FindingKind::NotDirectoryReady => "not-directory-ready",
            FindingKind::NotStrictDirectoryReady => "not-strict-directory-ready",
        }
    }

    /// What the rule checks, in a sentence.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            FindingKind::InvalidName => {
                "A tool's name must be 1 to 128 of A-Z a-z 0-9 _ - . as the protocol states."
            }
            FindingKind::SharedName => "Each tool of a listing must have a name of its own.",
            FindingKind::InvalidInputSchema => {
                "A tool's input schema must be a JSON Schema object the protocol allows."
            }
            FindingKind::IgnoredHint => Hint::IGNORED_BESIDE_READ_ONLY,
            FindingKind::UnsetHint => {
                "An unset hint makes a host fall back to the protocol's pessimistic default."
            }
            FindingKind::NoTitle => "A tool without a title is shown to users by its bare name.",
            FindingKind::NoDescription => {
                "A tool without a description leaves the model to guess what it does."
            }
            FindingKind::NotDirectoryReady => {
                "A tool directory lists a tool only with what it asks of one."
            }
            FindingKind::NotStrictDirectoryReady => {
                "A strict tool directory lists a tool only with what it asks of one."
            }
        }
    }

    /// How much a finding of this kind matters.
    #[must_use]
    pub const fn severity(self) -> Severity {
        match self {
            FindingKind::InvalidName
            | FindingKind::SharedName
            | FindingKind::InvalidInputSchema => Severity::Error,
            _ => Severity::Warning,
        }
    }
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One thing found about a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// Which rule found it.
    pub kind: FindingKind,
    /// How much it matters (the kind's [`severity`](FindingKind::severity)).
    pub severity: Severity,
    /// What was found, in a sentence.
    pub message: String,
}

impl Finding {
    /// A finding of `kind`, at the kind's severity.
    ///
    /// ```
    /// use mcp_annotations::host::{Finding, FindingKind, Severity};
    ///
    /// let finding = Finding::new(FindingKind::SharedName, "3 tools share this name");
    /// assert_eq!(finding.severity, Severity::Error);
    /// assert_eq!(finding.to_string(), "error: 3 tools share this name");
    /// ```
    #[must_use]
    pub fn new(kind: FindingKind, message: impl Into<String>) -> Finding {
        Finding {
            kind,
            severity: kind.severity(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity.as_str(), self.message)
    }
}

/// The findings of each of `tools` (a server's listing, as received), in order: a name
/// outside the protocol's rule or shared with another tool, an input schema the protocol does
/// not allow, hints ignored beside `readOnlyHint: true`, hints unset (and the default a host
/// falls back to), no title or description, not ready for a tool directory.
///
/// ```
/// use mcp_annotations::{schema::Schema, host::Severity, Tool, ToolAnnotations, host::findings};
///
/// let tools = [
///     Tool::new("read", Schema::NO_INPUT).with_annotations(ToolAnnotations::new().with_read_only(true)),
///     Tool::new("read", Schema::NO_INPUT),
/// ];
/// let found = findings(&tools);
/// assert!(found[0].iter().any(|f| f.severity == Severity::Error && f.message == "2 tools share this name"));
/// assert!(found[1].iter().any(|f| f.message == "`readOnlyHint` unset: a host assumes not read-only"));
/// ```
#[must_use]
pub fn findings(tools: &[Tool]) -> Vec<Vec<Finding>> {
    let mut names: HashMap<&str, usize> = HashMap::new();
    for tool in tools {
        *names.entry(tool.name()).or_default() += 1;
    }
    tools
        .iter()
        .map(|tool| tool_findings(tool, names.get(tool.name()).copied().unwrap_or(1)))
        .collect()
}

/// The findings of one tool, `sharing` tools (itself included) bearing its name.
fn tool_findings(tool: &Tool, sharing: usize) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut push = |kind, message: String| found.push(Finding::new(kind, message));
    if !is_valid_tool_name(tool.name()) {
        push(
            FindingKind::InvalidName,
            "the name breaks the protocol's rule (1 to 128 of A-Z a-z 0-9 _ - .)".into(),
        );
    }
    if sharing > 1 {
        push(
            FindingKind::SharedName,
            format!("{sharing} tools share this name"),
        );
    }
    if let Err(error) = tool.input_schema.check_input() {
        push(FindingKind::InvalidInputSchema, error.to_string());
    }
    let hints = &tool.annotations;
    // The protocol's precedence: beside `readOnlyHint: true` these two mean nothing, and SDKs
    // that seed every hint send them with every read-only tool. Worth removing, not wrong.
    let read_only = hints.read_only_hint == Some(true);
    if read_only {
        for hint in Hint::ALL
            .into_iter()
            .filter(|hint| hint.implied_by_read_only())
        {
            // SDKs that seed every hint send its default (`destructiveHint: true`,
            // `idempotentHint: false`) with a read-only tool too, where it means nothing.
            let seeded = hint.default_value();
            if hints.hint(hint) == Some(seeded) {
                push(
                    FindingKind::IgnoredHint,
                    format!(
                        "`{}: {seeded}` is ignored: the tool is read-only",
                        hint.wire_name()
                    ),
                );
            }
        }
    }
    for hint in Hint::ALL {
        let implied = read_only && hint.implied_by_read_only();
        if hints.hint(hint).is_none() && !implied {
            push(
                FindingKind::UnsetHint,
                format!(
                    "`{}` unset: a host assumes {}",
                    hint.wire_name(),
                    hint.words(hint.default_value())
                ),
            );
        }
    }
    if tool.title().is_none() && tool.annotations.title().is_none() {
        push(FindingKind::NoTitle, "no title: hosts show the name".into());
    }
    if tool.description().is_none() {
        push(
            FindingKind::NoDescription,
            "no description: the model must guess what the tool does".into(),
        );
    }
    for (level, kind, what) in [
        (
            Readiness::Directory,
            FindingKind::NotDirectoryReady,
            "a tool directory",
        ),
        (
            Readiness::Strict,
            FindingKind::NotStrictDirectoryReady,
            "a strict tool directory",
        ),
    ] {
        // A missing title is reported above.
        if let Some(missing) = tool.missing_for(level).filter(|m| *m != Missing::Title) {
            push(kind, format!("not ready for {what}: it lacks {missing}"));
        }
    }
    found
}
