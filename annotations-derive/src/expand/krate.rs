//! Where the runtime crate is, as generated code names it: `::mcp_annotations` (or the key of a
//! renamed dependency, read from the package's manifest), or the path given with `crate = path`.
//!
//! Generated code names the runtime crate in many places. With the default path that is
//! harmless; a path given by the user is named once instead, so that a wrong one is one error
//! at it: everything generated goes into `path::__annotations_with_crate! { ... }`, a
//! `macro_rules!` macro of the runtime crate that hands the tokens back to
//! [`resolve`] together with its own `$crate`, which then stands wherever the crate is named.

use proc_macro2::{Group, Ident, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};

use crate::leaf::manifest;

/// The identifier generated code uses for a given crate path until [`resolve`] replaces it.
const PLACEHOLDER: &str = "__annotations_crate";

/// The runtime crate's path, as generated code names it.
pub(crate) struct Krate {
    given: Option<TokenStream>,
    /// Without `crate = path`: the name the package knows the runtime by.
    name: Option<Ident>,
}

impl Krate {
    /// The default (`::mcp_annotations`, or the renamed dependency's key), or the path from
    /// `crate = path`.
    pub(crate) fn new(given: Option<TokenStream>) -> Self {
        let name = given
            .is_none()
            .then(|| Ident::new(&manifest::runtime_name(), Span::call_site()));
        Krate { given, name }
    }

    /// What generated code writes before `::Item`.
    pub(crate) fn path(&self) -> TokenStream {
        match &self.given {
            None => {
                let name = &self.name;
                quote!(::#name)
            }
            Some(_) => {
                let placeholder = Ident::new(PLACEHOLDER, Span::call_site());
                quote!(#placeholder)
            }
        }
    }

    /// The generated code as it is emitted: unchanged for the default path; else one macro
    /// call through the given path, which is then its only mention.
    pub(crate) fn wrap(&self, generated: TokenStream) -> TokenStream {
        match &self.given {
            None => generated,
            Some(path) => {
                let span = path
                    .clone()
                    .into_iter()
                    .last()
                    .map_or_else(Span::call_site, |token| token.span());
                quote_spanned!(span=> #path::__annotations_with_crate! { #generated })
            }
        }
    }
}

/// `$crate; tokens` -> the tokens with the placeholder replaced by `$crate`.
pub(crate) fn resolve(input: TokenStream) -> TokenStream {
    let mut tokens = input.into_iter();
    let Some(krate) = tokens.next() else {
        return TokenStream::new();
    };
    let _semicolon = tokens.next();
    replace(tokens.collect(), &krate)
}

fn replace(tokens: TokenStream, krate: &TokenTree) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Ident(ident) if ident == PLACEHOLDER => krate.clone(),
            TokenTree::Group(group) => {
                let mut new = Group::new(group.delimiter(), replace(group.stream(), krate));
                new.set_span(group.span());
                TokenTree::Group(new)
            }
            other => other,
        })
        .collect()
}
