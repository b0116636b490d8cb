//! Arguments that break one rule of a tool's input schema: what the reader must refuse, naming
//! the argument.

use serde_json::{Map, Value, json};

use crate::generate::resolve;

/// One way to break an argument set: the argument it breaks, and the arguments broken.
#[derive(Clone, Debug)]
pub(crate) struct Broken {
    /// The argument the reader must name.
    pub(crate) argument: String,
    /// Which rule was broken, for the report.
    pub(crate) rule: &'static str,
    /// The arguments, broken in that one place.
    pub(crate) arguments: Map<String, Value>,
}

/// Every way of breaking one rule of the input schema `schema` at one argument of `valid`:
/// a required argument left out, an unknown argument added (when the schema is closed), and
/// for each argument a value of another type, one past a bound, one too short or too long,
/// one that misses the pattern, one outside the enum. Only those the schema refuses.
pub(crate) fn broken(
    validator: &jsonschema::Validator,
    schema: &Value,
    valid: &Map<String, Value>,
) -> Vec<Broken> {
    let mut out = Vec::new();
    let mut push = |argument: &str, rule: &'static str, arguments: Map<String, Value>| {
        if !validator.is_valid(&Value::Object(arguments.clone())) {
            out.push(Broken {
                argument: argument.to_owned(),
                rule,
                arguments,
            });
        }
    };
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for name in &required {
        let mut arguments = valid.clone();
        if arguments.remove(*name).is_some() {
            push(name, "a required argument left out", arguments);
        }
    }
    if schema["additionalProperties"] == Value::Bool(false) {
        let mut arguments = valid.clone();
        arguments.insert("not_an_argument".into(), json!(1));
        push(
            "not_an_argument",
            "an argument the tool does not take",
            arguments,
        );
    }
    let Some(properties) = schema["properties"].as_object() else {
        return out;
    };
    for (name, property) in properties {
        let property = match property.get("$ref").and_then(Value::as_str) {
            Some(target) => resolve(schema, target).unwrap_or(property),
            None => property,
        };
        for (rule, value) in breaking_values(property, valid.get(name)) {
            let mut arguments = valid.clone();
            arguments.insert(name.clone(), value);
            push(name, rule, arguments);
        }
    }
    out
}

/// Values that break one rule of `property`.
fn breaking_values(property: &Value, current: Option<&Value>) -> Vec<(&'static str, Value)> {
    let get = |key: &str| property.get(key);
    // Values of the types the schema does not take (any, when it names none: the validator
    // then keeps only those it refuses, under a label that names no rule).
    let types: Vec<&str> = match get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let label = if types.is_empty() {
        "a value the schema refuses"
    } else {
        "a value of another type"
    };
    let mut out: Vec<(&'static str, Value)> = [
        ("object", json!({"not": "expected"})),
        ("string", json!("not expected")),
        ("boolean", json!(true)),
        ("number", json!(1.5)),
        ("array", json!(["not expected"])),
    ]
    .into_iter()
    .filter(|(kind, _)| !types.contains(kind))
    .map(|(_, value)| (label, value))
    .collect();
    if let Some(min) = get("minimum").and_then(Value::as_f64) {
        out.push(("a number below its minimum", json!(min - 1.0)));
    }
    if let Some(max) = get("maximum").and_then(Value::as_f64) {
        out.push(("a number above its maximum", json!(max + 1.0)));
    }
    if let Some(min) = get("minimum").and_then(Value::as_i64) {
        out.push(("a number below its minimum", json!(min.saturating_sub(1))));
    }
    if let Some(max) = get("maximum").and_then(Value::as_u64) {
        out.push(("a number above its maximum", json!(max.saturating_add(1))));
    }
    if let Some(min) = get("minLength")
        .and_then(Value::as_u64)
        .filter(|min| *min > 0)
    {
        #[allow(clippy::cast_possible_truncation)]
        out.push((
            "a string shorter than its minLength",
            json!("a".repeat(min as usize - 1)),
        ));
    }
    if let Some(max) = get("maxLength")
        .and_then(Value::as_u64)
        .filter(|max| *max < 1 << 16)
    {
        #[allow(clippy::cast_possible_truncation)]
        out.push((
            "a string longer than its maxLength",
            json!("a".repeat(max as usize + 1)),
        ));
    }
    if get("pattern").is_some() {
        for text in ["", " ", "\u{2028}", "not matching ~"] {
            out.push(("a string that misses its pattern", json!(text)));
        }
    }
    if get("enum").is_some() {
        out.push(("a value outside its enum", json!("not_one_of_them")));
    }
    if let Some(Value::Array(items)) = current {
        if let Some(max) = get("maxItems")
            .and_then(Value::as_u64)
            .filter(|max| *max < 1 << 12)
        {
            let mut more = items.clone();
            #[allow(clippy::cast_possible_truncation)]
            while more.len() <= max as usize {
                more.push(items.first().cloned().unwrap_or(Value::Null));
            }
            out.push(("an array longer than its maxItems", Value::Array(more)));
        }
        if get("uniqueItems") == Some(&Value::Bool(true))
            && let Some(first) = items.first()
        {
            let mut repeated = items.clone();
            repeated.push(first.clone());
            out.push(("an array with an item twice", Value::Array(repeated)));
        }
    }
    out
}
