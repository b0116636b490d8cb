//! The handler function `#[tool]` is put on, read only as far as the macro needs: its
//! visibility, its name, its body, and where it takes `&mut`.
//!
//! A scan of the item's tokens, not a syn syntax tree: the function is emitted unchanged, so
//! nothing else of it is needed, and parsing whole signatures would cost every expansion.

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use syn::Error;

pub(crate) struct Handler {
    pub(crate) tokens: Vec<TokenTree>,
    /// `pub`, `pub(crate)`, ... or nothing.
    pub(crate) vis: TokenStream,
    pub(crate) name: Ident,
    /// Every `&mut` (or `&'a mut`) in the parameters, receiver included.
    pub(crate) exclusive_borrows: Vec<TokenStream>,
}

impl Handler {
    pub(crate) fn parse(item: TokenStream) -> Result<Self, Error> {
        let tokens: Vec<TokenTree> = item.into_iter().collect();
        let mut i = 0;

        // Outer attributes: `#[...]`.
        while punct(tokens.get(i), '#') && group(tokens.get(i + 1), Delimiter::Bracket) {
            i += 2;
        }

        let mut vis = TokenStream::new();
        if ident(tokens.get(i), "pub") {
            vis.extend([tokens[i].clone()]);
            i += 1;
            if group(tokens.get(i), Delimiter::Parenthesis) {
                vis.extend([tokens[i].clone()]);
                i += 1;
            }
        }

        // Qualifiers, up to `fn`.
        loop {
            match tokens.get(i) {
                Some(TokenTree::Ident(word)) if word == "fn" => break,
                Some(TokenTree::Ident(word)) if word == "const" => {
                    let next = tokens.get(i + 1);
                    if !["fn", "async", "unsafe", "extern", "safe"]
                        .iter()
                        .any(|q| ident(next, q))
                    {
                        return Err(not_a_function(&tokens[i], "a constant"));
                    }
                    i += 1;
                }
                Some(TokenTree::Ident(word))
                    if ["async", "unsafe", "safe", "default"]
                        .iter()
                        .any(|q| word == q) =>
                {
                    i += 1;
                }
                Some(TokenTree::Ident(word)) if word == "extern" => {
                    i += 1;
                    if matches!(tokens.get(i), Some(TokenTree::Literal(_))) {
                        i += 1;
                    }
                }
                Some(other) => return Err(not_a_function(other, &describe_item(other))),
                None => {
                    return Err(Error::new(
                        Span::call_site(),
                        "#[tool] goes on a handler function, such as `fn list_notes() { ... }`",
                    ));
                }
            }
        }
        let fn_token = &tokens[i];
        let Some(TokenTree::Ident(name)) = tokens.get(i + 1) else {
            return Err(Error::new_spanned(
                fn_token,
                "expected the function's name after `fn`",
            ));
        };

        match tokens.last() {
            Some(TokenTree::Group(body)) if body.delimiter() == Delimiter::Brace => {}
            // A trait method without a default body: there is no handler to annotate.
            last => {
                return Err(Error::new_spanned(
                    last.unwrap_or(fn_token),
                    format!(
                        "#[tool] goes on a function with a body; `{name}` has none (a trait \
                         method declaration is not a handler: put #[tool] on the method in an \
                         inherent impl)"
                    ),
                ));
            }
        }

        let mut exclusive_borrows = Vec::new();
        if let Some(params) = parameters(&tokens[i + 2..]) {
            find_exclusive_borrows(params.stream(), &mut exclusive_borrows);
        }

        Ok(Handler {
            vis,
            name: name.clone(),
            exclusive_borrows,
            tokens,
        })
    }
}

/// The parenthesized parameter list: the first `( ... )` after the name that is not inside the
/// generic parameters (`<F: Fn(u8) -> u8>` holds parentheses and a `>` of its own).
fn parameters(after_name: &[TokenTree]) -> Option<&Group> {
    let mut depth = 0usize;
    let mut previous_was_dash = false;
    for token in after_name {
        match token {
            TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
            TokenTree::Punct(p) if p.as_char() == '>' && !previous_was_dash => {
                depth = depth.saturating_sub(1);
            }
            TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis && depth == 0 => {
                return Some(g);
            }
            _ => {}
        }
        previous_was_dash = matches!(token, TokenTree::Punct(p) if p.as_char() == '-');
    }
    None
}

fn find_exclusive_borrows(stream: TokenStream, found: &mut Vec<TokenStream>) {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    for (i, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Group(inner) => find_exclusive_borrows(inner.stream(), found),
            TokenTree::Punct(amp) if amp.as_char() == '&' => {
                // `&mut` or `&'a mut`
                let mut j = i + 1;
                if punct(tokens.get(j), '\'') {
                    j += 2;
                }
                if ident(tokens.get(j), "mut") {
                    found.push(tokens[i..=j].iter().cloned().collect());
                }
            }
            _ => {}
        }
    }
}

fn not_a_function(token: &TokenTree, what: &str) -> Error {
    Error::new_spanned(
        token,
        format!(
            "#[tool] goes on a handler function, not on {what}; put it on a `fn` with a body, \
             free or in an inherent impl block"
        ),
    )
}

fn describe_item(token: &TokenTree) -> String {
    let TokenTree::Ident(word) = token else {
        return "this item".to_owned();
    };
    match word.to_string().as_str() {
        "struct" => "a struct",
        "enum" => "an enum",
        "union" => "a union",
        "static" => "a static",
        "impl" => "an impl block",
        "trait" => "a trait",
        "mod" => "a module",
        "type" => "a type alias",
        "use" => "a use declaration",
        "macro_rules" => "a macro",
        _ => "this item",
    }
    .to_owned()
}

fn punct(token: Option<&TokenTree>, ch: char) -> bool {
    matches!(token, Some(TokenTree::Punct(p)) if p.as_char() == ch)
}

fn ident(token: Option<&TokenTree>, word: &str) -> bool {
    matches!(token, Some(TokenTree::Ident(i)) if i == word)
}

fn group(token: Option<&TokenTree>, delimiter: Delimiter) -> bool {
    matches!(token, Some(TokenTree::Group(g)) if g.delimiter() == delimiter)
}
