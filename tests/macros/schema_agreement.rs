//! Corners where the listed input schema and the call could read one argument two ways: case
//! rules past ASCII, patterns read as JSON Schema reads them (ECMA-262), literal defaults and
//! examples, `null` and absence on `Option`s, and bounds at the edges of the widest integers.
//! Each case is judged by the schema (with the `jsonschema` crate) and by the call, which must
//! agree.

#![allow(dead_code)] // The types are read by serde and printed, never used otherwise.

use mcp_annotations::{Context, Listing, Tool, ToolSchema, call::CallTool, tool, tools};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::tool_schema_serde::{agree_in, call_in, input_schema_in};

/// A field whose name is not all ASCII, renamed by serde's rules.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Accented {
    pub x_über: u8,
    pub plain_name: u8,
}

/// Take an accented struct.
#[tool(read_only, open_world = false)]
fn accented(a: Accented) -> String {
    format!("{a:?}")
}

/// A handler parameter renamed by the same rules.
#[tool(read_only, open_world = false, rename_all = "camelCase")]
fn accented_param(x_über: u8) -> String {
    x_über.to_string()
}

/// Take a number past `i128::MAX`, between two bounds only a `u128` holds (2^127, and
/// `f32::MAX` as an integer, both exact as doubles, which JSON readers hold such numbers as),
/// in steps of 2^104.
#[tool(read_only, open_world = false)]
fn wide(
    #[schema(
        minimum = 170141183460469231731687303715884105728,
        maximum = 340282346638528859811704183484516925440,
        multiple_of = 20282409603651670423947251286016
    )]
    n: u128,
) -> String {
    n.to_string()
}

/// Wait, for as long as given; an integer default for a float, as the bound is written.
#[tool(read_only, open_world = false)]
fn wait(
    #[schema(minimum = 1, default = 500)] millis: f64,
    #[schema(default = -2)] offset: f32,
) -> String {
    format!("{millis:?} {offset:?}")
}

/// How to reach someone: optional in two other ways than an `Option` alone.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Contact {
    /// May be left out, never `null`.
    #[schema(nullable = false)]
    pub email: Option<String>,
    /// Must be given, may be `null`.
    #[schema(required)]
    #[serde(alias = "tel")]
    pub phone: Option<String>,
}

/// Take a contact.
#[tool(read_only, open_world = false)]
fn contact(c: Contact) -> String {
    format!("{:?} {:?}", c.email, c.phone)
}

/// The same as parameters.
#[tool(read_only, open_world = false)]
fn reach(
    #[schema(nullable = false)] email: Option<String>,
    #[schema(required)] phone: Option<String>,
) -> String {
    format!("{email:?} {phone:?}")
}

/// The same as a tool's fields.
#[derive(Tool, Deserialize)]
#[tool(read_only, open_world = false)]
pub struct Call {
    #[schema(nullable = false)]
    pub email: Option<String>,
    #[schema(required)]
    pub phone: Option<String>,
}

impl CallTool<()> for Call {
    type Output = String;

    async fn call(self, _: &(), _: Context<'_>) -> String {
        format!("{:?} {:?}", self.email, self.phone)
    }
}

/// Patterns as JSON Schema reads them: ECMA-262, without flags.
#[tool(read_only, open_world = false)]
fn patterned(
    #[schema(pattern = r"^\d+$")] digits: Option<String>,
    #[schema(pattern = r"^\w+$")] word: Option<String>,
    #[schema(pattern = r"^.+$")] line: Option<String>,
    #[schema(pattern = r"^\S+\s\S+$")] pair: Option<String>,
    #[schema(pattern = r"^a{2}\{,2\}$")] brace: Option<String>,
) -> String {
    format!("{digits:?} {word:?} {line:?} {pair:?} {brace:?}")
}

/// A field with a pattern, checked by the type's `check_value`.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Code {
    #[schema(pattern = r"^[A-Z]\d$")]
    pub code: String,
}

/// Take a code.
#[tool(read_only, open_world = false)]
fn code(c: Code) -> String {
    c.code
}

/// Literal defaults and examples the constraints take.
#[tool(read_only, open_world = false)]
fn literals(
    #[schema(multiple_of = 5, default = 10, examples = [0, -5])] step: i32,
    #[schema(multiple_of = 0.5, default = 2.0, examples = [1.5])] half: f64,
    #[schema(pattern = r"^\d+$", default = "12", examples = ["3"])] digits: String,
    #[schema(unique_items, default = [1, 2], examples = [[3]])] ids: Vec<u8>,
) -> String {
    format!("{step} {half} {digits} {ids:?}")
}

static TOOLS: Listing = tools![
    literals,
    accented,
    accented_param,
    wide,
    wait,
    contact,
    reach,
    Call,
    patterned,
    code
];

fn agree(name: &str, cases: &[(Value, bool)]) {
    agree_in(&TOOLS, name, cases);
}

#[test]
fn case_rules_change_ascii_letters_only() {
    let schema = Accented::tool_schema();
    let mut names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    names.sort();
    assert_eq!(names, ["plainName", "xüber"]);
    agree(
        "accented",
        &[
            (json!({"a": {"xüber": 1, "plainName": 2}}), true),
            (json!({"a": {"xÜber": 1, "plainName": 2}}), false),
        ],
    );
    assert!(input_schema_in(&TOOLS, "accented_param")["properties"]["xüber"].is_object());
    agree(
        "accented_param",
        &[(json!({"xüber": 1}), true), (json!({"xÜber": 1}), false)],
    );
    assert_eq!(
        call_in(&TOOLS, "accented_param", json!({"xüber": 7})).text_content(),
        "7"
    );
}

