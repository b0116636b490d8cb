//! Where each value of a call's arguments came from, by its JSON pointer: what the report says
//! of every call it shows (`from`), so that a reader can tell a value the server suggested from
//! one drawn at random, one read from the sandbox or one an earlier answer gave.

use std::collections::BTreeMap;

use serde_json::Value;

/// Where each scalar value of a call's arguments came from, by its JSON pointer (`/path`).
pub type Origins = BTreeMap<String, &'static str>;

/// A value the schema states: one of its `enum`, its `const`, its `examples` or `default`.
pub const SCHEMA: &str = "schema";
/// A literal the parameter's description quotes or gives as an example.
pub const DESCRIPTION: &str = "description";
/// A value of a well-known format the parameter's `format` or name says (a time zone, a date).
pub const FORMAT: &str = "format";
/// Drawn at random within what the schema's types, bounds and patterns allow.
pub const GENERATED: &str = "generated";
/// Read from the sandbox: a path, a git ref, a table's or a sheet's name, a stored value.
pub const STATE: &str = "state";
/// A value an earlier call's arguments or answer held.
pub const EARLIER_CALL: &str = "earlier-call";
/// A value a failed call's answer named as wanted ("expected one of a, b").
pub const ERROR: &str = "error";
/// Written in the settings file's `[[tool]]` entry.
pub const SETTINGS: &str = "settings";
/// Written in the `--cases-file`.
pub const CASES_FILE: &str = "cases-file";

/// Every scalar of `arguments` marked `origin` (a case the user wrote).
pub fn all(arguments: &Value, origin: &'static str) -> Origins {
    mcp_annotations_verify::scalar_paths(arguments)
        .into_iter()
        .map(|path| (path, origin))
        .collect()
}

/// Where each scalar of `arguments`, generated from the tool's input `schema`, came from, by
/// what the schema at its place says of it: a value the schema states, a literal of its
/// description, a well-known format, or else drawn at random.
pub fn generated(schema: &Value, arguments: &Value) -> Origins {
    let mut origins = Origins::new();
    for path in mcp_annotations_verify::scalar_paths(arguments) {
        let Some(value) = arguments.pointer(&path) else {
            continue;
        };
        let segments: Vec<String> = path.split('/').skip(1).map(unescape).collect();
        let mut at = Vec::new();
        schemas_at(schema, schema, &segments, (0, 0), &mut at);
        let name = segments
            .iter()
            .rev()
            .find(|segment| segment.parse::<usize>().is_err())
            .map_or("", String::as_str);
        origins.insert(path.clone(), origin_of(&at, name, value));
    }
    origins
}

/// The origin of `value`, generated for a parameter `name` whose schemas are `at`.
fn origin_of(at: &[&Value], name: &str, value: &Value) -> &'static str {
    let states = |schema: &&Value| {
        schema.get("const") == Some(value)
            || schema.get("default") == Some(value)
            || ["enum", "examples"].into_iter().any(|key| {
                schema
                    .get(key)
                    .and_then(Value::as_array)
                    .is_some_and(|listed| listed.contains(value))
            })
    };
    if at.iter().any(states) {
        return SCHEMA;
    }
    let quoted = value.as_str().is_some_and(|text| {
        !text.is_empty()
            && at.iter().any(|schema| {
                schema
                    .get("description")
                    .and_then(Value::as_str)
                    .is_some_and(|description| description.contains(text))
            })
    });
    if quoted {
        return DESCRIPTION;
    }
    let formatted = value.is_string()
        && (at.iter().any(|schema| schema.get("format").is_some())
            || mcp_annotations_verify::format_named(name).is_some());
    if formatted { FORMAT } else { GENERATED }
}

