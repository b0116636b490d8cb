//! Changes to a tool's input schema: what a client's call may now fail on (breaking) or may
//! now also send (compatible), keyword by keyword at every depth; the output's are in `output`.

use serde_json::{Map, Value};

use crate::host::diff::{Change, Class};

/// The keywords that say what a schema is, not what it takes: changing them breaks nothing.
const ANNOTATIONS: [&str; 8] = [
    "description",
    "title",
    "default",
    "examples",
    "format",
    "$comment",
    "deprecated",
    "$schema",
];

/// The changes from one input schema to another.
pub(crate) fn input(name: &str, old: &Value, new: &Value, out: &mut Vec<Change>) {
    let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
        if old != new {
            out.push(Change::new(name, "input schema changed", Class::Breaking));
        }
        return;
    };
    let (old_required, new_required) = (required(old), required(new));
    let (old_properties, new_properties) = (properties(old), properties(new));
    for (parameter, old_schema) in &old_properties {
        match new_properties.get(parameter) {
            None => out.push(Change::new(
                name,
                format!("parameter `{parameter}` removed"),
                Class::Breaking,
            )),
            Some(new_schema) => {
                let was = old_required.contains(parameter);
                let is = new_required.contains(parameter);
                if !was && is {
                    out.push(Change::new(
                        name,
                        format!("parameter `{parameter}` newly required"),
                        Class::Breaking,
                    ));
                } else if was && !is {
                    out.push(Change::new(
                        name,
                        format!("parameter `{parameter}` newly optional"),
                        Class::Compatible,
                    ));
                }
                value(name, &format!("`{parameter}`"), old_schema, new_schema, out);
            }
        }
    }
    for parameter in new_properties.keys() {
        if !old_properties.contains_key(parameter) {
            let (what, class) = if new_required.contains(parameter) {
                ("new required parameter", Class::Breaking)
            } else {
                ("new optional parameter", Class::Compatible)
            };
            out.push(Change::new(name, format!("{what} `{parameter}`"), class));
        }
    }
    // A name `required` lists with no property of its own (a map's keys, say).
    let unlisted = |names: &[String], other: &[String]| -> Vec<String> {
        names
            .iter()
            .filter(|n| !other.contains(n))
            .filter(|n| !old_properties.contains_key(*n) && !new_properties.contains_key(*n))
            .cloned()
            .collect()
    };
    for key in unlisted(&new_required, &old_required) {
        out.push(Change::new(
            name,
            format!("`{key}` newly required"),
            Class::Breaking,
        ));
    }
    for key in unlisted(&old_required, &new_required) {
        out.push(Change::new(
            name,
            format!("`{key}` newly optional"),
            Class::Compatible,
        ));
    }
    additional(name, "input schema", old, new, out);
    definitions(name, old, new, out);
    let rest = |schema: &Map<String, Value>| {
        strip(
            schema,
            &[
                "properties",
                "required",
                "$defs",
                "definitions",
                "additionalProperties",
            ],
        )
    };
    if rest(old) != rest(new) {
        out.push(Change::new(
            name,
            "input schema's own keywords changed",
            Class::Breaking,
        ));
    }
}

/// `additionalProperties` of an object schema at `path`: closing it narrows, opening it
/// widens, a schema for the others compared as any value's.
fn additional(
    name: &str,
    path: &str,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    out: &mut Vec<Change>,
) {
    let open = Value::Bool(true);
    let (was, is) = (
        old.get("additionalProperties").unwrap_or(&open),
        new.get("additionalProperties").unwrap_or(&open),
    );
    if strip_deep(was) == strip_deep(is) {
        return;
    }
    match (was, is) {
        (_, Value::Bool(false)) => out.push(Change::new(
            name,
            format!("{path}: closed to other properties"),
            Class::Breaking,
        )),
        (Value::Bool(false), _) | (_, Value::Bool(true)) => out.push(Change::new(
            name,
            format!("{path}: open to other properties"),
            Class::Compatible,
        )),
        (Value::Bool(true), _) => out.push(Change::new(
            name,
            format!("{path}: other properties newly constrained"),
            Class::Breaking,
        )),
        (was, is) => value(name, &format!("{path}: other properties"), was, is, out),
    }
}

