//! `#[derive(ToolSchema)]` beyond one name per field: `#[schema(...)]` keys on fields (listed
//! and checked by the call, at every depth), aliases, `flatten`, newtype and `transparent`
//! structs, and types that lead back to themselves (`$ref` into `$defs`). For each, the input
//! schema accepts exactly what the call accepts.

#![allow(dead_code)] // The types are read by serde and printed, never used otherwise.

use std::collections::{BTreeMap, BTreeSet};

use mcp_annotations::{Context, Json, Listing, ToolSchema, call::CallTool, tool, tools};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A person the graph knows.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    /// Their name.
    #[schema(min_length = 1, max_length = 20)]
    pub name: String,
    /// Their age in years.
    #[schema(maximum = 150)]
    pub age: Option<u8>,
    /// What they are known by; none twice.
    #[schema(max_items = 3)]
    pub tags: BTreeSet<String>,
    /// Their address.
    pub home: Option<Address>,
}

/// Where someone lives.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Address {
    /// The postcode.
    #[schema(pattern = "^[0-9]{5}$")]
    pub postcode: String,
}

/// Add people.
#[tool(read_only = false, destructive = false, open_world = false)]
fn add_people(people: Vec<Person>, lead: Option<Person>) -> String {
    format!("{} {}", people.len(), lead.is_some())
}

/// A page of results, read by either name.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Page {
    /// How many to skip.
    #[serde(alias = "skip")]
    pub offset: u32,
    /// How many at most.
    #[serde(alias = "count", alias = "max", default)]
    #[schema(minimum = 1)]
    pub limit: u32,
}

/// Read a page.
#[tool(read_only, open_world = false)]
fn read_page(page: Page) -> String {
    format!("{} {}", page.offset, page.limit)
}

/// Shared fields, flattened into each request.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Common {
    /// Who asks.
    #[schema(min_length = 2)]
    pub user: String,
    /// Optional trace.
    pub trace: Option<String>,
}

/// Styling.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Style {
    pub colour: Option<String>,
}

/// A request made of shared parts.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Request {
    pub query: String,
    #[serde(flatten)]
    pub common: Common,
    #[serde(flatten)]
    pub style: Style,
}

/// A request whose other fields are labels.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Labelled {
    pub id: u32,
    #[serde(flatten)]
    pub labels: BTreeMap<String, u8>,
}

/// Send requests.
#[tool(read_only, open_world = false)]
fn send(request: Request, labelled: Option<Labelled>) -> String {
    format!("{request:?} {labelled:?}")
}

/// A user's id: never empty.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct UserId(#[schema(min_length = 3)] pub String);

/// A distance in metres.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(transparent)]
pub struct Metres {
    #[schema(minimum = 0.0)]
    pub value: f64,
}

/// Walk somewhere.
#[tool(read_only, open_world = false)]
fn walk(user: UserId, distance: Metres) -> String {
    format!("{} {}", user.0, distance.value)
}

/// A tree of names.
#[derive(ToolSchema, Deserialize, Serialize, Debug)]
pub struct Node {
    /// The node's name.
    pub name: String,
    /// Its children.
    pub children: Vec<Node>,
    /// Where it links to.
    pub link: Option<Box<Node>>,
}

/// An expression: a term or a sum of terms, which hold expressions.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Expr {
    Number(f64),
    Sum(Vec<Term>),
}

/// A term of a sum.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Term {
    pub factor: f64,
    pub expr: Box<Expr>,
}

/// Two types named `Node`, in two modules.
pub mod other {
    /// A node of another kind of tree.
    #[derive(mcp_annotations::ToolSchema, serde::Deserialize, Debug)]
    pub struct Node {
        pub weight: u8,
        pub next: Option<Box<Node>>,
    }
}

/// Grow trees.
#[tool(read_only, open_world = false)]
fn grow(tree: Node, expr: Option<Expr>, other: Option<other::Node>) -> Json<Vec<Node>> {
    let _ = (expr, other);
    Json(vec![tree])
}

/// A shape: a dot, or a circle with its radius.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    Dot,
    Circle { radius: f64 },
}

/// Draw a shape.
#[tool(read_only, open_world = false)]
fn draw(shape: Shape) -> String {
    format!("{shape:?}")
}

