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
                if DATA.contains(&key.as_str()) {
                    continue;
                }
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
                if DATA.contains(&key.as_str()) {
                    continue;
                }
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

/// A name as a JSON pointer's segment in a `$ref` (a URI fragment): `~` and `/` escaped as
/// the pointer says, and what a fragment cannot hold (a space, `%`, `"`, ...) percent-encoded.
fn segment(name: &str) -> String {
    let pointer = name.replace('~', "~0").replace('/', "~1");
    let mut out = String::with_capacity(pointer.len());
    for byte in pointer.bytes() {
        let kept = byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&byte);
        if kept {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Points every `$ref` into `#/$defs/{from}` (or within it) at `#/$defs/{to}` instead.
fn rename_refs(schema: &mut Value, from: &str, to: &str) {
    retarget(
        schema,
        &format!("#/$defs/{}", segment(from)),
        &format!("#/$defs/{}", segment(to)),
    );
}

/// The keywords whose value is data (a value a schema takes or suggests), never a schema:
/// nothing inside them is a definition, a dialect or a reference.
const DATA: [&str; 4] = ["default", "const", "enum", "examples"];

/// Every definition nested in `def` (its own `definitions` or `$defs`, at any depth), taken
/// out, each with the pointer it was reached by (under `prefix`, the pointer of `def`) and its
/// name: deepest first.
fn nested(prefix: &str, def: &mut Value, out: &mut Vec<(String, String, Value)>) {
    let Value::Object(object) = def else {
        return;
    };
    for key in ["definitions", "$defs"] {
        if let Some(Value::Object(inner)) = object.remove(key) {
            for (name, mut inner_def) in inner {
                let pointer = format!("{prefix}/{key}/{}", segment(&name));
                nested(&pointer, &mut inner_def, out);
                out.push((pointer, name, inner_def));
            }
        }
    }
}

/// draft-07's `definitions` in `object` made `$defs` (merged with any `$defs` beside, a name
/// taken there taking a number), and the definitions nested inside any of them brought up
/// beside them, every `$ref` into them in the object following: the one place definitions
/// are read from, so that hoisting leaves no `$ref` pointing nowhere.
fn definitions_as_defs(object: &mut Map<String, Value>) {
    let old = match object.remove("definitions") {
        Some(Value::Object(old)) => old,
        _ => Map::new(),
    };
    let mut defs = match object.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    // What moves: each of `definitions`, and whatever is nested in a definition of either.
    let mut moving: Vec<(String, String, Value)> = Vec::new();
    for def in defs.iter_mut() {
        let pointer = format!("#/$defs/{}", segment(def.0));
        nested(&pointer, def.1, &mut moving);
    }
    for (name, mut def) in old {
        let pointer = format!("#/definitions/{}", segment(&name));
        nested(&pointer, &mut def, &mut moving);
        moving.push((pointer, name, def));
    }
    if moving.is_empty() {
        if !defs.is_empty() {
            object.insert("$defs".into(), Value::Object(defs));
        }
        return;
    }
    let mut targets: Vec<String> = Vec::new();
    for (_, name, _) in &moving {
        let target = std::iter::once(name.clone())
            .chain((2..).map(|n| format!("{name}{n}")))
            .find(|candidate| !defs.contains_key(candidate) && !targets.contains(candidate))
            .unwrap_or_else(|| name.clone());
        targets.push(target);
    }
    let mut whole = Value::Object(std::mem::take(object));
    // The deepest pointers first: `#/definitions/A/definitions/B` before `#/definitions/A`.
    let mut order: Vec<usize> = (0..moving.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(moving[i].0.len()));
    for &i in &order {
        let (from, to) = (
            moving[i].0.clone(),
            format!("#/$defs/{}", segment(&targets[i])),
        );
        retarget(&mut whole, &from, &to);
        defs.values_mut().for_each(|def| retarget(def, &from, &to));
        for (_, _, def) in &mut moving {
            retarget(def, &from, &to);
        }
    }
    for ((_, _, def), target) in moving.into_iter().zip(targets) {
        defs.insert(target, def);
    }
    if let Value::Object(rest) = whole {
        *object = rest;
    }
    object.insert("$defs".into(), Value::Object(defs));
}

/// `text` with its `%XX` escapes decoded (a `$ref` is a URI reference: `#/$defs/My%20Type`).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(high), Some(low)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            #[allow(clippy::cast_possible_truncation)]
            out.push((high * 16 + low) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// Points every `$ref` that is `from` (or within it) at `to` instead.
fn retarget(schema: &mut Value, from: &str, to: &str) {
    fn walk(schema: &mut Value, from: &str, to: &str) {
        match schema {
            Value::Object(object) => {
                if let Some(Value::String(target)) = object.get_mut("$ref") {
                    let decoded = percent_decoded(target);
                    if let Some(rest) = decoded.strip_prefix(&percent_decoded(from))
                        && (rest.is_empty() || rest.starts_with('/'))
                    {
                        *target = format!("{to}{rest}");
                    }
                }
                for (key, value) in object.iter_mut() {
                    if !DATA.contains(&key.as_str()) {
                        walk(value, from, to);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| walk(item, from, to)),
            _ => {}
        }
    }
    walk(schema, from, to);
}
