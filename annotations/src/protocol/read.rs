//! Reading protocol JSON by hand: every error names its field, and `null` is unset.

use serde_json::{Map, Value};

use crate::protocol::error::ContentError;
use crate::protocol::meta::Meta;
use crate::protocol::mime::MimeType;

pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(crate) fn mismatch(field: &str, expected: &str, found: &Value) -> ContentError {
    ContentError::new(field, format!("expected {expected}, found {}", kind(found)))
}

pub(crate) fn as_object<'a>(
    value: &'a Value,
    field: &str,
) -> Result<&'a Map<String, Value>, ContentError> {
    value
        .as_object()
        .ok_or_else(|| mismatch(field, "an object", value))
}

/// The value of `key`, `None` when it is absent or `null` (which the protocol's optional
/// fields treat as unset).
pub(crate) fn present<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    object.get(key).filter(|value| !value.is_null())
}

pub(crate) fn required_string(
    object: &Map<String, Value>,
    key: &str,
) -> Result<String, ContentError> {
    match present(object, key) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(mismatch(key, "a string", other)),
        None => Err(ContentError::new(key, "missing")),
    }
}

pub(crate) fn optional_string(
    object: &Map<String, Value>,
    key: &str,
) -> Result<Option<String>, ContentError> {
    match present(object, key) {
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(mismatch(key, "a string", other)),
        None => Ok(None),
    }
}

pub(crate) fn optional_mime(object: &Map<String, Value>) -> Result<Option<MimeType>, ContentError> {
    optional_string(object, "mimeType")?
        .map(MimeType::parse)
        .transpose()
}

pub(crate) fn meta_of(object: &Map<String, Value>) -> Result<Option<Meta>, ContentError> {
    match present(object, "_meta") {
        None => Ok(None),
        Some(Value::Object(meta)) => Ok(Some(meta.clone())),
        Some(other) => Err(mismatch("_meta", "an object", other)),
    }
}