/// A name of at least two characters.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Named {
    #[schema(min_length = 2)]
    pub n: String,
}

/// Externally tagged.
#[derive(ToolSchema, Deserialize, Debug)]
pub enum Ext {
    A(Named),
    B {
        inner: Named,
        #[serde(default)]
        x: u8,
    },
    C,
}

/// Untagged: serde reads the first variant that fits.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(untagged)]
pub enum Unt {
    A(Named),
    B { m: Vec<Named> },
    C(u8),
}

/// Internally tagged.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(tag = "t")]
pub enum Int {
    A { inner: Named },
    B,
}

/// Adjacently tagged.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(tag = "t", content = "c")]
pub enum Adj {
    A(Named),
    B(Vec<Named>),
}

/// Take enums in every tagging.
#[tool(read_only, open_world = false)]
fn tagged(e: Option<Ext>, u: Option<Unt>, i: Option<Int>, a: Option<Adj>) -> String {
    format!("{e:?} {u:?} {i:?} {a:?}")
}

/// Variants named like keywords.
#[derive(ToolSchema, Deserialize, Debug)]
#[allow(non_camel_case_types)]
pub enum Keyword {
    r#type,
    r#match,
}

/// A keyword variant with data.
#[derive(ToolSchema, Deserialize, Debug)]
#[allow(non_camel_case_types)]
pub enum KeywordData {
    r#type(Named),
}

/// Adjacently tagged, with an `Option` payload serde reads as `None` when absent.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(tag = "t", content = "c")]
pub enum MaybeNamed {
    O(Option<Named>),
    U,
}

/// Untagged and closed: serde reads the variant whose fields fit exactly.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(untagged, deny_unknown_fields)]
pub enum Closed {
    A { inner: Named },
    B { inner: Loose, extra: u8 },
}

/// A name without constraints.
#[derive(ToolSchema, Deserialize, Debug)]
pub struct Loose {
    pub n: String,
}

/// Take the enums above.
#[tool(read_only, open_world = false)]
fn odd(
    k: Option<Keyword>,
    kd: Option<KeywordData>,
    m: Option<MaybeNamed>,
    c: Option<Closed>,
    i: Option<Int>,
) -> String {
    format!("{k:?} {kd:?} {m:?} {c:?} {i:?}")
}

/// A list whose reading wraps serde's message in its own, as `deserialize_with` helpers do.
#[derive(Debug)]
pub struct Wrapped(pub Vec<Loose>);

impl<'de> Deserialize<'de> for Wrapped {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<Loose>::deserialize(deserializer)
            .map(Wrapped)
            .map_err(|error| serde::de::Error::custom(format!("bad list: {error}")))
    }
}

impl ToolSchema for Wrapped {
    fn tool_schema() -> Value {
        json!({"type": "array", "items": Loose::tool_schema()})
    }
}

/// Text whose reading fails with the text itself as the message.
#[derive(Debug)]
pub struct Echo;

impl<'de> Deserialize<'de> for Echo {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Err(serde::de::Error::custom(text))
    }
}

impl ToolSchema for Echo {
    fn tool_schema() -> Value {
        json!({"type": "string"})
    }
}

/// A pair in a variant (its schema by hand: the derive does not read such variants yet).
#[derive(Deserialize, Debug)]
pub enum Pair {
    Two(u8, String),
}

impl ToolSchema for Pair {
    fn tool_schema() -> Value {
        json!({"type": "object", "properties": {"Two": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}}})
    }
}

/// Take a pair.
#[tool(read_only, open_world = false)]
fn pair_tool(p: Pair) -> String {
    format!("{p:?}")
}

/// Messages from types of their own.
#[tool(read_only, open_world = false)]
fn messages(w: Option<Wrapped>, e: Option<Vec<Echo>>) -> String {
    format!("{w:?} {e:?}")
}

/// A tool struct whose fields serde names in other ways.
#[derive(mcp_annotations::Tool, Deserialize)]
#[tool(read_only, open_world = false)]
pub struct Renamed {
    #[serde(rename = "first-name")]
    pub first: Option<Loose>,
    #[serde(rename = "a.b")]
    pub ab: Option<Vec<Loose>>,
}

