//! The `#[tool]` attribute of the [`annotations`](https://docs.rs/annotations) crate, which
//! re-exports it: depend on `annotations`, not on this crate.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod ast;
mod attr;
mod errors;
mod expand;
mod http;
mod valid;

use proc_macro::TokenStream;

/// DOC_PLACEHOLDER
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand_tool(attr.into(), item.into()).into()
}
