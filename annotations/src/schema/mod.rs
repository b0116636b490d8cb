//! A tool's input and output schemas: [`Schema`], the schema of a parameter's type
//! ([`ToolSchema`], with `#[derive(ToolSchema)]`), and the errors of a schema that
//! cannot be true.
//!
#![doc = include_str!("../../docs/schema.md")]

// The floor's files: the `document` a descriptor carries and the trait that writes one, the
// `builder` of the schemas known only at run time with its `defs` (where definitions go) and
// `variants` (enums with data), and the `constraints` a call checks beyond a value's type.
pub(crate) mod builder;
pub(crate) mod constraints;
pub(crate) mod defs;
pub(crate) mod document;
pub(crate) mod variants;

pub use self::document::{Schema, SchemaError, ToolSchema};
