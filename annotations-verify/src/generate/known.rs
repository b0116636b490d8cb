//! What a string parameter most likely wants where its schema does not say (no `format`, no
//! `pattern`, no `enum`): a well-known format recognised by the parameter's name or its
//! description (an IANA time zone for `timezone`, a date for `due_date`, an e-mail address, a
//! UUID, a language or currency code, a URL on loopback), and the examples its description
//! lists without a keyword (`e.g. 'America/New_York'`, `such as main`).
//!
//! Both are only what generation tries: the validator of the whole schema still decides what
//! is given, so a wrong guess costs a case, never a value the schema refuses.

use serde_json::{Map, Value};

/// The formats recognised by name or description, each the internal name [`super::formatted`]
/// generates values of.
const BY_NAME: &[(&[&str], &[&str], &str)] = &[
    // (words of the name, phrases of the description, format)
    (
        &["timezone", "time_zone", "tz", "tzname", "zone"],
        &["time zone", "timezone", "iana"],
        "x-time-zone",
    ),
    (
        &["datetime", "date_time", "timestamp"],
        &["date-time", "datetime", "rfc 3339", "rfc3339"],
        "date-time",
    ),
    (&["date", "birthday"], &["yyyy-mm-dd"], "date"),
    (
        &["email", "e_mail", "mail"],
        &["e-mail", "email address"],
        "email",
    ),
    (&["uuid", "guid"], &["uuid"], "uuid"),
    (
        &["url", "uri", "endpoint", "href", "link"],
        &[],
        "x-loopback-url",
    ),
    (
        &["lang", "language"],
        &["language code", "iso 639"],
        "x-language",
    ),
    (&["locale"], &["locale"], "x-locale"),
    (&["currency"], &["currency code", "iso 4217"], "x-currency"),
    (&["country"], &["country code", "iso 3166"], "x-country"),
    (&["duration"], &["iso 8601 duration"], "x-duration"),
    (&["time", "clock"], &["hh:mm"], "x-clock"),
];

/// `schema` (of the parameter called `name`) with the format it most likely takes written in,
/// where it says none: in itself, or in each string branch of its `anyOf` or `oneOf` (an
/// optional string); the description read is the parameter's own.
pub(super) fn with_format(name: &str, schema: &Value) -> Option<Value> {
    let object = schema.as_object()?;
    let description = object.get("description").cloned();
    let mut changed = false;
    let mut out = object.clone();
    if let Some(found) = format(name, object) {
        out.insert("format".to_owned(), Value::from(found));
        changed = true;
    }
    for choice in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = out.get_mut(choice) else {
            continue;
        };
        for branch in branches.iter_mut() {
            let Some(branch) = branch.as_object_mut() else {
                continue;
            };
            let mut read = branch.clone();
            if let (false, Some(description)) = (read.contains_key("description"), &description) {
                read.insert("description".to_owned(), description.clone());
            }
            if let Some(found) = format(name, &read) {
                branch.insert("format".to_owned(), Value::from(found));
                changed = true;
            }
        }
    }
    changed.then_some(Value::Object(out))
}

/// The format a string parameter called `name` with `schema` most likely takes, where the
/// schema says none: by the words of its name (`due_date`, `targetTimezone`, `tz`), then by
/// the phrases of its description ("an IANA time zone").
pub(super) fn format(name: &str, schema: &Map<String, Value>) -> Option<&'static str> {
    let open = !["format", "pattern", "enum", "const", "$ref"]
        .iter()
        .any(|key| schema.contains_key(*key));
    let string = match schema.get("type") {
        Some(Value::String(kind)) => kind == "string",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "string"),
        _ => false,
    };
    if !open || !string {
        return None;
    }
    let description = schema
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_ascii_lowercase();
    format_named(name).or_else(|| {
        BY_NAME
            .iter()
            .find(|(_, phrases, _)| phrases.iter().any(|phrase| description.contains(phrase)))
            .map(|(_, _, format)| *format)
    })
}

/// The well-known format a string parameter's name alone says it takes (`timezone`,
/// `targetTimeZone`, `due_date`, `email`, `currency`), as generated arguments take it where
/// the schema says no format: a value of that format is not to be replaced by a path or a
/// value seen elsewhere. `None` where the name says none.
///
/// ```
/// assert!(mcp_annotations_verify::format_named("source_timezone").is_some());
/// assert!(mcp_annotations_verify::format_named("due_date").is_some());
/// assert_eq!(mcp_annotations_verify::format_named("path"), None);
/// ```
#[must_use]
pub fn format_named(name: &str) -> Option<&'static str> {
    let words = name_words(name);
    let joined = words.join("_");
    BY_NAME
        .iter()
        .find(|(names, _, _)| {
            names.iter().any(|wanted| {
                words.iter().any(|word| word == wanted)
                    || (wanted.contains('_') && joined.contains(wanted))
            })
        })
        .map(|(_, _, format)| *format)
}

