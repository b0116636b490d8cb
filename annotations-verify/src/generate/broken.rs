//! Arguments that break one rule of a tool's input schema: what the reader must refuse, naming
//! the argument.

use serde_json::{Map, Value, json};

use super::resolve;

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

/// How deep inside an argument rules are broken (a struct in a struct in a list...).
const DEPTH: usize = 4;

/// Every way of breaking one rule of the input schema `schema` at one argument of `valid`,
/// each one alone, the rest of the arguments kept as they were: a required argument left
/// out, an unknown argument added (when the schema is closed), and for each argument a value
/// of another type, one past each bound (inclusive or exclusive), one too short or too long,
/// one that misses the pattern, one of its type outside the enum, an array with too few or
/// too many items or an item twice; and the same inside an argument that is an object (a
/// struct parameter) or an array of them, at every depth. Only those the schema refuses.
pub(crate) fn broken(
    validator: &jsonschema::Validator,
    schema: &Value,
    valid: &Map<String, Value>,
) -> Vec<Broken> {
    object_breakings(schema, schema, valid, 0)
        .into_iter()
        .filter(|(_, _, arguments)| !validator.is_valid(&Value::Object(arguments.clone())))
        .map(|(argument, rule, arguments)| Broken {
            argument,
            rule,
            arguments,
        })
        .collect()
}

/// The property schema `property` of `root`, its `$ref` followed.
fn followed<'a>(root: &'a Value, property: &'a Value) -> &'a Value {
    match property.get("$ref").and_then(Value::as_str) {
        Some(target) => resolve(root, target).unwrap_or(property),
        None => property,
    }
}

/// The object `valid` broken in one place for the object schema `schema`: the name of the
/// member broken (the argument, at the top), the rule, and the object broken.
fn object_breakings(
    root: &Value,
    schema: &Value,
    valid: &Map<String, Value>,
    depth: usize,
) -> Vec<(String, &'static str, Map<String, Value>)> {
    let mut out = Vec::new();
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for name in &required {
        let mut object = valid.clone();
        if object.remove(*name).is_some() {
            out.push(((*name).to_owned(), "a required argument left out", object));
        }
    }
    if schema["additionalProperties"] == Value::Bool(false) {
        let mut object = valid.clone();
        object.insert("not_an_argument".into(), json!(1));
        out.push((
            "not_an_argument".to_owned(),
            "an argument the tool does not take",
            object,
        ));
    }
    let Some(properties) = schema["properties"].as_object() else {
        return out;
    };
    for (name, property) in properties {
        let property = followed(root, property);
        for (rule, value) in values_breaking(root, property, valid.get(name), depth) {
            let mut object = valid.clone();
            object.insert(name.clone(), value);
            out.push((name.clone(), rule, object));
        }
    }
    out
}

/// Values that break one rule of `property` (or, inside the `current` value, of the schemas
/// of its members or items).
fn values_breaking(
    root: &Value,
    property: &Value,
    current: Option<&Value>,
    depth: usize,
) -> Vec<(&'static str, Value)> {
    let mut out = breaking_values(property, current);
    if depth >= DEPTH {
        return out;
    }
    match current {
        // A member of an object argument, broken alone.
        Some(Value::Object(inner))
            if property.get("properties").is_some()
                || property.get("required").is_some()
                || property.get("additionalProperties") == Some(&Value::Bool(false)) =>
        {
            for (_, rule, broken) in object_breakings(root, property, inner, depth + 1) {
                out.push((rule, Value::Object(broken)));
            }
        }
        // The first item of an array argument, broken alone.
        Some(Value::Array(items)) => {
            if let (Some(first), Some(schema)) = (items.first(), property.get("items")) {
                let schema = followed(root, schema);
                for (rule, broken) in values_breaking(root, schema, Some(first), depth + 1) {
                    let mut items = items.clone();
                    items[0] = broken;
                    out.push((rule, Value::Array(items)));
                }
            }
        }
        _ => {}
    }
    out
}

