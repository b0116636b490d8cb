//! `#[derive(ToolSchema)]`: schemas written while compiling that follow serde's reading, so a
//! handler reads exactly what its input schema lists; and `#[derive(Tool)]` structs named and
//! required the way serde reads them.

use mcp_annotations::{Context, Listing, Tool, ToolSchema, call::CallTool, tool, tools};
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
    #[serde(rename = "src")]
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

fn call(name: &str, arguments: Value) -> mcp_annotations::ToolResult {
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
    let good = json!({"entities": [{"name": "Ada", "entityType": "person", "src": "wiki"}, {"name": "B", "entityType": "x"}]});
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
    use mcp_annotations::ToolSchema;
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

/// Defects a review found, each fixed and kept fixed.
#[allow(dead_code)] // The generated constants of the macro-written tool are not all used.
mod review {
    use mcp_annotations::{
        Context, Listing, Tool, ToolSchema, call::CallTool, descriptor::StaticTool, tool, tools,
    };
    use serde::Deserialize;
    use serde_json::{Value, json};

    #[derive(Tool, Deserialize)]
    #[serde(rename_all = "lowercase")]
    #[tool(read_only, open_world = false)]
    pub struct LowerTool {
        pub max_results: u8,
    }

    impl CallTool<()> for LowerTool {
        type Output = u8;
        async fn call(self, _: &(), _: Context<'_>) -> u8 {
            self.max_results
        }
    }

    #[derive(ToolSchema, Deserialize)]
    #[serde(rename_all = "UPPERCASE")]
    #[allow(dead_code)]
    pub struct Upper {
        pub foo_bar: Option<u8>,
    }

    #[derive(ToolSchema, Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    pub enum Renamed {
        FooBar { max_depth: u8 },
        Unit,
    }

    macro_rules! point_tool {
        ($name:ident, $param:ident, $min:literal) => {
            /// A tool written by a macro.
            #[tool(read_only, open_world = false)]
            pub fn $name(#[schema(minimum = $min)] $param: u8, shape: Option<Upper>) -> u8 {
                let _ = shape;
                $param
            }
        };
    }
    point_tool!(get_level, level, 2);

    /// Any value, 1 when left out.
    #[tool(read_only, open_world = false)]
    fn anything(#[schema(default = 1)] value: Value) -> String {
        value.to_string()
    }

    /// Multiples.
    #[tool(read_only, open_world = false)]
    fn multiples(
        #[schema(multiple_of = 7)] whole: Option<u64>,
        #[schema(multiple_of = 3)] float: Option<f64>,
    ) -> String {
        format!("{whole:?} {float:?}")
    }

    static TOOLS: Listing = tools![LowerTool, get_level, anything, multiples];

    fn call(name: &str, arguments: Value) -> mcp_annotations::ToolResult {
        let call = TOOLS
            .call(&(), name, arguments.as_object().cloned(), Context::none())
            .unwrap();
        tokio::runtime::Runtime::new().unwrap().block_on(call)
    }

    #[test]
    fn lowercase_and_uppercase_name_fields_as_serde_does() {
        let schema = LowerTool::TOOL.input_schema.to_value();
        assert_eq!(schema["required"], json!(["max_results"]));
        assert_eq!(
            call("lower_tool", json!({"max_results": 3})).text_content(),
            "3"
        );
        let upper = Upper::tool_schema();
        assert!(upper["properties"]["FOO_BAR"].is_object(), "{upper}");
        assert!(serde_json::from_value::<Upper>(json!({"FOO_BAR": 1})).is_ok());
    }

    #[test]
    fn an_enums_rename_all_renames_variants_not_their_fields() {
        let schema = Renamed::tool_schema();
        let validator = jsonschema::validator_for(&schema).unwrap();
        for value in [
            json!({"fooBar": {"max_depth": 1}}),
            json!({"fooBar": {"maxDepth": 1}}),
            json!("unit"),
        ] {
            assert_eq!(
                validator.is_valid(&value),
                serde_json::from_value::<Renamed>(value.clone()).is_ok(),
                "{value}"
            );
        }
    }

    #[test]
    fn a_handler_written_by_a_macro_gets_its_keys_and_schema() {
        let tool: &Tool = TOOLS.get("get_level").unwrap();
        let schema = tool.input_schema.to_value();
        assert_eq!(schema["properties"]["level"]["minimum"], 2);
        assert!(call("get_level", json!({"level": 1})).is_error);
        assert_eq!(call("get_level", json!({"level": 2})).text_content(), "2");
    }

    #[test]
    fn a_default_on_a_value_still_reads_null() {
        assert_eq!(call("anything", json!({})).text_content(), "1");
        assert_eq!(
            call("anything", json!({"value": null})).text_content(),
            "null"
        );
    }

    #[test]
    fn multiple_of_is_exact_for_whole_numbers_and_relative_for_others() {
        assert!(
            call("multiples", json!({"whole": 1e16})).is_error,
            "1e16 is not a multiple of 7"
        );
        assert!(!call("multiples", json!({"whole": 7e15})).is_error);
        assert!(
            call("multiples", json!({"float": 1e20})).is_error,
            "1e20 is not a multiple of 3"
        );
        assert!(call("multiples", json!({"float": 1e-17})).is_error);
        assert!(!call("multiples", json!({"float": 0.0})).is_error);
        assert!(!call("multiples", json!({"float": 4.5e1})).is_error);
    }
}