impl CallTool<()> for Renamed {
    type Output = String;

    async fn call(self, _: &(), _: Context<'_>) -> String {
        String::new()
    }
}

/// A tool struct with a field of a user type whose fields carry constraints.
#[derive(mcp_annotations::Tool, Deserialize)]
#[tool(read_only, open_world = false)]
pub struct Greet {
    pub person: Person,
}

impl CallTool<()> for Greet {
    type Output = String;

    async fn call(self, _: &(), _: Context<'_>) -> String {
        self.person.name
    }
}

static TOOLS: Listing = tools![
    add_people, read_page, send, walk, grow, draw, tagged, odd, messages, pair_tool, Greet, Renamed
];

fn call(name: &str, arguments: Value) -> mcp_annotations::ToolResult {
    call_in(&TOOLS, name, arguments)
}

/// Calls the tool `name` of `tools` with `arguments`.
pub fn call_in(tools: &Listing, name: &str, arguments: Value) -> mcp_annotations::ToolResult {
    let call = tools
        .call(&(), name, arguments.as_object().cloned(), Context::none())
        .unwrap();
    tokio::runtime::Runtime::new().unwrap().block_on(call)
}

/// The tool's input schema, checked to be a valid 2020-12 schema.
fn input_schema(name: &str) -> Value {
    input_schema_in(&TOOLS, name)
}

/// The input schema of the tool `name` of `tools`, checked to be a valid 2020-12 schema.
pub fn input_schema_in(tools: &Listing, name: &str) -> Value {
    let schema = tools.get(name).unwrap().input_schema.to_value();
    jsonschema::meta::validate(&schema).unwrap();
    schema
}

/// Every `(arguments, accepted)` pair: the schema and the call agree, and both agree with
/// what the test says.
fn agree(name: &str, cases: &[(Value, bool)]) {
    agree_in(&TOOLS, name, cases);
}

/// [`agree`] for the tool `name` of `tools`.
pub fn agree_in(tools: &Listing, name: &str, cases: &[(Value, bool)]) {
    let schema = input_schema_in(tools, name);
    let validator = jsonschema::validator_for(&schema).unwrap();
    for (arguments, accepted) in cases {
        assert_eq!(
            validator.is_valid(arguments),
            *accepted,
            "the schema of `{name}` on {arguments}: {schema}"
        );
        let result = call_in(tools, name, arguments.clone());
        assert_eq!(
            !result.is_error,
            *accepted,
            "the call of `{name}` on {arguments}: {}",
            result.text_content()
        );
    }
}

#[test]
fn field_constraints_are_listed_and_checked_at_every_depth() {
    let schema = Person::tool_schema();
    assert_eq!(
        schema["properties"]["name"],
        json!({"type": "string", "minLength": 1, "maxLength": 20, "description": "Their name."})
    );
    assert_eq!(schema["properties"]["tags"]["maxItems"], 3);
    assert_eq!(schema["properties"]["tags"]["uniqueItems"], true);
    let ada = json!({"name": "Ada", "tags": ["a"]});
    agree(
        "add_people",
        &[
            (json!({"people": [ada]}), true),
            (json!({"people": [ada, {"name": "", "tags": []}]}), false),
            (
                json!({"people": [], "lead": {"name": "B", "age": 151, "tags": []}}),
                false,
            ),
            (
                json!({"people": [{"name": "B", "tags": ["x", "x"]}]}),
                false,
            ),
            (
                json!({"people": [{"name": "B", "tags": ["a", "b", "c", "d"]}]}),
                false,
            ),
            (
                json!({"people": [{"name": "B", "tags": [], "home": {"postcode": "1234"}}]}),
                false,
            ),
            (
                json!({"people": [{"name": "B", "tags": [], "home": {"postcode": "12345"}}]}),
                true,
            ),
        ],
    );
}

