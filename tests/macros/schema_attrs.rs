//! `#[schema(...)]` on handler parameters: what the input schema says and what the call reads
//! are the same, every key included (names, defaults, nullability, bounds), and the call
//! refuses what the schema refuses, with a message that names the argument and the rule.

use mcp_annotations::{Context, Listing, Tool, tool, tools};
use serde_json::{Value, json};

/// List a directory.
#[tool(read_only, open_world = false, rename_all = "camelCase")]
#[allow(clippy::too_many_arguments)] // One of each key, as a model sees them.
fn list_directory(
    /// The directory
    #[schema(min_length = 1)]
    path: String,
    /// List what it would delete instead
    #[schema(default = false)]
    dry_run: bool,
    /// How to sort
    #[schema(default = "name", examples = ["name", "size"])]
    sort_by: String,
    /// How deep to go
    #[schema(minimum = 1, maximum = 10, default = 1)]
    max_depth: u8,
    /// Paths to leave out
    #[schema(min_items = 1, max_items = 3, unique_items)]
    exclude: Option<Vec<String>>,
    /// A limit, never null
    #[schema(nullable = false, exclusive_minimum = 0.0, multiple_of = 0.5)]
    limit: Option<f64>,
    /// The file's name, in the model's words
    #[schema(
        rename = "fileName",
        title = "File name",
        description = "The name to look for"
    )]
    name_to_find: Option<String>,
    /// Default of a type the macro does not write
    #[schema(default = std::collections::BTreeSet::from(["a".to_owned()]))]
    tags: std::collections::BTreeSet<String>,
    /// A file extension
    #[schema(pattern = "^\\.[a-z0-9]+$")]
    extension: Option<String>,
) -> String {
    format!(
        "{path} dry={dry_run} sort={sort_by} depth={max_depth} exclude={exclude:?} limit={limit:?} name={name_to_find:?} tags={tags:?} ext={extension:?}"
    )
}

static TOOLS: Listing = tools![list_directory];

fn schema() -> Value {
    LIST_DIRECTORY_TOOL.input_schema.to_value()
}

fn call(arguments: Value) -> mcp_annotations::ToolResult {
    let call = TOOLS
        .call(
            &(),
            "list_directory",
            arguments.as_object().cloned(),
            Context::none(),
        )
        .unwrap();
    tokio::runtime::Runtime::new().unwrap().block_on(call)
}

