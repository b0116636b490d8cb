//! The `#[tool]` attribute of the [`mcp-annotations`](https://docs.rs/mcp-annotations) crate, which
//! re-exports it: depend on `mcp-annotations`, not on this crate.
//!
//! Each macro goes through the same stages, one folder each: `model/` reads the input and its
//! attributes, `check/` applies the rules across keys and against types, `expand/` writes the
//! output; `leaf/` holds what every stage uses and imports nothing of the crate.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod check;
mod expand;
mod leaf;
mod model;

use proc_macro::TokenStream;

#[doc = include_str!("../docs/tool.md")]
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool::expand_tool(attr.into(), item.into()).into()
}

#[doc = include_str!("../docs/tools.md")]
#[proc_macro]
pub fn tools(input: TokenStream) -> TokenStream {
    expand::listing::expand_tools(input.into()).into()
}

#[doc = include_str!("../docs/derive_tool.md")]
#[proc_macro_derive(Tool, attributes(tool, schema))]
pub fn derive_tool(input: TokenStream) -> TokenStream {
    expand::derive_tool::expand_derive(input.into()).into()
}

#[doc = include_str!("../docs/derive_tool_schema.md")]
#[proc_macro_derive(ToolSchema, attributes(schema, serde, hints))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    expand::derive_schema::expand(input.into()).into()
}

/// Not public API: the second half of `crate = path` (see `expand/krate.rs`). The runtime
/// crate's `__annotations_with_crate!` calls it with its own `$crate` first.
#[doc(hidden)]
#[proc_macro]
pub fn __with_crate(input: TokenStream) -> TokenStream {
    expand::krate::resolve(input.into()).into()
}
