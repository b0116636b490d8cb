//! Parameters of types that derive `schemars::JsonSchema` (the `schemars` feature): their
//! schema comes from schemars, nested definitions moved to the input schema's root.

use mcp_annotations::tool;
use schemars::JsonSchema;
use serde_json::json;

/// How urgent a note is.
#[derive(JsonSchema, serde::Deserialize)]
#[allow(dead_code)]
pub enum Priority {
    Low,
    High,
}

/// Where a note is filed.
#[derive(JsonSchema, serde::Deserialize)]
#[allow(dead_code)]
pub struct Folder {
    /// The folder's name
    pub name: String,
    /// Sub-folder, if any
    pub inner: Option<Box<Folder>>,
}

/// File a note.
#[allow(dead_code)]
#[tool(open_world = false, title = "File note")]
fn file_note(priority: Priority, folder: Folder, tags: Vec<Priority>) {
    let _ = (priority, folder, tags);
}

#[test]
fn schemars_types_are_parameters() {
    assert!(!FILE_NOTE_TOOL.input_schema.is_static());
    let schema = FILE_NOTE_TOOL.input_schema.to_value();
    assert_eq!(
        schema["properties"]["priority"]["enum"],
        json!(["Low", "High"])
    );
    assert_eq!(
        schema["properties"]["tags"]["items"]["enum"],
        json!(["Low", "High"])
    );
    // schemars states no dialect for a subschema, so the input schema states none either.
    assert!(!FILE_NOTE_TOOL.input_schema.as_str().contains("$schema"));
    // A recursive type refers to a definition at the root, never to the root itself.
    let inner = &schema["properties"]["folder"]["properties"]["inner"];
    assert_eq!(inner["anyOf"][0]["$ref"], "#/$defs/Folder");
    assert!(schema["$defs"]["Folder"].is_object());
    assert_eq!(schema["required"], json!(["priority", "folder", "tags"]));
    FILE_NOTE_TOOL.check().unwrap();
}

#[test]
fn the_schema_accepts_what_it_describes_and_rejects_the_rest() {
    let validator = jsonschema::validator_for(&FILE_NOTE_TOOL.input_schema.to_value()).unwrap();
    let good = json!({
        "priority": "Low",
        "folder": {"name": "work", "inner": {"name": "2026", "inner": null}},
        "tags": ["High"]
    });
    assert!(validator.is_valid(&good));
    for bad in [
        json!({"priority": "Medium", "folder": {"name": "work"}, "tags": []}),
        json!({"priority": "Low", "folder": {"name": "work", "inner": {"name": 3}}, "tags": []}),
        json!({"priority": "Low", "folder": {"name": "work"}}),
        json!({"priority": "Low", "folder": {"name": "work"}, "tags": [], "extra": 1}),
    ] {
        assert!(!validator.is_valid(&bad), "{bad}");
    }
}