#[test]
fn u128_bounds_past_i128_are_accepted_and_the_build_decides_what_is_listed() {
    // The bounds compile (the type holds them). Without serde_json's `arbitrary_precision`
    // (this build) a JSON value holds no integer past 64 bits, so the listed maximum is the
    // build's, `u64::MAX`, below the stated minimum: the schema takes nothing, and the call
    // refuses every number rather than a rounded one. `tests/arbitrary-precision/` checks the
    // bounds listed and honoured digit for digit in a build with the feature.
    let schema = input_schema_in(&TOOLS, "wide");
    assert_eq!(
        schema["properties"]["n"]["maximum"],
        json!(u64::MAX),
        "{schema}"
    );
    agree(
        "wide",
        &[
            (json!({"n": 1.7014118346046923e38}), false),
            (json!({"n": 3.4028234663852886e38}), false),
            (json!({"n": u64::MAX}), false),
            (json!({"n": 1}), false),
        ],
    );
}

#[test]
fn an_integer_default_for_a_float_is_listed_as_written_and_read_as_the_float() {
    let schema = input_schema_in(&TOOLS, "wait");
    assert_eq!(schema["properties"]["millis"]["default"], json!(500));
    assert_eq!(schema["properties"]["offset"]["default"], json!(-2));
    assert_eq!(
        call_in(&TOOLS, "wait", json!({})).text_content(),
        "500.0 -2.0"
    );
    agree(
        "wait",
        &[
            (json!({}), true),
            (json!({"millis": 1}), true),
            (json!({"millis": 0.5}), false),
        ],
    );
}

#[test]
fn optional_never_null_and_required_maybe_null() {
    let field = |value: &Value, name: &str| value["properties"][name].clone();
    let schema = Contact::tool_schema();
    assert_eq!(field(&schema, "email")["type"], "string");
    assert_eq!(field(&schema, "phone")["type"], json!(["string", "null"]));
    // Required under one of its names (an `allOf` says so, as for any field with an alias).
    assert!(schema["allOf"].is_array(), "{schema}");
    for name in ["reach", "call"] {
        let schema = input_schema_in(&TOOLS, name);
        assert_eq!(field(&schema, "email")["type"], "string", "{name}");
        assert_eq!(field(&schema, "phone")["type"], json!(["string", "null"]));
        assert_eq!(schema["required"], json!(["phone"]), "{name}");
    }
    agree(
        "contact",
        &[
            (json!({"c": {"phone": null}}), true),
            (json!({"c": {"tel": null}}), true),
            (json!({"c": {"phone": "1", "email": "a@b"}}), true),
            (json!({"c": {}}), false),
            (json!({"c": {"email": "a@b"}}), false),
            (json!({"c": {"phone": null, "email": null}}), false),
        ],
    );
    for name in ["reach", "call"] {
        agree(
            name,
            &[
                (json!({"phone": null}), true),
                (json!({"phone": "1", "email": "a@b"}), true),
                (json!({}), false),
                (json!({"email": "a@b"}), false),
                (json!({"phone": null, "email": null}), false),
            ],
        );
        let text = |arguments| call_in(&TOOLS, name, arguments).text_content();
        assert_eq!(text(json!({"phone": null})), "None None");
        assert!(text(json!({})).contains("`phone`"), "{}", text(json!({})));
        assert!(text(json!({"phone": null, "email": null})).contains("`email`"));
    }
    let missing = call_in(&TOOLS, "contact", json!({"c": {}})).text_content();
    assert!(missing.contains("`c.phone`"), "{missing}");
}

#[test]
fn patterns_mean_what_ecma_262_means() {
    agree(
        "patterned",
        &[
            (json!({"digits": "0123"}), true),
            (json!({"digits": "\u{663}"}), false),
            (json!({"digits": "\u{FF11}"}), false),
            (json!({"word": "abc_1"}), true),
            (json!({"word": "é"}), false),
            (json!({"line": "a b"}), true),
            (json!({"line": "a\rb"}), false),
            (json!({"line": "a\u{2028}b"}), false),
            (json!({"line": "a\u{85}b"}), true),
            (json!({"pair": "a\u{A0}b"}), true),
            (json!({"pair": "a\u{3000}b"}), true),
            (json!({"pair": "a\u{FEFF}b"}), true),
            (json!({"pair": "a\u{85}b"}), false),
            (json!({"brace": "aa{,2}"}), true),
            (json!({"brace": "aa"}), false),
        ],
    );
    agree(
        "code",
        &[
            (json!({"c": {"code": "A1"}}), true),
            (json!({"c": {"code": "A\u{663}"}}), false),
            (json!({"c": {"code": "É1"}}), false),
        ],
    );
}

#[test]
fn literal_defaults_and_examples_meet_every_constraint() {
    assert_eq!(
        call_in(&TOOLS, "literals", json!({})).text_content(),
        "10 2 12 [1, 2]"
    );
    let schema = input_schema_in(&TOOLS, "literals");
    let validator = jsonschema::validator_for(&schema).unwrap();
    for (name, property) in schema["properties"].as_object().unwrap() {
        let mut arguments = serde_json::Map::new();
        arguments.insert(name.clone(), property["default"].clone());
        assert!(
            validator.is_valid(&Value::Object(arguments.clone())),
            "{name}"
        );
        for example in property["examples"].as_array().unwrap() {
            arguments.insert(name.clone(), example.clone());
            let arguments = Value::Object(arguments.clone());
            assert!(validator.is_valid(&arguments), "{arguments}");
            assert!(!call_in(&TOOLS, "literals", arguments).is_error);
        }
    }
}
