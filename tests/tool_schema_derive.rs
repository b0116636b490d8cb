//! `#[derive(ToolSchema)]`: schemas written while compiling that follow serde's reading, so a
//! handler reads exactly what its input schema lists; and `#[derive(Tool)]` structs named and
//! required the way serde reads them.

use annotations::{CallTool, Context, Listing, Tool, ToolSchema, tool, tools};
use serde::Deserialize;
use serde_json::{Value, json};

/// One thing the graph knows.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Entity {
    /// The entity's name
    pub name: String,
    /// Its type
    pub entity_type: String,
    /// What is known of it
    #[serde(default)]
    pub observations: Vec<String>,
    /// Where it came from
    #[serde(rename = "src", alias = "origin")]
    pub source: Option<String>,
    /// Never read from the model
    #[serde(skip)]
    pub cached: u8,
}

/// How results are sorted.
#[derive(ToolSchema, Deserialize, Debug, Clone, Copy, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SortBy {
    /// By name
    Name,
    /// By size
    FileSize,
    #[serde(rename = "mtime")]
    Modified,
}

/// Add entities to the graph.
#[tool(read_only = false, destructive = false, open_world = false)]
fn create_entities(
    entities: Vec<Entity>,
    #[schema(default = SortBy::Name)] sort_by: SortBy,
) -> String {
    format!("{entities:?} {sort_by:?}")
}

/// A tool struct named and read as serde reads it.
#[derive(Tool, Deserialize)]
#[tool(read_only, open_world = false)]
#[serde(rename_all = "camelCase")]
pub struct OpenNodes {
    /// Names of the nodes
    pub node_names: Vec<String>,
    /// Include relations
    #[serde(default)]
    pub with_relations: bool,
    #[serde(skip)]
    pub internal: u32,
}

impl CallTool<()> for OpenNodes {
    type Output = String;

    async fn call(self, _: &(), _: Context<'_>) -> String {
        format!(
            "{:?} {} {}",
            self.node_names, self.with_relations, self.internal
        )
    }
}

static TOOLS: Listing = tools![create_entities, OpenNodes];

fn call(name: &str, arguments: Value) -> annotations::ToolResult {
    let call = TOOLS
        .call(&(), name, arguments.as_object().cloned(), Context::none())
        .unwrap();
    tokio::runtime::Runtime::new().unwrap().block_on(call)
}

#[test]
fn a_structs_schema_is_what_serde_reads() {
    let schema = Entity::tool_schema();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "description": "One thing the graph knows.",
            "properties": {
                "name": {"type": "string", "description": "The entity's name"},
                "entityType": {"type": "string", "description": "Its type"},
                "observations": {"type": "array", "items": {"type": "string"}, "description": "What is known of it"},
                "origin": {"type": ["string", "null"], "description": "Where it came from"},
                "src": {"type": ["string", "null"], "description": "Where it came from"}
            },
            "required": ["name", "entityType"],
            "additionalProperties": false
        })
    );
    jsonschema::meta::validate(&schema).unwrap();
}

#[test]
fn a_unit_enums_schema_is_its_names() {
    assert_eq!(
        SortBy::tool_schema(),
        json!({"type": "string", "description": "How results are sorted.", "enum": ["name", "file_size", "mtime"]})
    );
}

#[test]
fn the_handler_reads_exactly_what_the_schema_lists() {
    let schema = CREATE_ENTITIES_TOOL.input_schema.to_value();
    assert_eq!(schema["properties"]["sort_by"]["default"], "name");
    let validator = jsonschema::validator_for(&schema).unwrap();
    let good = json!({"entities": [{"name": "Ada", "entityType": "person", "src": "wiki"}, {"name": "B", "entityType": "x", "origin": "o"}]});
    assert!(validator.is_valid(&good));
    let result = call("create_entities", good);
    assert!(!result.is_error, "{}", result.text_content());
    assert!(result.text_content().contains("entity_type: \"person\""));
    assert!(result.text_content().ends_with("Name"));
    for bad in [
        json!({"entities": [{"name": "Ada"}]}),
        json!({"entities": [{"name": "Ada", "entity_type": "person"}]}),
        json!({"entities": [{"name": "Ada", "entityType": "person", "cached": 1}]}),
        json!({"entities": [], "sort_by": "size"}),
    ] {
        assert!(!validator.is_valid(&bad), "the schema refuses {bad}");
        assert!(
            call("create_entities", bad.clone()).is_error,
            "the call refuses {bad}"
        );
    }
    let sorted = call(
        "create_entities",
        json!({"entities": [], "sort_by": "mtime"}),
    );
    assert!(
        sorted.text_content().ends_with("Modified"),
        "{}",
        sorted.text_content()
    );
}

