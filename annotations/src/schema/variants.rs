//! The schemas of `#[derive(ToolSchema)]` enums with data: each variant as serde writes it
//! under the enum's tagging, and the enum as the choice of its variants.

use serde_json::{Map, Value};

/// The schema of one variant of a `#[derive(ToolSchema)]` enum with data, as serde writes
/// it: `name` is the variant's name, `value` its data's schema (`None` for a unit variant).
/// The enum's tagging decides the shape:
///
/// - external (serde's default): `"name"` for a unit variant, else `{"name": value}`;
/// - internal (`tag`): an object with `tag: "name"` beside the struct variant's fields;
/// - adjacent (`tag` and `content`): `{tag: "name", content: value}`;
/// - untagged: `null` for a unit variant, else the value itself.
#[must_use]
pub fn variant(tagging: Tagging, name: &str, value: Option<Value>, closed: bool) -> Value {
    let constant = |name: &str| {
        let mut object = Map::new();
        object.insert("const".into(), name.into());
        Value::Object(object)
    };
    let object_of = |properties: Vec<(String, Value)>, closed: bool| {
        let mut object = Map::new();
        object.insert("type".into(), "object".into());
        let required: Vec<Value> = properties
            .iter()
            .map(|(key, _)| Value::from(key.clone()))
            .collect();
        object.insert(
            "properties".into(),
            Value::Object(properties.into_iter().collect()),
        );
        object.insert("required".into(), Value::Array(required));
        if closed {
            object.insert("additionalProperties".into(), false.into());
        }
        Value::Object(object)
    };
    match (tagging, value) {
        (Tagging::External, None) => constant(name),
        (Tagging::External, Some(value)) => object_of(vec![(name.to_owned(), value)], true),
        (Tagging::Internal(tag), None) => object_of(vec![(tag.to_owned(), constant(name))], closed),
        (Tagging::Internal(tag), Some(Value::Object(mut fields))) => {
            // The tag beside the struct variant's own fields.
            if let Some(Value::Object(properties)) = fields.get_mut("properties") {
                properties.insert(tag.to_owned(), constant(name));
            }
            let required = fields
                .entry("required")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(required) = required {
                required.push(tag.into());
            }
            Value::Object(fields)
        }
        (Tagging::Internal(_), Some(other)) => other,
        (Tagging::Adjacent(tag, _), None) => {
            object_of(vec![(tag.to_owned(), constant(name))], closed)
        }
        (Tagging::Adjacent(tag, content), Some(value)) => object_of(
            vec![
                (tag.to_owned(), constant(name)),
                (content.to_owned(), value),
            ],
            closed,
        ),
        (Tagging::Untagged, None) => {
            let mut null = Map::new();
            null.insert("type".into(), "null".into());
            Value::Object(null)
        }
        (Tagging::Untagged, Some(value)) => value,
    }
}

/// An adjacently tagged variant's schema without its content among the required keys: serde
/// reads a missing content as `None` for a variant that holds an `Option`.
#[must_use]
pub fn optional_content(mut variant: Value, content: &str) -> Value {
    if let Some(Value::Array(required)) = variant.get_mut("required") {
        required.retain(|key| key != content);
    }
    variant
}

/// How a `#[derive(ToolSchema)]` enum's variants are told apart, as serde's attributes say.
#[derive(Clone, Copy, Debug)]
pub enum Tagging {
    /// `{"Variant": data}` (serde's default).
    External,
    /// `#[serde(tag = "...")]`.
    Internal(&'static str),
    /// `#[serde(tag = "...", content = "...")]`.
    Adjacent(&'static str, &'static str),
    /// `#[serde(untagged)]`.
    Untagged,
}

/// An enum's schema from its variants' (`oneOf`, or `anyOf` for an untagged enum, whose
/// variants may overlap), with the type's doc comment as its description.
#[must_use]
pub fn variants(variants: Vec<Value>, untagged: bool, description: Option<&str>) -> Value {
    let mut object = Map::new();
    if let Some(description) = description {
        object.insert("description".into(), description.into());
    }
    object.insert(
        if untagged { "anyOf" } else { "oneOf" }.into(),
        Value::Array(variants),
    );
    Value::Object(object)
}

/// An externally tagged enum's schema (from [`variants`]) as it reads flattened into a struct:
/// serde finds the variant by the entry named after it, among the struct's other entries. So
/// each variant is an object that requires its own name, leaves the other variants' names out
/// (serde would take the first of two, which no schema can say), and is open to the rest; a
/// unit variant is its name with `null`. Any other schema is returned as it is.
#[must_use]
pub fn flattened_external(schema: Value) -> Value {
    let Value::Object(mut object) = schema else {
        return schema;
    };
    let Some(Value::Array(branches)) = object.remove("oneOf") else {
        return Value::Object(object);
    };
    // Each variant's name and payload schema.
    let named: Vec<(String, Value)> = branches
        .into_iter()
        .filter_map(|branch| match branch {
            Value::Object(mut branch) => match branch.remove("const") {
                Some(Value::String(name)) => {
                    let mut null = Map::new();
                    null.insert("type".into(), "null".into());
                    Some((name, Value::Object(null)))
                }
                _ => {
                    let Some(Value::Object(properties)) = branch.remove("properties") else {
                        return None;
                    };
                    properties.into_iter().next()
                }
            },
            _ => None,
        })
        .collect();
    let open: Vec<Value> = named
        .iter()
        .map(|(name, payload)| {
            let mut properties = Map::new();
            for (other, _) in &named {
                if other != name {
                    properties.insert(other.clone(), Value::Bool(false));
                }
            }
            properties.insert(name.clone(), payload.clone());
            let mut branch = Map::new();
            branch.insert("type".into(), "object".into());
            branch.insert("properties".into(), Value::Object(properties));
            branch.insert("required".into(), Value::from(vec![name.clone()]));
            Value::Object(branch)
        })
        .collect();
    object.insert("oneOf".into(), Value::Array(open));
    Value::Object(object)
}