/// The lowercase words of a parameter's or a tool's name: `dueDate`, `due_date` and
/// `due-date` are `["due", "date"]`.
///
/// ```
/// use mcp_annotations_verify::name_words;
///
/// assert_eq!(name_words("initStore"), ["init", "store"]);
/// assert_eq!(name_words("set_up"), ["set", "up"]);
/// ```
pub fn name_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == ' ' || c == '.' {
            out.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower {
            out.push(std::mem::take(&mut word));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    out.extend((!word.is_empty()).then_some(word));
    out
}

/// The values of the internal formats [`format`] names (the standard ones are generated by
/// pattern): what servers most often take.
pub(super) fn values(format: &str) -> Option<&'static [&'static str]> {
    Some(match format {
        "x-time-zone" => &[
            "UTC",
            "America/New_York",
            "Europe/London",
            "Europe/Paris",
            "Asia/Tokyo",
            "Australia/Sydney",
            "America/Los_Angeles",
        ],
        "x-loopback-url" => &[
            "http://127.0.0.1:8080/",
            "http://localhost:8080/index.html",
            "http://127.0.0.1/api/items",
        ],
        "x-language" => &["en", "fr", "de", "es", "ja"],
        "x-locale" => &["en-US", "fr-FR", "de-DE", "ja-JP"],
        "x-currency" => &["USD", "EUR", "GBP", "JPY"],
        "x-country" => &["US", "FR", "DE", "JP", "GB"],
        "x-duration" => &["PT1H", "PT30M", "P1D", "PT15S"],
        "x-clock" => &["09:00", "12:30", "17:45", "23:59"],
        _ => return None,
    })
}

/// Literals a description lists as examples without a keyword: between single quotes
/// (`'America/New_York'`, not an apostrophe's `server's`), and the word after "e.g.", "for
/// example", "for instance" or "such as" (`such as main`) where it is not quoted (a quoted
/// one is read by the quotes' rules), at most eight.
pub(super) fn examples(description: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |literal: &str| {
        let literal = literal.trim_matches(|c: char| ",.;:)(]`\"'".contains(c));
        if !literal.is_empty()
            && literal.chars().count() <= 64
            && !out.iter().any(|seen| seen == literal)
            && out.len() < 8
        {
            out.push(literal.to_owned());
        }
    };
    // Single quotes: opened after a space, a bracket or a colon (or at the start), closed
    // before a space or punctuation (or at the end), nothing between them a space.
    let chars: Vec<char> = description.chars().collect();
    let mut index = 0;
    while index < chars.len() {
        let opens = chars[index] == '\'' && (index == 0 || " \t(:[,=".contains(chars[index - 1]));
        if opens && let Some(length) = chars[index + 1..].iter().position(|c| *c == '\'') {
            let inside: String = chars[index + 1..index + 1 + length].iter().collect();
            let after = chars.get(index + 2 + length).copied();
            let closes = after.is_none_or(|c| c.is_whitespace() || ",.;:)]".contains(c));
            if closes && !inside.contains(char::is_whitespace) {
                push(&inside);
                index += length + 2;
                continue;
            }
        }
        index += 1;
    }
    // The word after a phrase that lists examples.
    let lower = description.to_ascii_lowercase();
    for phrase in ["e.g.", "for example", "for instance", "such as"] {
        let mut from = 0;
        while let Some(found) = lower[from..].find(phrase) {
            let start = from + found + phrase.len();
            from = start;
            let rest = description[start..].trim_start_matches([' ', ',', ':']);
            // A quoted literal is read whole by the quotes' rules, not a word at a time.
            if !rest.starts_with(['`', '"', '\'']) {
                push(rest.split_whitespace().next().unwrap_or(""));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    fn format_of(name: &str, schema: serde_json::Value) -> Option<&'static str> {
        super::format(name, schema.as_object().unwrap())
    }

    #[test]
    fn formats_are_recognised_by_name_then_description_and_only_where_the_schema_is_silent() {
        let string = json!({"type": "string"});
        assert_eq!(format_of("timezone", string.clone()), Some("x-time-zone"));
        assert_eq!(
            format_of("targetTimeZone", string.clone()),
            Some("x-time-zone")
        );
        assert_eq!(
            format_of("source_timezone", string.clone()),
            Some("x-time-zone")
        );
        assert_eq!(format_of("due_date", string.clone()), Some("date"));
        assert_eq!(format_of("createdAt", string.clone()), None);
        assert_eq!(format_of("userEmail", string.clone()), Some("email"));
        assert_eq!(format_of("currency", string.clone()), Some("x-currency"));
        assert_eq!(format_of("name", string.clone()), None);
        // A word inside another is no word of the name.
        assert_eq!(format_of("update", string.clone()), None);
        assert_eq!(
            format_of(
                "where",
                json!({"type": "string", "description": "An IANA time zone name"})
            ),
            Some("x-time-zone")
        );
        // What the schema says wins: a format, a pattern, an enum; and only strings.
        assert_eq!(
            format_of("timezone", json!({"type": "string", "enum": ["UTC"]})),
            None
        );
        assert_eq!(
            format_of("timezone", json!({"type": "string", "format": "x"})),
            None
        );
        assert_eq!(format_of("date", json!({"type": "integer"})), None);
        // An optional string: its string branch.
        let optional = json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": null});
        assert_eq!(
            super::with_format("timezone", &optional),
            Some(
                json!({"anyOf": [{"type": "string", "format": "x-time-zone"}, {"type": "null"}], "default": null})
            )
        );
        assert_eq!(super::with_format("name", &optional), None);
    }

    #[test]
    fn examples_are_read_from_single_quotes_and_after_the_phrases_that_list_them() {
        assert_eq!(
            super::examples(
                "IANA time zone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' if the user's zone is unknown."
            ),
            ["America/New_York", "Europe/London", "UTC"]
        );
        assert_eq!(super::examples("A branch, such as main."), ["main"]);
        // Quoted after the phrase: the quotes' rules read it whole (backticks elsewhere).
        assert!(super::examples("The query, such as `SELECT 1`.").is_empty());
        assert_eq!(super::examples("A zone, e.g. Asia/Tokyo"), ["Asia/Tokyo"]);
        assert!(super::examples("the server's own name, it's said").is_empty());
    }
}
