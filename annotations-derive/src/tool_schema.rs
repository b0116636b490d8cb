//! `#[derive(ToolSchema)]`: the JSON Schema of a user's struct or enum, without schemars,
//! written while compiling when every field's type is known (as a handler parameter's is),
//! and honouring the `#[serde(...)]` attributes that change the JSON serde reads (see
//! `serde_attr.rs`), so the schema and serde's reading never disagree.
//!
//! Named structs become objects (a field's doc comment its description; `Option` fields and
//! fields with a serde default not required; `deny_unknown_fields` closes the object), enums
//! of unit variants a string `enum`, and enums with data a `oneOf` of their variants in
//! serde's tagging (built once, when first asked for). What it does not understand (other
//! shapes, generics, a type that contains itself) is a compile error.

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use quote::quote;
use syn::Error;

use crate::ast::{join_docs, skip_visibility};
use crate::errors::Errors;
use crate::krate::Krate;
use crate::schema::{self, json_string};
use crate::serde_attr;
use crate::tokens::{punct, split_top_level};

/// One item's or field's leading attributes: doc lines, the other attributes' bracket
/// contents, and where the item itself starts.
fn attributes(tokens: &[TokenTree]) -> (Vec<String>, Vec<TokenStream>, usize) {
    let (docs, attrs, i) = crate::ast::attributes(tokens);
    (
        docs,
        attrs.iter().map(proc_macro2::Group::stream).collect(),
        i,
    )
}

fn has_schema_attr(attrs: &[TokenStream]) -> Option<Span> {
    attrs
        .iter()
        .find_map(|attr| match attr.clone().into_iter().next() {
            Some(TokenTree::Ident(word)) if word == "schema" => Some(word.span()),
            _ => None,
        })
}

/// Whether `tokens` name the type `name` (or `Self`) anywhere.
fn mentions(tokens: &TokenStream, name: &Ident) -> bool {
    tokens.clone().into_iter().any(|token| match token {
        TokenTree::Ident(word) => word == *name || word == "Self",
        TokenTree::Group(group) => mentions(&group.stream(), name),
        _ => false,
    })
}

pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let mut errors = Errors::new();
    let tokens: Vec<TokenTree> = crate::tokens::flatten(input);
    let (docs, attrs, i) = attributes(&tokens);
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
    let name = name.clone();
    let krate = Krate::new(None).path();
    let container = serde_attr::container(&attrs, "#[derive(ToolSchema)]", &mut errors);
    if punct(tokens.get(i + 2), '<') {
        // No implementation at all: one for the type without its parameters would only add
        // rustc's own errors.
        errors.push(Error::new(
            tokens[i + 2].span(),
            "#[derive(ToolSchema)] does not take generic types yet: a generic type has no one \
             schema; implement `annotations::ToolSchema` for each instance you use",
        ));
        return errors.into_compile_errors();
    }
    let description = join_docs(&docs);
    let body = tokens[i + 2..].iter().find_map(|token| match token {
        TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => Some(group.stream()),
        _ => None,
    });
    let schema = match (keyword.to_string().as_str(), body) {
        ("struct", Some(fields)) => {
            if let Some(tag) = container.tag.as_ref().or(container.content.as_ref()) {
                errors.push(Error::new(
                    tag.span(),
                    "#[serde(tag)] on a struct is not read by #[derive(ToolSchema)] yet",
                ));
            }
            record(
                &name,
                fields,
                &container,
                description.as_deref(),
                &krate,
                &mut errors,
            )
        }
        ("enum", Some(variants)) => {
            let tagged = container.tag.is_some() || container.untagged;
            if !tagged && unit_only(&variants) {
                unit_enum(
                    variants,
                    &container,
                    description.as_deref(),
                    &krate,
                    &mut errors,
                )
            } else {
                data_enum(
                    &name,
                    variants,
                    &container,
                    description.as_deref(),
                    &krate,
                    &mut errors,
                )
            }
        }
        ("struct", None) => {
            errors.push(Error::new(
                name.span(),
                "#[derive(ToolSchema)] reads structs with named fields; a tuple or unit struct \
                 is not read yet",
            ));
            quote!(#krate::__private::Value::Null)
        }
        _ => {
            errors.push(Error::new(
                keyword.span(),
                "#[derive(ToolSchema)] expected a struct or an enum",
            ));
            quote!(#krate::__private::Value::Null)
        }
    };
    let implementation = quote! {
        impl #krate::ToolSchema for #name {
            fn tool_schema() -> #krate::__private::Value {
                #schema
            }
        }
    };
    match errors.check() {
        Ok(()) => implementation,
        Err(errors) => quote!(#implementation #errors),
    }
}

/// One field as serde reads it.
struct Field {
    name: String,
    schema: schema::Ty,
    required: bool,
    description: Option<String>,
}

