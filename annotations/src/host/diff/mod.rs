//! What changed between two versions of a tool, or of a listing, each change classified by
//! what it does to the clients and hosts that rely on it: [`Class::Breaking`] (a call that
//! worked may now fail), [`Class::Trust`] (a host would now ask the user less: a tool newly
//! read-only, non-destructive, idempotent or closed-world, which is also what a rug pull looks
//! like) and [`Class::Compatible`] (everything else).
//!
//! ```
//! use mcp_annotations::host::diff::{Class, changes};
//! use mcp_annotations::{schema::Schema, Tool, ToolAnnotations};
//!
//! let old = Tool::new("delete_note", Schema::NO_INPUT)
//!     .with_annotations(ToolAnnotations::new().with_destructive(true));
//! let new = Tool::new("delete_note", Schema::NO_INPUT)
//!     .with_annotations(ToolAnnotations::new().with_destructive(false));
//! let found = changes(&old, &new);
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].class(), Class::Trust);
//! assert_eq!(found[0].to_string(), "`delete_note`: newly non-destructive (trust)");
//! ```

mod schema;

use std::fmt;

use crate::hints::{Hint, ToolAnnotations};
use crate::tool::{TaskSupport, Tool};

/// How a change reaches those who rely on a tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Class {
    /// A client's call that worked may now fail: a tool or parameter removed, a parameter
    /// newly required, a type changed, a bound, length or enum narrowed, a pattern changed,
    /// an output schema narrowed or removed.
    Breaking,
    /// A host would now ask less: newly read-only, newly non-destructive, newly idempotent,
    /// newly closed-world (judged on the effective hints). Harmless if true, and exactly what
    /// a server that turns on its users would change: review these.
    Trust,
    /// Neither: descriptions, titles, a new optional parameter, a widened bound, a new tool,
    /// a hint that makes hosts ask more.
    Compatible,
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Class::Breaking => "breaking",
            Class::Trust => "trust",
            Class::Compatible => "compatible",
        })
    }
}

/// One change to a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    tool: String,
    what: String,
    class: Class,
}

impl Change {
    /// A change to `tool`, said as `what`, of `class`: what a tool of your own that compares
    /// tools (as `mcp-annotations-verify`'s snapshots do) reports beside [`changes`]'.
    ///
    /// ```
    /// use mcp_annotations::host::diff::{Change, Class};
    ///
    /// let removed = Change::new("delete_note", "tool removed", Class::Breaking);
    /// assert_eq!((removed.tool(), removed.class()), ("delete_note", Class::Breaking));
    /// ```
    #[must_use]
    pub fn new(tool: &str, what: impl Into<String>, class: Class) -> Self {
        Change {
            tool: tool.to_owned(),
            what: what.into(),
            class,
        }
    }

    /// The tool's name.
    #[must_use]
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// What changed, in words (`parameter \`limit\` newly required`).
    #[must_use]
    pub fn what(&self) -> &str {
        &self.what
    }

    /// How it reaches clients and hosts.
    #[must_use]
    pub const fn class(&self) -> Class {
        self.class
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {} ({})", self.tool, self.what, self.class)
    }
}

/// Every change from `old` to `new` (the same tool, by name, in two versions), the breaking
/// ones first.
#[must_use]
pub fn changes(old: &Tool, new: &Tool) -> Vec<Change> {
    let name = new.name();
    let mut out = Vec::new();
    if old.name() != new.name() {
        out.push(Change::new(
            old.name(),
            format!("renamed to `{}`", new.name()),
            Class::Breaking,
        ));
    }
    schema::input(
        name,
        &old.input_schema.to_value(),
        &new.input_schema.to_value(),
        &mut out,
    );
    let output = |tool: &Tool| {
        tool.output_schema
            .as_ref()
            .map(crate::schema::Schema::to_value)
    };
    schema::output(name, output(old).as_ref(), output(new).as_ref(), &mut out);
    hints(name, &old.annotations, &new.annotations, &mut out);
    if old.title() != new.title() || old.annotations.title != new.annotations.title {
        out.push(Change::new(name, "title changed", Class::Compatible));
    }
    if old.description() != new.description() {
        out.push(Change::new(name, "description changed", Class::Compatible));
    }
    if old.icons() != new.icons() {
        out.push(Change::new(name, "icons changed", Class::Compatible));
    }
    if old.meta_object() != new.meta_object() {
        out.push(Change::new(name, "`_meta` changed", Class::Compatible));
    }
    if old.task_support != new.task_support {
        let class = if new.task_support == Some(TaskSupport::Required) {
            Class::Breaking
        } else {
            Class::Compatible
        };
        let said = |support: Option<TaskSupport>| support.map_or("unstated", TaskSupport::as_str);
        out.push(Change::new(
            name,
            format!(
                "task support {} -> {}",
                said(old.task_support),
                said(new.task_support)
            ),
            class,
        ));
    }
    out.sort_by_key(Change::class);
    out
}

/// Every change from the tools `old` to the tools `new` (two versions of a listing, matched
/// by name): each tool removed (breaking) or added (compatible), and each common tool's
/// [`changes`], the breaking ones first.
#[must_use]
pub fn listings(old: &[Tool], new: &[Tool]) -> Vec<Change> {
    let mut out = Vec::new();
    for tool in old {
        match new.iter().find(|other| other.name() == tool.name()) {
            Some(other) => out.extend(changes(tool, other)),
            None => out.push(Change::new(tool.name(), "tool removed", Class::Breaking)),
        }
    }
    for tool in new {
        if !old.iter().any(|other| other.name() == tool.name()) {
            out.push(Change::new(tool.name(), "tool added", Class::Compatible));
        }
    }
    out.sort_by_key(Change::class);
    out
}

/// The hints, judged on their effective values (an unset hint is its default).
fn hints(name: &str, old: &ToolAnnotations, new: &ToolAnnotations, out: &mut Vec<Change>) {
    for hint in Hint::ALL {
        let (was, is) = (old.effective(hint), new.effective(hint));
        if was == is {
            continue;
        }
        // A host asks less for the trusted value: a change to it is a change of trust.
        let class = if is == hint.trusted_value() {
            Class::Trust
        } else {
            Class::Compatible
        };
        out.push(Change::new(
            name,
            format!("newly {}", hint.words(is)),
            class,
        ));
    }
}