/// The schemas within `schema` (of the document `root`) that describe the value at
/// `segments`: through properties, items, `$ref`s into the document and each branch of
/// `anyOf`, `oneOf` and `allOf`; `(depth, refs)` how deep the walk is and how many `$ref`s it
/// followed. A type that holds itself is followed as deep as the generator follows it, and at
/// most [`MOST_SCHEMAS`] are gathered, so that no schema makes the walk long.
fn schemas_at<'a>(
    root: &'a Value,
    schema: &'a Value,
    segments: &[String],
    (depth, refs): (u32, u32),
    out: &mut Vec<&'a Value>,
) {
    if depth > 32 || out.len() >= MOST_SCHEMAS || !schema.is_object() {
        return;
    }
    if let Some(target) = schema.get("$ref").and_then(Value::as_str)
        && refs < MOST_REFS
        && let Some(resolved) = target.strip_prefix('#').and_then(|at| root.pointer(at))
    {
        schemas_at(root, resolved, segments, (depth + 1, refs + 1), out);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for branch in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            schemas_at(root, branch, segments, (depth + 1, refs), out);
        }
    }
    let Some((first, rest)) = segments.split_first() else {
        out.push(schema);
        return;
    };
    if let Some(property) = schema.get("properties").and_then(|p| p.get(first.as_str())) {
        schemas_at(root, property, rest, (depth + 1, refs), out);
    } else if let Some(extra) = schema.get("additionalProperties")
        && extra.is_object()
    {
        schemas_at(root, extra, rest, (depth + 1, refs), out);
    }
    if let Ok(index) = first.parse::<usize>() {
        let prefix = schema.get("prefixItems").and_then(|items| items.get(index));
        if let Some(item) = prefix.or_else(|| schema.get("items").filter(|i| i.is_object())) {
            schemas_at(root, item, rest, (depth + 1, refs), out);
        }
    }
}

/// How many `$ref`s a walk follows: as many as the generator does.
const MOST_REFS: u32 = 3;

/// How many schemas one value is traced through.
const MOST_SCHEMAS: usize = 32;

/// A JSON pointer's segment as the key it names (`~1` is `/`, `~0` is `~`).
fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_value_is_traced_to_what_the_schema_says_of_it() {
        let schema = json!({
            "type": "object",
            "properties": {
                "mode": {"enum": ["fast", "careful"]},
                "zone": {"type": "string", "description": "e.g. 'Europe/Paris'"},
                "timezone": {"type": "string"},
                "when": {"type": "string", "format": "date"},
                "limit": {"type": "integer", "default": 10},
                "tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}},
                "note": {"anyOf": [{"type": "string", "examples": ["hi"]}, {"type": "null"}]},
                "a/b": {"type": "string"}
            },
            "$defs": {"tag": {"type": "string", "const": "blue"}}
        });
        let arguments = json!({
            "mode": "careful",
            "zone": "Europe/Paris",
            "timezone": "Asia/Tokyo",
            "when": "2024-01-02",
            "limit": 3,
            "tags": ["blue", "red"],
            "note": "hi",
            "a/b": "x"
        });
        let origins = generated(&schema, &arguments);
        let expected = [
            ("/mode", SCHEMA),
            ("/zone", DESCRIPTION),
            ("/timezone", FORMAT),
            ("/when", FORMAT),
            ("/limit", GENERATED),
            ("/tags/0", SCHEMA),
            ("/tags/1", GENERATED),
            ("/note", SCHEMA),
            ("/a~1b", GENERATED),
        ];
        assert_eq!(
            origins,
            expected
                .into_iter()
                .map(|(path, origin)| (path.to_owned(), origin))
                .collect::<Origins>()
        );
        // A type that holds itself many times over is traced in bounded time.
        let branches: Vec<Value> = (0..40).map(|_| json!({"$ref": "#/$defs/n"})).collect();
        let mut any_of = branches;
        any_of.push(json!({"type": "string"}));
        let knotted =
            json!({"properties": {"x": {"$ref": "#/$defs/n"}}, "$defs": {"n": {"anyOf": any_of}}});
        assert_eq!(generated(&knotted, &json!({"x": "a"}))["/x"], GENERATED);
        assert_eq!(
            all(&json!({"k": [1, "x"], "n": null}), SETTINGS),
            Origins::from([("/k/0".to_owned(), SETTINGS), ("/k/1".to_owned(), SETTINGS)])
        );
    }
}