/// The fields of a struct or struct variant as serde reads them: renamed, skipped, required
/// or not (`defaults`: the container's `#[serde(default)]`), each alias a property too, each
/// doc comment a description. `name` is the type's, to refuse a type that contains itself.
fn read_fields(
    name: &Ident,
    fields: TokenStream,
    container: &serde_attr::Container,
    defaults: bool,
    errors: &mut Errors,
) -> Vec<Field> {
    let mut read = Vec::new();
    for field in crate::ast::named_fields(fields) {
        let crate::ast::NamedField {
            docs,
            attrs,
            name: ident,
            ty,
        } = field;
        let attrs: Vec<TokenStream> = attrs.iter().map(proc_macro2::Group::stream).collect();
        if let Some(span) = has_schema_attr(&attrs) {
            errors.push(Error::new(
                span,
                "#[schema(...)] on a #[derive(ToolSchema)] field is not read yet: its bounds \
                 would be listed but not checked; use it on a handler parameter",
            ));
        }
        let serde = serde_attr::field(&attrs, "#[derive(ToolSchema)]", errors);
        if serde.skip {
            continue;
        }
        if mentions(&ty, name) {
            errors.push(recursive(&ident, name));
            continue;
        }
        let (schema, optional) = schema::read_param(&ty, errors);
        let rust_name = crate::tokens::unraw(&ident);
        let (field_name, _) = serde_attr::name_of(&rust_name, &serde, container);
        let required = !(optional || serde.default || defaults);
        let description = join_docs(&docs);
        if let Some(alias) = serde.aliases.first() {
            // serde reads either name but refuses both at once: a schema can say so only with
            // a constraint across properties, which is not written yet.
            errors.push(Error::new(
                alias.span(),
                "#[serde(alias)] is not read by #[derive(ToolSchema)] yet: serde reads either \
                 name and refuses both, which the schema would not say; leave the alias out",
            ));
        }
        read.push(Field {
            name: field_name,
            schema,
            required,
            description,
        });
    }
    read
}

/// The error for a field of the type's own type.
fn recursive(field: &Ident, name: &Ident) -> Error {
    Error::new(
        field.span(),
        format!(
            "`{field}` holds a `{name}` itself: #[derive(ToolSchema)] does not write recursive \
             schemas yet; implement `annotations::ToolSchema` by hand, with a `$ref` into `$defs`"
        ),
    )
}

/// The runtime's `Property` for each field, for a schema built when first asked for.
fn pushes(fields: &[Field], krate: &TokenStream) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|field| {
            let name = &field.name;
            let schema = field.schema.to_expr(krate);
            let required = field.required;
            let description = match &field.description {
                Some(text) => quote!(::core::option::Option::Some(#text)),
                None => quote!(::core::option::Option::None),
            };
            quote! {
                #krate::__private::Property {
                    name: #name,
                    schema: #schema,
                    description: #description,
                    required: #required,
                }
            }
        })
        .collect()
}

