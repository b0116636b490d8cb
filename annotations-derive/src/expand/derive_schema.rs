//! `#[derive(ToolSchema)]`: the JSON Schema of a user's struct or enum, without schemars,
//! written while compiling when every field's type is known (as a handler parameter's is),
//! and honouring the `#[serde(...)]` attributes that change the JSON serde reads (see
//! `model/serde_attr.rs`), so the schema and serde's reading never disagree.
//!
//! Named structs become objects (a field's doc comment its description, its `#[schema(...)]`
//! keys on its schema and checked by the call; `Option` fields and fields with a serde default
//! not required; `deny_unknown_fields` closes the object; aliases and `flatten` as serde reads
//! them), a newtype or `transparent` struct its field's schema, enums of unit variants a
//! string `enum`, and enums with data a `oneOf` of their variants in serde's tagging (built
//! once, when first asked for). A type that leads back to itself is a `$ref` into `$defs`.
//! What it does not understand (other shapes, generics) is a compile error.

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use quote::quote;
use syn::Error;

use crate::expand::derive_schema_enum::{data_enum, unit_enum};
use crate::expand::derive_schema_struct::{Built, one_field, record, record_checks};
use crate::expand::inputs::schema_fields;
use crate::expand::krate::Krate;
use crate::leaf::docs::join_docs;
use crate::leaf::errors::Errors;
use crate::leaf::tokens::{flatten, punct, split_top_level};
use crate::model::attrs::{attribute_streams, skip_visibility};
use crate::model::body::{newtype_field, read_variants};
use crate::model::serde_attr;

pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let mut errors = Errors::new();
    let tokens: Vec<TokenTree> = flatten(input);
    let (docs, attrs, i) = attribute_streams(&tokens);
    let i = skip_visibility(&tokens, i);
    let (Some(TokenTree::Ident(keyword)), Some(TokenTree::Ident(name))) =
        (tokens.get(i), tokens.get(i + 1))
    else {
        return Error::new(
            Span::call_site(),
            "#[derive(ToolSchema)] expected a struct or an enum",
        )
        .to_compile_error();
    };
    let krate = Krate::new(None).path();
    let container = serde_attr::container(&attrs, "#[derive(ToolSchema)]", &mut errors);
    hints_not_on_type(&attrs, &mut errors);
    hints_not_on_fields(keyword, &tokens[i + 2..], &mut errors);
    if punct(tokens.get(i + 2), '<') {
        // No implementation at all: one for the type without its parameters would only add
        // rustc's own errors.
        errors.push(Error::new(
            tokens[i + 2].span(),
            "#[derive(ToolSchema)] does not take generic types yet: a generic type has no one \
             schema; implement `mcp_annotations::ToolSchema` for each instance you use",
        ));
        return errors.into_compile_errors();
    }
    let description = join_docs(&docs);
    let shaped = shaped(
        keyword,
        name,
        &tokens[i + 2..],
        &container,
        description.as_deref(),
        &krate,
        &mut errors,
    );
    let implementation = implementation(name, shaped, &krate);
    match errors.check() {
        Ok(()) => implementation,
        Err(errors) => quote!(#implementation #errors),
    }
}

/// `#[hints]` states one variant's hints: on the type it would read as a default for all, so
/// there it is an error that says where it goes.
fn hints_not_on_type(attrs: &[TokenStream], errors: &mut Errors) {
    for attr in attrs {
        if let Some(TokenTree::Ident(word)) = attr.clone().into_iter().next()
            && word == "hints"
        {
            errors.push(Error::new(
                word.span(),
                "#[hints(...)] goes on each variant of an enum, stating what a call with that \
                 variant does; on the type it states nothing (a tool resolved by the variant \
                 lists their join)",
            ));
        }
    }
}

/// `#[hints]` states one variant's hints: on a field (a struct's, or one inside a variant) it
/// would be read by nothing and the author's claim lost, so there it is an error at `hints`.
fn hints_not_on_fields(keyword: &Ident, after_name: &[TokenTree], errors: &mut Errors) {
    let Some(body) = after_name.iter().find_map(|token| match token {
        TokenTree::Group(group) if group.delimiter() != Delimiter::Bracket => Some(group),
        _ => None,
    }) else {
        return;
    };
    let field_lists: Vec<Group> = if keyword == "enum" {
        // Each variant holds its fields in the group after its name.
        split_top_level(body.stream())
            .into_iter()
            .filter_map(|(variant, _)| {
                let (_, _, j) = attribute_streams(&variant);
                match variant.get(j + 1) {
                    Some(TokenTree::Group(fields)) if fields.delimiter() != Delimiter::Bracket => {
                        Some(fields.clone())
                    }
                    _ => None,
                }
            })
            .collect()
    } else {
        vec![body.clone()]
    };
    for fields in field_lists {
        for (field, _) in split_top_level(fields.stream()) {
            let (_, attrs, _) = attribute_streams(&field);
            for attr in attrs {
                if let Some(TokenTree::Ident(word)) = attr.into_iter().next()
                    && word == "hints"
                {
                    errors.push(Error::new(
                        word.span(),
                        "#[hints(...)] goes on an enum's variant, stating what a call with that \
                         variant does; on a field it states nothing (a tool's own hints go in \
                         `#[tool(...)]`)",
                    ));
                }
            }
        }
    }
}