#[test]
fn a_nested_message_says_where() {
    let result = call(
        "add_people",
        json!({"people": [{"name": "Ada", "tags": []}, {"name": "", "tags": []}]}),
    );
    assert_eq!(
        result.text_content(),
        "invalid argument `people`: `people[1].name`: expected at least 1 character, found 0"
    );
    let result = call(
        "add_people",
        json!({"people": [], "lead": {"name": "B", "tags": ["x", "x"]}}),
    );
    assert_eq!(
        result.text_content(),
        "invalid argument `lead`: the items of `lead.tags` must all differ, and \"x\" is repeated"
    );
    let result = call(
        "add_people",
        json!({"people": [{"name": "B", "tags": [], "home": {"postcode": "x"}}]}),
    );
    assert_eq!(
        result.text_content(),
        "invalid argument `people`: `people[0].home.postcode`: expected a string matching \
         `^[0-9]{5}$`, found \"x\""
    );
}

#[test]
fn a_tool_structs_field_of_a_user_type_is_checked_too() {
    agree(
        "greet",
        &[
            (json!({"person": {"name": "Ada", "tags": []}}), true),
            (json!({"person": {"name": "", "tags": []}}), false),
        ],
    );
    let result = call("greet", json!({"person": {"name": "", "tags": []}}));
    assert_eq!(
        result.text_content(),
        "invalid argument `person`: `person.name`: expected at least 1 character, found 0"
    );
}

#[test]
fn aliases_are_other_names_and_only_one_is_given() {
    let schema = Page::tool_schema();
    let names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["count", "limit", "max", "offset", "skip"]);
    agree(
        "read_page",
        &[
            (json!({"page": {"offset": 1}}), true),
            (json!({"page": {"skip": 1, "limit": 2}}), true),
            (json!({"page": {"skip": 1, "count": 2}}), true),
            (json!({"page": {"offset": 1, "max": 2}}), true),
            (json!({"page": {}}), false),
            (json!({"page": {"offset": 1, "skip": 2}}), false),
            (
                json!({"page": {"offset": 1, "count": 2, "limit": 3}}),
                false,
            ),
            (json!({"page": {"offset": 1, "count": 0}}), false),
            (json!({"page": {"offset": 1, "max": 0}}), false),
        ],
    );
    assert_eq!(
        call("read_page", json!({"page": {"skip": 4, "max": 5}})).text_content(),
        "4 5"
    );
}

#[test]
fn flattened_fields_are_the_objects_own() {
    let schema = Request::tool_schema();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "description": "A request made of shared parts.",
            "properties": {
                "query": {"type": "string"},
                "user": {"type": "string", "minLength": 2, "description": "Who asks."},
                "trace": {"type": ["string", "null"], "description": "Optional trace."},
                "colour": {"type": ["string", "null"]}
            },
            "required": ["query", "user"]
        })
    );
    agree(
        "send",
        &[
            (json!({"request": {"query": "q", "user": "me"}}), true),
            (
                json!({"request": {"query": "q", "user": "me", "colour": "red"}}),
                true,
            ),
            (json!({"request": {"query": "q"}}), false),
            (json!({"request": {"query": "q", "user": "m"}}), false),
            (
                json!({"request": {"query": "q", "user": "me"}, "labelled": {"id": 1, "a": 2}}),
                true,
            ),
            (
                json!({"request": {"query": "q", "user": "me"}, "labelled": {"id": 1, "a": "x"}}),
                false,
            ),
            (
                json!({"request": {"query": "q", "user": "me"}, "labelled": {"a": 2}}),
                false,
            ),
        ],
    );
    assert_eq!(
        Labelled::tool_schema()["additionalProperties"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
}

#[test]
fn a_newtype_or_transparent_struct_is_its_field() {
    assert_eq!(
        UserId::tool_schema(),
        json!({"type": "string", "minLength": 3, "description": "A user's id: never empty."})
    );
    assert_eq!(
        Metres::tool_schema(),
        json!({"type": "number", "minimum": 0.0, "description": "A distance in metres."})
    );
    agree(
        "walk",
        &[
            (json!({"user": "ada", "distance": 3.5}), true),
            (json!({"user": "ad", "distance": 3.5}), false),
            (json!({"user": "ada", "distance": -1}), false),
            (json!({"user": "ada", "distance": {"value": 1}}), false),
        ],
    );
    assert_eq!(
        call("walk", json!({"user": "ad", "distance": 1})).text_content(),
        "invalid argument `user`: `user`: expected at least 3 characters, found 2"
    );
}

#[test]
fn a_type_that_holds_itself_is_a_reference_into_defs() {
    let schema = Node::tool_schema();
    assert_eq!(
        schema["$ref"], "#/$defs/macros.tool_schema_serde.Node",
        "the full path names it: {schema}"
    );
    let definition = &schema["$defs"]["macros.tool_schema_serde.Node"];
    assert_eq!(
        definition["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/macros.tool_schema_serde.Node"})
    );
    let input = input_schema("grow");
    let defs: Vec<&String> = input["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(
        defs,
        [
            "macros.tool_schema_serde.Expr",
            "macros.tool_schema_serde.Node",
            "macros.tool_schema_serde.other.Node"
        ],
        "{input}"
    );
    let leaf = json!({"name": "leaf", "children": []});
    agree(
        "grow",
        &[
            (json!({"tree": leaf}), true),
            (
                json!({"tree": {"name": "root", "children": [leaf, {"name": "x", "children": [leaf]}], "link": leaf}}),
                true,
            ),
            (
                json!({"tree": {"name": "root", "children": [{"name": "x"}]}}),
                false,
            ),
            (
                json!({"tree": leaf, "expr": {"sum": [{"factor": 2, "expr": {"number": 1}}]}}),
                true,
            ),
            (
                json!({"tree": leaf, "expr": {"sum": [{"factor": 2, "expr": {"sum": [{"factor": 1}]}}]}}),
                false,
            ),
            (
                json!({"tree": leaf, "other": {"weight": 1, "next": {"weight": 2}}}),
                true,
            ),
            (
                json!({"tree": leaf, "other": {"weight": 1, "next": {"weight": 256}}}),
                false,
            ),
        ],
    );
}

