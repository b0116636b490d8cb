//! The schemas `#[tool]` cannot write while compiling (a parameter of a user type, whose
//! schema comes from [`ToolSchema`](crate::ToolSchema) at run time), built once on first use:
//! the input schema from its properties, with every `$defs` moved to the root, and the output
//! schema of a handler returning `Json<T>`.

use serde_json::{Map, Value};

/// Parses a fragment the macro wrote (always valid JSON).
#[must_use]
pub fn fragment(json: &str) -> Value {
    serde_json::from_str(json).unwrap_or(Value::Null)
}

/// `{"type": "array", "items": items, ...}`.
#[must_use]
pub fn array(items: Value, min: Option<usize>, max: Option<usize>, unique: bool) -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), "array".into());
    schema.insert("items".into(), items);
    if let Some(min) = min {
        schema.insert("minItems".into(), min.into());
    }
    if let Some(max) = max {
        schema.insert("maxItems".into(), max.into());
    }
    if unique {
        schema.insert("uniqueItems".into(), true.into());
    }
    Value::Object(schema)
}

/// `{"type": "object", "additionalProperties": values}`: a map with string keys.
#[must_use]
pub fn map(values: Value) -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("additionalProperties".into(), values);
    Value::Object(schema)
}

/// The schema, or `null`: `"type": [.., "null"]` where the schema has a single type,
/// else `anyOf` with `{"type": "null"}`.
#[must_use]
pub fn nullable(schema: Value) -> Value {
    match schema {
        Value::Object(mut object) => match object.get("type") {
            Some(Value::String(kind)) if !object.contains_key("enum") => {
                let kind = kind.clone();
                object.insert("type".into(), Value::from(vec![kind, "null".to_owned()]));
                Value::Object(object)
            }
            _ if object.is_empty() => Value::Object(object),
            _ => any_of_null(Value::Object(object)),
        },
        other => any_of_null(other),
    }
}

fn any_of_null(schema: Value) -> Value {
    let mut null = Map::new();
    null.insert("type".into(), "null".into());
    let mut wrapper = Map::new();
    wrapper.insert(
        "anyOf".into(),
        Value::from(vec![schema, Value::Object(null)]),
    );
    Value::Object(wrapper)
}

/// Moves every `$defs` in `schema`, at any depth, into `defs`, and drops `$schema` keys:
/// a user type's schema may sit inside an array or a nullable wrapper, and its `$ref`s
/// (`#/$defs/...`) must resolve against the root of the input schema.
fn hoist(schema: &mut Value, defs: &mut Map<String, Value>) {
    match schema {
        Value::Object(object) => {
            object.remove("$schema");
            if let Some(Value::Object(mut inner)) = object.remove("$defs") {
                for value in inner.values_mut() {
                    hoist(value, defs);
                }
                defs.extend(inner);
            }
            for value in object.values_mut() {
                hoist(value, defs);
            }
        }
        Value::Array(items) => {
            for item in items {
                hoist(item, defs);
            }
        }
        _ => {}
    }
}

/// One property of an input schema.
pub struct Property {
    /// The parameter's name.
    pub name: &'static str,
    /// Its schema.
    pub schema: Value,
    /// Its doc comment.
    pub description: Option<&'static str>,
    /// Whether it must be given.
    pub required: bool,
}

/// The input schema of a tool from its properties, in the order given, with every
/// `$defs` moved to the root.
#[must_use]
pub fn object(properties: Vec<Property>) -> String {
    let mut defs = Map::new();
    let mut out = String::from(r#"{"type":"object","properties":{"#);
    let mut required = Vec::new();
    for (i, property) in properties.into_iter().enumerate() {
        let mut schema = property.schema;
        hoist(&mut schema, &mut defs);
        if let Value::Object(object) = &mut schema {
            // The parameter's doc comment says more than its type's.
            if let Some(description) = property.description {
                object.insert("description".into(), description.into());
            }
        }
        if property.required {
            required.push(Value::from(property.name));
        }
        if i > 0 {
            out.push(',');
        }
        out.push_str(&Value::from(property.name).to_string());
        out.push(':');
        out.push_str(&schema.to_string());
    }
    out.push('}');
    if !required.is_empty() {
        out.push_str(r#","required":"#);
        out.push_str(&Value::Array(required).to_string());
    }
    out.push_str(r#","additionalProperties":false"#);
    if !defs.is_empty() {
        out.push_str(r#","$defs":"#);
        out.push_str(&Value::Object(defs).to_string());
    }
    out.push('}');
    out
}

/// The output schema of a handler returning `Json<T>`: `T`'s schema when its root is an
/// object, else `{"result": ...}` around it, as `Json` wraps such values.
#[must_use]
pub fn output_schema(schema: Value) -> String {
    let is_object = matches!(schema.get("type"), Some(Value::String(kind)) if kind == "object");
    if is_object {
        let mut schema = schema;
        if let Value::Object(object) = &mut schema {
            object.remove("$schema");
        }
        return schema.to_string();
    }
    object(vec![Property {
        name: "result",
        schema,
        description: None,
        required: true,
    }])
}
