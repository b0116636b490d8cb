//! Descriptors as rmcp's `rmcp::model::Tool`.

/// The descriptor as rmcp's `Tool`: every field kept (schemas parsed into JSON objects). rmcp
/// lists one descriptor to every session, so an output schema whose root is not an object is
/// given in the form every protocol version accepts, inside `{"result": ...}`, and results
/// through rmcp wrap such structured content the same way.
///
/// ```
/// use mcp_annotations::{schema::Schema, Tool, ToolAnnotations};
///
/// let mut ours = Tool::new("list_notes", Schema::NO_INPUT);
/// ours.annotations = ToolAnnotations::LOOKUP;
/// let theirs = rmcp::model::Tool::from(&ours);
/// assert_eq!(theirs.name, "list_notes");
/// assert_eq!(theirs.input_schema["type"], "object");
/// assert_eq!(theirs.annotations.unwrap().read_only_hint, Some(true));
/// ```
impl From<&crate::tool::Tool> for rmcp::model::Tool {
    fn from(tool: &crate::tool::Tool) -> Self {
        for_version(tool, super::UNSESSIONED_FORM, false)
    }
}

/// The descriptor as rmcp's `Tool` for a session of `version` (which decides the form of the
/// output schema), its annotations stated as they are or, `explicit`, every hint at its
/// effective value.
pub(crate) fn for_version(
    tool: &crate::tool::Tool,
    version: crate::protocol::ProtocolVersion,
    explicit: bool,
) -> rmcp::model::Tool {
    let mut out = rmcp::model::Tool::new_with_raw(
        tool.name.clone(),
        tool.description.clone(),
        json_object(&tool.input_schema),
    );
    // No request to read a declaration of tool resolution from: no marker.
    let listed = tool.listed(version, explicit, false);
    if let Some(title) = tool.title() {
        out = out.with_title(title);
    }
    if let Some(schema) = &listed.output_schema {
        out = out.with_raw_output_schema(object_of(schema));
    }
    if let Some(annotations) = &listed.annotations {
        out = out.with_annotations(annotations.as_ref().into());
    }
    // rmcp's `Tool` has no `execution`, so a task support reaches its clients only through
    // `ListingServer`, which lists each session's form itself.
    if !listed.icons.is_empty() {
        out.icons = serde_json::to_value(listed.icons)
            .and_then(serde_json::from_value)
            .ok();
    }
    // Listed to every version when it is an object: exactly when `meta_object` reads one
    // (less a tool-resolution marker written by hand).
    out.meta = listed
        .meta
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok())
        .map(rmcp::model::MetaObject);
    out
}

/// The descriptor as rmcp's `Tool`.
impl From<crate::tool::Tool> for rmcp::model::Tool {
    fn from(tool: crate::tool::Tool) -> Self {
        (&tool).into()
    }
}

fn json_object(schema: &crate::schema::Schema) -> std::sync::Arc<rmcp::model::JsonObject> {
    match schema.to_value() {
        serde_json::Value::Object(object) => std::sync::Arc::new(object),
        _ => std::sync::Arc::default(),
    }
}

/// A schema's text as rmcp's JSON object.
fn object_of(schema: &str) -> std::sync::Arc<rmcp::model::JsonObject> {
    match serde_json::from_str(schema) {
        Ok(serde_json::Value::Object(object)) => std::sync::Arc::new(object),
        _ => std::sync::Arc::default(),
    }
}
