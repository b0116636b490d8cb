//! Conformance with the official MCP JSON schemas: annotations, tool descriptors and
//! `tools/list` results validate against the definitions of each protocol version.
//!
//! The schemas are vendored in `tests/schemas/` (see its README for their source and
//! licence); `MCP_SCHEMA_DIR` names another folder holding the same files.

use annotations_tests::all_combinations;
use annotations_tests::tools::ALL;
use mcp_annotations::{
    ProtocolVersion, ToolAnnotations, listing::AnnotationsForm, listing::ListOptions,
};
use serde_json::{Value, json};

/// A validator for one definition of one schema file.
fn validator(file: &str, definition: &str) -> jsonschema::Validator {
    jsonschema::validator_for(&annotations_tests::schema_definition(file, definition)).unwrap()
}

const VERSIONS: [&str; 3] = [
    "tool-schema-2025-06-18.json",
    "tool-schema-2025-11-25.json",
    "tool-schema-2026-07-28.json",
];

fn file_of(version: ProtocolVersion) -> String {
    format!("tool-schema-{version}.json")
}

fn assert_valid(validator: &jsonschema::Validator, what: &str, value: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{what}: {value} is invalid: {errors:?}");
}

#[test]
fn every_combination_is_valid_tool_annotations_in_every_version() {
    for file in VERSIONS {
        let validator = validator(file, "ToolAnnotations");
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
        let validator = validator(file, "ToolAnnotations");
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

#[test]
fn every_descriptor_is_a_valid_tool_in_every_version() {
    // serde writes the newest version's form (any output schema)...
    let newest = validator(&file_of(ProtocolVersion::LATEST), "Tool");
    for tool in ALL.tools() {
        assert_valid(&newest, "serde", &serde_json::to_value(tool).unwrap());
    }
    // ...and a listing writes each version's own (an object output schema before 2026-07-28).
    for version in ProtocolVersion::ALL {
        let validator = validator(&file_of(version), "Tool");
        let listed: Value =
            serde_json::from_str(&ALL.render(&ListOptions::new(version), None).unwrap()).unwrap();
        for tool in listed["tools"].as_array().unwrap() {
            assert_valid(&validator, version.as_str(), tool);
        }
        assert_eq!(listed["tools"].as_array().unwrap().len(), ALL.tools().len());
    }
}

#[test]
fn every_rendered_result_is_a_valid_list_tools_result_of_its_version() {
    for version in ProtocolVersion::ALL {
        let validator = validator(&file_of(version), "ListToolsResult");
        for form in [AnnotationsForm::Minimal, AnnotationsForm::Explicit] {
            for page_size in [0, 1, 3] {
                let options = ListOptions::new(version)
                    .with_annotations(form)
                    .with_page_size(page_size);
                let mut cursor: Option<String> = None;
                loop {
                    let text = ALL.render(&options, cursor.as_deref()).unwrap();
                    let result: Value = serde_json::from_str(&text).unwrap();
                    assert_valid(&validator, version.as_str(), &result);
                    cursor = result["nextCursor"].as_str().map(str::to_owned);
                    if cursor.is_none() {
                        break;
                    }
                }
            }
        }
    }
}

/// The validator is not vacuous for results: 2026-07-28 requires its cache fields, and every
/// version requires a tool's `inputSchema`.
#[test]
fn the_schema_rejects_incomplete_results() {
    let newest = validator(&file_of(ProtocolVersion::V2026_07_28), "ListToolsResult");
    let older = ListOptions::new(ProtocolVersion::V2025_11_25);
    let result: Value = serde_json::from_str(&ALL.render(&older, None).unwrap()).unwrap();
    assert!(
        !newest.is_valid(&result),
        "2026-07-28 needs resultType, ttlMs and cacheScope"
    );
    for file in VERSIONS {
        let tool = validator(file, "Tool");
        assert!(!tool.is_valid(&json!({"name": "x"})), "{file}");
        assert!(
            !tool.is_valid(&json!({"name": "x", "inputSchema": {"type": "string"}})),
            "{file}"
        );
    }
}