/// The definitions (`$defs`) of two input schemas, each compared as a value's schema: a new
/// one is compatible, one removed breaking (a `$ref` may have pointed at it).
fn definitions(
    name: &str,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    out: &mut Vec<Change>,
) {
    let empty = Map::new();
    let defs = |schema: &Map<String, Value>| -> Map<String, Value> {
        schema
            .get("$defs")
            .and_then(Value::as_object)
            .unwrap_or(&empty)
            .clone()
    };
    let (mut was, mut is) = (defs(old), defs(new));
    // draft-07's `definitions` are definitions too.
    for (schema, into) in [(old, &mut was), (new, &mut is)] {
        if let Some(Value::Object(more)) = schema.get("definitions") {
            for (key, def) in more {
                into.entry(key.clone()).or_insert_with(|| def.clone());
            }
        }
    }
    for (key, def) in &was {
        match is.get(key) {
            Some(other) => value(name, &format!("definition `{key}`"), def, other, out),
            None => out.push(Change::new(
                name,
                format!("definition `{key}` removed"),
                Class::Breaking,
            )),
        }
    }
    for key in is.keys().filter(|key| !was.contains_key(*key)) {
        out.push(Change::new(
            name,
            format!("new definition `{key}`"),
            Class::Compatible,
        ));
    }
}

/// The bounds a value's schema may state, each with whether a higher value narrows what it
/// takes (a minimum) or widens it (a maximum).
const BOUNDS: [(&str, bool); 8] = [
    ("minimum", true),
    ("exclusiveMinimum", true),
    ("minLength", true),
    ("minItems", true),
    ("maximum", false),
    ("exclusiveMaximum", false),
    ("maxLength", false),
    ("maxItems", false),
];

/// The keys compared as one value each: a change narrows, their removal widens.
const EXACT: [&str; 4] = ["pattern", "multipleOf", "const", "uniqueItems"];

/// The keys of an object's fields, compared as an input schema is.
const OBJECT_KEYS: [&str; 5] = [
    "properties",
    "required",
    "additionalProperties",
    "$defs",
    "definitions",
];

/// One value's schema, at `path`: a choice that gains or loses the old schema as a branch,
/// then bounds, lengths, types, enums, exact keys, an object's fields and an array's items
/// compared, and anything else that changed what it takes reported as breaking.
fn value(name: &str, path: &str, old: &Value, new: &Value, out: &mut Vec<Change>) {
    if strip_deep(old) == strip_deep(new) {
        return;
    }
    if let Some(change) = choice(name, path, old, new) {
        out.push(change);
        return;
    }
    let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
        out.push(Change::new(
            name,
            format!("{path}: its schema changed"),
            Class::Breaking,
        ));
        return;
    };
    bounds(name, path, old, new, out);
    types(name, path, old, new, out);
    enums(name, path, old, new, out);
    exact(name, path, old, new, out);
    fields(name, path, old, new, out);
    match (old.get("items"), new.get("items")) {
        (Some(a), Some(b)) => value(name, &format!("{path}[]"), a, b, out),
        (None, None) => {}
        _ => out.push(Change::new(
            name,
            format!("{path}: items changed"),
            Class::Breaking,
        )),
    }
    let mut handled = vec!["items", "type", "enum"];
    handled.extend(BOUNDS.iter().map(|(key, _)| *key));
    handled.extend(EXACT);
    handled.extend(OBJECT_KEYS);
    let rest = |schema: &Map<String, Value>| strip_deep(&Value::Object(strip(schema, &handled)));
    if rest(old) != rest(new) {
        out.push(Change::new(
            name,
            format!("{path}: its schema changed"),
            Class::Breaking,
        ));
    }
}

