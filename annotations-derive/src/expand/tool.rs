//! The `#[tool]` front end: the attribute and the handler read and checked, then the handler,
//! unchanged (its hints' const assertions first in its body), and beside it its
//! `_ANNOTATIONS` and `_TOOL` constants and its call; above rmcp's `#[tool]`, the hand-over;
//! after a mistake, placeholders, so that one mistake is one error.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::{format_ident, quote};
use syn::LitStr;

use crate::check::hints::{self, Value};
use crate::check::resolution::{self, Plan};
use crate::expand::annotations::{
    annotations_by_variants, annotations_value, read_only_mut, variant_bound,
};
use crate::expand::call;
use crate::expand::call_types::owned_type;
use crate::expand::inputs;
use crate::expand::krate::Krate;
use crate::expand::names::{upper_case_allow, upper_snake};
use crate::expand::resolver;
use crate::expand::stack::{self, stacked};
use crate::leaf::errors::Errors;
use crate::leaf::tokens::unraw;
use crate::model::descriptor::Source;
use crate::model::handler::Handler;
use crate::model::tool_attr;
use mcp_annotations_rules::{ByHint, Hint};

pub(crate) fn expand_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::new();
    let args = tool_attr::parse(attr, &mut errors);
    let mut handler = match Handler::parse(item.clone()) {
        Ok(handler) => handler,
        Err(error) => {
            errors.push(error);
            let errors = errors.into_compile_errors();
            return quote!(#item #errors);
        }
    };
    if let Some(key) = &args.handed_over {
        // Written by this crate's #[tool] above, which took this one for rmcp's and gave the
        // key the span of this attribute's path; else written by the user.
        let handed_over = key
            .span()
            .source_text()
            .is_some_and(|text| text != "annotations");
        let message = if handed_over {
            "#[tool] is written twice on this function (the one above took this one for \
             rmcp's #[tool]): merge the keys into one #[tool(...)], or write rmcp's as \
             #[rmcp::tool]"
                .to_owned()
        } else {
            let keys: Vec<String> = Hint::ALL
                .iter()
                .map(|kind| format!("`{}`", kind.key()))
                .collect();
            format!(
                "`annotations(...)` is rmcp's #[tool] key: #[mcp_annotations::tool] states the \
                 hints as keys of its own: {}",
                keys.join(", ")
            )
        };
        errors.push(syn::Error::new(key.span(), message));
        if handed_over {
            // The function and its constants are the upper attribute's.
            let errors = errors.into_compile_errors();
            return quote!(#item #errors);
        }
    }
    let mut checked = hints::check(&args, &handler.exclusive_borrows, &mut errors);
    let place = Krate::new(args.krate.clone());
    let krate = place.path();
    if let Some((repeated, at)) = handler.repeated.take() {
        errors.push(syn::Error::new_spanned(
            repeated,
            "#[tool] is written twice on this function: merge the keys into one #[tool(...)]",
        ));
        // Not emitted, so that it does not expand a second time.
        handler.tokens.drain(at..at + 2);
        if let Some(rmcp) = &mut handler.rmcp
            && rmcp.index > at
        {
            rmcp.index -= 2;
        }
    }
    if let Some(rmcp) = &handler.rmcp {
        return stacked(&args, &checked.fields, &handler, rmcp, &place, errors);
    }
    if let Some(span) = stack::rmcp_parameter(&handler.params) {
        errors.push(syn::Error::new(
            span,
            "this handler takes rmcp's `Parameters`, so rmcp's #[tool] describes it: write \
             #[mcp_annotations::tool(...)] above rmcp's #[tool] (below it, rmcp has read the \
             function already, and its description is lost), or list the handler with \
             `tools!` and take plain parameters",
        ));
        return with_placeholders(&place, &handler, errors);
    }
    let descriptor = inputs::descriptor(&args, &Source::handler(&handler), &mut errors);
    let plan = resolution::plan(&args, &handler, &mut errors);
    if !errors.is_empty() {
        return with_placeholders(&place, &handler, errors);
    }
    // Resolved by a parameter's variants: the listed hints are their join, and the hints the
    // author states must bound every variant (checked in the handler's body).
    // The type the parameter is read as (`&Action` as `Action`), as the call reads it.
    let variant_ty = match &plan {
        Some(Plan::Variant { param, .. }) => Some(owned_type(param).0),
        _ => None,
    };
    let annotations = match &variant_ty {
        Some(ty) => {
            checked
                .assertions
                .extend(variant_bound(&krate, ty, &checked.fields));
            if args.allow_mut.is_none() {
                checked.assertions.extend(read_only_mut(
                    &krate,
                    ty,
                    &checked.fields,
                    &handler.exclusive_borrows,
                ));
            }
            annotations_by_variants(&krate, args.title.as_ref(), &checked.fields, ty)
        }
        None => annotations_value(&krate, args.title.as_ref(), checked.fields),
    };
    // A method that takes `self` is in an impl block or a trait, where the descriptor can name
    // the annotations constant instead of repeating it (less for the compiler to check).
    let in_descriptor = if handler.has_receiver() {
        let name = format_ident!("{}_ANNOTATIONS", upper_snake(&handler.name));
        quote!(Self::#name)
    } else {
        annotations.clone()
    };
    let tool = descriptor.value(&krate, args.title.as_ref(), &in_descriptor);
    let summary = summary(
        args.title.as_ref(),
        &checked.fields,
        args.resolution.as_ref(),
    );
    let constants = constants(&krate, &handler, &annotations, Some(tool), &summary);
    let (call, parts) = call::expand(&handler, &descriptor, &krate);
    let resolver = match (&plan, &parts) {
        (Some(plan), Some(parts)) => {
            resolver::resolver(&handler, parts, (plan, variant_ty.as_ref()), &krate)
        }
        _ => resolver::no_resolver(&handler, &krate),
    };
    let call = quote!(#call #resolver);
    let generated = place.wrap(quote!(#constants #call));
    if checked.assertions.is_empty() {
        let function: TokenStream = handler.tokens.iter().cloned().collect();
        return quote!(#function #generated);
    }
    let function = with_checks_in_body(handler.tokens, &checked.assertions);
    quote!(#function #generated)
}

/// The handler, the errors, and placeholder constants and call, so that one mistake is one
/// error and code that uses the constants does not fail with "cannot find" as well.
fn with_placeholders(place: &Krate, handler: &Handler, errors: Errors) -> TokenStream {
    let krate = &place.path();
    let resolver = resolver::no_resolver(handler, krate);
    let annotations = annotations_value(krate, None, ByHint::default());
    let constants = constants(krate, handler, &annotations, None, "");
    let function: TokenStream = handler.tokens.iter().cloned().collect();
    // A call that calls nothing, so that a listing naming the handler reports no second error.
    let call = call::uncallable(handler, krate, &quote!(), &quote!(#[doc(hidden)]));
    let call = quote!(#call #resolver);
    let generated = place.wrap(quote!(#constants #call));
    let errors = errors.into_compile_errors();
    quote!(#function #generated #errors)
}

/// The `_ANNOTATIONS` and `_TOOL` constants; `tool` is `None` for the placeholder.
fn constants(
    krate: &TokenStream,
    handler: &Handler,
    annotations: &TokenStream,
    tool: Option<TokenStream>,
    summary: &str,
) -> TokenStream {
    let vis = &handler.vis;
    let base = upper_snake(&handler.name);
    let annotations_name = format_ident!("{}_ANNOTATIONS", base, span = handler.name.span());
    let tool_name = format_ident!("{}_TOOL", base, span = handler.name.span());
    let function = unraw(&handler.name);
    // A method links to its handler; a function without `self` may sit in an impl block or
    // not, so a link could not be resolved both ways.
    let handler_ref = if handler.has_receiver() {
        format!("[`{function}`](Self::{})", handler.name)
    } else {
        format!("`{function}`")
    };
    let annotations_doc =
        format!(" The MCP tool annotations of {handler_ref}, stated with `#[tool]`.\n\n {summary}");
    let tool_doc = format!(
        " The MCP tool descriptor of {handler_ref} (name, title, description, input schema and \
         annotations), generated by `#[tool]`.\n\n {summary}"
    );
    let tool = tool.unwrap_or_else(
        || quote!(#krate::__private::Tool::new(#function, #krate::__private::Schema::NO_INPUT)),
    );
    // In a trait, whose `Self` may be unsized, this is one clear error instead of a trait that
    // silently stops being dyn compatible (see `__private::SizedSelf`).
    let annotations = if handler.has_receiver() {
        quote!({
            #krate::__private::sized_self::<Self>();
            #annotations
        })
    } else {
        annotations.clone()
    };
    let carried = &handler.carried_attrs;
    let allow = upper_case_allow(&handler.name);
    quote! {
        #[doc = #annotations_doc]
        #(#carried)*
        #allow
        #vis const #annotations_name: #krate::__private::ToolAnnotations = #annotations;
        #[doc = #tool_doc]
        #(#carried)*
        #allow
        #vis const #tool_name: #krate::__private::Tool = #tool;
    }
}

/// The stated hints in words, for the constants' docs: "Read-only; non-destructive; ...", then
/// the title, then how a resolvable tool's calls are resolved (for one resolved by a
/// parameter's variants, the hints it does not state are listed as the variants' join).
fn summary(
    title: Option<&LitStr>,
    fields: &ByHint<Option<Value<'_>>>,
    resolution: Option<&tool_attr::Resolution>,
) -> String {
    let stated: Vec<String> = fields
        .iter()
        .filter_map(|(kind, field)| match field {
            Some(Value::Known(value)) => Some(kind.words(*value).to_owned()),
            Some(Value::Expr(_)) => Some(format!("`{}` from a const expression", kind.key())),
            None => None,
        })
        .collect();
    let joined = match resolution {
        Some(tool_attr::Resolution::Variant { param, .. }) => Some(format!(
            "the join of the hints of the variants of `{}`, by which each call is resolved \
             (`tools/resolve`)",
            unraw(param)
        )),
        _ => None,
    };
    let mut text = match (stated.is_empty(), &joined) {
        (true, Some(joined)) => format!("Listed with {joined}"),
        (true, None) => "No hints stated: the protocol's defaults apply".to_owned(),
        (false, _) => {
            let text = stated.join(", ");
            match text.get(..1) {
                Some(first) => first.to_uppercase() + &text[1..],
                None => text,
            }
        }
    };
    match title {
        Some(title) => text.push_str(&format!("; titled {:?}.", title.value())),
        None => text.push('.'),
    }
    match (stated.is_empty(), joined, resolution) {
        (false, Some(joined), _) => text.push_str(&format!(" The rest listed with {joined}.")),
        (_, _, Some(tool_attr::Resolution::Function { .. })) => {
            text.push_str(" Each call is resolved (`tools/resolve`) by a function.");
        }
        _ => {}
    }
    text
}

/// The handler with `const _: () = { ... };` holding the assertions as the first item of its
/// body. Only for hints given as `const` expressions. The constant beside a method is an
/// associated one, which the compiler evaluates only where it is used, and an impl block has no
/// room for an unnamed constant; an item nested in the body is a free constant, which the
/// compiler always evaluates (`cargo check` included), so the check cannot be skipped. Being an
/// item, it cannot name `Self` or the function's generic parameters.
fn with_checks_in_body(mut tokens: Vec<TokenTree>, assertions: &[TokenStream]) -> TokenStream {
    if let Some(TokenTree::Group(body)) = tokens.last_mut() {
        let mut statements: Vec<TokenTree> = body.stream().into_iter().collect();
        // Inner attributes (`#![...]`) must stay first.
        let mut after_inner_attributes = 0;
        while matches!(statements.get(after_inner_attributes), Some(TokenTree::Punct(p)) if p.as_char() == '#')
            && matches!(statements.get(after_inner_attributes + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
        {
            after_inner_attributes += 3;
        }
        let check = quote!(const _: () = { #(#assertions)* };);
        let at = after_inner_attributes.min(statements.len());
        statements.splice(at..at, check);
        let mut new_body = Group::new(Delimiter::Brace, statements.into_iter().collect());
        new_body.set_span(body.span());
        *body = new_body;
    }
    tokens.into_iter().collect()
}