#[test]
fn the_schema_says_what_the_attributes_say() {
    let schema = schema();
    let properties = &schema["properties"];
    let names: Vec<&str> = properties
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for name in [
        "path", "dryRun", "sortBy", "maxDepth", "exclude", "limit", "fileName", "tags",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert_eq!(schema["required"], json!(["path"]));
    assert_eq!(properties["path"]["minLength"], 1);
    assert_eq!(
        properties["dryRun"],
        json!({"type": "boolean", "default": false, "description": "List what it would delete instead"})
    );
    assert_eq!(properties["sortBy"]["default"], "name");
    assert_eq!(properties["sortBy"]["examples"], json!(["name", "size"]));
    assert_eq!(properties["maxDepth"]["minimum"], 1);
    assert_eq!(properties["maxDepth"]["maximum"], 10);
    assert_eq!(properties["maxDepth"]["default"], 1);
    assert_eq!(properties["exclude"]["minItems"], 1);
    assert_eq!(properties["exclude"]["maxItems"], 3);
    assert_eq!(properties["exclude"]["uniqueItems"], true);
    assert_eq!(properties["exclude"]["type"], json!(["array", "null"]));
    // `nullable = false`: optional, and no `null` in the schema.
    assert_eq!(properties["limit"]["type"], "number");
    assert_eq!(properties["limit"]["exclusiveMinimum"], 0.0);
    assert_eq!(properties["limit"]["multipleOf"], 0.5);
    assert_eq!(properties["extension"]["pattern"], "^\\.[a-z0-9]+$");
    assert_eq!(properties["fileName"]["title"], "File name");
    assert_eq!(
        properties["fileName"]["description"],
        "The name to look for"
    );
    // A default that is not a literal is written by serde, when the schema is first built.
    assert!(!LIST_DIRECTORY_TOOL.input_schema.is_static());
    assert_eq!(properties["tags"]["default"], json!(["a"]));
    LIST_DIRECTORY_TOOL.check().unwrap();
}

#[test]
fn a_missing_argument_is_its_default_and_names_are_the_schemas() {
    let result = call(json!({"path": "/tmp"}));
    assert!(!result.is_error, "{}", result.text_content());
    assert_eq!(
        result.text_content(),
        r#"/tmp dry=false sort=name depth=1 exclude=None limit=None name=None tags={"a"} ext=None"#
    );
    let result = call(json!({
        "path": "/tmp", "dryRun": true, "sortBy": "size", "maxDepth": 3,
        "exclude": ["a", "b"], "limit": 2.5, "fileName": "x", "tags": [], "extension": ".rs"
    }));
    assert_eq!(
        result.text_content(),
        r#"/tmp dry=true sort=size depth=3 exclude=Some(["a", "b"]) limit=Some(2.5) name=Some("x") tags={} ext=Some(".rs")"#
    );
    // The Rust name is not the model's.
    let result = call(json!({"path": "/tmp", "dry_run": true}));
    assert!(result.is_error);
    assert!(
        result.text_content().contains("unknown argument `dry_run`"),
        "{}",
        result.text_content()
    );
}

#[test]
fn the_call_refuses_what_the_schema_refuses_and_says_which_rule() {
    let cases = [
        (
            json!({"path": ""}),
            "invalid argument `path`: expected at least 1 character, found 0",
        ),
        (
            json!({"path": "/", "maxDepth": 0}),
            "invalid argument `maxDepth`: expected at least 1, found 0",
        ),
        (
            json!({"path": "/", "maxDepth": 11}),
            "invalid argument `maxDepth`: expected at most 10, found 11",
        ),
        (
            json!({"path": "/", "exclude": []}),
            "invalid argument `exclude`: expected at least 1 item, found 0",
        ),
        (
            json!({"path": "/", "exclude": ["a", "b", "c", "d"]}),
            "invalid argument `exclude`: expected at most 3 items, found 4",
        ),
        (
            json!({"path": "/", "exclude": ["a", "a"]}),
            "invalid argument `exclude`:",
        ),
        (
            json!({"path": "/", "limit": 0}),
            "invalid argument `limit`: expected more than 0, found 0",
        ),
        (
            json!({"path": "/", "limit": 0.7}),
            "invalid argument `limit`: expected a multiple of 0.5, found 0.7",
        ),
        (
            json!({"path": "/", "limit": null}),
            "invalid argument `limit`: expected a number",
        ),
        (
            json!({"path": "/", "dryRun": null}),
            "invalid argument `dryRun`: expected `true` or `false`, found null",
        ),
    ];
    let validator = jsonschema::validator_for(&schema()).unwrap();
    for (arguments, message) in cases {
        assert!(
            !validator.is_valid(&arguments),
            "the schema refuses {arguments}"
        );
        let result = call(arguments.clone());
        assert!(result.is_error, "{arguments}");
        assert!(
            result.text_content().starts_with(message),
            "{arguments}: {}",
            result.text_content()
        );
    }
    // And what the schema accepts, the call reads.
    for arguments in [
        json!({"path": "/"}),
        json!({"path": "/", "maxDepth": 10, "limit": 1.5, "exclude": ["x"]}),
        json!({"path": "/", "maxDepth": 1.0}),
        json!({"path": "/", "exclude": null, "fileName": null}),
    ] {
        assert!(
            validator.is_valid(&arguments),
            "the schema accepts {arguments}"
        );
        let result = call(arguments.clone());
        assert!(!result.is_error, "{arguments}: {}", result.text_content());
    }
}

#[test]
fn every_version_lists_the_same_input_schema() {
    let tool: &Tool = TOOLS.get("list_directory").unwrap();
    for version in mcp_annotations::ProtocolVersion::ALL {
        let listed: Value = serde_json::from_str(
            &TOOLS
                .render(&mcp_annotations::listing::ListOptions::new(version), None)
                .unwrap(),
        )
        .unwrap();
        let input = &listed["tools"][0]["inputSchema"];
        assert_eq!(*input, tool.input_schema.to_value(), "{version}");
        // And what the attributes say, written out here (not read back from the descriptor):
        // the listing's text is written by its own writer, not by `to_value`.
        assert_eq!(input["required"], json!(["path"]), "{version}");
        assert_eq!(
            input["properties"]["dryRun"],
            json!({"type": "boolean", "default": false, "description": "List what it would delete instead"}),
            "{version}"
        );
        assert_eq!(
            input["properties"]["tags"]["default"],
            json!(["a"]),
            "{version}"
        );
        assert_eq!(
            input["properties"]["extension"]["pattern"], "^\\.[a-z0-9]+$",
            "{version}"
        );
    }
}

mod accepts_what_the_schema_accepts {
    use super::{call, schema};
    use proptest::prelude::*;
    use serde_json::{Value, json};

    fn number() -> impl Strategy<Value = Value> {
        prop_oneof![
            (-3i64..14).prop_map(Value::from),
            (-2.0f64..12.0).prop_map(|x| json!((x * 4.0).round() / 4.0)),
            Just(json!(0.5)),
            Just(json!(1.0)),
            Just(Value::Null),
            Just(json!("3")),
        ]
    }

    fn text() -> impl Strategy<Value = Value> {
        prop_oneof![
            "[a-z/]{0,3}".prop_map(Value::from),
            Just(Value::Null),
            Just(json!(7)),
        ]
    }

    fn list() -> impl Strategy<Value = Value> {
        prop_oneof![
            proptest::collection::vec("[ab]", 0..5).prop_map(|items| json!(items)),
            Just(Value::Null),
            Just(json!("a")),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Every combination of present, absent and odd values: the call refuses exactly
        /// what the input schema refuses.
        #[test]
        fn the_call_and_the_schema_agree(
            path in proptest::option::of(text()),
            depth in proptest::option::of(number()),
            limit in proptest::option::of(number()),
            exclude in proptest::option::of(list()),
            extension in proptest::option::of(prop_oneof![
                "[.a-z]{0,3}".prop_map(Value::from),
                Just(Value::Null),
            ]),
        ) {
            let mut arguments = serde_json::Map::new();
            for (key, value) in [("path", path), ("maxDepth", depth), ("limit", limit), ("exclude", exclude), ("extension", extension)] {
                if let Some(value) = value {
                    arguments.insert(key.to_owned(), value);
                }
            }
            let arguments = Value::Object(arguments);
            let valid = jsonschema::validator_for(&schema()).unwrap().is_valid(&arguments);
            let result = call(arguments.clone());
            prop_assert_eq!(valid, !result.is_error, "{}: {}", arguments, result.text_content());
        }
    }
}
