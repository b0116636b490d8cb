//! `#[derive(Tool)]`: a tool described by a struct whose named fields are its inputs, with the
//! same `#[tool(...)]` keys and checks as the attribute (one parser, one validator).

use proc_macro2::{Delimiter, Group, Punct, Spacing, TokenStream, TokenTree};
use quote::quote;
use syn::Error;

use crate::ast::{NamedField, Param, doc_lines, named_fields, schema_args, skip_visibility};
use crate::attr;
use crate::descriptor::{self, Source};
use crate::errors::Errors;
use crate::expand::{annotations_value, upper_snake};
use crate::krate::Krate;
use crate::serde_attr;
use crate::tokens::punct as is_punct;
use crate::valid;

pub(crate) fn expand_derive(input: TokenStream) -> TokenStream {
    let mut errors = Errors::new();
    let tokens: Vec<TokenTree> = input.into_iter().collect();
    let mut i = 0;
    let mut docs = Vec::new();
    let mut tool_args = TokenStream::new();
    let mut attrs = Vec::new();
    while is_punct(tokens.get(i), '#') {
        if let Some(TokenTree::Group(attr)) = tokens.get(i + 1) {
            if let Some(lines) = doc_lines(attr) {
                docs.extend(lines);
            } else {
                attrs.push(attr.stream());
                let mut inner = attr.stream().into_iter();
                if matches!(inner.next(), Some(TokenTree::Ident(word)) if word == "tool") {
                    if let Some(TokenTree::Group(args)) = inner.next() {
                        if !tool_args.is_empty() {
                            tool_args.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
                        }
                        tool_args.extend(args.stream());
                    }
                }
            }
        }
        i += 2;
    }
    let i = skip_visibility(&tokens, i);
    let (Some(TokenTree::Ident(keyword)), Some(TokenTree::Ident(name))) =
        (tokens.get(i), tokens.get(i + 1))
    else {
        return Error::new(
            proc_macro2::Span::call_site(),
            "#[derive(Tool)] expected a struct",
        )
        .to_compile_error();
    };
    let kind = keyword.to_string();
    if kind != "struct" {
        let (what, advice) = match kind.as_str() {
            "enum" => (
                "an enum",
                "; for a choice between inputs, make the enum a field of such a struct",
            ),
            "union" => ("a union", ""),
            _ => ("this item", ""),
        };
        return Error::new(
            keyword.span(),
            format!(
                "#[derive(Tool)] goes on a struct with named fields, not on {what}: the fields \
                 are the tool's inputs, which the model passes by name{advice}"
            ),
        )
        .to_compile_error();
    }
    let body = &tokens[i + 2..];
    if is_punct(body.first(), '<') {
        errors.push(Error::new(
            body[0].span(),
            "#[derive(Tool)] does not support generic structs: a tool's input schema is fixed",
        ));
    }
    let params = match body
        .iter()
        .find(|t| matches!(t, TokenTree::Group(_)) || is_punct(Some(t), ';'))
    {
        Some(TokenTree::Group(fields)) if fields.delimiter() == Delimiter::Brace => {
            let container = serde_attr::container(&attrs, "#[derive(Tool)]", &mut errors);
            read_fields(fields.stream(), &container, &mut errors)
        }
        Some(TokenTree::Group(fields)) if fields.delimiter() == Delimiter::Parenthesis => {
            errors.push(Error::new(
                fields.span(),
                "#[derive(Tool)] needs named fields: the model passes each input by name, and a \
                 tuple struct's fields have none; write `struct Name { field: Type }`",
            ));
            return errors.into_compile_errors();
        }
        // A unit struct: a tool without inputs.
        _ => Vec::new(),
    };

    let args = attr::parse(tool_args, &mut errors);
    if let Some(rename_all) = &args.rename_all {
        // The struct is read by serde, which names its fields by its own attributes.
        errors.push(Error::new(
            rename_all.span(),
            "#[tool(rename_all)] is for handler functions; a #[derive(Tool)] struct is read by \
             serde, so its fields keep their names",
        ));
    }
    let checked = valid::check(&args, &[], &mut errors);
    let source = Source {
        ident: name,
        default_name: upper_snake(name).to_lowercase(),
        docs: &docs,
        params: &params,
        generics: &[],
        output: None,
    };
    let descriptor = descriptor::read(&args, &source, &mut errors);
    let place = Krate::new(args.krate.clone());
    let krate = place.path();
    if let Err(errors) = errors.check() {
        // A placeholder implementation, so that a listing naming the type does not fail too.
        let name_text = source.default_name;
        let placeholder = place.wrap(quote! {
            impl #krate::StaticTool for #name {
                const NAME: &'static str = #name_text;
                const ANNOTATIONS: #krate::ToolAnnotations = #krate::ToolAnnotations::new();
                const TOOL: #krate::Tool = #krate::Tool::new(#name_text, #krate::Schema::NO_INPUT);
            }
        });
        return quote!(#placeholder #errors);
    }
    let annotations = annotations_value(&krate, args.title.as_ref(), checked.fields);
    let tool = descriptor.value(&krate, args.title.as_ref(), &annotations);
    let tool_name = descriptor.name();
    let assertions = &checked.assertions;
    let checks = (!assertions.is_empty()).then(|| quote!(const _: () = { #(#assertions)* };));
    let field_checks = descriptor.field_checks(&krate);
    let field_checks = (!field_checks.is_empty()).then(|| {
        quote!(const FIELD_CHECKS: &'static [(&'static str, &'static [#krate::__private::Check])] = &[#(#field_checks),*];)
    });
    let unique = descriptor.unique_fields(&krate);
    let unique = (!unique.is_empty()).then(|| {
        quote!(const UNIQUE_FIELDS: &'static [(&'static str, #krate::__private::Unique)] = &[#(#unique),*];)
    });
    place.wrap(quote! {
        impl #krate::StaticTool for #name {
            const NAME: &'static str = #tool_name;
            const ANNOTATIONS: #krate::ToolAnnotations = #annotations;
            const TOOL: #krate::Tool = #tool;
            #unique
            #field_checks
        }
        #checks
    })
}

/// The named fields as parameters, named and required as serde reads them: doc comments
/// give descriptions, `#[cfg]` is kept, a field serde skips is not an input. A field's alias
/// or `flatten` is refused: a tool's schema lists one name for each input.
fn read_fields(
    stream: TokenStream,
    container: &serde_attr::Container,
    errors: &mut Errors,
) -> Vec<Param> {
    if let Some(span) = container.transparent {
        errors.push(Error::new(
            span,
            "#[serde(transparent)] on a #[derive(Tool)] struct: a tool's arguments are an \
             object of named inputs, not one value",
        ));
    }
    let mut params = Vec::new();
    for (param, serde) in field_params(stream, container, "#[derive(Tool)]", errors) {
        if let Some(alias) = serde.aliases.first() {
            errors.push(Error::new(
                alias.span(),
                "#[serde(alias)] on a #[derive(Tool)] field: the tool's schema lists one name \
                 for each input, and refuses any other; leave the alias out",
            ));
        }
        if let Some(span) = serde.flatten {
            errors.push(Error::new(
                span,
                "#[serde(flatten)] on a #[derive(Tool)] field: list each input as a field of \
                 the tool's struct",
            ));
        }
        params.push(param);
    }
    params
}

/// The named fields of a struct (or struct variant) as the parameters of a schema, each with
/// what its `#[serde]` says: named and required as serde reads them, doc comments as
/// descriptions, `#[cfg]` kept, a field serde skips left out. `what` names the derive, for
/// messages. Shared by `#[derive(Tool)]` and `#[derive(ToolSchema)]`.
pub(crate) fn field_params(
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
        let rust_name = crate::tokens::unraw(&name);
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