#[test]
fn a_recursive_output_schema_resolves_from_its_root() {
    let tool = TOOLS.get("grow").unwrap();
    for version in mcp_annotations::ProtocolVersion::ALL {
        let schema: Value =
            serde_json::from_str(&tool.output_schema_for(version).unwrap()).unwrap();
        jsonschema::meta::validate(&schema).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let result = call(
            "grow",
            json!({"tree": {"name": "a", "children": [{"name": "b", "children": []}]}}),
        );
        let structured = result.to_json(version)["structuredContent"].clone();
        assert!(
            validator.is_valid(&structured),
            "{version:?}: {structured} against {schema}"
        );
        assert!(!validator.is_valid(&json!({"result": [{"name": 1, "children": []}]})));
    }
}

#[test]
fn serdes_looser_shapes_are_refused_as_the_schema_refuses_them() {
    agree(
        "read_page",
        &[
            (json!({"page": {"offset": 1, "limit": 2}}), true),
            // serde would read a struct from its fields in order.
            (json!({"page": [1, 2]}), false),
        ],
    );
    agree(
        "draw",
        &[
            (json!({"shape": "dot"}), true),
            (json!({"shape": {"circle": {"radius": 1.5}}}), true),
            // serde_json would read a unit variant from `{"dot": null}`.
            (json!({"shape": {"dot": null}}), false),
            (json!({"shape": {"circle": null}}), false),
        ],
    );
}

#[test]
fn constraints_inside_an_enums_variants_are_checked_in_every_tagging() {
    agree(
        "tagged",
        &[
            (json!({"e": {"A": {"n": "ok"}}}), true),
            (json!({"e": {"A": {"n": "x"}}}), false),
            (json!({"e": {"B": {"inner": {"n": "x"}}}}), false),
            (json!({"e": {"B": {"inner": {"n": "ok"}, "x": 1}}}), true),
            (json!({"e": "C"}), true),
            (json!({"u": {"n": "ok"}}), true),
            (json!({"u": {"n": "x"}}), false),
            (json!({"u": {"m": [{"n": "ok"}, {"n": "x"}]}}), false),
            (json!({"u": 3}), true),
            (json!({"i": {"t": "A", "inner": {"n": "ok"}}}), true),
            (json!({"i": {"t": "A", "inner": {"n": "x"}}}), false),
            (json!({"i": {"t": "B"}}), true),
            (json!({"a": {"t": "A", "c": {"n": "ok"}}}), true),
            (json!({"a": {"t": "A", "c": {"n": "x"}}}), false),
            (
                json!({"a": {"t": "B", "c": [{"n": "ok"}, {"n": "x"}]}}),
                false,
            ),
        ],
    );
    assert_eq!(
        call(
            "tagged",
            json!({"a": {"t": "B", "c": [{"n": "ok"}, {"n": "x"}]}})
        )
        .text_content(),
        "invalid argument `a`: `a.c[1].n`: expected at least 2 characters, found 1"
    );
    assert_eq!(
        call("tagged", json!({"e": {"B": {"inner": {"n": "x"}}}})).text_content(),
        "invalid argument `e`: `e.B.inner.n`: expected at least 2 characters, found 1"
    );
}

