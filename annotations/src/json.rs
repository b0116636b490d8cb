//! A small JSON writer for the hot path: rendering `tools/list` straight into a `String`, with
//! schemas copied as text rather than walked as trees.

use crate::{Tool, ToolAnnotations};

/// Appends `text` as a JSON string (quoted and escaped).
pub(crate) fn string(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        let escape: &str = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[start..i]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// Appends `"key":` (keys are plain ASCII written by this crate).
fn key(out: &mut String, first: &mut bool, key: &str) {
    if !*first {
        out.push(',');
    }
    *first = false;
    out.push('"');
    out.push_str(key);
    out.push_str("\":");
}

/// Appends the annotations object, unset hints left out.
pub(crate) fn annotations(out: &mut String, annotations: &ToolAnnotations) {
    out.push('{');
    let mut first = true;
    if let Some(title) = annotations.title() {
        key(out, &mut first, "title");
        string(out, title);
    }
    for (name, hint) in [
        ("readOnlyHint", annotations.read_only_hint),
        ("destructiveHint", annotations.destructive_hint),
        ("idempotentHint", annotations.idempotent_hint),
        ("openWorldHint", annotations.open_world_hint),
    ] {
        if let Some(value) = hint {
            key(out, &mut first, name);
            out.push_str(if value { "true" } else { "false" });
        }
    }
    out.push('}');
}

/// Appends one tool object; `explicit` states every hint at its effective value.
pub(crate) fn tool(out: &mut String, tool: &Tool, explicit: bool) {
    out.push('{');
    let mut first = true;
    key(out, &mut first, "name");
    string(out, tool.name());
    if let Some(title) = tool.title() {
        key(out, &mut first, "title");
        string(out, title);
    }
    if let Some(description) = tool.description() {
        key(out, &mut first, "description");
        string(out, description);
    }
    key(out, &mut first, "inputSchema");
    out.push_str(tool.input_schema.as_str());
    if let Some(output) = &tool.output_schema {
        key(out, &mut first, "outputSchema");
        out.push_str(output.as_str());
    }
    if explicit {
        key(out, &mut first, "annotations");
        annotations(
            out,
            &ToolAnnotations {
                title: tool.annotations.title.clone(),
                ..tool.annotations.explicit_hints()
            },
        );
    } else if !tool.annotations.is_empty() {
        key(out, &mut first, "annotations");
        annotations(out, &tool.annotations);
    }
    out.push('}');
}
