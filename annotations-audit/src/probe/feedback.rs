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

/// What a tool's failed calls said it wants: values by the argument they are for.
pub(super) struct Learned {
    /// The tool's string arguments (the properties of its input schema that take a string).
    strings: Vec<String>,
    /// The values learned, each with its argument: what the tool's next cases try first.
    pub(super) values: Vec<(String, Value)>,
}

impl Learned {
    /// Nothing learned yet for the tool whose input schema is `schema`.
    pub(super) fn new(schema: &Value) -> Self {
        let strings = schema["properties"]
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
            .map(|(name, _)| name.clone())
            .collect();
        Learned {
            strings,
            values: Vec::new(),
        }
    }

    /// The values `text` (a failed call's answer) lists, learned for each string argument
    /// the text names, or for the tool's one string argument where it names none.
    pub(super) fn learn(&mut self, text: &str) {
        let values = wanted(text);
        if values.is_empty() {
            return;
        }
        let lower = text.to_ascii_lowercase();
        let named: Vec<&String> = self
            .strings
            .iter()
            .filter(|name| {
                let name = name.to_ascii_lowercase();
                names_word(&lower, &name) || names_word(&lower, &name.replace('_', " "))
            })
            .collect();
        let named = match (named.is_empty(), self.strings.as_slice()) {
            (true, [only]) => vec![only],
            _ => named,
        };
        for name in named {
            for value in &values {
                let entry = (name.clone(), Value::from(value.as_str()));
                if !self.values.contains(&entry) && self.values.len() < MOST {
                    self.values.push(entry);
                }
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
        let mut learned = super::Learned::new(&schema);
        learned.learn("Sheet 'u5h' not found. Available sheets: Data");
        assert_eq!(learned.values, [("sheet".to_owned(), json!("Data"))]);
        // Naming no argument, with two to choose from: kept for none.
        let mut none = super::Learned::new(&schema);
        none.learn("expected one of x, y");
        assert!(none.values.is_empty());
        // A name inside a word is no name: `id` in "Invalid".
        let ids = json!({"properties": {"id": {"type": "string"}, "status": {"type": "string"}}});
        let mut by_word = super::Learned::new(&ids);
        by_word.learn("Invalid status 'x'. Valid values: open, closed");
        assert!(
            by_word.values.iter().all(|(name, _)| name == "status"),
            "{:?}",
            by_word.values
        );
        assert_eq!(by_word.values.len(), 2);
        // Naming none, with one to choose from: kept for it.
        let mut one = super::Learned::new(&json!({"properties": {"zone": {"type": "string"}}}));
        one.learn("expected one of UTC, Europe/Paris");
        assert_eq!(one.values.len(), 2);
    }
}
