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
//!
//! # The rule of each keyword
//!
//! An input schema's change is breaking when a call that was valid may now be refused, and
//! compatible when every valid call stays valid; an output schema's is breaking when a caller
//! may no longer find what it found. Keyword by keyword, for the input (at the top, in an
//! object parameter or a map, in an array's items, in a definition, at every depth):
//!
//! | keyword | compatible | breaking |
//! |---|---|---|
//! | `properties` | a new optional property | a property removed; a new required one |
//! | `required` | a name no longer required | a name newly required (with a property or without one) |
//! | `additionalProperties` | opened (`false` to absent, `true` or a schema) | closed (to `false`), or newly constrained; a schema for the others compared by these rules |
//! | `minimum`, `exclusiveMinimum`, `minLength`, `minItems` | lowered or removed | raised or added |
//! | `maximum`, `exclusiveMaximum`, `maxLength`, `maxItems` | raised or removed | lowered or added |
//! | `type` | a type added (`integer` to `number` too), or no longer stated | a type removed, or newly stated |
//! | `enum` | values added, or no longer an enum | a value removed, or newly an enum |
//! | `pattern`, `multipleOf`, `const` | removed | added or changed |
//! | `uniqueItems` | `true` to `false` or absent | made `true` |
//! | `anyOf` | the old schema became one of the branches (`{"anyOf": [{"type": "string"}, {"type": "null"}]}` for a string) | narrowed from the choice to one branch; any other change |
//! | `oneOf` | | any change (a value valid against two branches is refused, so even a branch added may break) |
//! | `items` | by these rules, on the items' schema | items newly stated or no longer stated |
//! | `$defs`, `definitions` | a new definition; by these rules, on each kept one | a definition removed |
//! | `patternProperties`, `dependentSchemas` | | any change of a schema they map a name to (the names are names, not keywords) |
//! | `description`, `title`, `default`, `examples`, `format`, `$comment`, `deprecated`, `$schema` | any change (nothing a call feels: not reported inside a schema) | never |
//! | any other keyword | | any change (the values of `enum` and `const` compared whole, keys named like annotations included) |
//!
//! For the output: a new field is compatible (newly always present too), a field removed,
//! changed or no longer always present is breaking, the output schema added is compatible and
//! removed breaking, and any other change of its own keywords breaking. Of the tool: removed,
//! renamed, or task support newly required is breaking; added, a title, description, icons or
//! `_meta` changed compatible; a hint's change is a trust change when it makes a host ask
//! less, else compatible. A name listed more than once is breaking, and every tool of that name
//! is compared, so no change hides behind a twin.

mod output;
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
    output::output(name, output(old).as_ref(), output(new).as_ref(), &mut out);
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
    // Newly resolvable, a host may act on per-call hints narrower than the listed ones: a
    // change of trust, as a hint narrowed is. No longer resolvable, it acts on the listed.
    if old.resolvable != new.resolvable {
        let (what, class) = if new.resolvable {
            (
                "newly resolvable: hosts that resolve its calls act on per-call hints",
                Class::Trust,
            )
        } else {
            (
                "no longer resolvable: hosts act on the listed hints",
                Class::Compatible,
            )
        };
        out.push(Change::new(name, what, class));
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
/// [`changes`], the breaking ones first. A name listed more than once (the protocol asks for
/// unique names, and a client cannot tell which one it calls) is a breaking change of its
/// own, and every tool of that name is compared with every tool of it on the other side, so
/// that no change hides behind a twin.
#[must_use]
pub fn listings(old: &[Tool], new: &[Tool]) -> Vec<Change> {
    let (was, is) = (by_name(old), by_name(new));
    let mut out = Vec::new();
    for (name, tools) in &is {
        if tools.len() > 1 {
            out.push(Change::new(
                name,
                format!("listed {} times under one name", tools.len()),
                Class::Breaking,
            ));
        }
    }
    for tool in old {
        match is.get(tool.name()) {
            Some(others) => {
                for other in others {
                    out.extend(changes(tool, other));
                }
            }
            None => out.push(Change::new(tool.name(), "tool removed", Class::Breaking)),
        }
    }
    for tool in new {
        if !was.contains_key(tool.name()) {
            out.push(Change::new(tool.name(), "tool added", Class::Compatible));
        }
    }
    out.sort_by_key(Change::class);
    out.dedup();
    out
}

/// The tools of a listing by name, each name with every tool that bears it.
fn by_name(tools: &[Tool]) -> std::collections::BTreeMap<&str, Vec<&Tool>> {
    let mut named: std::collections::BTreeMap<&str, Vec<&Tool>> = std::collections::BTreeMap::new();
    for tool in tools {
        named.entry(tool.name()).or_default().push(tool);
    }
    named
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
