//! Fixtures shared by the integration tests in `tests/`.
#![forbid(unsafe_code)]

use mcp_annotations::{Listing, Tool, ToolAnnotations, schema::Schema};

pub mod tools;

/// The three states of a hint: unset, stated `false`, stated `true`.
pub const HINT_STATES: [Option<bool>; 3] = [None, Some(false), Some(true)];

/// Every combination of the four hints (3^4 = 81), without a title.
pub fn all_hint_combinations() -> Vec<ToolAnnotations> {
    let mut all = Vec::with_capacity(81);
    for read_only_hint in HINT_STATES {
        for destructive_hint in HINT_STATES {
            for idempotent_hint in HINT_STATES {
                for open_world_hint in HINT_STATES {
                    all.push(ToolAnnotations {
                        title: None,
                        read_only_hint,
                        destructive_hint,
                        idempotent_hint,
                        open_world_hint,
                    });
                }
            }
        }
    }
    all
}

/// Every combination of the four hints, each once without a title and once with one
/// (3^4 x 2 = 162).
pub fn all_combinations() -> Vec<ToolAnnotations> {
    all_hint_combinations()
        .into_iter()
        .flat_map(|hints| {
            let titled = hints.clone().with_title("Delete \"note\" ✓");
            [hints, titled]
        })
        .collect()
}

/// A listing of `n` tools built at run time, for the benchmarks: `tool_{i}`, titled `Tool {i}`
/// (also in its annotations, read-only and closed-world), described `Look up item {i} {what}`,
/// each with `schema` as its input schema.
pub fn lookup_listing(n: usize, schema: &'static str, what: &str) -> Listing {
    let tools: Vec<Tool> = (0..n)
        .map(|i| {
            Tool::new_owned(format!("tool_{i}"), Schema::Static(schema))
                .with_owned_title(format!("Tool {i}"))
                .with_owned_description(format!("Look up item {i} {what}"))
                .with_annotations(
                    ToolAnnotations::new()
                        .with_owned_title(format!("Tool {i}"))
                        .with_read_only(true)
                        .with_open_world(false),
                )
        })
        .collect();
    Listing::new(Vec::leak(tools))
}

/// The path of the example `name`, built beside the test binary that asks (`cargo test`
/// builds every example first).
///
/// # Panics
///
/// If the example has not been built.
#[must_use]
pub fn example_binary(name: &str) -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe
        .parent()
        .and_then(std::path::Path::parent)
        .expect("the test binary is in target/<profile>/deps");
    let binary = dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "build the example first (cargo test builds it): {}",
        binary.display()
    );
    binary
}

/// Where the vendored MCP schemas are: `tests/schemas/`, or the folder `MCP_SCHEMA_DIR` names.
pub fn schema_dir() -> std::path::PathBuf {
    std::env::var_os("MCP_SCHEMA_DIR").map_or_else(
        || std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/schemas"),
        std::path::PathBuf::from,
    )
}

/// A schema document for one definition of a schema file under [`schema_dir`] (`file` such as
/// `full/schema-2025-11-25.json`): a `$ref` to it beside the file's definitions, for a JSON
/// Schema validator.
pub fn schema_definition(file: &str, definition: &str) -> serde_json::Value {
    let path = schema_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let defs_key = if schema.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    assert!(
        schema[defs_key].get(definition).is_some(),
        "{definition} is not in {}",
        path.display()
    );
    serde_json::json!({
        "$schema": schema["$schema"],
        "$ref": format!("#/{defs_key}/{definition}"),
        defs_key: schema[defs_key],
    })
}