/// `#[schema(...)]` constraints on the fields of a `#[derive(Tool)]` struct: listed, and
/// checked by the call before serde reads the struct.
mod tool_struct_constraints {
    use mcp_annotations::{Context, Listing, call::CallTool, descriptor::StaticTool, tools};
    use serde::Deserialize;
    use serde_json::{Value, json};

    /// Read some files.
    #[derive(mcp_annotations::Tool, Deserialize)]
    #[tool(read_only, open_world = false)]
    pub struct ReadFiles {
        /// The paths
        #[schema(min_items = 1, max_items = 3)]
        pub paths: Vec<String>,
        /// At most this many bytes of each
        #[schema(minimum = 1, maximum = 4096)]
        #[serde(default)]
        pub limit: u32,
    }

    impl CallTool<()> for ReadFiles {
        type Output = String;
        async fn call(self, _: &(), _: Context<'_>) -> String {
            format!("{:?} {}", self.paths, self.limit)
        }
    }

    static TOOLS: Listing = tools![ReadFiles];

    fn call(arguments: Value) -> mcp_annotations::ToolResult {
        let call = TOOLS
            .call(
                &(),
                "read_files",
                arguments.as_object().cloned(),
                Context::none(),
            )
            .unwrap();
        tokio::runtime::Runtime::new().unwrap().block_on(call)
    }

    #[test]
    fn the_constraints_are_listed_and_checked() {
        let schema = ReadFiles::TOOL.input_schema.to_value();
        assert_eq!(schema["properties"]["paths"]["minItems"], 1);
        assert_eq!(schema["properties"]["limit"]["maximum"], 4096);
        assert_eq!(schema["required"], json!(["paths"]));
        let validator = jsonschema::validator_for(&schema).unwrap();
        for (arguments, message) in [
            (
                json!({"paths": []}),
                "invalid argument `paths`: expected at least 1 item, found 0",
            ),
            (
                json!({"paths": ["a"], "limit": 0}),
                "invalid argument `limit`: expected at least 1, found 0",
            ),
            (
                json!({"paths": ["a", "b", "c", "d"]}),
                "invalid argument `paths`: expected at most 3 items, found 4",
            ),
        ] {
            assert!(!validator.is_valid(&arguments));
            assert_eq!(call(arguments).text_content(), message);
        }
        assert_eq!(
            call(json!({"paths": ["a"], "limit": 10})).text_content(),
            r#"["a"] 10"#
        );
    }
}
