//! Values from a JSON Schema, as proptest strategies: what a tool's listed input schema takes,
//! generated (and shrunk) by proptest, each value checked against the schema itself, so that
//! what a strategy cannot say exactly (`oneOf`'s "exactly one", `not`, patterns beside
//! lengths) is still never given as valid. And values that break one rule of a schema, for
//! the arguments a reader must refuse.

mod broken;
mod known;
mod numbers;
mod seed;
mod seen;

pub(crate) use self::broken::{Broken, broken};
pub use self::known::{format_named, name_words};
pub(crate) use self::seed::{clock_seed, name_hash, seed_bytes};
pub use self::seen::{scalar_paths, scalars};

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use serde_json::{Map, Value, json};

use self::numbers::{integers, numbers};

/// How deep `$ref`s are followed: a type that holds itself is generated this many levels
/// deep, then only through the branches that do not lead back (`null`, an empty array).
const MAX_REF_DEPTH: u32 = 3;

/// The keywords this generator reads; any other keyword is checked by the validator only.
const READ: [&str; 29] = [
    "type",
    "const",
    "enum",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "$defs",
    "$schema",
    "description",
    "title",
    "default",
];

/// Where a schema's `$ref`s resolve, and how deep they have been followed.
#[derive(Clone, Copy)]
struct At<'a> {
    root: &'a Value,
    depth: u32,
    /// Whether a value the schema suggests is taken whenever there is one (the first cases of
    /// a probe), rather than now and then.
    suggested_first: bool,
}

/// The strategy of the values `schema` takes: built from the keywords it reads, each value
/// then kept only if the validator of the whole schema takes it.
///
/// # Errors
///
/// A line for the report when the schema takes nothing this generator can make (`false`, an
/// unresolvable `$ref`, a pattern it cannot read).
pub(crate) fn valid(schema: &Value) -> Result<BoxedStrategy<Value>, String> {
    valid_with(schema, false)
}

/// As [`valid`], with every value the schema suggests (`examples`, `default`, a literal its
/// description quotes) taken where there is one: arguments a server most likely understands.
pub(crate) fn suggested_first(schema: &Value) -> Result<BoxedStrategy<Value>, String> {
    valid_with(schema, true)
}

fn valid_with(schema: &Value, suggested_first: bool) -> Result<BoxedStrategy<Value>, String> {
    let validator = jsonschema::validator_for(schema)
        .map_err(|error| format!("the schema is not one a validator reads: {error}"))?;
    let at = At {
        root: schema,
        depth: 0,
        suggested_first,
    };
    Ok(values(schema, at)?
        .prop_filter("a value the schema refuses", move |value| {
            validator.is_valid(value)
        })
        .boxed())
}

