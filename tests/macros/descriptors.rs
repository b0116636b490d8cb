//! The `Tool` descriptor `#[tool]` generates: name, title, description, and the input schema
//! of every supported parameter type, at compile time or through `ToolSchema`.

// Several handlers here exist only for the descriptors they generate.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};

use annotations_tests::tools::{
    ADD_NOTE_TOOL, COLLECTIONS_TOOL, Colour, INTEGERS_TOOL, LIST_NOTES_TOOL, PAINT_TOOL,
    SCALARS_TOOL, TYPE_TOOL,
};
use mcp_annotations::{Listing, ProtocolVersion, Tool, ToolAnnotations, schema::Schema, tool};
use serde_json::{Value, json};

fn schema(tool: &Tool) -> Value {
    serde_json::from_str(tool.input_schema.as_str()).expect("the schema is valid JSON")
}

#[test]
fn integers_state_their_true_range() {
    // Its `u128` and `i128` bounds depend on the build (see below).
    assert!(!INTEGERS_TOOL.input_schema.is_static());
    let properties = &schema(&INTEGERS_TOOL)["properties"];
    let range = |name: &str| {
        let p = &properties[name];
        assert_eq!(p["type"], "integer", "{name}");
        (p["minimum"].to_string(), p["maximum"].to_string())
    };
    let expect = |min: i128, max: u128| (min.to_string(), max.to_string());
    assert_eq!(range("a"), expect(0, u8::MAX.into()));
    assert_eq!(range("b"), expect(0, u16::MAX.into()));
    assert_eq!(range("c"), expect(0, u32::MAX.into()));
    assert_eq!(range("d"), expect(0, u64::MAX.into()));
    assert_eq!(range("f"), expect(0, u64::MAX.into()));
    assert_eq!(range("g"), expect(i8::MIN.into(), 127));
    assert_eq!(range("h"), expect(i16::MIN.into(), 32767));
    assert_eq!(range("i"), expect(i32::MIN.into(), 2_147_483_647));
    assert_eq!(range("j"), expect(i64::MIN.into(), i64::MAX as u128));
    assert_eq!(range("l"), expect(i64::MIN.into(), i64::MAX as u128));
    // 128-bit types list the bounds a JSON value holds exactly in this build: without
    // serde_json's `arbitrary_precision`, those of 64-bit integers (`tests/arbitrary-precision/`
    // checks the whole range in a build with it).
    assert_eq!(range("e"), expect(0, u64::MAX.into()));
    assert_eq!(range("k"), expect(i64::MIN.into(), u64::MAX.into()));
    let required = schema(&INTEGERS_TOOL)["required"].clone();
    assert_eq!(
        required,
        json!(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"])
    );
}

#[test]
fn scalars_and_strings() {
    assert_eq!(
        schema(&SCALARS_TOOL),
        json!({
            "type": "object",
            "properties": {
                "flag": {"type": "boolean"},
                "x": {"type": "number", "minimum": -3.4028234663852886e38, "maximum": 3.4028234663852886e38},
                "y": {"type": "number"},
                "letter": {"type": "string", "minLength": 1, "maxLength": 1},
                "owned": {"type": "string"},
                "cow": {"type": "string"},
                "boxed": {"type": "string"}
            },
            "required": ["flag", "x", "y", "letter", "owned", "cow", "boxed"],
            "additionalProperties": false
        })
    );
}

#[test]
fn collections_nest() {
    assert!(COLLECTIONS_TOOL.input_schema.is_static());
    assert_eq!(
        schema(&COLLECTIONS_TOOL),
        json!({
            "type": "object",
            "properties": {
                "list": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}},
                "slice": {"type": "array", "items": {"type": "boolean"}},
                "pair": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0, "maximum": 65535},
                    "minItems": 2,
                    "maxItems": 2
                },
                "queue": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": -2_147_483_648_i64, "maximum": 2_147_483_647}
                },
                "set": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                "ordered": {
                    "type": "array",
                    "items": {"type": "string", "minLength": 1, "maxLength": 1},
                    "uniqueItems": true
                },
                "map": {
                    "type": "object",
                    "additionalProperties": {"type": "array", "items": {"type": "boolean"}}
                },
                "tree": {"type": "object", "additionalProperties": {"type": "number"}},
                "any": {},
                "nested": {
                    "type": ["array", "null"],
                    "items": {"type": "integer", "minimum": 0, "maximum": 255}
                },
                "maybe_any": {}
            },
            "required": ["list", "slice", "pair", "queue", "set", "ordered", "map", "tree", "any"],
            "additionalProperties": false
        })
    );
}