/// A choice (`anyOf`) that holds the old schema whole takes all it took (pydantic's optional
/// form, `{"anyOf": [{"type": "string"}, {"type": "null"}]}` for a string): compatible; the
/// old choice narrowed to one of its branches takes less: breaking. `None` for any other
/// change.
fn choice(name: &str, path: &str, old: &Value, new: &Value) -> Option<Change> {
    let branch_of = |choice: &Value, one: &Value| {
        // `anyOf` only: a value valid against two branches of a `oneOf` is refused by it.
        choice
            .get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|branches| {
                branches
                    .iter()
                    .any(|branch| strip_deep(branch) == strip_deep(one))
            })
            && choice.as_object().is_some_and(|choice| {
                choice
                    .keys()
                    .all(|key| key == "anyOf" || ANNOTATIONS.contains(&key.as_str()))
            })
    };
    if branch_of(new, old) {
        return Some(Change::new(
            name,
            format!("{path}: now one of several schemas, its own among them"),
            Class::Compatible,
        ));
    }
    branch_of(old, new).then(|| {
        Change::new(
            name,
            format!("{path}: narrowed to one of the schemas it could be"),
            Class::Breaking,
        )
    })
}

/// Each of the [`BOUNDS`]: one that rises (a minimum) or falls (a maximum), or appears,
/// narrows; one that moves the other way, or goes, widens.
fn bounds(
    name: &str,
    path: &str,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    out: &mut Vec<Change>,
) {
    for (key, narrower_when_higher) in BOUNDS {
        let (was, is) = (old.get(key), new.get(key));
        let class = match (was, is) {
            (None, None) => continue,
            (Some(a), Some(b)) => match compare(a, b) {
                None | Some(std::cmp::Ordering::Equal) => continue,
                Some(order) => {
                    if (order == std::cmp::Ordering::Less) == narrower_when_higher {
                        Class::Breaking
                    } else {
                        Class::Compatible
                    }
                }
            },
            (None, Some(_)) => Class::Breaking,
            (Some(_), None) => Class::Compatible,
        };
        // The numbers as written (an integer past 2^53 exactly, not as its nearest float).
        let said = |n: Option<&Value>| n.map_or_else(|| "none".to_owned(), Value::to_string);
        let verb = if class == Class::Breaking {
            "narrowed"
        } else {
            "widened"
        };
        out.push(Change::new(
            name,
            format!("{path}: `{key}` {verb} ({} -> {})", said(was), said(is)),
            class,
        ));
    }
}

/// The `type`: one that keeps every old type (an integer within a number) widens, else it
/// narrows; stated anew it narrows, no longer stated it widens.
fn types(
    name: &str,
    path: &str,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    out: &mut Vec<Change>,
) {
    let types = |schema: &Map<String, Value>| -> Option<Vec<String>> {
        match schema.get("type")? {
            Value::String(kind) => Some(vec![kind.clone()]),
            Value::Array(kinds) => Some(
                kinds
                    .iter()
                    .filter_map(|k| k.as_str().map(str::to_owned))
                    .collect(),
            ),
            _ => None,
        }
    };
    match (types(old), types(new)) {
        (Some(was), Some(is)) if was != is => {
            let widened = was.iter().all(|kind| {
                is.contains(kind) || (kind == "integer" && is.iter().any(|k| k == "number"))
            });
            out.push(Change::new(
                name,
                format!("{path}: type {} -> {}", was.join("|"), is.join("|")),
                if widened {
                    Class::Compatible
                } else {
                    Class::Breaking
                },
            ));
        }
        (None, Some(_)) => out.push(Change::new(
            name,
            format!("{path}: type now stated"),
            Class::Breaking,
        )),
        (Some(_), None) => out.push(Change::new(
            name,
            format!("{path}: type no longer stated"),
            Class::Compatible,
        )),
        _ => {}
    }
}

/// The `enum`: one that loses a value narrows (each lost value named), one that only gains
/// widens; a new enum narrows, one gone widens.
fn enums(
    name: &str,
    path: &str,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    out: &mut Vec<Change>,
) {
    match (
        old.get("enum").and_then(Value::as_array),
        new.get("enum").and_then(Value::as_array),
    ) {
        (Some(was), Some(is)) if was != is => {
            let removed: Vec<String> = was
                .iter()
                .filter(|item| !is.contains(item))
                .map(Value::to_string)
                .collect();
            if removed.is_empty() {
                out.push(Change::new(
                    name,
                    format!("{path}: enum widened"),
                    Class::Compatible,
                ));
            } else {
                out.push(Change::new(
                    name,
                    format!("{path}: enum lost {}", removed.join(", ")),
                    Class::Breaking,
                ));
            }
        }
        (None, Some(_)) => out.push(Change::new(
            name,
            format!("{path}: now an enum"),
            Class::Breaking,
        )),
        (Some(_), None) => out.push(Change::new(
            name,
            format!("{path}: no longer an enum"),
            Class::Compatible,
        )),
        _ => {}
    }
}

