//! `#[derive(Tool)]`: a tool described by a struct whose named fields are its inputs, with the
//! same `#[tool(...)]` keys and checks as the attribute (one parser, one validator).

use proc_macro2::{Delimiter, Punct, Spacing, TokenStream, TokenTree};
use quote::quote;
use syn::Error;

use crate::check::hints;
use crate::expand::annotations::annotations_value;
use crate::expand::inputs::{self, tool_fields};
use crate::expand::krate::Krate;
use crate::expand::names::upper_snake;
use crate::leaf::errors::Errors;
use crate::leaf::tokens::punct as is_punct;
use crate::model::attrs::{doc_lines, skip_visibility};
use crate::model::descriptor::Source;
use crate::model::serde_attr;
use crate::model::tool_attr;

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
                if matches!(inner.next(), Some(TokenTree::Ident(word)) if word == "tool")
                    && let Some(TokenTree::Group(args)) = inner.next()
                {
                    if !tool_args.is_empty() {
                        tool_args.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
                    }
                    tool_args.extend(args.stream());
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
            tool_fields(fields.stream(), &container, &mut errors)
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

    let args = tool_attr::parse(tool_args, &mut errors);
    if let Some((_, span)) = args.rename_all {
        // The struct is read by serde, which names its fields by its own attributes.
        errors.push(Error::new(
            span,
            "#[tool(rename_all)] is for handler functions; a #[derive(Tool)] struct is read by \
             serde, so its fields keep their names",
        ));
    }
    if let Some(resolution) = &args.resolution {
        let key = resolution.key();
        errors.push(Error::new(
            key.span(),
            format!(
                "#[tool({key})] is for handler functions listed with `tools![...]`; a \
                 #[derive(Tool)] struct's calls are not resolved: write the tool as a \
                 #[tool] function to resolve its calls"
            ),
        ));
    }
    let checked = hints::check(&args, &[], &mut errors);
    let source = Source {
        ident: name,
        default_name: upper_snake(name).to_lowercase(),
        docs: &docs,
        params: &params,
        generics: &[],
        output: None,
    };
    let descriptor = inputs::descriptor(&args, &source, &mut errors);
    let place = Krate::new(args.krate.clone());
    let krate = place.path();
    if let Err(errors) = errors.check() {
        // A placeholder implementation, so that a listing naming the type does not fail too.
        let name_text = source.default_name;
        let placeholder = place.wrap(quote! {
            impl #krate::__private::StaticTool for #name {
                const NAME: &'static str = #name_text;
                const ANNOTATIONS: #krate::__private::ToolAnnotations = #krate::__private::ToolAnnotations::new();
                const TOOL: #krate::__private::Tool = #krate::__private::Tool::new(#name_text, #krate::__private::Schema::NO_INPUT);
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
        impl #krate::__private::StaticTool for #name {
            const NAME: &'static str = #tool_name;
            const ANNOTATIONS: #krate::__private::ToolAnnotations = #annotations;
            const TOOL: #krate::__private::Tool = #tool;
            #unique
            #field_checks
        }
        #checks
    })
}