#[test]
fn enums_agree_in_their_corners() {
    agree(
        "odd",
        &[
            (json!({"k": "type"}), true),
            (json!({"k": "r#type"}), false),
            (json!({"kd": {"type": {"n": "ok"}}}), true),
            (json!({"kd": {"type": {"n": "x"}}}), false),
            (json!({"m": {"t": "O"}}), true),
            (json!({"m": {"t": "O", "c": null}}), true),
            (json!({"m": {"t": "O", "c": {"n": "x"}}}), false),
            (json!({"m": {"t": "U"}}), true),
            (json!({"c": {"inner": {"n": "x"}, "extra": 1}}), true),
            (json!({"c": {"inner": {"n": "x"}}}), false),
            (json!({"c": {"inner": {"n": "ok"}}}), true),
            // serde reads an internally tagged enum from an array too.
            (json!({"i": ["A", {"n": "ok"}]}), false),
            (json!({"i": ["B"]}), false),
        ],
    );
}

#[test]
fn serdes_own_errors_say_where_too() {
    assert_eq!(
        call(
            "add_people",
            json!({"people": [{"name": "A", "tags": []}, {"tags": []}]})
        )
        .text_content(),
        "invalid argument `people`: `people[1]`: missing field `name`"
    );
    assert_eq!(
        call(
            "add_people",
            json!({"people": [{"name": "A", "tags": [], "age": "x"}]})
        )
        .text_content(),
        "invalid argument `people`: `people[0].age`: invalid type: string \"x\", expected u8"
    );
    assert_eq!(
        call("tagged", json!({"e": {"B": {"inner": {"n": 1}}}})).text_content(),
        "invalid argument `e`: `e.B.inner.n`: invalid type: integer `1`, expected a string"
    );
    assert_eq!(
        call("greet", json!({"person": {"tags": []}})).text_content(),
        "invalid argument `person`: missing field `name`"
    );
    assert_eq!(
        call("greet", json!({"person": {"name": "Ada", "tags": [1]}})).text_content(),
        "invalid argument `person`: `person.tags[0]`: invalid type: integer `1`, expected a string"
    );
}

#[test]
fn places_are_the_readers_own_and_no_mark_reaches_a_message() {
    // A type's message that wraps one from deeper down keeps its place, written out.
    assert_eq!(
        call("messages", json!({"w": [{"n": "a"}, {}]})).text_content(),
        "invalid argument `w`: bad list: `[1]`: missing field `n`"
    );
    // Text the model sent cannot pass for a place, and no control character comes back.
    let forged = call("messages", json!({"e": ["\u{1}.evil\u{1}boom", "x"]})).text_content();
    assert_eq!(forged, "invalid argument `e`: `e[0]`: `.evil`: boom");
    let stray = call("messages", json!({"e": ["one \u{1} mark"]})).text_content();
    assert_eq!(stray, "invalid argument `e`: `e[0]`: one  mark");
    // A tuple variant's place names the variant.
    assert_eq!(
        call("pair_tool", json!({"p": {"Two": [1, 2]}})).text_content(),
        "invalid argument `p`: `p.Two[1]`: invalid type: integer `2`, expected a string"
    );
    // A struct tool's field named other than an identifier.
    assert_eq!(
        call("renamed", json!({"first-name": {}})).text_content(),
        "invalid argument `first-name`: missing field `n`"
    );
    assert_eq!(
        call("renamed", json!({"a.b": [{"n": 1}]})).text_content(),
        "invalid argument `a.b`: `a.b[0].n`: invalid type: integer `1`, expected a string"
    );
}
