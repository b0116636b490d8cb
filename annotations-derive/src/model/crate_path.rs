//! `crate = path`: where the runtime crate is, for a renamed dependency, read the same way in
//! `#[tool(crate = ...)]` and `tools![crate = ...; ...]`: a path, or a path in a string as
//! serde accepts it.

use proc_macro2::{TokenStream, TokenTree};
use syn::{Error, Lit};

use crate::leaf::tokens::{respan, single_token};

/// `crate = path` or `crate = "path"`, as serde accepts both.
pub(crate) fn crate_path(tokens: TokenStream) -> Result<TokenStream, Error> {
    let expected = "expected a path to the `mcp-annotations` crate, such as `my_annotations` or \
                    `crate::reexports::annotations`";
    if let Some(TokenTree::Literal(literal)) = single_token(&tokens)
        && let Lit::Str(string) = Lit::new(literal)
    {
        let parsed: TokenStream = string
            .value()
            .parse()
            .map_err(|_| Error::new(string.span(), expected))?;
        if !is_path(&parsed) {
            return Err(Error::new(string.span(), expected));
        }
        return Ok(respan(parsed, string.span()));
    }
    if !is_path(&tokens) {
        return Err(Error::new_spanned(tokens, expected));
    }
    Ok(tokens)
}

/// Whether the tokens are a simple path: `a`, `::a::b`, `crate::a`.
pub(crate) fn is_path(tokens: &TokenStream) -> bool {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let mut i = 0;
    let separator = |i: usize| matches!((tokens.get(i), tokens.get(i + 1)), (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':');
    if separator(0) {
        i = 2;
    }
    loop {
        if !matches!(tokens.get(i), Some(TokenTree::Ident(_))) {
            return false;
        }
        i += 1;
        if i == tokens.len() {
            return true;
        }
        if !separator(i) {
            return false;
        }
        i += 2;
    }
}