/// What the type's shape makes of it: its schema and the call's check (`built`), whether it
/// is an externally tagged enum (which a flattening struct reads from one of its entries), and
/// an enum's variant hints.
struct Shaped {
    built: Built,
    external: bool,
    variant_hints: TokenStream,
}

/// The schema of the type `keyword name` from the tokens after its name: a struct with named
/// fields an object (or, `transparent`, its one field's schema), a newtype struct its field's
/// schema, an enum a string `enum` (unit variants) or a `oneOf` of its variants in serde's
/// tagging; any other shape an error, with a `null` schema standing in.
fn shaped(
    keyword: &Ident,
    name: &Ident,
    after_name: &[TokenTree],
    container: &serde_attr::Container,
    description: Option<&str>,
    krate: &TokenStream,
    errors: &mut Errors,
) -> Shaped {
    let body = after_name.iter().find_map(|token| match token {
        TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => Some(group.stream()),
        _ => None,
    });
    let tuple = after_name.iter().find_map(|token| match token {
        TokenTree::Group(group) if group.delimiter() == Delimiter::Parenthesis => {
            Some(group.stream())
        }
        _ => None,
    });
    let mut external = false;
    let mut variant_hints = TokenStream::new();
    let built = match (keyword.to_string().as_str(), body) {
        ("struct", Some(fields)) => {
            if let Some(tag) = container.tag.as_ref().or(container.content.as_ref()) {
                errors.push(Error::new(
                    tag.span(),
                    "#[serde(tag)] on a struct is not read by #[derive(ToolSchema)] yet",
                ));
            }
            let fields = schema_fields(fields, container, false, errors);
            match container.transparent {
                Some(span) => one_field(&fields, span, description, krate, errors),
                None => Built {
                    check: record_checks(&fields, krate),
                    ..record(&fields, container, description, krate)
                },
            }
        }
        ("struct", None)
            if tuple
                .as_ref()
                .is_some_and(|fields| split_top_level(fields.clone()).len() == 1) =>
        {
            let field = newtype_field(tuple.unwrap_or_default(), name);
            let fields = schema_fields(field, container, false, errors);
            one_field(&fields, name.span(), description, krate, errors)
        }
        ("enum", Some(variants)) => {
            variant_hints =
                crate::expand::derive_hints::expand(name, variants.clone(), krate, errors);
            let variants = read_variants(variants, container, errors);
            let tagged = container.tag.is_some() || container.untagged;
            if !tagged && variants.iter().all(|variant| variant.data.is_none()) {
                unit_enum(&variants, description, krate)
            } else {
                external = !tagged;
                data_enum(variants, container, description, krate, errors)
            }
        }
        ("struct", None) => {
            errors.push(Error::new(
                name.span(),
                "#[derive(ToolSchema)] reads structs with named fields and newtype structs; a \
                 tuple struct of several fields or a unit struct is not read yet",
            ));
            Built::fixed(quote!(#krate::__private::Value::Null))
        }
        _ => {
            errors.push(Error::new(
                keyword.span(),
                "#[derive(ToolSchema)] expected a struct or an enum",
            ));
            Built::fixed(quote!(#krate::__private::Value::Null))
        }
    };
    Shaped {
        built,
        external,
        variant_hints,
    }
}

/// The `ToolSchema` implementation for `name`: its schema (behind `named` unless written
/// while compiling, as one built from other types' may lead back to this one), the call's
/// check, an externally tagged enum's flattened schema, and the enum's variant hints beside.
fn implementation(name: &Ident, shaped: Shaped, krate: &TokenStream) -> TokenStream {
    let Shaped {
        built: Built {
            schema,
            check,
            fixed,
        },
        external,
        variant_hints,
    } = shaped;
    // Flattened into a struct, serde reads an externally tagged enum from the one entry that
    // names a variant, beside any other.
    let flattened = external.then(|| {
        quote! {
            fn flattened_tool_schema() -> #krate::__private::Value {
                #krate::__private::flattened_external(<Self as #krate::__private::ToolSchema>::tool_schema())
            }
        }
    });
    let schema = if fixed {
        schema
    } else {
        quote!(#krate::__private::named(::core::any::type_name::<Self>(), || #schema))
    };
    let check = check.map(|body| {
        quote! {
            fn check_value(
                __value: &#krate::__private::Value,
                __at: &dyn ::core::fmt::Display,
            ) -> ::core::result::Result<(), ::std::string::String> {
                #body
            }
        }
    });
    quote! {
        impl #krate::__private::ToolSchema for #name {
            fn tool_schema() -> #krate::__private::Value {
                #schema
            }
            #check
            #flattened
        }
        #variant_hints
    }
}
