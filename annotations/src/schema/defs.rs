//! Where the definitions of a built schema go: every `$defs` (and draft-07's `definitions`,
//! made `$defs` with the `$ref`s into them) of the types inside moves to the
//! root the `$ref`s resolve against, a name two types define differently taking a number, and
//! the dialect (`$schema`) the types state moves there when they agree on one.

use serde_json::{Map, Value};

/// Every `$schema` stated in `schema`, at any depth (a user type's schema states its dialect
/// at its own root, which may sit inside an array or a nullable wrapper).
fn dialects(schema: &Value, out: &mut Vec<Value>) {
    match schema {
        Value::Object(object) => {
            if let Some(dialect) = object.get("$schema") {
                out.push(dialect.clone());
            }
            for (key, value) in object {
                match (NAMED.contains(&key.as_str()), value) {
                    // A map of names to schemas: a property named `$schema` is a name.
                    (true, Value::Object(named)) => named.values().for_each(|v| dialects(v, out)),
                    _ => dialects(value, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| dialects(item, out)),
        _ => {}
    }
}

/// The one `$schema` that `schemas` state, if they state any and all state the same one.
pub(crate) fn dialect_of<'a>(schemas: impl IntoIterator<Item = &'a Value>) -> Option<Value> {
    let mut stated = Vec::new();
    for schema in schemas {
        dialects(schema, &mut stated);
    }
    match stated.split_first() {
        Some((first, rest)) if rest.iter().all(|other| other == first) => Some(first.clone()),
        _ => None,
    }
}

/// The keywords whose value is a map from names (of properties, patterns, definitions) to
/// schemas: the names there are not keywords, even `$schema` or `$defs`.
const NAMED: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Moves every `$defs` in `schema`, at any depth, into `defs`, and, when `lift` says the
/// input schema's root states the dialect, every `$schema` key: a user type's schema may sit
/// inside an array or a nullable wrapper, and its `$ref`s (`#/$defs/...`) must resolve
/// against the root of the input schema. Everything else (`$id`, `$comment`, `$anchor`, ...)
/// stays where the type put it.
pub(crate) fn hoist(schema: &mut Value, defs: &mut Map<String, Value>, lift: bool) {
    match schema {
        Value::Object(object) => {
            if lift {
                object.remove("$schema");
            }
            definitions_as_defs(object);
            if let Some(Value::Object(mut inner)) = object.remove("$defs") {
                // Two types may name their definitions alike (two schemars types called
                // `Node` in two modules): a name the root holds for another schema takes a
                // number, and this type's `$ref`s follow it.
                // A rename changes the definitions that refer to the renamed one, which may
                // then differ from the root's of their name too: renamed until none does.
                let mut renamed: Vec<String> = Vec::new();
                loop {
                    let renames: Vec<(String, String)> = inner
                        .iter()
                        .filter(|(name, _)| !renamed.contains(name))
                        .filter_map(|(name, def)| {
                            let free = root_name(name, def, defs, &inner);
                            (free != *name).then(|| (name.clone(), free))
                        })
                        .collect();
                    if renames.is_empty() {
                        break;
                    }
                    for (from, to) in renames {
                        let def = inner.remove(&from).unwrap_or(Value::Null);
                        inner.insert(to.clone(), def);
                        for value in inner.values_mut() {
                            rename_refs(value, &from, &to);
                        }
                        let mut rest = Value::Object(std::mem::take(object));
                        rename_refs(&mut rest, &from, &to);
                        if let Value::Object(rest) = rest {
                            *object = rest;
                        }
                        renamed.push(to);
                    }
                }
                for value in inner.values_mut() {
                    hoist(value, defs, lift);
                }
                defs.extend(inner);
            }
            for (key, value) in object.iter_mut() {
                match (NAMED.contains(&key.as_str()), value) {
                    // A map of names to schemas: a property named `$defs` stays a property.
                    (true, Value::Object(named)) => {
                        named.values_mut().for_each(|v| hoist(v, defs, lift));
                    }
                    (_, value) => hoist(value, defs, lift),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                hoist(item, defs, lift);
            }
        }
        _ => {}
    }
}

/// The name under which `def`, defined as `name` by one type, goes into the root's `defs`:
/// `name` when the root has no other schema by that name, else the first of `name2`,
/// `name3`, ... that holds this schema already or is free (in the root and among the type's
/// own other definitions, `siblings`).
fn root_name(
    name: &str,
    def: &Value,
    defs: &Map<String, Value>,
    siblings: &Map<String, Value>,
) -> String {
    if defs.get(name).is_none_or(|held| held == def) {
        return name.to_owned();
    }
    (2..)
        .map(|n| format!("{name}{n}"))
        .find(|candidate| {
            let held = defs.get(candidate);
            let same = held.is_some_and(|held| {
                let mut renamed = def.clone();
                rename_refs(&mut renamed, name, candidate);
                *held == renamed
            });
            same || (held.is_none() && !siblings.contains_key(candidate))
        })
        .unwrap_or_else(|| name.to_owned())
}

/// A name as a JSON pointer's segment.
fn segment(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// Points every `$ref` into `#/$defs/{from}` (or within it) at `#/$defs/{to}` instead.
fn rename_refs(schema: &mut Value, from: &str, to: &str) {
    retarget(
        schema,
        &format!("#/$defs/{}", segment(from)),
        &format!("#/$defs/{}", segment(to)),
    );
}

/// draft-07's `definitions` in `object` made `$defs` (merged with any `$defs` beside, a name
/// taken there taking a number), every `$ref` into them in the object following: the one
/// place definitions are read from, so that hoisting leaves no `$ref` pointing nowhere.
fn definitions_as_defs(object: &mut Map<String, Value>) {
    let Some(Value::Object(old)) = object.remove("definitions") else {
        return;
    };
    let mut defs = match object.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    let mut moves = Vec::new();
    for name in old.keys() {
        let target = std::iter::once(name.clone())
            .chain((2..).map(|n| format!("{name}{n}")))
            .find(|candidate| {
                !defs.contains_key(candidate) && !moves.iter().any(|(_, t)| t == candidate)
            })
            .unwrap_or_else(|| name.clone());
        moves.push((name.clone(), target));
    }
    let mut whole = Value::Object(std::mem::take(object));
    let mut moved: Vec<(String, Value)> = old.into_iter().collect();
    for (from, to) in &moves {
        let (from, to) = (
            format!("#/definitions/{}", segment(from)),
            format!("#/$defs/{}", segment(to)),
        );
        retarget(&mut whole, &from, &to);
        defs.values_mut().for_each(|def| retarget(def, &from, &to));
        moved
            .iter_mut()
            .for_each(|(_, def)| retarget(def, &from, &to));
    }
    for ((_, def), (_, target)) in moved.into_iter().zip(&moves) {
        defs.insert(target.clone(), def);
    }
    if let Value::Object(rest) = whole {
        *object = rest;
    }
    object.insert("$defs".into(), Value::Object(defs));
}

/// Points every `$ref` that is `from` (or within it) at `to` instead.
fn retarget(schema: &mut Value, from: &str, to: &str) {
    fn walk(schema: &mut Value, from: &str, to: &str) {
        match schema {
            Value::Object(object) => {
                if let Some(Value::String(target)) = object.get_mut("$ref") {
                    if let Some(rest) = target.strip_prefix(from) {
                        if rest.is_empty() || rest.starts_with('/') {
                            *target = format!("{to}{rest}");
                        }
                    }
                }
                object.values_mut().for_each(|value| walk(value, from, to));
            }
            Value::Array(items) => items.iter_mut().for_each(|item| walk(item, from, to)),
            _ => {}
        }
    }
    walk(schema, from, to);
}
