//! A hand-written `ToolSchema` in draft-07's shape, its definitions under `definitions`: every
//! `$ref` of the listed input schema and of each version's output schema resolves in the
//! document listed (only `$defs` used to be moved to the root, leaving `#/definitions/...`
//! pointing nowhere).

use mcp_annotations::{Json, ProtocolVersion, ToolSchema, tool};
use serde_json::{Value, json};

/// A tree of folders, written as draft-07 tools write it.
#[derive(serde::Deserialize, serde::Serialize)]
pub struct Tree {
    pub name: String,
    pub children: Vec<Tree>,
}

impl ToolSchema for Tree {
    fn tool_schema() -> Value {
        json!({
            "$ref": "#/definitions/Node",
            "definitions": {
                "Node": {
                    "type": "object",
                    "properties": {
                        "name": {"$ref": "#/definitions/Name"},
                        "children": {"type": "array", "items": {"$ref": "#/definitions/Node"}}
                    },
                    "required": ["name", "children"]
                },
                "Name": {"type": "string", "minLength": 1}
            }
        })
    }
}

/// Copy a tree.
#[allow(dead_code)] // listed by its descriptor alone
#[tool(destructive = false, open_world = false)]
fn copy_tree(tree: Tree) -> Json<Tree> {
    Json(tree)
}

/// A URI fragment's `%XX` escapes decoded.
fn percent_decoded(text: &str) -> String {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], text.get(i + 1..i + 3)) {
            (b'%', Some(hex)) if u8::from_str_radix(hex, 16).is_ok() => {
                out.push(u8::from_str_radix(hex, 16).unwrap());
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

/// Every `$ref` in `schema` that does not resolve in `document`.
fn dangling(document: &Value, schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::String(target)) = object.get("$ref") {
                let resolved = target
                    .strip_prefix('#')
                    .and_then(|pointer| document.pointer(&percent_decoded(pointer)));
                if resolved.is_none() {
                    out.push(target.clone());
                }
            }
            object
                .values()
                .for_each(|value| dangling(document, value, out));
        }
        Value::Array(items) => items.iter().for_each(|item| dangling(document, item, out)),
        _ => {}
    }
}

fn refs_resolve(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    dangling(schema, schema, &mut out);
    out
}

#[test]
fn draft_07_definitions_resolve_in_every_listed_schema() {
    let input = COPY_TREE_TOOL.input_schema.to_value();
    assert_eq!(refs_resolve(&input), Vec::<String>::new(), "{input}");
    assert!(input.to_string().contains("#/$defs/Node"), "{input}");
    for version in ProtocolVersion::ALL {
        let text = COPY_TREE_TOOL.output_schema_for(version).unwrap();
        let output: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            refs_resolve(&output),
            Vec::<String>::new(),
            "{version}: {output}"
        );
        // And it is a schema a validator reads, which takes a tree.
        let validator = jsonschema::validator_for(&output).unwrap();
        let tree = json!({"name": "root", "children": [{"name": "a", "children": []}]});
        // An object result is written as it is in every version.
        assert!(validator.is_valid(&tree), "{version}: {output}");
    }
    let validator = jsonschema::validator_for(&input).unwrap();
    assert!(validator.is_valid(&json!({"tree": {"name": "r", "children": []}})));
    assert!(!validator.is_valid(&json!({"tree": {"name": "", "children": []}})));
}

/// Every listed schema of the suite's listing of every parameter type resolves, input and
/// output, in each version.
#[test]
fn every_listed_schema_of_the_suites_tools_resolves() {
    let tools = annotations_tests::tools::ALL
        .tools()
        .iter()
        .chain(std::iter::once(&COPY_TREE_TOOL));
    for tool in tools {
        let input = tool.input_schema.to_value();
        assert_eq!(
            refs_resolve(&input),
            Vec::<String>::new(),
            "{}: {input}",
            tool.name()
        );
        for version in ProtocolVersion::ALL {
            if let Some(text) = tool.output_schema_for(version) {
                let output: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(
                    refs_resolve(&output),
                    Vec::<String>::new(),
                    "{}: {output}",
                    tool.name()
                );
            }
        }
    }
}

/// Definitions nested in definitions, a `$ref` written percent-encoded, and a default that
/// holds a key named `definitions` (data, not a schema).
#[derive(serde::Deserialize)]
pub struct Awkward(Value);

impl ToolSchema for Awkward {
    fn tool_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "inner": {"$ref": "#/definitions/A/definitions/B"},
                "spaced": {"$ref": "#/definitions/My%20Type"},
                "glossary": {"type": "object", "default": {"definitions": {"word": "meaning"}}}
            },
            "definitions": {
                "A": {"type": "object", "definitions": {"B": {"type": "integer"}}},
                "My Type": {"type": "string"}
            }
        })
    }
}

/// Take an awkward value.
#[allow(dead_code)] // listed by its descriptor alone
#[tool(read_only, open_world = false)]
fn awkward(value: Awkward) {
    let _ = value.0;
}

#[test]
fn nested_encoded_and_data_definitions_stay_true() {
    let input = AWKWARD_TOOL.input_schema.to_value();
    assert_eq!(refs_resolve(&input), Vec::<String>::new(), "{input}");
    let value = &input["properties"]["value"];
    // The default is the data it was.
    assert_eq!(
        value["properties"]["glossary"]["default"],
        json!({"definitions": {"word": "meaning"}}),
        "{input}"
    );
    assert!(input["$defs"].get("word").is_none(), "{input}");
    let validator = jsonschema::validator_for(&input).unwrap();
    assert!(validator.is_valid(&json!({"value": {"inner": 3, "spaced": "s"}})));
    assert!(!validator.is_valid(&json!({"value": {"inner": "three"}})));
}
