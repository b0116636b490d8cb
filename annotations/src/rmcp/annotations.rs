//! `ToolAnnotations` both ways with rmcp's `rmcp::model::ToolAnnotations`, every field kept.

use std::borrow::Cow;

use crate::hints::ToolAnnotations;

/// Keeps every field; a borrowed title becomes an owned `String`, as rmcp stores it.
///
/// ```
/// let ours = mcp_annotations::ToolAnnotations::LOOKUP.with_title("List notes");
/// let theirs = rmcp::model::ToolAnnotations::from(ours.clone());
/// assert_eq!(theirs.read_only_hint, Some(true));
/// assert_eq!(mcp_annotations::ToolAnnotations::from(theirs), ours);
/// ```
impl From<ToolAnnotations> for rmcp::model::ToolAnnotations {
    fn from(annotations: ToolAnnotations) -> Self {
        rmcp::model::ToolAnnotations::from_raw(
            annotations.title.map(Cow::into_owned),
            annotations.read_only_hint,
            annotations.destructive_hint,
            annotations.idempotent_hint,
            annotations.open_world_hint,
        )
    }
}

/// Keeps every field, by reference (clones the title).
impl From<&ToolAnnotations> for rmcp::model::ToolAnnotations {
    fn from(annotations: &ToolAnnotations) -> Self {
        annotations.clone().into()
    }
}

/// Keeps every field; the title is owned.
impl From<rmcp::model::ToolAnnotations> for ToolAnnotations {
    fn from(annotations: rmcp::model::ToolAnnotations) -> Self {
        ToolAnnotations {
            title: annotations.title.map(Cow::Owned),
            read_only_hint: annotations.read_only_hint,
            destructive_hint: annotations.destructive_hint,
            idempotent_hint: annotations.idempotent_hint,
            open_world_hint: annotations.open_world_hint,
        }
    }
}

/// Keeps every field, by reference (clones the title).
impl From<&rmcp::model::ToolAnnotations> for ToolAnnotations {
    fn from(annotations: &rmcp::model::ToolAnnotations) -> Self {
        annotations.clone().into()
    }
}
