//! The values a case has seen (in earlier arguments and results) and the places in new
//! arguments where one may stand instead of a generated value: how a later call reaches the
//! ids and names a server made.

use serde_json::Value;

use crate::compare::escape;

/// The JSON pointers of the strings and numbers in `value`, in order: the places where a
/// generated value may be replaced by one seen before, as `Verify` and the audit's probe do to
/// reach the ids and names a server made.
///
/// ```
/// let arguments = serde_json::json!([3, {"a/b": ["x", true]}]);
/// assert_eq!(mcp_annotations_verify::scalar_paths(&arguments), ["/0", "/1/a~1b/0"]);
/// ```
#[must_use]
pub fn scalar_paths(value: &Value) -> Vec<String> {
    fn walk(value: &Value, path: String, out: &mut Vec<String>) {
        match value {
            Value::String(_) | Value::Number(_) => out.push(path),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, format!("{path}/{i}"), out);
                }
            }
            Value::Object(object) => {
                for (key, item) in object {
                    walk(item, format!("{path}/{}", escape(key)), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, String::new(), &mut out);
    out
}

/// The strings (up to 256 bytes) and numbers in `value`, in order, appended to `out`: what a
/// later call may be given, taken from earlier arguments and results.
///
/// ```
/// let mut seen = Vec::new();
/// mcp_annotations_verify::scalars(&serde_json::json!([7, true, {"name": "n"}]), &mut seen);
/// assert_eq!(seen, [serde_json::json!(7), serde_json::json!("n")]);
/// ```
pub fn scalars(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::String(text) if text.len() <= 256 => out.push(value.clone()),
        Value::Number(_) => out.push(value.clone()),
        Value::Array(items) => items.iter().for_each(|item| scalars(item, out)),
        Value::Object(object) => object.values().for_each(|item| scalars(item, out)),
        _ => {}
    }
}