#[test]
fn user_types_go_through_tool_schema_once_at_run_time() {
    assert!(!PAINT_TOOL.input_schema.is_static());
    // Built once: the same text, at the same address, each time.
    assert!(std::ptr::eq(
        PAINT_TOOL.input_schema.as_str(),
        PAINT_TOOL.input_schema.as_str()
    ));
    assert_eq!(
        schema(&PAINT_TOOL),
        json!({
            // `Shape` states its dialect; it moves to the root, where it speaks for all.
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "colour": {"type": "string", "pattern": "^#[0-9a-f]{6}$", "description": "The colour"},
                "palette": {"type": "array", "items": {"type": "string", "pattern": "^#[0-9a-f]{6}$"}},
                "accent": {"type": ["string", "null"], "pattern": "^#[0-9a-f]{6}$"},
                "shape": {"$ref": "#/$defs/Shape"},
                "width": {"type": "integer", "minimum": 0, "maximum": 255}
            },
            "required": ["colour", "palette", "shape", "width"],
            "additionalProperties": false,
            "$defs": {"Shape": {"type": "object", "properties": {"inner": {"$ref": "#/$defs/Shape"}}}}
        })
    );
    // Properties keep the order of the parameters.
    let text = PAINT_TOOL.input_schema.as_str();
    let at = |name: &str| text.find(&format!("\"{name}\":")).unwrap();
    assert!(
        at("colour") < at("palette") && at("palette") < at("accent") && at("shape") < at("width")
    );
}

// The same parameter types, once all known (a schema fixed at compile time) and once beside
// a user type (built at run time by the runtime crate): the two paths must agree.
#[tool]
#[allow(clippy::too_many_arguments)]
fn all_known(
    a: Option<Vec<u8>>,
    b: HashMap<String, Vec<bool>>,
    c: [u16; 3],
    d: Option<Option<u8>>,
    e: HashSet<char>,
    f: Option<Value>,
    g: Option<[i8; 2]>,
) {
    let _ = (a, b, c, d, e, f, g);
}

const LEN: usize = 3;

#[tool]
#[allow(clippy::too_many_arguments)]
fn with_user_type(
    a: Option<Vec<u8>>,
    b: HashMap<String, Vec<bool>>,
    c: [u16; LEN],
    d: Option<Option<u8>>,
    e: HashSet<char>,
    f: Option<Value>,
    g: Option<[i8; 2]>,
    z: Colour,
) {
    let _ = (a, b, c, d, e, f, g, z);
}

#[test]
fn compile_time_and_run_time_schemas_agree() {
    assert!(ALL_KNOWN_TOOL.input_schema.is_static());
    assert!(!WITH_USER_TYPE_TOOL.input_schema.is_static());
    let fixed = schema(&ALL_KNOWN_TOOL);
    let built = schema(&WITH_USER_TYPE_TOOL);
    for name in ["a", "b", "c", "d", "e", "f", "g"] {
        assert_eq!(
            fixed["properties"][name], built["properties"][name],
            "{name}"
        );
    }
    assert_eq!(
        fixed["properties"]["d"],
        json!({"anyOf": [{"type": ["integer", "null"], "minimum": 0, "maximum": 255}, {"type": "null"}]})
    );
    assert_eq!(built["required"], json!(["b", "c", "e", "z"]));
}

