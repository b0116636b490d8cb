//! Conformance with the official MCP JSON schemas: the serialized annotations of every
//! combination validate against `ToolAnnotations` of each protocol version.
//!
//! The schemas are read from `../shared/mcp-schema/` beside the repository, or from the folder
//! named by `MCP_SCHEMA_DIR`. Where neither exists the test says loudly that it skipped; under
//! CI (`CI` set) it fails instead, as CI always has the schemas.

use std::io::Write;
use std::path::PathBuf;

use annotations::ToolAnnotations;
use annotations_tests::all_combinations;
use serde_json::{Value, json};

fn schema_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("MCP_SCHEMA_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/mcp-schema"),
        PathBuf::from,
    );
    if dir.is_dir() {
        return Some(dir);
    }
    let message = format!(
        "SKIPPED: MCP schema conformance: no schemas at {} (set MCP_SCHEMA_DIR)",
        dir.display()
    );
    assert!(std::env::var_os("CI").is_none(), "{message}");
    // Straight to the process's stderr: the test harness captures `eprintln!` of passing tests.
    let banner = "!".repeat(78);
    let _ = writeln!(std::io::stderr(), "\n{banner}\n{message}\n{banner}");
    None
}

/// A validator for one definition of one schema file.
fn validator(file: &str, definition: &str) -> Option<jsonschema::Validator> {
    let dir = schema_dir()?;
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let defs_key = if schema.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    let wrapped = json!({
        "$schema": schema["$schema"],
        "$ref": format!("#/{defs_key}/{definition}"),
        defs_key: schema[defs_key],
    });
    Some(jsonschema::validator_for(&wrapped).unwrap())
}

const VERSIONS: [&str; 3] = [
    "tool-schema-2025-06-18.json",
    "tool-schema-2025-11-25.json",
    "tool-schema-2026-07-28.json",
];

#[test]
fn every_combination_is_valid_tool_annotations_in_every_version() {
    for file in VERSIONS {
        let Some(validator) = validator(file, "ToolAnnotations") else {
            return;
        };
        let mut checked = 0;
        for a in all_combinations()
            .into_iter()
            .flat_map(|a| [a.explicit(), a])
        {
            let wire = serde_json::to_value(&a).unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&wire)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{file}: {wire} is invalid: {errors:?}");
            checked += 1;
        }
        assert_eq!(checked, 324);
    }
}

/// The validator is not vacuous: it rejects what our reader rejects.
#[test]
fn the_schema_rejects_what_the_reader_rejects() {
    for file in VERSIONS {
        let Some(validator) = validator(file, "ToolAnnotations") else {
            return;
        };
        for bad in [
            json!({"readOnlyHint": "yes"}),
            json!({"openWorldHint": 1}),
            json!({"title": 5}),
            json!([]),
        ] {
            assert!(!validator.is_valid(&bad), "{file} accepted {bad}");
            assert!(serde_json::from_value::<ToolAnnotations>(bad).is_err());
        }
    }
}
