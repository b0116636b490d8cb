//! A handler's parameters, read from its parameter list: each one's name, type, doc comment,
//! `#[context]`, `#[cfg]` and `#[schema(...)]`, how the handler takes `self`, and every `&mut`
//! it takes.

use proc_macro2::{Delimiter, Group, Ident, TokenStream, TokenTree};

use crate::leaf::tokens::{group, ident, punct, split_top_level};
use crate::model::attrs::{doc_lines, schema_args};

/// How a handler takes `self`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Receiver {
    None,
    /// `&self`, `&'a self`, `self: &Self`.
    Shared,
    /// `&mut self`, `self: &mut Self`.
    Exclusive,
    /// `self`, `mut self`, `self: Box<Self>`, ...
    Owned,
}

/// One parameter of the handler (not the receiver).
pub(crate) struct Param {
    /// The name, if the pattern is a plain identifier (`x`, `mut x`).
    pub(crate) name: Option<Ident>,
    /// The pattern's tokens, to point at when it has no plain name.
    pub(crate) pattern: TokenStream,
    /// The type's tokens.
    pub(crate) ty: TokenStream,
    /// The lines of its doc comment.
    pub(crate) docs: Vec<String>,
    /// `#[context]`: supplied by the server, not the model.
    pub(crate) context: bool,
    /// Its `#[cfg(...)]` attributes, whole.
    pub(crate) cfgs: Vec<TokenStream>,
    /// What its `#[schema(...)]` attributes hold, one stream each (read in `model/schema_attr.rs`).
    pub(crate) schema: Vec<TokenStream>,
    /// A `#[derive(Tool)]` field's name as serde reads it, when its `#[serde]` says another.
    pub(crate) serde_name: Option<String>,
    /// A `#[derive(Tool)]` field serde may do without (`#[serde(default)]`).
    pub(crate) serde_default: bool,
    /// Whether it is a `#[derive(Tool)]` field (serde names it and fills it in).
    pub(crate) field: bool,
}

/// Reads the parameters, and returns them with the stream to emit in their place: the same
/// tokens without parameter doc comments and `#[context]` (which rustc would reject).
pub(crate) fn read_params(
    stream: TokenStream,
    exclusive_borrows: &mut Vec<TokenStream>,
) -> (Vec<Param>, TokenStream, Option<Receiver>) {
    let mut params = Vec::new();
    let mut receiver = None;
    let mut emitted = TokenStream::new();
    for (piece, comma) in split_top_level(stream) {
        let mut i = 0;
        let mut docs = Vec::new();
        let mut context = false;
        let mut cfgs = Vec::new();
        let mut schema = Vec::new();
        while punct(piece.get(i), '#') && group(piece.get(i + 1), Delimiter::Bracket) {
            let TokenTree::Group(attr) = &piece[i + 1] else {
                unreachable!()
            };
            if let Some(lines) = doc_lines(attr) {
                docs.extend(lines);
            } else if is_word(attr, "context") {
                context = true;
            } else if let Some(inner) = schema_args(attr) {
                schema.push(inner);
            } else {
                if matches!(attr.stream().into_iter().next(), Some(TokenTree::Ident(word)) if word == "cfg")
                {
                    cfgs.push(piece[i..i + 2].iter().cloned().collect());
                }
                emitted.extend(piece[i..i + 2].iter().cloned());
            }
            i += 2;
        }
        let rest = &piece[i..];
        emitted.extend(rest.iter().cloned());
        emitted.extend(comma);
        // Pattern and type: split at the first `:` that is not half of a `::`.
        let mut colon = None;
        let mut j = 0;
        while j < rest.len() {
            if punct(rest.get(j), ':') {
                if punct(rest.get(j + 1), ':') {
                    j += 2;
                    continue;
                }
                colon = Some(j);
                break;
            }
            j += 1;
        }
        let (pattern, ty) = match colon {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let is_receiver = pattern
            .iter()
            .any(|token| matches!(token, TokenTree::Ident(word) if word == "self"));
        if is_receiver {
            receiver = Some(receiver_kind(pattern, ty));
        }
        // A parameter under `#[cfg]` may not be compiled at all: not scanned.
        if cfgs.is_empty() {
            find_exclusive_borrows(if is_receiver { rest } else { ty }, exclusive_borrows);
        }
        if is_receiver || rest.is_empty() {
            continue;
        }
        let words: Vec<&TokenTree> = pattern
            .iter()
            .filter(
                |token| !matches!(token, TokenTree::Ident(word) if word == "mut" || word == "ref"),
            )
            .collect();
        let name = match words.as_slice() {
            [TokenTree::Ident(name)] if name != "_" => Some(name.clone()),
            _ => None,
        };
        params.push(Param {
            name,
            pattern: pattern.iter().cloned().collect(),
            ty: ty.iter().cloned().collect(),
            docs,
            context,
            cfgs,
            schema,
            serde_name: None,
            serde_default: false,
            field: false,
        });
    }
    (params, emitted, receiver)
}

/// How a receiver takes `self`: `&self`, `&'a mut self`, `self: &Self`, `mut self`, ...
fn receiver_kind(pattern: &[TokenTree], ty: &[TokenTree]) -> Receiver {
    let reference = |tokens: &[TokenTree]| {
        if !punct(tokens.first(), '&') {
            return None;
        }
        let mutable = tokens
            .iter()
            .any(|token| matches!(token, TokenTree::Ident(word) if word == "mut"));
        Some(if mutable {
            Receiver::Exclusive
        } else {
            Receiver::Shared
        })
    };
    if ty.is_empty() {
        reference(pattern).unwrap_or(Receiver::Owned)
    } else {
        // `self: &Self`, `self: &mut Self`; any other type (`Box<Self>`, ...) holds `self`.
        let is_self_ref = matches!(ty.last(), Some(TokenTree::Ident(word)) if word == "Self");
        reference(ty)
            .filter(|_| is_self_ref)
            .unwrap_or(Receiver::Owned)
    }
}

/// Every `&mut` (or `&'a mut`) the tokens of one parameter take, except inside the
/// parameter list of a function pointer or closure type (`fn(&mut T)`, `impl Fn(&mut T)`),
/// which borrows nothing when the handler is called.
fn find_exclusive_borrows(tokens: &[TokenTree], found: &mut Vec<TokenStream>) {
    for (i, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Group(inner) => {
                let callable = i > 0
                    && inner.delimiter() == Delimiter::Parenthesis
                    && ["fn", "Fn", "FnMut", "FnOnce"]
                        .iter()
                        .any(|word| ident(tokens.get(i - 1), word));
                if !callable {
                    let inner: Vec<TokenTree> = inner.stream().into_iter().collect();
                    find_exclusive_borrows(&inner, found);
                }
            }
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

/// Whether the attribute is `#[word]` alone.
fn is_word(attr: &Group, word: &str) -> bool {
    let mut tokens = attr.stream().into_iter();
    matches!((tokens.next(), tokens.next()), (Some(TokenTree::Ident(w)), None) if w == word)
}
