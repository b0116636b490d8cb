//! What a call's answer says of itself: whether it failed, where the result does not flag it
//! (a server that answers its errors as plain text).

use serde_json::Value;

use super::parts::first_text;

/// Whether a result is a failed call: `isError`, or (for a server that answers its errors as
/// plain text) a result whose text says it failed (see [`says_it_failed`]) and that holds no
/// structured content beside it (or only that text wrapped).
pub(super) fn failed(result: &Value) -> bool {
    if result.get("isError") == Some(&Value::Bool(true)) {
        return true;
    }
    let text = first_text(result, 240);
    // Structured content that is only the text wrapped (`{"result": text}`, what the Python
    // SDK makes of a tool returning a string) says no more than the text.
    let only_text = match result.get("structuredContent") {
        None => true,
        Some(Value::Object(fields)) => {
            fields.len() == 1
                && fields
                    .values()
                    .next()
                    .and_then(Value::as_str)
                    .is_some_and(|wrapped| wrapped.starts_with(text.as_str()))
        }
        Some(_) => false,
    };
    only_text && says_it_failed(&text)
}

/// Whether a result's text says the call failed, where the result does not (no `isError`):
/// its first line starts as a failure does ("Error", "Failed to", "Cannot", "Invalid", "No
/// such", "Unable to", "Permission denied", a cross), or says so after a subject ("Note x not
/// found", "... does not exist", "... is required"). A success read as a failure verifies
/// nothing, and what the call changed is judged all the same: so the reading leans to
/// failure.
pub(super) fn says_it_failed(text: &str) -> bool {
    const STARTS: [&str; 22] = [
        "error",
        "err:",
        "failed",
        "failure",
        "fail:",
        "cannot ",
        "can't ",
        "could not",
        "couldn't",
        "unable to",
        "invalid",
        "no such",
        "not found",
        "exception",
        "traceback",
        "permission denied",
        "access denied",
        "unauthorized",
        "forbidden",
        "refused",
        "✗",
        "❌",
    ];
    const SAYS: [&str; 12] = [
        "not found",
        "does not exist",
        "doesn't exist",
        "no such ",
        "failed to ",
        "is required",
        "are required",
        "permission denied",
        "not allowed",
        "is invalid",
        "invalid value",
        "an error occurred",
    ];
    let line = text
        .trim_start()
        .lines()
        .next()
        .unwrap_or("")
        .to_lowercase();
    let line =
        line.trim_start_matches(|c: char| c == '*' || c == '#' || c == '[' || c.is_whitespace());
    STARTS.iter().any(|start| line.starts_with(start))
        || SAYS.iter().any(|says| line.contains(says))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    fn text(text: &str) -> serde_json::Value {
        json!({"content": [{"type": "text", "text": text}]})
    }

    #[test]
    fn a_result_that_says_it_failed_is_a_failed_call_whatever_its_flag() {
        for failure in [
            "Error: no such note",
            "Could not archive a: the archive is closed.",
            "Failed to open the workbook",
            "**Invalid** sheet name",
            "Note 'x' not found",
            "The file /tmp/a does not exist",
            "❌ the repository is locked",
        ] {
            assert!(super::failed(&text(failure)), "{failure}");
        }
        for success in [
            "Added note 3",
            "[]",
            "No matches",
            "Saved 2 items\nNot found: none",
            "{\"error\": null}",
        ] {
            assert!(!super::failed(&text(success)), "{success}");
        }
        // The text wrapped as structured content (the Python SDK's `{"result": ...}`) says no
        // more than the text; structured data of its own decides by the flag alone.
        let wrapped = json!({"content": [{"type": "text", "text": "Could not archive a"}],
            "structuredContent": {"result": "Could not archive a"}});
        assert!(super::failed(&wrapped));
        let data = json!({"content": [{"type": "text", "text": "Error count: 3"}],
            "structuredContent": {"errors": 3, "checked": 10}});
        assert!(!super::failed(&data));
        assert!(super::failed(&json!({"isError": true, "content": []})));
    }
}
