//! Reading the `#[serde(...)]` attributes that change the JSON a type reads from, so that a
//! derived schema and serde's reading never disagree. An attribute this does not understand
//! is a compile error at its key, never a silently different schema.

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use syn::{Error, Lit, LitStr};

use crate::leaf::case;
use crate::leaf::errors::Errors;
use crate::model::entry::{self, Entry, Value};

/// What a container's `#[serde(...)]` says.
#[derive(Default)]
pub(crate) struct Container {
    pub(crate) rename_all: Option<case::Case>,
    pub(crate) deny_unknown_fields: bool,
    /// `#[serde(default)]`: every field may be left out.
    pub(crate) default: bool,
    /// `#[serde(tag = "...")]`, and `content = "..."` beside it.
    pub(crate) tag: Option<LitStr>,
    pub(crate) content: Option<LitStr>,
    /// `#[serde(untagged)]`.
    pub(crate) untagged: bool,
    /// `#[serde(transparent)]`: the type reads as its one field.
    pub(crate) transparent: Option<Span>,
}

/// What a field's (or a variant's) `#[serde(...)]` says.
#[derive(Default)]
pub(crate) struct Field {
    pub(crate) rename: Option<LitStr>,
    pub(crate) aliases: Vec<LitStr>,
    /// `default` or `default = "path"`: the field may be left out.
    pub(crate) default: bool,
    /// `skip` or `skip_deserializing`: serde never reads it.
    pub(crate) skip: bool,
    /// `#[serde(flatten)]`: its fields are read from the container's object.
    pub(crate) flatten: Option<Span>,
}

/// Keys that change only how a value is written, or nothing in the JSON read: accepted and
/// left alone.
const WRITE_ONLY: [&str; 6] = [
    "skip_serializing",
    "skip_serializing_if",
    "serialize_with",
    "bound",
    "borrow",
    "crate",
];

/// The entries of the `#[serde(...)]` groups of an item's attributes (`attrs` as the tokens of
/// each `#[...]`'s brackets).
fn serde_entries(attrs: &[TokenStream]) -> Vec<Vec<TokenTree>> {
    let mut out = Vec::new();
    for attr in attrs {
        let mut tokens = attr.clone().into_iter();
        if let (Some(TokenTree::Ident(word)), Some(TokenTree::Group(args))) =
            (tokens.next(), tokens.next())
            && word == "serde"
        {
            out.extend(entry::split(args.stream()));
        }
    }
    out
}

/// The string literal after `=`, if the value is exactly one.
fn string(value: &Result<Value, TokenTree>) -> Option<LitStr> {
    match value {
        Ok(Value::Given(value)) => match value.as_slice() {
            [TokenTree::Literal(literal)] => match Lit::new(literal.clone()) {
                Lit::Str(text) => Some(text),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// Whether the key stands alone (`untagged`, not `untagged = ...`).
fn bare(value: &Result<Value, TokenTree>) -> bool {
    matches!(value, Ok(Value::Bare))
}

fn unsupported(key: &Ident, what: &str) -> Error {
    Error::new(
        key.span(),
        format!(
            "#[serde({key})] is not read by {what} yet: its schema would differ from what serde \
             reads; write the schema by hand with `impl mcp_annotations::ToolSchema`"
        ),
    )
}

/// The entry's key and value, or `None` when it does not start with a key (reported).
fn read(entry: &[TokenTree], errors: &mut Errors) -> Option<Entry> {
    let read = Entry::read(entry);
    if read.is_none() {
        errors.push(Error::new(entry[0].span(), "expected a #[serde] key"));
    }
    read
}

/// Reads a container's `#[serde(...)]`; `what` names the derive, for messages.
pub(crate) fn container(attrs: &[TokenStream], what: &str, errors: &mut Errors) -> Container {
    let mut out = Container::default();
    for entry in serde_entries(attrs) {
        let Some(Entry { key, value }) = read(&entry, errors) else {
            continue;
        };
        match key.to_string().as_str() {
            "rename_all" => match string(&value) {
                Some(case) => match case::Case::parse(&case.value()) {
                    Some(parsed) => out.rename_all = Some(parsed),
                    None => errors.push(Error::new(
                        case.span(),
                        format!("unknown case `{}` in #[serde(rename_all)]", case.value()),
                    )),
                },
                // `rename_all(serialize = ..., deserialize = ...)`
                None => errors.push(unsupported(&key, what)),
            },
            "deny_unknown_fields" => out.deny_unknown_fields = true,
            "tag" => match string(&value) {
                Some(tag) => out.tag = Some(tag),
                None => errors.push(unsupported(&key, what)),
            },
            "content" => match string(&value) {
                Some(content) => out.content = Some(content),
                None => errors.push(unsupported(&key, what)),
            },
            "untagged" if bare(&value) => out.untagged = true,
            "default" if bare(&value) => out.default = true,
            "transparent" if bare(&value) => out.transparent = Some(key.span()),
            // The type's own name is not part of its JSON.
            "rename" | "expecting" => {}
            key_name if WRITE_ONLY.contains(&key_name) => {}
            _ => errors.push(unsupported(&key, what)),
        }
    }
    out
}

/// Reads a field's (or a variant's) `#[serde(...)]`.
pub(crate) fn field(attrs: &[TokenStream], what: &str, errors: &mut Errors) -> Field {
    let mut out = Field::default();
    for entry in serde_entries(attrs) {
        let Some(Entry { key, value }) = read(&entry, errors) else {
            continue;
        };
        match key.to_string().as_str() {
            "rename" => match string(&value) {
                Some(name) => out.rename = Some(name),
                None => errors.push(unsupported(&key, what)),
            },
            "alias" => match string(&value) {
                Some(name) => out.aliases.push(name),
                None => errors.push(unsupported(&key, what)),
            },
            "default" => out.default = true,
            "skip" | "skip_deserializing" => out.skip = true,
            "flatten" if bare(&value) => out.flatten = Some(key.span()),
            key_name if WRITE_ONLY.contains(&key_name) => {}
            _ => errors.push(unsupported(&key, what)),
        }
    }
    out
}

/// The name serde reads a field or variant by: its `rename`, else the container's case, else
/// as written.
pub(crate) fn name_of(ident: &str, field: &Field, container: &Container) -> (String, Span) {
    match &field.rename {
        Some(rename) => (rename.value(), rename.span()),
        None => match &container.rename_all {
            Some(case) => (case.rename(ident), Span::call_site()),
            None => (ident.to_owned(), Span::call_site()),
        },
    }
}

/// The name serde reads a variant by: its `rename`, else the enum's case (serde's rules for
/// variants), else as written.
pub(crate) fn variant_name(ident: &str, variant: &Field, container: &Container) -> String {
    match (&variant.rename, &container.rename_all) {
        (Some(rename), _) => rename.value(),
        (None, Some(case)) => case.rename_variant(ident),
        (None, None) => ident.to_owned(),
    }
}