fn values(schema: &Value, at: At<'_>) -> Result<BoxedStrategy<Value>, String> {
    let object = match schema {
        Value::Bool(true) => return Ok(any_json()),
        Value::Bool(false) => return Err("a schema that takes nothing (`false`)".to_owned()),
        Value::Object(object) => object,
        _ => return Err(format!("`{schema}` is not a schema")),
    };
    if let Some(Value::String(target)) = object.get("$ref") {
        if at.depth >= MAX_REF_DEPTH {
            return Err("a type that holds itself, past the depth generated".to_owned());
        }
        let resolved = resolve(at.root, target)
            .ok_or_else(|| format!("the `$ref` `{target}` resolves to nothing"))?;
        let mut merged = resolved.clone();
        merge_into(&mut merged, &Value::Object(without(object, &["$ref"])));
        let deeper = At {
            depth: at.depth + 1,
            ..at
        };
        return values(&merged, deeper);
    }
    if let Some(Value::Array(all)) = object.get("allOf") {
        let mut merged = Value::Object(without(object, &["allOf"]));
        for part in all {
            merge_into(&mut merged, part);
        }
        return values(&merged, at);
    }
    for choice in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = object.get(choice) {
            let rest = without(object, &[choice]);
            let strategies: Vec<BoxedStrategy<Value>> = branches
                .iter()
                .filter_map(|branch| {
                    let mut merged = Value::Object(rest.clone());
                    merge_into(&mut merged, branch);
                    values(&merged, at).ok()
                })
                .collect();
            return union(strategies, choice);
        }
    }
    if let Some(constant) = object.get("const") {
        return Ok(Just(constant.clone()).boxed());
    }
    if let Some(Value::Array(items)) = object.get("enum") {
        if items.is_empty() {
            return Err("an empty `enum`".to_owned());
        }
        return Ok(proptest::sample::select(items.clone()).boxed());
    }
    let types: Vec<&str> = match object.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => implied_types(object),
    };
    if types.is_empty() {
        return Ok(any_json());
    }
    let mut strategies = Vec::new();
    let mut first_error = None;
    for kind in types {
        match of_type(kind, object, at) {
            Ok(strategy) => strategies.push(strategy),
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    let generated = match (strategies.is_empty(), first_error) {
        (true, Some(error)) => return Err(error),
        _ => union(strategies, "type")?,
    };
    // The values the schema itself suggests (its `examples`, its `default`, and literals its
    // description quotes: `SELECT 1`, "Europe/Paris"), tried often beside the generated ones:
    // what a random string rarely is (SQL, a time zone, a ref) the author often wrote there.
    let suggested = suggested(object);
    if suggested.is_empty() {
        return Ok(generated);
    }
    if at.suggested_first {
        return Ok(proptest::sample::select(suggested).boxed());
    }
    Ok(prop_oneof![
        2 => proptest::sample::select(suggested),
        3 => generated,
    ]
    .boxed())
}

/// The values a schema suggests: each of its `examples`, its `default`, and for a string, the
/// literals its description quotes (between backticks or double quotes, at most 200
/// characters each; between single quotes, or after "e.g." or "such as", at most 64).
fn suggested(object: &Map<String, Value>) -> Vec<Value> {
    let mut out: Vec<Value> = object
        .get("examples")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .chain(object.get("default"))
        .cloned()
        .collect();
    let takes_strings = match object.get("type") {
        Some(Value::String(kind)) => kind == "string",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "string"),
        _ => false,
    };
    if let (true, Some(description)) = (
        takes_strings,
        object.get("description").and_then(Value::as_str),
    ) {
        for quote in ['`', '"'] {
            let parts: Vec<&str> = description.split(quote).collect();
            // Every second part is between a pair of quotes.
            for literal in parts.iter().skip(1).step_by(2).take(8) {
                if !literal.is_empty() && literal.chars().count() <= 200 {
                    out.push(Value::from(*literal));
                }
            }
        }
        // Single-quoted, and the words after "e.g." or "such as".
        out.extend(known::examples(description).into_iter().map(Value::from));
    }
    out.dedup();
    out
}

/// The types a schema without `type` implies by its keywords (none: any value).
fn implied_types(object: &Map<String, Value>) -> Vec<&'static str> {
    let has = |keys: &[&str]| keys.iter().any(|key| object.contains_key(*key));
    if has(&["properties", "required", "additionalProperties"]) {
        vec!["object"]
    } else if has(&["items", "prefixItems", "minItems", "maxItems"]) {
        vec!["array"]
    } else if has(&["minLength", "maxLength", "pattern"]) {
        vec!["string"]
    } else if has(&["minimum", "maximum", "multipleOf"]) {
        vec!["number"]
    } else {
        Vec::new()
    }
}

fn union(
    strategies: Vec<BoxedStrategy<Value>>,
    what: &str,
) -> Result<BoxedStrategy<Value>, String> {
    match strategies.len() {
        0 => Err(format!("no branch of `{what}` can be generated")),
        1 => Ok(strategies.into_iter().next().unwrap_or_else(any_json)),
        _ => Ok(proptest::strategy::Union::new(strategies).boxed()),
    }
}

fn of_type(
    kind: &str,
    object: &Map<String, Value>,
    at: At<'_>,
) -> Result<BoxedStrategy<Value>, String> {
    match kind {
        "null" => Ok(Just(Value::Null).boxed()),
        "boolean" => Ok(any::<bool>().prop_map(Value::Bool).boxed()),
        "integer" => integers(object),
        "number" => numbers(object),
        "string" => strings(object),
        "array" => arrays(object, at),
        "object" => objects(object, at),
        other => Err(format!("the type `{other}`")),
    }
}

/// The characters a string is made of when no pattern says: mostly ASCII letters and digits,
/// some punctuation, space and letters past ASCII.
fn text_char() -> BoxedStrategy<char> {
    prop_oneof![
        8 => proptest::char::range('a', 'z'),
        2 => proptest::char::range('0', '9'),
        1 => proptest::sample::select(vec![' ', '-', '_', '.', '/', 'É', 'ü', '中', '😀']),
    ]
    .boxed()
}

