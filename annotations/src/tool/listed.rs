//! What a protocol version lists of a tool: one decision per field, taken here and read by
//! every writer of the wire form (the `tools/list` text writer, `Serialize`, the rmcp
//! conversion), so that they cannot disagree.

use std::borrow::Cow;

use crate::hints::ToolAnnotations;
use crate::protocol::{Icon, ProtocolVersion};
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
    /// an object is left out (`Tool::check` reports it).
    pub(crate) meta: Option<&'a str>,
}

impl Tool {
    /// The tool as `version` lists it; `explicit` states every hint at its effective value.
    pub(crate) fn listed(&self, version: ProtocolVersion, explicit: bool) -> Listed<'_> {
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
            meta: self
                .meta
                .as_deref()
                .filter(|_| self.meta_object().is_some())
                .map(str::trim),
        }
    }
}