/// A value of the same JSON type as the enum's items that none of them is.
fn outside_enum(items: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    let numbers: Vec<f64> = items.iter().filter_map(Value::as_f64).collect();
    if !numbers.is_empty() {
        let top = numbers.iter().copied().fold(f64::MIN, f64::max);
        if items
            .iter()
            .filter(|item| item.is_number())
            .all(|item| item.is_i64() || item.is_u64())
        {
            if let Some(top) = items.iter().filter_map(Value::as_i64).max() {
                out.push(json!(top.saturating_add(1)));
            } else if let Some(top) = items.iter().filter_map(Value::as_u64).max() {
                out.push(json!(top.saturating_add(1)));
            }
        } else {
            out.push(json!(top + 1.5));
        }
    }
    if items.iter().any(Value::is_string) {
        let mut text = "not_one_of_them".to_owned();
        while items.contains(&Value::String(text.clone())) {
            text.push('_');
        }
        out.push(Value::String(text));
    }
    for flag in [true, false] {
        if items.iter().any(Value::is_boolean) && !items.contains(&Value::Bool(flag)) {
            out.push(Value::Bool(flag));
        }
    }
    if out.is_empty() {
        out.push(json!("not_one_of_them"));
    }
    out
}

/// Values that break one rule of `property`, of its own type where the rule allows.
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
    // One past a bound by at least one, and by enough to be another float where a float's
    // step is wider than one (past 2^53: `i64::MIN - 1.0` is `i64::MIN`).
    let past = |bound: f64| (bound.abs() * 1e-9).max(1.0);
    if let Some(min) = get("minimum").and_then(Value::as_f64) {
        out.push(("a number below its minimum", json!(min - past(min))));
    }
    if let Some(max) = get("maximum").and_then(Value::as_f64) {
        out.push(("a number above its maximum", json!(max + past(max))));
    }
    if let Some(min) = get("minimum").and_then(Value::as_i64) {
        out.push(("a number below its minimum", json!(min.saturating_sub(1))));
    }
    if let Some(max) = get("maximum").and_then(Value::as_u64) {
        out.push(("a number above its maximum", json!(max.saturating_add(1))));
    }
    // An exclusive bound is broken by the bound itself.
    if let Some(min) = get("exclusiveMinimum").filter(|min| min.is_number()) {
        out.push(("a number at its exclusiveMinimum", min.clone()));
    }
    if let Some(max) = get("exclusiveMaximum").filter(|max| max.is_number()) {
        out.push(("a number at its exclusiveMaximum", max.clone()));
    }
    let text = current.and_then(Value::as_str);
    if let Some(min) = get("minLength")
        .and_then(Value::as_u64)
        .filter(|min| *min > 0)
    {
        #[allow(clippy::cast_possible_truncation)]
        let shorter = match text {
            // The valid value cut short: only its length breaks a rule.
            Some(text) => text.chars().take(min as usize - 1).collect(),
            None => "a".repeat(min as usize - 1),
        };
        out.push(("a string shorter than its minLength", json!(shorter)));
    }
    if let Some(max) = get("maxLength")
        .and_then(Value::as_u64)
        .filter(|max| *max < 1 << 16)
    {
        #[allow(clippy::cast_possible_truncation)]
        let longer = match text.and_then(|text| text.chars().last().map(|last| (text, last))) {
            Some((text, last)) => {
                let mut longer = text.to_owned();
                while longer.chars().count() <= max as usize {
                    longer.push(last);
                }
                longer
            }
            None => "a".repeat(max as usize + 1),
        };
        out.push(("a string longer than its maxLength", json!(longer)));
    }
    if get("pattern").is_some() {
        for text in ["", " ", "\u{2028}", "not matching ~"] {
            out.push(("a string that misses its pattern", json!(text)));
        }
    }
    if let Some(Value::Array(items)) = get("enum") {
        for value in outside_enum(items) {
            out.push(("a value outside its enum", value));
        }
    }
    if let Some(Value::Array(items)) = current {
        if let Some(min) = get("minItems")
            .and_then(Value::as_u64)
            .filter(|min| *min > 0)
        {
            #[allow(clippy::cast_possible_truncation)]
            let fewer: Vec<Value> = items.iter().take(min as usize - 1).cloned().collect();
            out.push(("an array shorter than its minItems", Value::Array(fewer)));
        }
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