#[test]
fn a_tool_struct_is_named_and_required_as_serde_reads_it() {
    let tool: &Tool = TOOLS.get("open_nodes").unwrap();
    let schema = tool.input_schema.to_value();
    let names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["nodeNames", "withRelations"]);
    assert_eq!(schema["required"], json!(["nodeNames"]));
    let result = call("open_nodes", json!({"nodeNames": ["a"]}));
    assert_eq!(result.text_content(), r#"["a"] false 0"#);
    let result = call(
        "open_nodes",
        json!({"nodeNames": ["a"], "withRelations": true}),
    );
    assert_eq!(result.text_content(), r#"["a"] true 0"#);
    assert!(call("open_nodes", json!({"node_names": ["a"]})).is_error);
}

/// Enums with data, in each of serde's taggings: the schema accepts exactly what serde reads.
#[allow(dead_code)] // The variants are read by serde and compared, never used.
mod tagged_enums {
    use annotations::ToolSchema;
    use serde::Deserialize;
    use serde_json::{Value, json};

    #[derive(ToolSchema, Deserialize, Debug)]
    #[serde(rename_all = "snake_case")]
    pub enum External {
        Stop,
        Move { x: i32, y: i32 },
        Say(String),
    }

    #[derive(ToolSchema, Deserialize, Debug)]
    #[serde(tag = "kind", deny_unknown_fields)]
    pub enum Internal {
        Circle { radius: f64 },
        Square { side: f64 },
        Empty,
    }

    #[derive(ToolSchema, Deserialize, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        Text(String),
        Count(u8),
        Nothing,
    }

    #[derive(ToolSchema, Deserialize, Debug)]
    #[serde(untagged)]
    pub enum Untagged {
        Number(f64),
        Words { words: Vec<String> },
    }

    fn agree<T: ToolSchema + serde::de::DeserializeOwned>(values: &[Value]) {
        let schema = T::tool_schema();
        jsonschema::meta::validate(&schema).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        for value in values {
            let schema_says = validator.is_valid(value);
            let serde_says = serde_json::from_value::<T>(value.clone()).is_ok();
            assert_eq!(schema_says, serde_says, "{value} against {schema}");
        }
    }

    #[test]
    fn each_tagging_agrees_with_serde() {
        agree::<External>(&[
            json!("stop"),
            json!({"move": {"x": 1, "y": 2}}),
            json!({"say": "hi"}),
            json!("Stop"),
            json!({"move": {"x": 1}}),
            json!({"say": 3}),
            json!({"say": "hi", "stop": null}),
        ]);
        agree::<Internal>(&[
            json!({"kind": "Circle", "radius": 1.5}),
            json!({"kind": "Square", "side": 2}),
            json!({"kind": "Empty"}),
            json!({"kind": "Circle"}),
            json!({"kind": "Triangle"}),
            json!({"radius": 1.0}),
            json!({"kind": "Circle", "radius": 1.0, "extra": 1}),
        ]);
        agree::<Adjacent>(&[
            json!({"t": "Text", "c": "hi"}),
            json!({"t": "Count", "c": 3}),
            json!({"t": "Nothing"}),
            json!({"t": "Count", "c": 300}),
            json!({"t": "Text"}),
            json!({"c": "hi"}),
        ]);
        agree::<Untagged>(&[
            json!(1.5),
            json!({"words": ["a"]}),
            json!("x"),
            json!({"words": "a"}),
        ]);
    }
}
