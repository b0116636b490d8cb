//! JSON text written by the macros: a string, an object from its pairs, a description added
//! to a schema. A leaf: it imports nothing of the crate.

/// A schema's JSON text with `"description": text` added as its last key.
pub(crate) fn with_description(json: &str, text: &str) -> String {
    let description = format!("\"description\":{}", json_string(text));
    if json == "{}" {
        format!("{{{description}}}")
    } else {
        format!("{},{description}}}", &json[..json.len() - 1])
    }
}

/// `{"key":value,...}` from pairs whose values are JSON text.
pub(crate) fn object(pairs: &[(&'static str, String)]) -> String {
    let mut out = String::from("{");
    for (i, (key, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&json_string(key));
        out.push(':');
        out.push_str(value);
    }
    out.push('}');
    out
}

/// `text` as a JSON string.
pub(crate) fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
