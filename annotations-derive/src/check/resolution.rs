//! `#[tool(resolve = path)]` and `#[tool(resolve_by = param)]` against the handler: the
//! parameter `resolve_by` names is one the model supplies, and the hints the author states
//! beside it become a check, evaluated while compiling, that they bound every variant (an
//! error at the variant that breaks them, written by `#[derive(ToolSchema)]`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::Error;

use crate::check::hints::{Value, typed};
use crate::leaf::errors::Errors;
use crate::leaf::hint::HintKind;
use crate::leaf::tokens::{expr_span, respan, unraw};
use crate::model::handler::Handler;
use crate::model::tool_attr::{Args, Resolution};

/// How a handler's calls are resolved, checked against its parameters.
pub(crate) enum Plan<'a> {
    /// `resolve = path`.
    Function(&'a TokenStream),
    /// `resolve_by = param`: the parameter at `index` (among all the handler's), of type `ty`
    /// as the call reads it (a parameter taken by reference, `&Action`, is read as `Action`).
    Variant { index: usize, ty: TokenStream },
}

/// The type a parameter of type `ty` is read as: without a leading `&`, `&'a` or `&mut`.
fn read_as(ty: &TokenStream) -> TokenStream {
    let tokens: Vec<proc_macro2::TokenTree> = ty.clone().into_iter().collect();
    let mut at = 0;
    if matches!(tokens.first(), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '&') {
        at = 1;
        // A lifetime: `'` and its name.
        if matches!(tokens.get(1), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '\'') {
            at = 3;
        }
        if matches!(tokens.get(at), Some(proc_macro2::TokenTree::Ident(word)) if word == "mut") {
            at += 1;
        }
    }
    tokens[at..].iter().cloned().collect()
}

/// The plan `args` states for `handler`, or `None` (none stated, or an error pushed).
pub(crate) fn plan<'a>(
    args: &'a Args,
    handler: &'a Handler,
    errors: &mut Errors,
) -> Option<Plan<'a>> {
    match args.resolution.as_ref()? {
        Resolution::Function { path, .. } => Some(Plan::Function(path)),
        Resolution::Variant { param, .. } => {
            let wanted = unraw(param);
            let found = handler.params.iter().enumerate().find(|(_, candidate)| {
                candidate
                    .name
                    .as_ref()
                    .is_some_and(|name| unraw(name) == wanted)
            });
            match found {
                Some((_, found)) if found.context => {
                    errors.push(Error::new(
                        param.span(),
                        format!(
                            "#[tool(resolve_by = {wanted})] names a #[context] parameter, which \
                             the server supplies: name a parameter the model sends, whose \
                             variant decides the call's hints"
                        ),
                    ));
                    None
                }
                Some((index, found)) => Some(Plan::Variant {
                    index,
                    ty: read_as(&found.ty),
                }),
                None => {
                    let names: Vec<String> = handler
                        .params
                        .iter()
                        .filter(|param| !param.context)
                        .filter_map(|param| {
                            param.name.as_ref().map(|name| format!("`{}`", unraw(name)))
                        })
                        .collect();
                    let known = if names.is_empty() {
                        "it takes none from the model".to_owned()
                    } else {
                        format!("its parameters are {}", names.join(", "))
                    };
                    errors.push(Error::new(
                        param.span(),
                        format!(
                            "#[tool(resolve_by = {wanted})] names no parameter of `{}`: {known}",
                            unraw(&handler.name)
                        ),
                    ));
                    None
                }
            }
        }
    }
}

/// The hints stated on `#[tool]`, as the runtime's `[Option<bool>; 4]`.
pub(crate) fn stated(fields: &[Option<Value<'_>>; HintKind::ALL.len()]) -> TokenStream {
    let values = fields.iter().map(|field| match field {
        None => quote!(::core::option::Option::None),
        Some(Value::Known(value)) => quote!(::core::option::Option::Some(#value)),
        Some(Value::Expr(expr)) => {
            let expr = typed(expr);
            quote!(::core::option::Option::Some(#expr))
        }
    });
    quote!([#(#values),*])
}

/// The check that the hints stated on `#[tool]` bound every variant of `ty`, for the const in
/// the handler's body; nothing when none is stated. Spanned at the parameter's type, so that a
/// type whose variants state no hints is an error there.
pub(crate) fn variant_bound(
    krate: &TokenStream,
    ty: &TokenStream,
    fields: &[Option<Value<'_>>; HintKind::ALL.len()],
) -> Option<TokenStream> {
    if fields.iter().all(Option::is_none) {
        return None;
    }
    let stated = stated(fields);
    let span = expr_span(ty);
    let within = respan(quote!(#krate::__private::HintsWithin), span);
    Some(quote! {
        let () = <#ty as #within<{ #krate::__private::encode_listed(#stated) }>>::CHECKED;
    })
}

/// The rule that a read-only handler takes no `&mut`, for a tool whose read-only comes from
/// its variants (every one `#[hints(read_only)]`): a const assertion at each `&mut`.
pub(crate) fn read_only_mut(
    krate: &TokenStream,
    ty: &TokenStream,
    fields: &[Option<Value<'_>>; HintKind::ALL.len()],
    exclusive_borrows: &[TokenStream],
) -> Vec<TokenStream> {
    // A read-only stated on #[tool] is checked by the hints' own rule.
    if fields[HintKind::ReadOnly as usize].is_some() {
        return Vec::new();
    }
    let stated = stated(fields);
    let variant_hints = respan(quote!(#krate::__private::VariantHints), expr_span(ty));
    exclusive_borrows
        .iter()
        .map(|borrow| {
            let span = expr_span(borrow);
            let message = "every variant `resolve_by` reads is read-only, so the tool is \
                           listed read-only, and a read-only handler should not take `&mut`; \
                           take `&`, or add #[tool(allow_mut)] if it only mutates private state \
                           such as a cache";
            quote::quote_spanned! {span=>
                if #krate::__private::listed_by_variants(#stated, <#ty as #variant_hints>::JOIN)[0] {
                    ::core::panic!(#message);
                }
            }
        })
        .collect()
}
