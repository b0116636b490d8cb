//! What a protocol version lists of a tool: one decision per field, taken here and read by
//! every writer of the wire form (the `tools/list` text writer, `Serialize`, the rmcp
//! conversion), so that they cannot disagree.

use std::borrow::Cow;

use crate::hints::ToolAnnotations;
use crate::protocol::{Icon, ProtocolVersion, RESOLVABLE_MARKER, TOOL_RESOLUTION};
use crate::tool::{TaskSupport, Tool};

/// A tool as one protocol version lists it: each field present only where that version
/// defines it and the tool states it.
pub(crate) struct Listed<'a> {
    /// The output schema in the form the version takes (a non-object root inside
    /// `{"result": ...}` before 2026-07-28).
    pub(crate) output_schema: Option<Cow<'a, str>>,
    /// The annotations, as stated or every hint at its effective value; `None` when nothing
    /// is stated and nothing is asked for.
    pub(crate) annotations: Option<Cow<'a, ToolAnnotations>>,
    /// The icons, empty before 2025-11-25.
    pub(crate) icons: &'a [Icon],
    /// `execution.taskSupport`, 2025-11-25 alone (2026-07-28 dropped it).
    pub(crate) task_support: Option<TaskSupport>,
    /// The `_meta` text as written (numbers keep their digits); text set by hand that is not
    /// an object is left out (`Tool::check` reports it). With the tool-resolution marker first
    /// where the tool is resolvable and the client declared the extension; a marker written by
    /// hand is never listed.
    pub(crate) meta: Option<Cow<'a, str>>,
}

impl Tool {
    /// The tool as `version` lists it; `explicit` states every hint at its effective value;
    /// `resolution` says whether the client declared the tool-resolution extension.
    pub(crate) fn listed(
        &self,
        version: ProtocolVersion,
        explicit: bool,
        resolution: bool,
    ) -> Listed<'_> {
        let annotations = if explicit {
            Some(Cow::Owned(self.annotations.explicit()))
        } else {
            (!self.annotations.is_empty()).then_some(Cow::Borrowed(&self.annotations))
        };
        Listed {
            output_schema: self.output_schema_for(version),
            annotations,
            icons: if version.has_icons() {
                &self.icons
            } else {
                &[]
            },
            task_support: self.task_support.filter(|_| version.has_task_support()),
            meta: self.listed_meta(resolution && self.resolvable),
        }
    }

    /// The `_meta` text listed: as written, with the tool-resolution marker first when
    /// `marked`, and without a marker written by hand.
    fn listed_meta(&self, marked: bool) -> Option<Cow<'_, str>> {
        let object = self.meta_object();
        let text = self
            .meta
            .as_deref()
            .filter(|_| object.is_some())
            .map(str::trim);
        let by_hand = object
            .as_ref()
            .is_some_and(|object| object.contains_key(TOOL_RESOLUTION));
        if by_hand {
            // Rare (a peer's tool, or a marker set by hand): rewritten from the object.
            let mut object = object.unwrap_or_default();
            object.remove(TOOL_RESOLUTION);
            if object.is_empty() && !marked {
                return None;
            }
            let rest = serde_json::Value::Object(object).to_string();
            return Some(if marked {
                Cow::Owned(with_marker(&rest))
            } else {
                Cow::Owned(rest)
            });
        }
        match (text, marked) {
            (text, false) => text.map(Cow::Borrowed),
            (Some(text), true) => Some(Cow::Owned(with_marker(text))),
            (None, true) => Some(Cow::Owned(format!("{{{RESOLVABLE_MARKER}}}"))),
        }
    }
}

/// The object `text` (`{...}`, trimmed) with the tool-resolution marker as its first entry.
fn with_marker(text: &str) -> String {
    let inner = text
        .strip_prefix('{')
        .and_then(|inner| inner.strip_suffix('}'))
        .unwrap_or("")
        .trim();
    if inner.is_empty() {
        format!("{{{RESOLVABLE_MARKER}}}")
    } else {
        format!("{{{RESOLVABLE_MARKER},{inner}}}")
    }
}
