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

/// One thing found about a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// How much it matters.
    pub severity: Severity,
    /// What was found, in a sentence.
    pub message: String,
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
    let mut push = |severity, message: String| found.push(Finding { severity, message });
    if !is_valid_tool_name(tool.name()) {
        push(
            Severity::Error,
            "the name breaks the protocol's rule (1 to 128 of A-Z a-z 0-9 _ - .)".into(),
        );
    }
    if sharing > 1 {
        push(Severity::Error, format!("{sharing} tools share this name"));
    }
    if let Err(error) = tool.input_schema.check_input() {
        push(Severity::Error, error.to_string());
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
                    Severity::Warning,
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
                Severity::Warning,
                format!(
                    "`{}` unset: a host assumes {}",
                    hint.wire_name(),
                    hint.words(hint.default_value())
                ),
            );
        }
    }
    if tool.title().is_none() && tool.annotations.title().is_none() {
        push(Severity::Warning, "no title: hosts show the name".into());
    }
    if tool.description().is_none() {
        push(
            Severity::Warning,
            "no description: the model must guess what the tool does".into(),
        );
    }
    for (level, what) in [
        (Readiness::Directory, "a tool directory"),
        (Readiness::Strict, "a strict tool directory"),
    ] {
        // A missing title is reported above.
        if let Some(missing) = tool.missing_for(level).filter(|m| *m != Missing::Title) {
            push(
                Severity::Warning,
                format!("not ready for {what}: it lacks {missing}"),
            );
        }
    }
    found
}
