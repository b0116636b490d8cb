//! The attributes in front of an item, a field or a parameter: doc comments read as lines,
//! `#[schema(...)]` told apart, the others kept whole; and the visibility after them.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};

use crate::leaf::tokens::{group, ident, punct};

/// One item's or field's leading attributes: its doc lines, its other attributes (each
/// `#[...]`'s bracket group), and where the item itself starts.
pub(crate) fn attributes(tokens: &[TokenTree]) -> (Vec<String>, Vec<Group>, usize) {
    let mut docs = Vec::new();
    let mut attrs = Vec::new();
    let mut i = 0;
    while punct(tokens.get(i), '#') {
        if let Some(TokenTree::Group(attr)) = tokens.get(i + 1) {
            match doc_lines(attr) {
                Some(lines) => docs.extend(lines),
                None => attrs.push(attr.clone()),
            }
        }
        i += 2;
    }
    (docs, attrs, i)
}

/// The lines of a `doc = "..."` attribute, or `None` for any other attribute. A doc attribute
/// whose value is not a literal (`doc = include_str!(...)`) has no lines the macro can read.
pub(crate) fn doc_lines(attr: &Group) -> Option<Vec<String>> {
    let tokens: Vec<TokenTree> = attr.stream().into_iter().collect();
    match tokens.as_slice() {
        [TokenTree::Ident(doc), TokenTree::Punct(eq), value]
            if doc == "doc" && eq.as_char() == '=' =>
        {
            let literal = match value {
                TokenTree::Literal(literal) => literal.clone(),
                TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                    match g.stream().into_iter().next() {
                        Some(TokenTree::Literal(literal)) => literal,
                        _ => return Some(Vec::new()),
                    }
                }
                _ => return Some(Vec::new()),
            };
            match syn::Lit::new(literal) {
                // `split`, not `lines`: an empty `///` line is a line (`"".lines()` yields none).
                syn::Lit::Str(text) => Some(
                    text.value()
                        .split('\n')
                        .map(|line| line.strip_suffix('\r').unwrap_or(line).to_owned())
                        .collect(),
                ),
                _ => Some(Vec::new()),
            }
        }
        _ => None,
    }
}

/// What `#[schema(...)]` holds, if the attribute is one.
pub(crate) fn schema_args(attr: &Group) -> Option<TokenStream> {
    let mut tokens = attr.stream().into_iter();
    match (tokens.next(), tokens.next(), tokens.next()) {
        (Some(TokenTree::Ident(word)), Some(TokenTree::Group(args)), None)
            if word == "schema" && args.delimiter() == Delimiter::Parenthesis =>
        {
            Some(args.stream())
        }
        _ => None,
    }
}

/// The index after a visibility (`pub`, `pub(crate)`, ...) at `i`, or `i` if there is none.
pub(crate) fn skip_visibility(tokens: &[TokenTree], i: usize) -> usize {
    if !ident(tokens.get(i), "pub") {
        return i;
    }
    if group(tokens.get(i + 1), Delimiter::Parenthesis) {
        i + 2
    } else {
        i + 1
    }
}

/// One item's or field's leading attributes: doc lines, the other attributes' bracket
/// contents, and where the item itself starts.
pub(crate) fn attribute_streams(tokens: &[TokenTree]) -> (Vec<String>, Vec<TokenStream>, usize) {
    let (docs, attrs, i) = attributes(tokens);
    (docs, attrs.iter().map(Group::stream).collect(), i)
}
