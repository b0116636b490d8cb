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
    /// `resolve_by = param`: the parameter at `index` (among all the handler's), of type `ty`.
    Variant { index: usize, ty: &'a TokenStream },
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
                    ty: &found.ty,
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
