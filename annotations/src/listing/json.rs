//! A small JSON writer for the hot path: rendering `tools/list` straight into a `String`, with
//! schemas copied as text rather than walked as trees.

use crate::hints::{Hint, ToolAnnotations};
use crate::protocol::ProtocolVersion;
use crate::tool::Tool;

/// Appends `text` as a JSON string (quoted and escaped).
pub(crate) fn string(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    // Names, titles and descriptions rarely need escaping: one quick scan, then one copy.
    // Without short-circuiting, the compiler turns the scan into vector instructions.
    let needs_escape = bytes.iter().fold(false, |found, &byte| {
        found | (byte < 0x20) | (byte == b'"') | (byte == b'\\')
    });
    if !needs_escape {
        out.push('"');
        out.push_str(text);
        out.push('"');
        return;
    }
    out.reserve(text.len() + 8);
    out.push('"');
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

/// Appends the annotations object, unset hints left out.
pub(crate) fn annotations(out: &mut String, annotations: &ToolAnnotations) {
    out.push('{');
    let mut first = true;
    if let Some(title) = annotations.title() {
        out.push_str("\"title\":");
        string(out, title);
        first = false;
    }
    for hint in Hint::ALL {
        if let Some(value) = annotations.hint(hint) {
            if !first {
                out.push(',');
            }
            first = false;
            out.push('"');
            out.push_str(hint.wire_name());
            out.push_str("\":");
            out.push_str(if value { "true" } else { "false" });
        }
    }
    out.push('}');
}

/// About how many bytes [`tool`] writes, to size the output once.
pub(crate) fn size_hint(tool: &Tool) -> usize {
    160 + tool.name().len()
        + 2 * tool.display_name().len()
        + tool.description().map_or(0, str::len)
        + tool.input_schema.as_str().len()
        + tool
            .output_schema
            .as_ref()
            .map_or(0, |schema| schema.as_str().len())
        + tool.meta.as_deref().map_or(0, str::len)
        + if tool.resolvable { 64 } else { 0 }
        + 96 * tool.icons.len()
}

/// Appends one tool object as `version` lists it ([`Tool::listed`] decides which fields);
/// `explicit` states every hint at its effective value, `resolution` marks a resolvable tool.
pub(crate) fn tool(
    out: &mut String,
    tool: &Tool,
    explicit: bool,
    version: ProtocolVersion,
    resolution: bool,
) {
    let listed = tool.listed(version, explicit, resolution);
    out.push_str("{\"name\":");
    string(out, tool.name());
    if let Some(title) = tool.title() {
        out.push_str(",\"title\":");
        string(out, title);
    }
    if let Some(description) = tool.description() {
        out.push_str(",\"description\":");
        string(out, description);
    }
    out.push_str(",\"inputSchema\":");
    out.push_str(tool.input_schema.as_str());
    if let Some(output) = &listed.output_schema {
        out.push_str(",\"outputSchema\":");
        out.push_str(output);
    }
    if let Some(stated) = &listed.annotations {
        out.push_str(",\"annotations\":");
        annotations(out, stated);
    }
    if !listed.icons.is_empty() {
        out.push_str(",\"icons\":");
        // Icons are few and small; serde_json writes them (and cannot fail on them).
        out.push_str(&serde_json::to_string(listed.icons).unwrap_or_default());
    }
    if let Some(support) = listed.task_support {
        out.push_str(",\"execution\":{\"taskSupport\":\"");
        out.push_str(support.as_str());
        out.push_str("\"}");
    }
    if let Some(text) = &listed.meta {
        out.push_str(",\"_meta\":");
        out.push_str(text);
    }
    out.push('}');
}
