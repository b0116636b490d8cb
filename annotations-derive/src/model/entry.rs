//! One entry of an attribute's arguments, read the same way under every attribute reader
//! (`#[tool]`, `#[schema]`, an icon, `#[serde]`): the key, then `=` and the value, or what
//! stands there instead. The readers then only match keys; a mistake in an entry is reported at
//! its own tokens, and reading goes on with the next entry, after the next comma. Here too: the
//! one writer of an unknown key's error, the check for a key given twice, and how a value is
//! named in messages.

use std::collections::HashSet;

use proc_macro2::{Ident, Literal, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Error, Lit};

use crate::leaf::spelling;
use crate::leaf::tokens::split_top_level;

/// One `key` or `key = value` entry, as written.
pub(crate) struct Entry {
    pub(crate) key: Ident,
    /// What follows the key; `Err` with the token that stands where `=` should.
    pub(crate) value: Result<Value, TokenTree>,
}

/// What follows a key.
pub(crate) enum Value {
    /// Nothing: `key`.
    Bare,
    /// `key =` and nothing after it; the span is the `=`.
    Missing(Span),
    /// `key = tokens`.
    Given(Vec<TokenTree>),
}

impl Entry {
    /// Reads an entry's key and what follows it; `None` when it does not start with a key (an
    /// identifier): the caller reports that at the entry's first token.
    pub(crate) fn read(entry: &[TokenTree]) -> Option<Entry> {
        let Some(TokenTree::Ident(key)) = entry.first() else {
            return None;
        };
        let value = match entry.get(1) {
            None => Ok(Value::Bare),
            Some(TokenTree::Punct(eq)) if eq.as_char() == '=' => match &entry[2..] {
                [] => Ok(Value::Missing(eq.span())),
                rest => Ok(Value::Given(rest.to_vec())),
            },
            Some(other) => Err(other.clone()),
        };
        Some(Entry {
            key: key.clone(),
            value,
        })
    }
}

/// The entries of an attribute's arguments, split at the commas outside `<...>`; an empty one
/// (after a trailing comma) is left out.
pub(crate) fn split(args: TokenStream) -> Vec<Vec<TokenTree>> {
    split_top_level(args)
        .into_iter()
        .map(|(entry, _)| entry)
        .filter(|entry| !entry.is_empty())
        .collect()
}

/// `Ok` when `key` is one of `keys` of `what` (`#[schema]`, `icon`) given for the first time;
/// else the error at it: the unknown key's, with the key it most likely means, or `repeated`'s
/// message for a key given twice.
pub(crate) fn known_key(
    key: &Ident,
    what: &str,
    keys: &[&'static str],
    seen: &mut HashSet<String>,
    repeated: impl FnOnce(&str) -> String,
) -> Result<(), Error> {
    let name = key.to_string();
    if !keys.contains(&name.as_str()) {
        let suggestion = spelling::closest(&name, keys);
        let message = spelling::unknown_key(what, &name, keys, suggestion);
        return Err(Error::new(key.span(), message));
    }
    first_time(key, seen, repeated)
}

/// `Ok` the first time `key` is given (`seen` remembers it); else the error at it, with
/// `repeated`'s message (which takes the key's name).
pub(crate) fn first_time(
    key: &Ident,
    seen: &mut HashSet<String>,
    repeated: impl FnOnce(&str) -> String,
) -> Result<(), Error> {
    let name = key.to_string();
    if seen.insert(name.clone()) {
        Ok(())
    } else {
        Err(Error::new(key.span(), repeated(&name)))
    }
}

/// A literal as messages name it: its kind, then its text.
pub(crate) fn describe_literal(literal: &Literal) -> String {
    let kind = match Lit::new(literal.clone()) {
        Lit::Str(_) => "a string literal",
        Lit::Int(_) => "an integer literal",
        Lit::Float(_) => "a float literal",
        Lit::Char(_) => "a character literal",
        Lit::Byte(_) => "a byte literal",
        Lit::ByteStr(_) => "a byte string literal",
        Lit::CStr(_) => "a C string literal",
        _ => "a literal",
    };
    format!("{kind} `{literal}`")
}

/// A token as messages name it: a literal as [`describe_literal`] does, else its text.
pub(crate) fn describe_token(token: &TokenTree) -> String {
    match token {
        TokenTree::Literal(literal) => describe_literal(literal),
        other => format!("`{}`", other.to_token_stream()),
    }
}