/// Each of the [`EXACT`] keys: removed (or `uniqueItems` no longer `true`) it widens; any
/// other change narrows.
fn exact(
    name: &str,
    path: &str,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    out: &mut Vec<Change>,
) {
    for key in EXACT {
        match (old.get(key), new.get(key)) {
            (a, b) if a == b => {}
            (Some(_), None) if key != "uniqueItems" => {
                out.push(Change::new(
                    name,
                    format!("{path}: `{key}` removed"),
                    Class::Compatible,
                ));
            }
            (Some(Value::Bool(true)), Some(Value::Bool(false)) | None) => {
                out.push(Change::new(
                    name,
                    format!("{path}: `{key}` removed"),
                    Class::Compatible,
                ));
            }
            _ => out.push(Change::new(
                name,
                format!("{path}: `{key}` changed"),
                Class::Breaking,
            )),
        }
    }
}

/// An object's fields, where either schema has any of the [`OBJECT_KEYS`]: compared as an
/// input schema is, each change said at `path`.
fn fields(
    name: &str,
    path: &str,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    out: &mut Vec<Change>,
) {
    if !OBJECT_KEYS
        .iter()
        .any(|key| old.contains_key(*key) || new.contains_key(*key))
    {
        return;
    }
    let nested_old = Value::Object(strip(old, &[]));
    let nested_new = Value::Object(strip(new, &[]));
    let mut inner = Vec::new();
    input(name, &nested_old, &nested_new, &mut inner);
    for change in inner {
        out.push(Change::new(
            name,
            format!("{path}: {}", change.what()),
            change.class(),
        ));
    }
}

/// How two JSON numbers compare: exactly when both are integers, as floats otherwise.
fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    let integer = |v: &Value| {
        v.as_i64()
            .map(i128::from)
            .or_else(|| v.as_u64().map(i128::from))
    };
    match (integer(a), integer(b)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// The keywords whose value is data (a value the schema takes), not a schema.
const DATA: [&str; 2] = ["enum", "const"];

/// The keywords whose value maps names (of properties, patterns, definitions) to schemas: the
/// names are not keywords, even `description` or `title`.
const NAME_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// The names an object schema lists in `required` (none when it lists none).
pub(super) fn required(schema: &Map<String, Value>) -> Vec<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// An object schema's `properties` (empty when it has none).
pub(super) fn properties(schema: &Map<String, Value>) -> Map<String, Value> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

pub(super) fn strip(schema: &Map<String, Value>, keys: &[&str]) -> Map<String, Value> {
    schema
        .iter()
        .filter(|(key, _)| !keys.contains(&key.as_str()) && !ANNOTATIONS.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

/// The schema without its annotations, at every depth (property names kept).
pub(super) fn strip_deep(schema: &Value) -> Value {
    match schema {
        Value::Object(object) => Value::Object(
            object
                .iter()
                .filter(|(key, _)| !ANNOTATIONS.contains(&key.as_str()))
                .map(|(key, value)| {
                    // Values, not schemas: kept whole, whatever keys they hold.
                    if DATA.contains(&key.as_str()) {
                        return (key.clone(), value.clone());
                    }
                    let value = if NAME_MAPS.contains(&key.as_str()) {
                        match value {
                            Value::Object(named) => Value::Object(
                                named
                                    .iter()
                                    .map(|(k, v)| (k.clone(), strip_deep(v)))
                                    .collect(),
                            ),
                            other => other.clone(),
                        }
                    } else {
                        strip_deep(value)
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(strip_deep).collect()),
        other => other.clone(),
    }
}