#[test]
fn no_input_is_a_closed_object() {
    let expected = json!({"type": "object", "additionalProperties": false});
    assert_eq!(schema(&TYPE_TOOL), expected);
    // A parameter the server supplies is not an input.
    assert_eq!(schema(&LIST_NOTES_TOOL), expected);
    assert_eq!(Schema::NO_INPUT.to_value(), expected);
}

#[test]
fn names_titles_and_descriptions() {
    assert_eq!(TYPE_TOOL.name(), "type", "a raw identifier is unrawed");
    assert_eq!(INTEGERS_TOOL.name(), "integers.all", "the name key wins");
    assert_eq!(
        INTEGERS_TOOL.description(),
        Some("Takes every integer type.")
    );
    assert_eq!(
        INTEGERS_TOOL.display_name(),
        "integers.all",
        "no title: the name"
    );

    assert_eq!(ADD_NOTE_TOOL.title(), Some("Add note"));
    assert_eq!(
        ADD_NOTE_TOOL.annotations.title(),
        Some("Add note"),
        "the title key sets both"
    );
    assert_eq!(
        ADD_NOTE_TOOL.description(),
        Some("Save a new note.\n\nUse this when the user asks to write something down.")
    );
    assert_eq!(
        schema(&ADD_NOTE_TOOL)["properties"]["body"]["description"],
        "Text of the note"
    );
    assert_eq!(
        ADD_NOTE_TOOL.annotations,
        ToolAnnotations::new()
            .with_title("Add note")
            .with_open_world(false)
    );
}

/// Indented
///     code stays indented,
///
/// and a block comment's lines are lines too.
#[tool]
fn documented() {}

#[tool]
fn undocumented() {}

#[test]
fn doc_comments_are_joined_as_rustdoc_joins_them() {
    assert_eq!(
        DOCUMENTED_TOOL.description(),
        Some("Indented\n    code stays indented,\n\nand a block comment's lines are lines too.")
    );
    assert_eq!(UNDOCUMENTED_TOOL.description(), None);
    let wire = serde_json::to_value(&UNDOCUMENTED_TOOL).unwrap();
    assert!(wire.get("description").is_none(), "none means omitted");
}

#[tool]
fn conditional(#[cfg(not(test))] hidden: u8, #[cfg(test)] shown: u8, always: bool) {
    let _ = (shown, always);
}

#[test]
fn parameters_removed_by_cfg_are_not_inputs() {
    let schema = schema(&CONDITIONAL_TOOL);
    assert!(schema["properties"].get("hidden").is_none());
    assert_eq!(schema["required"], json!(["shown", "always"]));
}

macro_rules! make_tool {
    ($name:ident, $t:ty, $title:literal) => {
        /// Made by a macro.
        #[tool(read_only, title = "From a macro")]
        fn $name(value: $t) -> mcp_annotations::Json<$t> {
            mcp_annotations::Json(value)
        }
    };
}

make_tool!(from_macro, Option<Vec<u32>>, "ignored");

