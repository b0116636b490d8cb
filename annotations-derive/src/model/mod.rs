//! The first stage: the input read into a model. The item a macro is on (a handler function
//! in `handler` and `params`, a derive's struct or enum body in `body`, the attributes in
//! front of either in `attrs`), and one reader per attribute, all on the one key-entry reader
//! of `entry`: `#[tool(...)]` (`tool_attr`, with `hint_value`, `http`, `icons`, `meta` and
//! `crate_path`), `#[schema(...)]` (`schema_attr`) and serde's (`serde_attr`). Then what the
//! later stages work on: a type's JSON Schema (`schema`) and the tool's descriptor
//! (`descriptor`). Nothing here imports the checks or the code generation.

pub(crate) mod attrs;
pub(crate) mod body;
pub(crate) mod crate_path;
pub(crate) mod descriptor;
pub(crate) mod entry;
pub(crate) mod grouping;
pub(crate) mod handler;
pub(crate) mod hint_value;
pub(crate) mod http;
pub(crate) mod icons;
pub(crate) mod meta;
pub(crate) mod params;
pub(crate) mod schema;
pub(crate) mod schema_attr;
pub(crate) mod serde_attr;
pub(crate) mod tool_attr;
pub(crate) mod variant_hints;