fn strings(object: &Map<String, Value>) -> Result<BoxedStrategy<Value>, String> {
    let min = object.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    let max = object
        .get("maxLength")
        .and_then(Value::as_u64)
        .unwrap_or(min.saturating_add(12))
        .min(min.saturating_add(64));
    if min > max || min > 1 << 16 {
        return Err(format!(
            "string lengths that no string has (from {min} to {max})"
        ));
    }
    if let Some(Value::String(pattern)) = object.get("pattern") {
        // A pattern searches the string: what matches it anchored matches it. The generator
        // reads no anchors, so the ones at the ends are taken off (a match of what is left is
        // a whole string that matches).
        let bare = pattern.strip_prefix('^').unwrap_or(pattern);
        let bare = match bare.strip_suffix('$') {
            Some(rest) if !rest.ends_with('\\') => rest,
            _ => bare,
        };
        let regex = mcp_annotations_rules::pattern::translate(bare)?;
        return proptest::string::string_regex(&regex)
            .map(|strategy| strategy.prop_map(Value::String).boxed())
            .map_err(|error| format!("the pattern `{pattern}` cannot be generated from: {error}"));
    }
    if let Some(Value::String(format)) = object.get("format")
        && let Some(strategy) = formatted(format)
    {
        return Ok(strategy);
    }
    #[allow(clippy::cast_possible_truncation)]
    let range = (min as usize)..=(max as usize);
    Ok(proptest::collection::vec(text_char(), range)
        .prop_map(|chars| Value::String(chars.into_iter().collect()))
        .boxed())
}

/// Strings of the formats tools list most, as a validator that asserts formats takes them.
fn formatted(format: &str) -> Option<BoxedStrategy<Value>> {
    let pattern = match format {
        "date" => "20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])",
        "date-time" => {
            "20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z"
        }
        "time" => "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z",
        "email" => "[a-z]{1,8}@[a-z]{1,8}\\.(com|org)",
        // On loopback: a tool that fetches it is still seen reaching the network, and nothing
        // outside the machine is sent anything.
        "uri" | "url" | "iri" => "http://(127\\.0\\.0\\.1|localhost):8080/[a-z0-9]{0,8}",
        "uuid" => "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
        "hostname" => "[a-z]{1,8}\\.(com|org)",
        "ipv4" => "(1?[0-9]{1,2})\\.(1?[0-9]{1,2})\\.(1?[0-9]{1,2})\\.(1?[0-9]{1,2})",
        known => {
            let values = known::values(known)?;
            return Some(
                proptest::sample::select(values)
                    .prop_map(Value::from)
                    .boxed(),
            );
        }
    };
    proptest::string::string_regex(pattern)
        .ok()
        .map(|strategy| strategy.prop_map(Value::String).boxed())
}

fn arrays(object: &Map<String, Value>, at: At<'_>) -> Result<BoxedStrategy<Value>, String> {
    let min = object.get("minItems").and_then(Value::as_u64).unwrap_or(0);
    let max = object
        .get("maxItems")
        .and_then(Value::as_u64)
        .unwrap_or(min.saturating_add(4))
        .min(min.saturating_add(8));
    if min > max || min > 1 << 12 {
        return Err(format!(
            "item counts that no array has (from {min} to {max})"
        ));
    }
    let unique = object.get("uniqueItems") == Some(&Value::Bool(true));
    let prefix: Vec<BoxedStrategy<Value>> = match object.get("prefixItems") {
        Some(Value::Array(prefix)) => prefix
            .iter()
            .map(|item| values(item, at))
            .collect::<Result<_, _>>()?,
        _ => Vec::new(),
    };
    let items = match object.get("items") {
        Some(Value::Bool(false)) => None,
        Some(items) => values(items, at).ok(),
        None => Some(any_json()),
    };
    #[allow(clippy::cast_possible_truncation)]
    let (min, max) = (min as usize, max as usize);
    let rest_min = min.saturating_sub(prefix.len());
    let rest_max = max.saturating_sub(prefix.len()).max(rest_min);
    let rest = match items {
        Some(items) => proptest::collection::vec(items, rest_min..=rest_max).boxed(),
        None if rest_min == 0 => Just(Vec::new()).boxed(),
        None => return Err("an array of more items than it may hold".to_owned()),
    };
    Ok((prefix, rest)
        .prop_map(move |(mut head, rest)| {
            head.extend(rest);
            if unique {
                let mut seen: Vec<Value> = Vec::new();
                head.retain(|item| {
                    let new = !seen.contains(item);
                    if new {
                        seen.push(item.clone());
                    }
                    new
                });
            }
            Value::Array(head)
        })
        .boxed())
}

