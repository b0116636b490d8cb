//! The listed input schema and the call accept the same arguments where they once parted: a
//! flattened externally tagged enum, whole floats where serde buffers (internally, adjacently
//! tagged and untagged enums, flattened fields), and two schemars types of one name.

#![allow(dead_code)] // The types are read by serde and printed, never used otherwise.

use mcp_annotations::{Context, Listing, ToolSchema, tool, tools};
use serde::Deserialize;
use serde_json::{Value, json};

/// What to do.
#[derive(ToolSchema, Deserialize, Debug)]
pub enum Action {
    /// Add a number.
    Add(Amount),
    /// Say something.
    Say(String),
    /// Stop.
    Stop,
}

/// How much to add.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Amount {
    #[schema(maximum = 10)]
    pub amount: u8,
}

/// A step: its own field beside the flattened action.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Step {
    pub k: u8,
    #[serde(flatten)]
    pub action: Action,
}

/// Run a step.
#[tool(read_only, open_world = false)]
fn run_step(step: Step) -> String {
    format!("{step:?}")
}

/// A shape, tagged inside.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(tag = "kind")]
pub enum Internal {
    Square { side: u8 },
}

/// A shape, tagged beside its content.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(tag = "kind", content = "data")]
pub enum Adjacent {
    Square { side: u8 },
    Count(u16),
}

/// A size, by itself.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(untagged)]
pub enum Untagged {
    Small { small: u8 },
    List(Vec<i32>),
}

/// Fields shared by flattening.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Shared {
    pub count: u32,
}

/// A request with a flattened part.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Flat {
    pub name: String,
    #[serde(flatten)]
    pub shared: Shared,
}

/// Take each buffered shape.
#[tool(read_only, open_world = false)]
fn buffered(
    internal: Option<Internal>,
    adjacent: Option<Adjacent>,
    untagged: Option<Untagged>,
    flat: Option<Flat>,
) -> String {
    format!("{internal:?} {adjacent:?} {untagged:?} {flat:?}")
}

mod first {
    /// A node of the first kind.
    #[derive(schemars::JsonSchema, serde::Deserialize, Debug)]
    pub struct Node {
        pub id: u8,
        pub next: Option<Box<Node>>,
    }
}

mod second {
    /// A node of the second kind.
    #[derive(schemars::JsonSchema, serde::Deserialize, Debug)]
    pub struct Node {
        pub label: String,
        pub next: Option<Box<Node>>,
    }
}

/// Take two nodes of one name.
#[tool(read_only, open_world = false)]
fn two_nodes(a: first::Node, b: second::Node) -> String {
    format!("{a:?} {b:?}")
}

static TOOLS: Listing = tools![run_step, buffered, two_nodes];

/// Every `(arguments, accepted)` pair: the listed schema (checked to be a valid 2020-12
/// schema) and the call agree, and both agree with what the test says.
pub fn agree_in<S: Send + Sync + 'static>(
    listing: &Listing<S>,
    state: &S,
    name: &str,
    cases: &[(Value, bool)],
) {
    let schema = listing.get(name).unwrap().input_schema.to_value();
    jsonschema::meta::validate(&schema).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    for (arguments, accepted) in cases {
        assert_eq!(
            validator.is_valid(arguments),
            *accepted,
            "the schema of `{name}` on {arguments}: {schema}"
        );
        let call = listing
            .call(state, name, arguments.as_object().cloned(), Context::none())
            .unwrap();
        let result = runtime.block_on(call);
        assert_eq!(
            !result.is_error,
            *accepted,
            "the call of `{name}` on {arguments}: {}",
            result.text_content()
        );
    }
}

#[test]
fn a_flattened_enum_leaves_the_structs_own_fields_to_it() {
    agree_in(
        &TOOLS,
        &(),
        "run_step",
        &[
            // serde's own output for `Step { k: 2, action: Action::Add { amount: 1 } }`.
            (json!({"step": {"Add": {"amount": 1}, "k": 2}}), true),
            (json!({"step": {"Say": "hi", "k": 2}}), true),
            (json!({"step": {"Stop": null, "k": 2}}), true),
            (json!({"step": {"Add": {"amount": 11}, "k": 2}}), false),
            (json!({"step": {"Add": {"amount": 1}}}), false),
            (json!({"step": {"k": 2}}), false),
            (
                json!({"step": {"Add": {"amount": 1}, "Say": "hi", "k": 2}}),
                false,
            ),
            (json!({"step": {"Say": 3, "k": 2}}), false),
        ],
    );
}

#[test]
fn a_whole_float_is_an_integer_where_serde_buffers_too() {
    agree_in(
        &TOOLS,
        &(),
        "buffered",
        &[
            (json!({"internal": {"kind": "Square", "side": 3.0}}), true),
            (json!({"internal": {"kind": "Square", "side": 3.5}}), false),
            (
                json!({"adjacent": {"kind": "Square", "data": {"side": 3.0}}}),
                true,
            ),
            (json!({"adjacent": {"kind": "Count", "data": 7.0}}), true),
            (json!({"adjacent": {"kind": "Count", "data": 7.5}}), false),
            (json!({"untagged": {"small": 3.0}}), true),
            (json!({"untagged": [1.0, -2.0]}), true),
            (json!({"untagged": [1.5]}), false),
            (json!({"flat": {"name": "a", "count": 4.0}}), true),
            (json!({"flat": {"name": "a", "count": -4.0}}), false),
        ],
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let arguments = json!({"untagged": {"small": 3.0}, "flat": {"name": "a", "count": 4.0}});
    let call = TOOLS
        .call(
            &(),
            "buffered",
            arguments.as_object().cloned(),
            Context::none(),
        )
        .unwrap();
    assert_eq!(
        runtime.block_on(call).text_content(),
        r#"None None Some(Small { small: 3 }) Some(Flat { name: "a", shared: Shared { count: 4 } })"#
    );
}

#[test]
fn two_schemars_types_of_one_name_keep_their_own_definitions() {
    let schema = TOOLS.get("two_nodes").unwrap().input_schema.to_value();
    let defs = schema["$defs"].as_object().unwrap();
    assert_eq!(defs.len(), 2, "one definition each: {schema}");
    agree_in(
        &TOOLS,
        &(),
        "two_nodes",
        &[
            (
                json!({"a": {"id": 1, "next": {"id": 2, "next": null}},
                       "b": {"label": "x", "next": {"label": "y", "next": null}}}),
                true,
            ),
            (
                json!({"a": {"id": 1, "next": {"label": "y", "next": null}},
                       "b": {"label": "x", "next": null}}),
                false,
            ),
            (
                json!({"a": {"id": 1, "next": null},
                       "b": {"label": "x", "next": {"id": 2, "next": null}}}),
                false,
            ),
        ],
    );
}
