//! Handlers covering every parameter type `#[tool]` knows, a user type through `ToolSchema`,
//! and a listing of them all.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use mcp_annotations::{Listing, ToolSchema, tool, tools};
use serde_json::{Value, json};

/// A colour of the user's own, with a hand-written schema.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Colour(pub String);

impl ToolSchema for Colour {
    fn tool_schema() -> Value {
        json!({"type": "string", "pattern": "^#[0-9a-f]{6}$"})
    }
}

/// A shape whose schema refers to its own definitions, as schemars writes recursive types.
#[derive(Debug, serde::Deserialize)]
pub struct Shape {
    /// A shape inside this one.
    pub inner: Option<Box<Shape>>,
}

impl ToolSchema for Shape {
    fn tool_schema() -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": "#/$defs/Shape",
            "$defs": {"Shape": {"type": "object", "properties": {"inner": {"$ref": "#/$defs/Shape"}}}}
        })
    }
}

/// Shared state, supplied by the server.
pub struct Store;

/// List every saved note with its id and title.
#[tool(read_only, open_world = false, title = "List notes")]
pub fn list_notes(#[context] _store: &Store) {}

/// Save a new note.
///
/// Use this when the user asks to write something down.
#[tool(open_world = false, title = "Add note")]
pub fn add_note(
    /// Short title for the note
    title: String,
    /// Text of the note
    body: &str,
    tags: Option<Vec<String>>,
) {
    let _ = (title, body, tags);
}

/// Every integer type, at its true range.
#[tool(
    read_only,
    open_world = false,
    name = "integers.all",
    description = "Takes every integer type."
)]
#[allow(clippy::too_many_arguments)]
pub fn integers(
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: u128,
    f: usize,
    g: i8,
    h: i16,
    i: i32,
    j: i64,
    k: i128,
    l: isize,
) {
    let _ = (a, b, c, d, e, f, g, h, i, j, k, l);
}

/// Scalars and strings.
#[tool(read_only, title = "Scalars")]
pub fn scalars(
    flag: bool,
    x: f32,
    y: f64,
    letter: char,
    owned: String,
    cow: Cow<'_, str>,
    boxed: Box<str>,
) {
    let _ = (flag, x, y, letter, owned, cow, boxed);
}

/// Collections.
#[tool(destructive, title = "Collections")]
#[allow(clippy::too_many_arguments)]
#[allow(clippy::needless_pass_by_value)]
pub fn collections(
    list: Vec<u8>,
    slice: &[bool],
    pair: [u16; 2],
    queue: VecDeque<i32>,
    set: HashSet<String>,
    ordered: BTreeSet<char>,
    map: HashMap<String, Vec<bool>>,
    tree: BTreeMap<Cow<'static, str>, f64>,
    any: Value,
    nested: Option<Vec<u8>>,
    maybe_any: Option<serde_json::Value>,
) -> mcp_annotations::Json<HashMap<String, Vec<bool>>> {
    let _ = (
        list, slice, pair, queue, set, ordered, tree, any, nested, maybe_any,
    );
    mcp_annotations::Json(map)
}

/// Paint with a colour of the user's own type.
#[tool(destructive = false, idempotent, title = "Paint")]
pub fn paint(
    /// The colour
    colour: Colour,
    palette: Vec<Colour>,
    accent: Option<Colour>,
    shape: Shape,
    width: u8,
) -> mcp_annotations::Json<Colour> {
    let _ = (palette, accent, shape, width);
    mcp_annotations::Json(colour)
}

/// A tool named with a raw identifier.
#[tool(read_only, title = "Type")]
pub fn r#type() {}

/// Every tool above, in order, called with a `Store`.
pub static ALL: Listing<Store> = tools![
    list_notes,
    add_note,
    integers,
    scalars,
    collections,
    paint,
    r#type
];