#[test]
fn tools_made_by_macro_rules_read_their_types() {
    assert_eq!(from_macro(None).0, None);
    assert_eq!(
        schema(&FROM_MACRO_TOOL)["properties"]["value"],
        json!({"type": ["array", "null"], "items": {"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32}})
    );
}

struct Server;

impl Server {
    /// Delete a note.
    #[tool(destructive, title = "Delete note")]
    fn delete_note(&self, note_id: u64, #[context] _ctx: mcp_annotations::Context<'_>) -> u64 {
        note_id
    }
}

#[test]
fn methods_get_an_associated_descriptor_and_the_receiver_is_not_an_input() {
    assert_eq!(Server.delete_note(3, mcp_annotations::Context::none()), 3);
    assert_eq!(Server::DELETE_NOTE_TOOL.name(), "delete_note");
    assert_eq!(
        schema(&Server::DELETE_NOTE_TOOL)["required"],
        json!(["note_id"])
    );
}

// Descriptors are plain values: usable in `const` and `static` items, read in `const`,
// borrowed and promoted like literals (a listing of them in a `static`, a name borrowed past
// its statement), whether their schemas are written while compiling or on first use; and
// built by hand in `const` too.
static STATIC_COPY: Tool = Server::DELETE_NOTE_TOOL;
static LISTED: Listing = Listing::new(&[LIST_NOTES_TOOL, PAINT_TOOL, FAVOURITE_COLOUR_TOOL]);
const _: () = assert!(Server::DELETE_NOTE_TOOL.annotations.destructive());
const _: () = assert!(mcp_annotations::descriptor::is_valid_tool_name(
    LIST_NOTES_TOOL.name()
));
const BY_HAND: Tool = Tool::new("delete_note", Schema::NO_INPUT)
    .with_title("Delete note")
    .with_description("Permanently delete a note by id.")
    .with_annotations(Server::DELETE_NOTE_ANNOTATIONS);

#[test]
fn descriptors_are_const() {
    assert_eq!(STATIC_COPY.display_name(), "Delete note");
    let name = PAINT_TOOL.name();
    assert_eq!(LISTED.get(name).map(Tool::name), Some("paint"));
    assert_eq!(LISTED.len(), 3);
    let by_hand = BY_HAND;
    assert_eq!(by_hand.display_name(), STATIC_COPY.display_name());
    assert_eq!(by_hand.annotations, STATIC_COPY.annotations);
    assert_eq!(by_hand.input_schema, Schema::NO_INPUT);
}

#[test]
fn every_descriptor_validates() {
    for tool in annotations_tests::tools::ALL.tools() {
        tool.check().unwrap();
    }
    let mut bad = Tool::new("has space", Schema::NO_INPUT);
    assert!(
        bad.check()
            .unwrap_err()
            .to_string()
            .contains("invalid tool name")
    );
    bad.name = "ok".into();
    bad.input_schema = Schema::Static(r#"{"type":"string"}"#);
    assert!(bad.check().is_err());
}

#[test]
fn the_wire_form_round_trips() {
    for tool in annotations_tests::tools::ALL.tools() {
        let wire = serde_json::to_value(tool).unwrap();
        assert!(wire["inputSchema"].is_object());
        let back: Tool = serde_json::from_value(wire.clone()).unwrap();
        assert_eq!(&back, tool);
        assert_eq!(serde_json::to_value(&back).unwrap(), wire);
    }
}

#[test]
fn reading_a_tool_is_tolerant_where_peers_differ_and_strict_where_values_are_wrong() {
    let tool: Tool = serde_json::from_value(json!({
        "name": "x",
        "title": null,
        "inputSchema": {"type": "object"},
        "icons": [],
        "execution": {"taskSupport": "optional"},
        "annotations": {"readOnlyHint": true}
    }))
    .unwrap();
    assert_eq!(tool.title, None);
    assert!(tool.annotations.read_only());

    for (bad, needle) in [
        (json!({"inputSchema": {"type": "object"}}), "`name`"),
        (json!({"name": "x"}), "`inputSchema`"),
        (json!({"name": 5, "inputSchema": {}}), "`name`"),
        (json!({"name": "x", "inputSchema": []}), "object"),
        (
            json!({"name": "x", "inputSchema": {}, "annotations": {"readOnlyHint": "yes"}}),
            "readOnlyHint",
        ),
        (
            json!({"name": "x", "inputSchema": {}, "description": 3}),
            "`description`",
        ),
        (json!([]), "object"),
    ] {
        let error = serde_json::from_value::<Tool>(bad.clone())
            .unwrap_err()
            .to_string();
        assert!(error.contains(needle), "{bad}: {error}");
    }
    let twice = r#"{"name": "a", "name": "b", "inputSchema": {}}"#;
    assert!(
        serde_json::from_str::<Tool>(twice)
            .unwrap_err()
            .to_string()
            .contains("duplicate")
    );
}

/// Count the notes by tag.
#[tool(read_only)]
fn tag_counts() -> mcp_annotations::Json<HashMap<String, u32>> {
    mcp_annotations::Json(HashMap::new())
}

/// The ids of every note.
#[tool(read_only)]
fn note_ids() -> Result<mcp_annotations::Json<Vec<u64>>, String> {
    Ok(mcp_annotations::Json(Vec::new()))
}

/// A colour, as the user's own type.
#[tool(read_only)]
fn favourite_colour() -> mcp_annotations::Json<Colour> {
    mcp_annotations::Json(Colour(String::new()))
}

/// Text only.
#[tool(read_only)]
fn plain() -> String {
    String::new()
}

#[test]
fn json_results_describe_their_structured_content() {
    let output = |tool: &Tool| tool.output_schema.as_ref().map(Schema::to_value);
    assert_eq!(
        output(&TAG_COUNTS_TOOL),
        Some(
            json!({"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32}})
        )
    );
    // Not an object: as it is for 2026-07-28, wrapped for the versions that want objects,
    // as the value is wrapped there.
    let wrapped = |tool: &Tool| {
        let text = tool
            .output_schema_for(ProtocolVersion::V2025_11_25)
            .unwrap();
        serde_json::from_str::<Value>(&text).unwrap()
    };
    let ids = json!({"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 18_446_744_073_709_551_615_u64}});
    assert_eq!(output(&NOTE_IDS_TOOL), Some(ids.clone()));
    assert_eq!(
        wrapped(&NOTE_IDS_TOOL),
        json!({
            "type": "object",
            "properties": {"result": ids},
            "required": ["result"],
            "additionalProperties": false
        })
    );
    assert!(
        FAVOURITE_COLOUR_TOOL
            .output_schema
            .is_some_and(|schema| !schema.is_static())
    );
    assert_eq!(
        output(&FAVOURITE_COLOUR_TOOL),
        Some(json!({"type": "string", "pattern": "^#[0-9a-f]{6}$"}))
    );
    assert_eq!(
        wrapped(&FAVOURITE_COLOUR_TOOL),
        json!({
            "type": "object",
            "properties": {"result": {"type": "string", "pattern": "^#[0-9a-f]{6}$"}},
            "required": ["result"],
            "additionalProperties": false
        })
    );
    // An object schema is the same for every version.
    assert_eq!(wrapped(&TAG_COUNTS_TOOL), output(&TAG_COUNTS_TOOL).unwrap());
    assert_eq!(output(&PLAIN_TOOL), None);
    for tool in [&TAG_COUNTS_TOOL, &NOTE_IDS_TOOL, &FAVOURITE_COLOUR_TOOL] {
        let wire = serde_json::to_value(tool).unwrap();
        assert_eq!(wire["outputSchema"], output(tool).unwrap());
    }
}

mod schema_keywords {
    use mcp_annotations::{ToolSchema, tool};
    use serde_json::{Value, json};

    /// A postal address, with a schema that states its dialect, an id, a comment and
    /// definitions of its own.
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    pub struct Address {
        street: String,
    }

    impl ToolSchema for Address {
        fn tool_schema() -> Value {
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$comment": "kept",
                "$ref": "#/$defs/address",
                "$defs": {"address": {"$anchor": "address", "type": "object", "properties": {"street": {"type": "string"}}}}
            })
        }
    }

    /// Another type stating another dialect.
    #[derive(serde::Deserialize)]
    pub struct Legacy(#[allow(dead_code)] String);

    impl ToolSchema for Legacy {
        fn tool_schema() -> Value {
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "$id": "urn:legacy", "type": "string"})
        }
    }

    /// Ship a parcel.
    #[tool(open_world = false)]
    fn ship(to: Address, from: Option<Address>) {
        let _ = (to, from);
    }

    /// Ship by the old rules.
    #[tool(open_world = false)]
    fn ship_legacy(to: Address, code: Legacy) {
        let _ = (to, code);
    }

    #[test]
    fn a_types_dialect_moves_to_the_root_and_nothing_is_stripped() {
        let schema = SHIP_TOOL.input_schema.to_value();
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert!(
            SHIP_TOOL
                .input_schema
                .as_str()
                .starts_with(r#"{"$schema":"#)
        );
        assert_eq!(schema["properties"]["to"]["$ref"], "#/$defs/address");
        assert_eq!(schema["properties"]["to"]["$comment"], "kept");
        assert_eq!(schema["$defs"]["address"]["$anchor"], "address");
        assert_eq!(schema["additionalProperties"], false);
        assert_eq!(schema.to_string().matches("$schema").count(), 1);
        SHIP_TOOL.check().unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        assert!(validator.is_valid(&json!({"to": {"street": "Main St"}})));
        assert!(!validator.is_valid(&json!({"to": {"street": 4}})));
    }

    #[test]
    fn dialects_that_differ_each_stay_where_they_are() {
        let schema = SHIP_LEGACY_TOOL.input_schema.to_value();
        assert!(schema.get("$schema").is_none());
        assert_eq!(
            schema["properties"]["to"]["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert_eq!(
            schema["properties"]["code"]["$schema"],
            "http://json-schema.org/draft-07/schema#"
        );
        assert_eq!(schema["properties"]["code"]["$id"], "urn:legacy");
    }
}

mod schema_bugs {
    use mcp_annotations::{ToolSchema, tool};
    use serde_json::{Value, json};

    /// A type with fields named like keywords.
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    pub struct Keywordish;

    impl ToolSchema for Keywordish {
        fn tool_schema() -> Value {
            json!({
                "type": "object",
                "properties": {"$schema": {"type": "string"}, "$defs": {"type": "integer"}},
                "required": ["$schema"]
            })
        }
    }

    /// A choice of two names, written as `oneOf` of constants.
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    pub struct Choice;

    impl ToolSchema for Choice {
        fn tool_schema() -> Value {
            json!({"type": "string", "oneOf": [{"const": "a"}, {"const": "b"}]})
        }
    }

    /// Take both.
    #[tool(read_only, open_world = false)]
    fn take(document: Keywordish, choice: Option<Choice>) {
        let _ = (document, choice);
    }

    #[test]
    fn properties_named_like_keywords_stay_properties() {
        let schema = TAKE_TOOL.input_schema.to_value();
        let document = &schema["properties"]["document"]["properties"];
        assert_eq!(document["$schema"], json!({"type": "string"}));
        assert_eq!(document["$defs"], json!({"type": "integer"}));
        assert!(
            schema.get("$defs").is_none(),
            "nothing was moved to the root"
        );
    }

    #[test]
    fn an_optional_choice_accepts_null_in_its_schema_as_the_call_does() {
        let schema = TAKE_TOOL.input_schema.to_value();
        let validator = jsonschema::validator_for(&schema["properties"]["choice"]).unwrap();
        assert!(validator.is_valid(&Value::Null));
        assert!(validator.is_valid(&json!("a")));
        assert!(!validator.is_valid(&json!("c")));
    }
}

mod doc_paragraphs {
    use mcp_annotations::tool;

    /// Search the notes for a word, in titles and bodies, and
    /// return the ids of those that have it.
    ///
    /// Matching:
    /// - ignores case,
    ///   and accents;
    /// - counts whole words only.
    ///
    /// ```text
    /// search_notes("milk")
    ///   -> [4, 7]
    /// ```
    #[tool(read_only, open_world = false)]
    fn search_notes(word: String) {
        let _ = word;
    }

    #[test]
    fn a_wrapped_paragraph_is_one_line_and_blocks_keep_their_lines() {
        assert_eq!(
            SEARCH_NOTES_TOOL.description(),
            Some(
                "Search the notes for a word, in titles and bodies, and return the ids of those that have it.\n\
                 \n\
                 Matching:\n\
                 - ignores case, and accents;\n\
                 - counts whole words only.\n\
                 \n\
                 ```text\n\
                 search_notes(\"milk\")\n  -> [4, 7]\n\
                 ```"
            )
        );
    }
}
