//! What a failed call's answer says is wanted: the values it lists ("expected one of read,
//! write", "Available sheets: Data, Summary", "did you mean 'main'?"), kept for the argument
//! it names, so that the tool's next cases try them.

use serde_json::Value;

/// The phrases after which an answer lists what it wants.
const LISTS: [&str; 11] = [
    "one of",
    "valid values",
    "valid options",
    "valid choices",
    "allowed values",
    "supported values",
    "choose from",
    "options are",
    "available",
    "did you mean",
    "expected",
];

/// The most values kept for one tool.
const MOST: usize = 64;

/// The values `text` lists after a phrase that says what is wanted: each a word (no space
/// inside, at most 64 characters), quotes and brackets taken off, at most 16.
pub(super) fn wanted(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // What a hostile answer can make this read is bounded: its first 2000 characters.
    let text: String = text.chars().take(2000).collect();
    let text = text.as_str();
    let lower = text.to_ascii_lowercase();
    for phrase in LISTS {
        if out.len() >= 16 {
            break;
        }
        let mut from = 0;
        while let Some(found) = lower[from..].find(phrase) {
            let at = from + found;
            let start = at + phrase.len();
            from = start;
            // A phrase inside a word ("unexpected") lists nothing.
            if lower[..at].ends_with(|c: char| c.is_ascii_alphanumeric()) {
                continue;
            }
            let mut rest = &text[start..];
            // "Available sheets: Data, Summary": the list starts after a colon near.
            if let Some(colon) = rest.char_indices().take(40).find(|(_, c)| *c == ':') {
                rest = &rest[colon.0 + 1..];
            }
            let line = rest.lines().next().unwrap_or("");
            // The list ends where its sentence does: a full stop followed by a space.
            let line = line.split(". ").next().unwrap_or(line);
            for item in line
                .split([',', '|', ';'])
                .flat_map(|part| part.split(" or "))
                .flat_map(|part| part.split(" and "))
            {
                let item = item
                    .trim()
                    .trim_matches(|c: char| "'\"`[](){}?!".contains(c))
                    .trim_end_matches('.');
                let word = !item.is_empty()
                    && item.chars().count() <= 64
                    && !item.contains(char::is_whitespace);
                if word && !out.iter().any(|seen| seen == item) && out.len() < 16 {
                    out.push(item.to_owned());
                }
            }
        }
    }
    out
}

/// The values `text` (a failed call's answer) lists, added to `learned` for each string
/// argument of `schema` (the tool's input schema) the text names, or for its one string
/// argument where it names none.
pub(super) fn learn(text: &str, schema: &Value, learned: &mut Vec<(String, Value)>) {
    let values = wanted(text);
    if values.is_empty() {
        return;
    }
    let strings: Vec<&String> = schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, property)| {
            property.get("type").is_none_or(|kind| {
                kind == "string"
                    || kind
                        .as_array()
                        .is_some_and(|kinds| kinds.contains(&"string".into()))
            })
        })
        .map(|(name, _)| name)
        .collect();
    let lower = text.to_ascii_lowercase();
    let mut named: Vec<&String> = strings
        .iter()
        .copied()
        .filter(|name| {
            let name = name.to_ascii_lowercase();
            names_word(&lower, &name) || names_word(&lower, &name.replace('_', " "))
        })
        .collect();
    if named.is_empty() && strings.len() == 1 {
        named = strings;
    }
    for name in named {
        for value in &values {
            let entry = (name.clone(), Value::from(value.as_str()));
            if !learned.contains(&entry) && learned.len() < MOST {
                learned.push(entry);
            }
        }
    }
}

/// Whether `text` holds `word` as a word of its own: not inside another (`id` in "invalid").
fn names_word(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    !word.is_empty()
        && text.match_indices(word).any(|(at, _)| {
            !text[..at].ends_with(part) && !text[at + word.len()..].starts_with(part)
        })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn the_values_an_answer_lists_are_read_for_the_argument_it_names() {
        assert_eq!(
            super::wanted("Invalid mode 'x': expected one of read, write or append."),
            ["read", "write", "append"]
        );
        assert_eq!(
            super::wanted("Sheet 'u5h' not found. Available sheets: Data, Summary"),
            ["Data", "Summary"]
        );
        assert_eq!(super::wanted("Unknown ref. Did you mean 'main'?"), ["main"]);
        assert!(super::wanted("expected a string").is_empty());
        assert!(super::wanted("Unexpected token, at line 1").is_empty());
        assert!(super::wanted("No time zone found with key q6n1jq1").is_empty());

        let schema = json!({"properties": {"sheet": {"type": "string"}, "cell": {"type": "string"},
            "count": {"type": "integer"}}});
        let mut learned = Vec::new();
        super::learn(
            "Sheet 'u5h' not found. Available sheets: Data",
            &schema,
            &mut learned,
        );
        assert_eq!(learned, [("sheet".to_owned(), json!("Data"))]);
        // Naming no argument, with two to choose from: kept for none.
        let mut none = Vec::new();
        super::learn("expected one of x, y", &schema, &mut none);
        assert!(none.is_empty());
        // A name inside a word is no name: `id` in "Invalid".
        let ids = json!({"properties": {"id": {"type": "string"}, "status": {"type": "string"}}});
        let mut by_word = Vec::new();
        super::learn(
            "Invalid status 'x'. Valid values: open, closed",
            &ids,
            &mut by_word,
        );
        assert!(
            by_word.iter().all(|(name, _)| name == "status"),
            "{by_word:?}"
        );
        assert_eq!(by_word.len(), 2);
        let one = json!({"properties": {"zone": {"type": "string"}}});
        super::learn("expected one of UTC, Europe/Paris", &one, &mut none);
        assert_eq!(none.len(), 2);
    }
}
