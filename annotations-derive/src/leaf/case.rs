//! `#[tool(rename_all = "...")]`: a parameter's name (snake case, as Rust writes it) in one of
//! serde's case conventions, spelled as serde spells them. A leaf: imports nothing of the crate.

/// serde's case names, in its order.
pub(crate) const CASES: [&str; 8] = [
    "lowercase",
    "UPPERCASE",
    "PascalCase",
    "camelCase",
    "snake_case",
    "SCREAMING_SNAKE_CASE",
    "kebab-case",
    "SCREAMING-KEBAB-CASE",
];

/// One of serde's cases, read once from its name (`Case::parse`) where the attribute is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Case {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl Case {
    /// The case named `name`, one of [`CASES`].
    pub(crate) fn parse(name: &str) -> Option<Case> {
        const ALL: [Case; 8] = [
            Case::Lower,
            Case::Upper,
            Case::Pascal,
            Case::Camel,
            Case::Snake,
            Case::ScreamingSnake,
            Case::Kebab,
            Case::ScreamingKebab,
        ];
        CASES
            .iter()
            .position(|case| *case == name)
            .map(|index| ALL[index])
    }

    /// `name` (snake case, as Rust writes a field or parameter) in this case, as serde
    /// renames fields.
    pub(crate) fn rename(self, name: &str) -> String {
        let words = name.split('_');
        match self {
            // serde: a snake-case field is lower case already.
            Case::Lower | Case::Snake => name.to_owned(),
            Case::Upper | Case::ScreamingSnake => name.to_ascii_uppercase(),
            Case::Pascal => words.map(capitalize).collect(),
            Case::Camel => {
                let pascal: String = words.map(capitalize).collect();
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => pascal,
                }
            }
            Case::Kebab => name.replace('_', "-"),
            Case::ScreamingKebab => name.replace('_', "-").to_ascii_uppercase(),
        }
    }

    /// A variant's name (Pascal case, as Rust writes it) in this case, as serde renames
    /// variants.
    pub(crate) fn rename_variant(self, name: &str) -> String {
        let snake = || {
            let mut snake = String::new();
            for (i, c) in name.char_indices() {
                if c.is_uppercase() && i > 0 {
                    snake.push('_');
                }
                snake.push(c.to_ascii_lowercase());
            }
            snake
        };
        match self {
            Case::Lower => name.to_ascii_lowercase(),
            Case::Upper => name.to_ascii_uppercase(),
            Case::Pascal => name.to_owned(),
            Case::Camel => {
                let mut chars = name.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            Case::Snake => snake(),
            Case::ScreamingSnake => snake().to_ascii_uppercase(),
            Case::Kebab => snake().replace('_', "-"),
            Case::ScreamingKebab => snake().replace('_', "-").to_ascii_uppercase(),
        }
    }
}

/// A word with its first letter in upper case, as serde's derive writes it: ASCII only
/// (`to_ascii_uppercase`), so `über` stays `über`.
fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use crate::leaf::case::{CASES, Case};

    fn rename(name: &str, case: &str) -> String {
        Case::parse(case).unwrap().rename(name)
    }

    fn rename_variant(name: &str, case: &str) -> String {
        Case::parse(case).unwrap().rename_variant(name)
    }

    #[test]
    fn every_name_is_a_case() {
        for name in CASES {
            assert!(Case::parse(name).is_some(), "{name}");
        }
        assert_eq!(Case::parse("camelcase"), None);
    }

    #[test]
    fn every_case_as_serde_writes_it() {
        // As serde renames a field `dry_run`.
        let cases = [
            ("lowercase", "dry_run"),
            ("UPPERCASE", "DRY_RUN"),
            ("PascalCase", "DryRun"),
            ("camelCase", "dryRun"),
            ("snake_case", "dry_run"),
            ("SCREAMING_SNAKE_CASE", "DRY_RUN"),
            ("kebab-case", "dry-run"),
            ("SCREAMING-KEBAB-CASE", "DRY-RUN"),
        ];
        for (case, expected) in cases {
            assert_eq!(rename("dry_run", case), expected, "{case}");
        }
        assert_eq!(rename("path", "camelCase"), "path");
        for (case, expected) in [
            ("lowercase", "dryrun"),
            ("UPPERCASE", "DRYRUN"),
            ("PascalCase", "DryRun"),
            ("camelCase", "dryRun"),
            ("snake_case", "dry_run"),
            ("SCREAMING_SNAKE_CASE", "DRY_RUN"),
            ("kebab-case", "dry-run"),
            ("SCREAMING-KEBAB-CASE", "DRY-RUN"),
        ] {
            assert_eq!(rename_variant("DryRun", case), expected, "{case}");
        }
        // serde's own corner cases: only the first letter changes for camelCase, and only
        // ASCII letters change case.
        assert_eq!(rename_variant("A_B", "camelCase"), "a_B");
        assert_eq!(rename_variant("Éclair", "lowercase"), "Éclair");
        assert_eq!(rename("max_depth_2", "camelCase"), "maxDepth2");
        // serde upper-cases the first letter of a word with `to_ascii_uppercase`: a
        // non-ASCII letter keeps its case.
        assert_eq!(rename("x_über", "camelCase"), "xüber");
        assert_eq!(rename("x_über_y", "PascalCase"), "XüberY");
        assert_eq!(rename("é_a", "PascalCase"), "éA");
        assert_eq!(rename("x_ñ", "SCREAMING_SNAKE_CASE"), "X_ñ");
    }
}
