//! What the macros write while compiling: `#[tool]` on every shape of handler and the constants
//! it generates, descriptors and their schemas, `#[schema(...)]`, `#[derive(Tool)]`,
//! `#[derive(ToolSchema)]`, schemars types, the rules both crates state held equal (`rules`), and
//! the compile errors of every mistake (`ui`).
//!
//! One test binary of several modules, so that tokio, rmcp and the JSON Schema validator are
//! linked once for all of them.

pub mod constant_names;
pub mod derive;
pub mod descriptor_fields;
pub mod descriptors;
pub mod draft07_definitions;
pub mod review_findings;
pub mod rules;
pub mod schema_agreement;
pub mod schema_attrs;
pub mod schema_call_agree;
pub mod schemars_types;
pub mod tool_pass;
pub mod tool_schema_derive;
pub mod tool_schema_serde;
pub mod ui;
