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

/// `name` (snake case) in `case`, one of [`CASES`]; unchanged for any other.
pub(crate) fn rename(name: &str, case: &str) -> String {
    let words = name.split('_');
    match case {
        "lowercase" => name.replace('_', "").to_lowercase(),
        "UPPERCASE" => name.replace('_', "").to_uppercase(),
        "PascalCase" => words.map(capitalize).collect(),
        "camelCase" => {
            let pascal: String = words.map(capitalize).collect();
            let mut chars = pascal.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => pascal,
            }
        }
        "SCREAMING_SNAKE_CASE" => name.to_uppercase(),
        "kebab-case" => name.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => name.replace('_', "-").to_uppercase(),
        _ => name.to_owned(),
    }
}

/// A variant's name (Pascal case, as Rust writes it) in `case`, as serde renames variants.
pub(crate) fn rename_variant(name: &str, case: &str) -> String {
    if case == "PascalCase" {
        return name.to_owned();
    }
    if case == "lowercase" {
        return name.to_lowercase();
    }
    if case == "UPPERCASE" {
        return name.to_uppercase();
    }
    let mut snake = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            snake.push('_');
        }
        snake.extend(c.to_lowercase());
    }
    rename(&snake, case)
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::rename;

    #[test]
    fn every_case_as_serde_writes_it() {
        let cases = [
            ("lowercase", "dryrun"),
            ("UPPERCASE", "DRYRUN"),
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
            assert_eq!(super::rename_variant("DryRun", case), expected, "{case}");
        }
        assert_eq!(rename("max_depth_2", "camelCase"), "maxDepth2");
    }
}
