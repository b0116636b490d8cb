//! `#[mcp_annotations::tool(...)]` above rmcp's `#[tool]`: the checked hints, title, name and
//! description are handed to rmcp's attribute, so that rmcp's own listing carries them.
//! rmcp then describes and calls the tool itself (its parameters are rmcp's extractors), so
//! no descriptor or call is generated beside the handler.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::{format_ident, quote};
use syn::Error;

use crate::check::hints::Value;
use crate::expand::annotations::annotations_value;
use crate::expand::krate::Krate;
use crate::expand::names::upper_snake;
use crate::leaf::errors::Errors;
use crate::leaf::tokens::{flatten, unraw};
use crate::model::handler::{Handler, RmcpTool};
use crate::model::params::Param;
use crate::model::schema::path;
use crate::model::tool_attr::Args;
use mcp_annotations_rules::ByHint;

/// rmcp's attribute, rewritten with what `#[mcp_annotations::tool]` states.
pub(crate) fn hand_over(
    args: &Args,
    fields: &ByHint<Option<Value<'_>>>,
    rmcp: &RmcpTool,
    errors: &mut Errors,
) -> TokenStream {
    if let Some(resolution) = &args.resolution {
        let key = resolution.key();
        errors.push(syn::Error::new(
            key.span(),
            format!(
                "`{key}` cannot be handed to rmcp's #[tool] below: rmcp's router has no \
                 `tools/resolve`; list the tool with this crate's `tools![...]` and serve it \
                 with `ListingServer`, or leave `{key}` out"
            ),
        ));
    }
    for key in &args.listing_keys {
        let message = match key.to_string().as_str() {
            "task_support" => format!(
                "`{key}` cannot be handed to rmcp's #[tool] below: rmcp's `Tool` has no \
                 `execution` to carry it; list the tool with this crate's `tools![...]` instead \
                 of rmcp's router, or leave `{key}` out"
            ),
            "toolset" | "scopes" => format!(
                "`{key}` cannot be handed to rmcp's #[tool] below: rmcp's router applies none of \
                 this crate's filters, so nothing would offer or hide the tool by it; list the \
                 tool with this crate's `tools![...]` instead of rmcp's router, or leave `{key}` \
                 out"
            ),
            "rename_all" => format!(
                "`{key}` is not handed to rmcp's #[tool] below: rmcp reads the parameters \
                 (`Parameters<T>`), so name them with serde on `T` (`#[serde(rename_all)]`)"
            ),
            _ => format!(
                "`{key}` is not handed to rmcp's #[tool] below, whose descriptor is the one \
                 listed: write it in rmcp's #[tool] instead"
            ),
        };
        errors.push(Error::new(key.span(), message));
    }
    let existing = keys(&rmcp.args);
    let mut added = Vec::new();
    for (key, ours) in [
        ("name", args.name.as_ref()),
        ("title", args.title.as_ref()),
        ("description", args.description.as_ref()),
    ] {
        let Some(ours) = ours else {
            continue;
        };
        if let Some(span) = existing
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, span)| *span)
        {
            errors.push(Error::new(
                span,
                format!(
                    "`{key}` is given twice: in #[mcp_annotations::tool] and in rmcp's #[tool]; keep one"
                ),
            ));
            continue;
        }
        let key = proc_macro2::Ident::new(key, Span::call_site());
        added.push(quote!(#key = #ours));
    }
    if let Some(span) = existing
        .iter()
        .find(|(k, _)| k == "annotations")
        .map(|(_, span)| *span)
    {
        errors.push(Error::new(
            span,
            "rmcp's #[tool] states `annotations` while #[mcp_annotations::tool] above it states the \
             hints: state them once, in #[mcp_annotations::tool]",
        ));
    }
    let mut hints = Vec::new();
    if let Some(title) = &args.title {
        hints.push(quote!(title = #title));
    }
    for (kind, field) in fields.iter() {
        // rmcp's `annotations(...)` keys are the runtime's field names.
        let key = crate::leaf::hint::field(kind);
        match field {
            Some(Value::Known(value)) => hints.push(quote!(#key = #value)),
            Some(Value::Expr(expr)) => {
                let first = TokenStream::clone(expr).into_iter().next();
                let span = args.hint(kind).map_or_else(
                    || first.map_or_else(Span::call_site, |token| token.span()),
                    |hint| hint.key.span(),
                );
                errors.push(Error::new(
                    span,
                    format!(
                        "#[tool({} = ...)] is a const expression, which rmcp's #[tool] below cannot \
                         take (its hints are literals): write `true` or `false`, or list the \
                         handler with `tools!` instead of rmcp's #[tool]",
                        kind.key()
                    ),
                ));
            }
            None => {}
        }
    }
    if !hints.is_empty() {
        // At the lower attribute's path, so that an error about the key points there (this
        // crate's own #[tool], taken for rmcp's, reports being written twice with it).
        let span = rmcp
            .path
            .clone()
            .into_iter()
            .last()
            .map_or_else(Span::call_site, |token| token.span());
        let key = proc_macro2::Ident::new("annotations", span);
        added.push(quote!(#key(#(#hints),*)));
    }
    let path = &rmcp.path;
    let mut all = rmcp.args.clone();
    for item in added {
        if !all.is_empty() {
            all.extend(quote!(,));
        }
        all.extend(item);
    }
    let attr = quote!(#path(#all));
    let mut group = Group::new(Delimiter::Bracket, attr);
    group.set_span(Span::call_site());
    TokenStream::from(TokenTree::Group(group))
}

/// The top-level keys of rmcp's attribute arguments, with their spans.
fn keys(args: &TokenStream) -> Vec<(String, Span)> {
    let mut keys = Vec::new();
    let mut at_start = true;
    for token in args.clone() {
        match &token {
            TokenTree::Ident(word) if at_start => {
                keys.push((word.to_string(), word.span()));
                at_start = false;
            }
            TokenTree::Punct(p) if p.as_char() == ',' => at_start = true,
            _ => at_start = false,
        }
    }
    keys
}

/// The first parameter whose type is rmcp's `Parameters<...>` extractor, if any.
pub(crate) fn rmcp_parameter(params: &[Param]) -> Option<Span> {
    params.iter().find_map(|param| {
        let (segments, _) = path(&flatten(param.ty.clone()))?;
        let last = segments.last()?;
        (last == "Parameters").then(|| last.span())
    })
}

/// `#[mcp_annotations::tool]` above rmcp's `#[tool]`: the function with rmcp's attribute
/// rewritten to carry the checked hints, and the annotations constant (rmcp describes and calls
/// the tool).
pub(crate) fn stacked(
    args: &Args,
    fields: &ByHint<Option<Value<'_>>>,
    handler: &Handler,
    rmcp: &RmcpTool,
    place: &Krate,
    mut errors: Errors,
) -> TokenStream {
    let krate = &place.path();
    let attribute = hand_over(args, fields, rmcp, &mut errors);
    let vis = &handler.vis;
    let name = format_ident!(
        "{}_ANNOTATIONS",
        upper_snake(&handler.name),
        span = handler.name.span()
    );
    let doc = format!(
        " The MCP tool annotations of `{}`, stated with `#[tool]` and handed to rmcp's `#[tool]`.",
        unraw(&handler.name)
    );
    let carried = &handler.carried_attrs;
    let mut tokens = handler.tokens.clone();
    let annotations = if errors.is_empty() {
        if let Some(TokenTree::Group(group)) = attribute.into_iter().next() {
            tokens[rmcp.index] = TokenTree::Group(group);
        }
        annotations_value(krate, args.title.as_ref(), *fields)
    } else {
        annotations_value(krate, None, ByHint::default())
    };
    let function: TokenStream = tokens.into_iter().collect();
    let errors = errors.into_compile_errors();
    let constant = place.wrap(quote! {
        #[doc = #doc]
        #(#carried)*
        #vis const #name: #krate::__private::ToolAnnotations = #annotations;
    });
    quote!(#function #constant #errors)
}
