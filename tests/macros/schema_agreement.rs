//! Corners where the listed input schema and the call could read one argument two ways: case
//! rules past ASCII, patterns read as JSON Schema reads them (ECMA-262), literal defaults and
//! examples, `null` and absence on `Option`s, and bounds at the edges of the widest integers.
//! Each case is judged by the schema (with the `jsonschema` crate) and by the call, which must
//! agree.

#![allow(dead_code)] // The types are read by serde and printed, never used otherwise.

use annotations::{Listing, ToolSchema, tool, tools};
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

static TOOLS: Listing = tools![accented, accented_param];

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
    assert_eq!(call_in(&TOOLS, "accented_param", json!({"xüber": 7})).text_content(), "7");
}
