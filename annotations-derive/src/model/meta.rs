//! `#[tool(meta = r#"{...}"#)]`: the `_meta` object's JSON text, checked while compiling: JSON
//! (RFC 8259), an object at the root, and each of its keys by the protocol's rule for `_meta`
//! keys.

use crate::leaf::json_text::{check_object, meta_key_problem};

/// Why `text` cannot be the `_meta` object, as the message at its literal; `None` if it can.
pub(crate) fn problem(text: &str) -> Option<String> {
    match check_object(text) {
        Err(problem) => Some(format!(
            "#[tool(meta)] is the `_meta` object as JSON text: {problem}"
        )),
        Ok(keys) => keys.iter().find_map(|key| meta_key_problem(key)),
    }
}
