//! The bodies of the structs and enums the derives read: named fields, a newtype's one field,
//! variants, each with what its `#[serde(...)]` says; a field as the input it is read as
//! (`Field`). The one reader of both derives.

use proc_macro2::{Group, Ident, Punct, Spacing, TokenStream, TokenTree};
use quote::quote;
use syn::LitStr;

use crate::leaf::errors::Errors;
use crate::leaf::tokens::{flatten, split_top_level, unraw};
use crate::model::attrs::{attribute_streams, attributes, schema_args, skip_visibility};
use crate::model::descriptor::Property;
use crate::model::params::Param;
use crate::model::serde_attr;

/// A named field of a struct or struct variant, as tokens.
pub(crate) struct NamedField {
    pub(crate) docs: Vec<String>,
    /// Its attributes other than doc comments, each `#[...]`'s bracket group.
    pub(crate) attrs: Vec<Group>,
    pub(crate) name: Ident,
    pub(crate) ty: TokenStream,
}

/// The named fields in a struct's (or struct variant's) braces.
pub(crate) fn named_fields(stream: TokenStream) -> Vec<NamedField> {
    split_top_level(stream)
        .into_iter()
        .filter_map(|(field, _)| {
            let (docs, attrs, i) = attributes(&field);
            let i = skip_visibility(&field, i);
            let Some(TokenTree::Ident(name)) = field.get(i) else {
                return None;
            };
            let ty = field
                .get(i + 2..)
                .unwrap_or_default()
                .iter()
                .cloned()
                .collect();
            Some(NamedField {
                docs,
                attrs,
                name: name.clone(),
                ty,
            })
        })
        .collect()
}

/// The named fields of a struct (or struct variant) as the parameters of a schema, each with
/// what its `#[serde]` says: named and required as serde reads them, doc comments as
/// descriptions, `#[cfg]` kept, a field serde skips left out. `what` names the derive, for
/// messages. Shared by `#[derive(Tool)]` and `#[derive(ToolSchema)]`.
pub(crate) fn read_fields(
    stream: TokenStream,
    container: &serde_attr::Container,
    what: &str,
    errors: &mut Errors,
) -> Vec<(Param, serde_attr::Field)> {
    let mut params = Vec::new();
    for field in named_fields(stream) {
        let NamedField {
            docs,
            attrs,
            name,
            ty,
        } = field;
        let cfgs: Vec<TokenStream> = attrs
            .iter()
            .filter(|attr| matches!(attr.stream().into_iter().next(), Some(TokenTree::Ident(w)) if w == "cfg"))
            .map(|attr| [TokenTree::Punct(Punct::new('#', Spacing::Alone)), TokenTree::Group(attr.clone())].into_iter().collect())
            .collect();
        let schema: Vec<TokenStream> = attrs.iter().filter_map(schema_args).collect();
        let attrs: Vec<TokenStream> = attrs.iter().map(Group::stream).collect();
        let serde = serde_attr::field(&attrs, what, errors);
        if serde.skip {
            continue;
        }
        let rust_name = unraw(&name);
        let (serde_name, _) = serde_attr::name_of(&rust_name, &serde, container);
        let serde_default = serde.default || container.default;
        params.push((
            Param {
                name: Some(name.clone()),
                pattern: quote!(#name),
                ty,
                docs,
                context: false,
                cfgs,
                // Its constraints; serde names it and fills it in.
                schema,
                serde_name: (serde_name != rust_name).then_some(serde_name),
                serde_default,
                field: true,
            },
            serde,
        ));
    }
    params
}

/// One field as serde reads it: the input the descriptor's reader makes of it (its name,
/// schema with `#[schema(...)]` keys, whether it may be left out, the checks the call makes),
/// and what else serde reads it by.
pub(crate) struct Field {
    pub(crate) property: Property,
    /// The other names serde reads it by.
    pub(crate) aliases: Vec<String>,
    /// `#[serde(flatten)]`: its fields are the container's.
    pub(crate) flatten: bool,
    /// Its type's tokens.
    pub(crate) ty: TokenStream,
}

impl Field {
    /// The field `param`, whose `#[serde(...)]` is `serde`, as the input `property`.
    pub(crate) fn new(property: Property, param: &Param, serde: &serde_attr::Field) -> Self {
        Field {
            property,
            aliases: serde.aliases.iter().map(LitStr::value).collect(),
            flatten: serde.flatten.is_some(),
            ty: param.ty.clone(),
        }
    }
}

/// A newtype struct's one field (the contents of its parentheses), written as a named field
/// `value`, so that its `#[schema(...)]` and `#[serde(...)]` are read as any field's.
pub(crate) fn newtype_field(field: TokenStream, name: &Ident) -> TokenStream {
    let tokens = flatten(field);
    let (_, attrs, j) = attributes(&tokens);
    let j = skip_visibility(&tokens, j);
    let mut named = TokenStream::new();
    for attr in attrs {
        named.extend([
            TokenTree::Punct(proc_macro2::Punct::new('#', proc_macro2::Spacing::Alone)),
            TokenTree::Group(attr),
        ]);
    }
    let ty: TokenStream = tokens[j..].iter().cloned().collect();
    let value = Ident::new("value", name.span());
    named.extend(quote!(#value: #ty));
    named
}

/// One variant of an enum as serde reads it (a variant serde skips is left out).
pub(crate) struct Variant {
    pub(crate) serde: serde_attr::Field,
    /// The name serde reads it by (its `rename`, or the enum's case).
    pub(crate) name: String,
    /// Its fields, in braces or parentheses; `None` for a unit variant.
    pub(crate) data: Option<Group>,
}

impl Variant {
    /// The names serde reads it by: its own, then its aliases.
    pub(crate) fn names(&self) -> Vec<String> {
        std::iter::once(self.name.clone())
            .chain(self.serde.aliases.iter().map(LitStr::value))
            .collect()
    }
}

/// The variants of an enum, as serde reads them.
pub(crate) fn read_variants(
    variants: TokenStream,
    container: &serde_attr::Container,
    errors: &mut Errors,
) -> Vec<Variant> {
    let mut read = Vec::new();
    for (variant, _) in split_top_level(variants) {
        let (_, attrs, i) = attribute_streams(&variant);
        let Some(TokenTree::Ident(ident)) = variant.get(i) else {
            continue;
        };
        let serde = serde_attr::field(&attrs, "#[derive(ToolSchema)]", errors);
        if serde.skip {
            continue;
        }
        let name = serde_attr::variant_name(&unraw(ident), &serde, container);
        let data = match variant.get(i + 1) {
            Some(TokenTree::Group(group)) => Some(group.clone()),
            _ => None,
        };
        read.push(Variant { serde, name, data });
    }
    read
}
