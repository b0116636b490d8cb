//! The third stage: the code written from the checked model, one file a generated thing. The
//! front ends, each reading its input through `model/`, checking it through `check/`, applying
//! what passed and writing its output: `#[tool]` (`tool`), `tools![...]` (`listing`),
//! `#[derive(Tool)]` (`derive_tool`) and `#[derive(ToolSchema)]` (`derive_schema`, with
//! `derive_schema_struct` and `derive_schema_enum`); the descriptor's inputs go through those
//! steps in `inputs`, the one way all three make inputs. What they write: the annotations
//! literal (`annotations`), the descriptor (`descriptor`, with a type's schema in `schema`), the
//! handler's call (`call`, with `call_params` and `call_types`), the hand-over to rmcp's
//! `#[tool]` (`stack`), the generated names (`names`) and the path to the runtime crate
//! (`krate`). `snapshot` holds a small handler's expansion written out, to read what `call`
//! writes.

pub(crate) mod annotations;
pub(crate) mod call;
pub(crate) mod call_params;
pub(crate) mod call_types;
pub(crate) mod derive_hints;
pub(crate) mod derive_schema;
pub(crate) mod derive_schema_enum;
pub(crate) mod derive_schema_struct;
pub(crate) mod derive_tool;
pub(crate) mod descriptor;
pub(crate) mod inputs;
pub(crate) mod krate;
pub(crate) mod listing;
pub(crate) mod names;
pub(crate) mod resolver;
pub(crate) mod schema;
#[cfg(test)]
mod snapshot;
pub(crate) mod stack;
pub(crate) mod tool;