fn objects(object: &Map<String, Value>, at: At<'_>) -> Result<BoxedStrategy<Value>, String> {
    let required: Vec<String> = match object.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(|name| name.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let mut fields: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
    let properties = match object.get("properties") {
        Some(Value::Object(properties)) => properties.clone(),
        _ => Map::new(),
    };
    for (name, schema) in &properties {
        let must = required.contains(name);
        // A well-known format its name or description says, where the schema says none.
        let known = known::with_format(name, schema);
        let schema = known.as_ref().unwrap_or(schema);
        match (values(schema, at), must) {
            (Ok(strategy), true) => {
                let name = name.clone();
                fields.push(
                    strategy
                        .prop_map(move |value| Some((name.clone(), value)))
                        .boxed(),
                );
            }
            (Ok(strategy), false) => {
                let name = name.clone();
                fields.push(
                    proptest::option::of(strategy)
                        .prop_map(move |value| value.map(|value| (name.clone(), value)))
                        .boxed(),
                );
            }
            (Err(error), true) => return Err(format!("`{name}`: {error}")),
            (Err(_), false) => {}
        }
    }
    // A required name no property describes takes any value.
    for name in required
        .iter()
        .filter(|name| !properties.contains_key(*name))
    {
        let name = name.clone();
        fields.push(
            any_json()
                .prop_map(move |value| Some((name.clone(), value)))
                .boxed(),
        );
    }
    let others = match object.get("additionalProperties") {
        Some(Value::Bool(false)) => None,
        Some(schema) if properties.is_empty() => values(schema, at).ok().map(|values| (values, 4)),
        Some(schema) => values(schema, at).ok().map(|values| (values, 1)),
        None => None,
    };
    let others = match others {
        Some((values, most)) => proptest::collection::vec(("[a-z]{1,6}", values), 0..=most).boxed(),
        None => Just(Vec::new()).boxed(),
    };
    Ok((fields, others)
        .prop_map(move |(fields, others)| {
            let mut out = Map::new();
            for (name, value) in fields.into_iter().flatten() {
                out.insert(name, value);
            }
            for (name, value) in others {
                if !properties.contains_key(&name) {
                    out.entry(name).or_insert(value);
                }
            }
            Value::Object(out)
        })
        .boxed())
}

/// Small JSON values of every kind, for a schema that takes anything.
fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-100i64..100).prop_map(|n| json!(n)),
        "[a-z]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z]{1,4}", inner, 0..3)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
    .boxed()
}

/// The schema at `pointer` (`#/$defs/Node`) in `root`.
pub(crate) fn resolve<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    let path = pointer.strip_prefix('#')?;
    if path.is_empty() {
        return Some(root);
    }
    root.pointer(path)
}

fn without(object: &Map<String, Value>, keys: &[&str]) -> Map<String, Value> {
    object
        .iter()
        .filter(|(key, _)| !keys.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

/// `part`'s keywords added to `base` (both object schemas): properties and required names
/// joined, any other keyword taken from `part` where `base` has none.
fn merge_into(base: &mut Value, part: &Value) {
    let (Value::Object(base), Value::Object(part)) = (base, part) else {
        return;
    };
    for (key, value) in part {
        match (key.as_str(), base.get_mut(key), value) {
            ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                for (name, schema) in theirs {
                    mine.entry(name.clone()).or_insert_with(|| schema.clone());
                }
            }
            ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                for name in theirs {
                    if !mine.contains(name) {
                        mine.push(name.clone());
                    }
                }
            }
            (_, Some(_), _) => {}
            (_, None, _) => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}

/// The keywords of `schema` (at any depth) this generator does not read, for the report: the
/// validator still checks them, but values may then often be refused.
pub(crate) fn unread(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object {
                if !READ.contains(&key.as_str()) && !key.starts_with("x-") && !out.contains(key) {
                    out.push(key.clone());
                }
                match (key.as_str(), value) {
                    ("properties" | "$defs", Value::Object(named)) => {
                        named.values().for_each(|schema| unread(schema, out));
                    }
                    ("enum" | "const" | "default" | "required", _) => {}
                    (_, value) => unread(value, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| unread(item, out)),
        _ => {}
    }
}

/// The strategy of the arguments a tool's input `schema` takes, as `Verify` generates them:
/// built from the keywords it reads (types, bounds, lengths, patterns as ECMA-262 reads them,
/// formats, enums, items, properties, `anyOf`/`oneOf`/`allOf`, `$ref` into `$defs`), each
/// value then kept only if a JSON Schema validator of the whole schema takes it. What a host
/// that probes another server's tools generates arguments with.
///
/// # Errors
///
/// Why no value can be generated (a schema that takes nothing, a `$ref` to nothing, a
/// pattern the generator cannot read).
pub fn arguments(schema: &Value) -> Result<proptest::strategy::BoxedStrategy<Value>, String> {
    valid(schema)
}

/// As [`arguments`], every value taken from what the schema suggests where it suggests any
/// (its `examples`, its `default`, literals its description quotes between backticks or
/// double quotes): the arguments a server most likely understands, which the probe tries
/// first.
///
/// # Errors
///
/// As [`arguments`].
pub fn suggested_arguments(
    schema: &Value,
) -> Result<proptest::strategy::BoxedStrategy<Value>, String> {
    suggested_first(schema)
}

#[cfg(test)]
mod tests;
