//! `#[hints(...)]` on an enum's variants (with `#[derive(ToolSchema)]`): each variant's hints,
//! for a tool that resolves its calls by the variant (`#[tool(resolve_by = param)]`). The keys
//! are `#[tool]`'s hint keys, each `true` for the key alone or a `true`/`false` literal.

use std::collections::HashSet;

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use syn::Error;

use crate::leaf::errors::Errors;
use crate::leaf::spelling;
use crate::leaf::tokens::split_top_level;
use crate::model::attrs::attributes;
use crate::model::entry::{Entry, first_time, split};
use crate::model::hint_value::{HintValue, hint_value};
use crate::model::serde_attr;
use mcp_annotations_rules::{ByHint, Hint};

/// One variant of the enum, with what its `#[hints]` say.
pub(crate) struct VariantHints {
    pub(crate) ident: Ident,
    /// `Self::Name`, `Self::Name(..)` or `Self::Name { .. }`'s shape.
    pub(crate) shape: Shape,
    /// Whether serde skips it when reading (then no call's arguments name it).
    pub(crate) skipped: bool,
    /// Each hint as stated (`None`: unset), indexed like [`Hint::ALL`]; `None` when the
    /// variant has no `#[hints]`.
    pub(crate) hints: Option<ByHint<Option<bool>>>,
}

/// How a variant's pattern is written.
#[derive(Clone, Copy)]
pub(crate) enum Shape {
    Unit,
    Tuple,
    Struct,
}

/// Every variant of the enum whose body is `variants`, with its `#[hints]` read and checked.
pub(crate) fn read(variants: TokenStream, errors: &mut Errors) -> Vec<VariantHints> {
    let mut read = Vec::new();
    for (variant, _) in split_top_level(variants) {
        let (_, attrs, i) = attributes(&variant);
        let Some(TokenTree::Ident(ident)) = variant.get(i) else {
            continue;
        };
        let shape = match variant.get(i + 1) {
            Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis => {
                Shape::Tuple
            }
            Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => Shape::Struct,
            _ => Shape::Unit,
        };
        // serde's errors are reported by the schema's reading of the same attributes.
        let streams: Vec<TokenStream> = attrs.iter().map(|attr| attr.stream()).collect();
        let mut quiet = Errors::new();
        let skipped = serde_attr::field(&streams, "#[derive(ToolSchema)]", &mut quiet).skip;
        let _ = quiet.check();
        let mut hints = None;
        for attr in &attrs {
            let mut tokens = attr.stream().into_iter();
            let (Some(TokenTree::Ident(word)), rest) = (tokens.next(), tokens) else {
                continue;
            };
            if word != "hints" {
                continue;
            }
            if hints.is_some() {
                errors.push(Error::new(
                    word.span(),
                    "#[hints] is written twice on this variant: merge the keys into one",
                ));
                continue;
            }
            let rest: Vec<TokenTree> = rest.collect();
            match rest.as_slice() {
                [TokenTree::Group(args)] if args.delimiter() == Delimiter::Parenthesis => {
                    hints = Some(read_hints(args.stream(), args.span(), errors));
                }
                _ => {
                    errors.push(Error::new(
                        word.span(),
                        "expected #[hints(...)] with the variant's hints: `#[hints(read_only, \
                         open_world = false)]`",
                    ));
                    hints = Some(ByHint::default());
                }
            }
        }
        read.push(VariantHints {
            ident: ident.clone(),
            shape,
            skipped,
            hints,
        });
    }
    read
}

/// The keys of one `#[hints(...)]`, each checked, and the contradictions between them.
fn read_hints(args: TokenStream, span: Span, errors: &mut Errors) -> ByHint<Option<bool>> {
    let mut hints = ByHint::default();
    let mut keys: ByHint<Option<(Ident, usize)>> = Default::default();
    let mut seen = HashSet::new();
    let entries = split(args);
    if entries.is_empty() {
        errors.push(Error::new(
            span,
            "#[hints()] states no hint: write the variant's hints, such as `#[hints(read_only, \
             open_world = false)]`",
        ));
    }
    let all_keys = Hint::ALL.map(Hint::key);
    for (position, entry) in entries.into_iter().enumerate() {
        let Some(Entry { key, value }) = Entry::read(&entry) else {
            errors.push(Error::new_spanned(
                &entry[0],
                "expected a hint key such as `read_only` or `open_world = false`",
            ));
            continue;
        };
        let name = key.to_string();
        let Some(kind) = Hint::from_key(&name) else {
            let suggestion = spelling::closest_key(&name, &all_keys);
            let message = spelling::unknown_key("#[hints]", &name, &all_keys, suggestion);
            errors.push(Error::new(key.span(), message));
            continue;
        };
        if let Err(error) = first_time(&key, &mut seen, |name| {
            format!("duplicate #[hints({name})]")
        }) {
            errors.push(error);
            continue;
        }
        let value = match value {
            Ok(value) => value,
            Err(other) => {
                errors.push(Error::new_spanned(
                    &other,
                    format!("expected `=` or `,` after #[hints] key `{name}`"),
                ));
                continue;
            }
        };
        match hint_value(&key, value, errors) {
            Some(HintValue::Bool(value)) => {
                hints[kind] = Some(value);
                keys[kind] = Some((key, position));
            }
            Some(HintValue::Expr(expr)) => errors.push(Error::new_spanned(
                expr,
                format!(
                    "a variant's hint is `true` or `false`: the tool's listed hints are their \
                     join, computed while compiling; write `{name}` or `{name} = false`"
                ),
            )),
            None => {}
        }
    }
    // A read-only variant destroys nothing and is idempotent.
    if let (Some(true), Some((read_only, at))) = (hints[Hint::ReadOnly], &keys[Hint::ReadOnly]) {
        for kind in Hint::ALL
            .into_iter()
            .filter(|kind| kind.implied_by_read_only())
        {
            let contradicting = !kind.trusted_value();
            let written = if contradicting {
                kind.key().to_owned()
            } else {
                format!("{} = false", kind.key())
            };
            let reason = format!(": a read-only variant is {}", kind.words(!contradicting));
            if let (Some(value), Some((key, position))) = (hints[kind], &keys[kind])
                && value == contradicting
            {
                let later = if position > at { key } else { read_only };
                errors.push(Error::new(
                    later.span(),
                    format!("cannot have both #[hints(read_only)] and #[hints({written})]{reason}"),
                ));
            }
        }
    }
    hints
}
