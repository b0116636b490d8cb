//! The features are described once, by the `##` comments of `annotations/Cargo.toml`: the
//! crate documentation's table (`annotations/docs/features.md`) and the README's are written
//! from them, and this test holds both to them.

use std::path::Path;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The feature table as `Cargo.toml`'s `##` comments state it.
fn table_from_manifest() -> String {
    let manifest = read("annotations/Cargo.toml");
    let start = manifest.find("[features]").unwrap();
    let end = start + manifest[start..].find("\n[dependencies]").unwrap();
    let block = &manifest[start..end];
    let defaults: Vec<String> = block
        .lines()
        .find_map(|line| line.strip_prefix("default = "))
        .unwrap()
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    let mut table = String::from("| feature | what it adds |\n|---|---|\n");
    let mut doc: Vec<&str> = Vec::new();
    let mut features = 0;
    for line in block.lines() {
        if let Some(text) = line.strip_prefix("## ") {
            doc.push(text);
        } else if let Some((name, _)) = line.split_once(" = [") {
            if name == "default" {
                continue;
            }
            assert!(!doc.is_empty(), "the feature `{name}` has no `##` comment");
            let default = if defaults.iter().any(|d| d == name) {
                " (default)"
            } else {
                ""
            };
            let text = doc.join(" ").replace('|', "\\|");
            table.push_str(&format!("| `{name}`{default} | {text} |\n"));
            doc.clear();
            features += 1;
        }
    }
    assert!(features >= 4, "the features were read: {table}");
    table
}

#[test]
fn the_crate_docs_and_the_readme_describe_the_features_as_the_manifest_does() {
    let table = table_from_manifest();
    assert_eq!(
        read("annotations/docs/features.md"),
        table,
        "annotations/docs/features.md (included by lib.rs) is not Cargo.toml's feature list"
    );
    assert!(
        read("README.md").contains(&table),
        "the README's feature table is not Cargo.toml's feature list:\n{table}"
    );
}

#[test]
fn the_readme_is_a_front_page() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "the README has {lines} lines; the tours belong in the crate docs"
    );
    // Its first commands are the two that do all the set-up on a fresh clone.
    let first_block = readme.split("```sh\n").nth(1).unwrap();
    assert!(
        first_block.starts_with("cargo run -p notes -- --list"),
        "{first_block}"
    );
    assert!(
        first_block.contains("cargo test --workspace"),
        "{first_block}"
    );
    assert!(readme.contains("cargo add mcp-annotations"));
    assert!(readme.contains("cargo install mcp-annotations-audit"));
}

/// What crates.io refuses at upload, which `cargo publish --dry-run` does not check: at most 5
/// keywords, each at most 20 characters of ASCII letters, digits, `-` and `_`, starting with a
/// letter; and every published package says what it is and under which licence.
#[test]
fn every_published_manifest_is_one_crates_io_takes() {
    for package in [
        "annotations",
        "annotations-derive",
        "annotations-rules",
        "annotations-verify",
        "annotations-audit",
    ] {
        let manifest = read(&format!("{package}/Cargo.toml"));
        let field = |name: &str| {
            manifest
                .lines()
                .find_map(|line| line.strip_prefix(&format!("{name} = ")))
                .map(str::to_owned)
        };
        assert!(field("description").is_some(), "{package}: no description");
        assert!(
            field("license.workspace").is_some() || field("license").is_some(),
            "{package}: no licence"
        );
        let keywords = field("keywords").unwrap_or_else(|| panic!("{package}: no keywords"));
        let keywords: Vec<&str> = keywords
            .trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .map(|keyword| keyword.trim().trim_matches('"'))
            .collect();
        assert!(keywords.len() <= 5, "{package}: {keywords:?}");
        for keyword in keywords {
            assert!(
                keyword.len() <= 20
                    && keyword.starts_with(|c: char| c.is_ascii_alphabetic())
                    && keyword
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
                "{package}: crates.io refuses the keyword {keyword:?}"
            );
        }
    }
}