/// A named struct's schema: an object of its fields, as serde reads them, as JSON text when
/// every field's schema is known while compiling.
fn record(
    name: &Ident,
    fields: TokenStream,
    container: &serde_attr::Container,
    description: Option<&str>,
    krate: &TokenStream,
    errors: &mut Errors,
) -> TokenStream {
    let read = read_fields(name, fields, container, container.default, errors);
    // Known while compiling: the JSON text itself.
    let all_known: Option<Vec<String>> = read.iter().map(|field| field.schema.to_json()).collect();
    if let Some(jsons) = all_known {
        let mut out = String::from(r#"{"type":"object""#);
        if let Some(description) = description {
            out.push_str(&format!(r#","description":{}"#, json_string(description)));
        }
        let properties: Vec<String> = read
            .iter()
            .zip(&jsons)
            .map(|(field, json)| {
                let json = match &field.description {
                    Some(text) => schema::with_description(json, text),
                    None => json.clone(),
                };
                format!("{}:{json}", json_string(&field.name))
            })
            .collect();
        out.push_str(&format!(r#","properties":{{{}}}"#, properties.join(",")));
        let required: Vec<String> = read
            .iter()
            .filter(|field| field.required)
            .map(|field| json_string(&field.name))
            .collect();
        if !required.is_empty() {
            out.push_str(&format!(r#","required":[{}]"#, required.join(",")));
        }
        if container.deny_unknown_fields {
            out.push_str(r#","additionalProperties":false"#);
        }
        out.push('}');
        return quote!(#krate::__private::fragment(#out));
    }
    let pushes = pushes(&read, krate);
    let closed = container.deny_unknown_fields;
    let description = match description {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    };
    quote!(#krate::__private::record(::std::vec![#(#pushes),*], #closed, #description))
}

/// An enum of unit variants: `{"type": "string", "enum": [...]}`, each variant as serde
/// names it.
fn unit_enum(
    variants: TokenStream,
    container: &serde_attr::Container,
    description: Option<&str>,
    krate: &TokenStream,
    errors: &mut Errors,
) -> TokenStream {
    let mut names = Vec::new();
    for (variant, _) in split_top_level(variants) {
        let (_, attrs, i) = attributes(&variant);
        let Some(TokenTree::Ident(ident)) = variant.get(i) else {
            continue;
        };
        let serde = serde_attr::field(&attrs, "#[derive(ToolSchema)]", errors);
        if serde.skip {
            continue;
        }
        let name = serde_attr::variant_name(&ident.to_string(), &serde, container);
        names.push(json_string(&name));
        // A variant's alias is another name serde reads.
        for alias in &serde.aliases {
            names.push(json_string(&alias.value()));
        }
    }
    let mut out = String::from(r#"{"type":"string""#);
    if let Some(description) = description {
        out.push_str(&format!(r#","description":{}"#, json_string(description)));
    }
    out.push_str(&format!(r#","enum":[{}]}}"#, names.join(",")));
    quote!(#krate::__private::fragment(#out))
}

/// Whether every variant is a unit variant (no fields).
fn unit_only(variants: &TokenStream) -> bool {
    split_top_level(variants.clone())
        .into_iter()
        .all(|(variant, _)| {
            let (_, _, i) = attributes(&variant);
            !matches!(variant.get(i + 1), Some(TokenTree::Group(_)))
        })
}

/// An enum with data (or with serde's `tag` or `untagged`): each variant as serde writes it,
/// `oneOf` (`anyOf` when untagged), built once, when the schema is first asked for.
fn data_enum(
    name: &Ident,
    variants: TokenStream,
    container: &serde_attr::Container,
    description: Option<&str>,
    krate: &TokenStream,
    errors: &mut Errors,
) -> TokenStream {
    let tagging = match (&container.tag, &container.content, container.untagged) {
        (_, _, true) => quote!(#krate::__private::Tagging::Untagged),
        (Some(tag), Some(content), false) => {
            let (tag, content) = (tag.value(), content.value());
            quote!(#krate::__private::Tagging::Adjacent(#tag, #content))
        }
        (Some(tag), None, false) => {
            let tag = tag.value();
            quote!(#krate::__private::Tagging::Internal(#tag))
        }
        (None, Some(content), false) => {
            errors.push(Error::new(
                content.span(),
                "#[serde(content)] needs #[serde(tag)] beside it",
            ));
            quote!(#krate::__private::Tagging::External)
        }
        (None, None, false) => quote!(#krate::__private::Tagging::External),
    };
    let closed = container.deny_unknown_fields;
    let mut built = Vec::new();
    for (variant, _) in split_top_level(variants) {
        let (_, attrs, i) = attributes(&variant);
        let Some(TokenTree::Ident(ident)) = variant.get(i) else {
            continue;
        };
        let serde = serde_attr::field(&attrs, "#[derive(ToolSchema)]", errors);
        if serde.skip {
            continue;
        }
        let variant_name = serde_attr::variant_name(&ident.to_string(), &serde, container);
        let value = match variant.get(i + 1) {
            Some(TokenTree::Group(fields)) if fields.delimiter() == Delimiter::Brace => {
                // serde's `rename_all` on an enum renames its variants, not their fields.
                let fields_container = serde_attr::Container {
                    rename_all: None,
                    deny_unknown_fields: container.deny_unknown_fields,
                    ..serde_attr::Container::default()
                };
                let fields = read_fields(name, fields.stream(), &fields_container, false, errors);
                let fields = pushes(&fields, krate);
                quote!(::core::option::Option::Some(#krate::__private::record(::std::vec![#(#fields),*], #closed, ::core::option::Option::None)))
            }
            Some(TokenTree::Group(fields)) if fields.delimiter() == Delimiter::Parenthesis => {
                let pieces = split_top_level(fields.stream());
                if pieces.len() != 1 || container.tag.is_some() && container.content.is_none() {
                    errors.push(Error::new(
                        fields.span(),
                        "#[derive(ToolSchema)] reads a tuple variant of one field (a newtype), \
                         and not under an internal `tag`; this one is not read yet",
                    ));
                    continue;
                }
                let (_, _, j) = attributes(&pieces[0].0);
                let ty: TokenStream = pieces[0].0[j..].iter().cloned().collect();
                if mentions(&ty, name) {
                    errors.push(recursive(ident, name));
                    continue;
                }
                let schema = schema::read_param(&ty, errors).0.to_expr(krate);
                quote!(::core::option::Option::Some(#schema))
            }
            _ => quote!(::core::option::Option::None),
        };
        // A variant's alias is another name serde reads it by.
        for alias in &serde.aliases {
            let alias = alias.value();
            built.push(quote!(#krate::__private::variant(#tagging, #alias, #value, #closed)));
        }
        built.push(quote!(#krate::__private::variant(#tagging, #variant_name, #value, #closed)));
    }
    let untagged = container.untagged;
    let description = match description {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    };
    quote!(#krate::__private::variants(::std::vec![#(#built),*], #untagged, #description))
}
