//! The resolver beside a handler (`__ANNOTATIONS_RESOLVE_{NAME}`), which `tools!` binds with
//! its call: for a handler whose calls are resolved per call (`#[tool(resolve = path)]`,
//! `#[tool(resolve_by = param)]`), a function that reads the arguments as the call does and
//! answers the call's hints; for every other, a constant saying there is none.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::check::resolution::Plan;
use crate::expand::call::Parts;
use crate::expand::names::{beside_attrs, resolve_name};
use crate::leaf::tokens::{expr_span, respan, single_token};
use crate::model::handler::Handler;
use crate::model::params::Receiver;

/// The resolver beside a handler whose calls are not resolved: a constant saying so, which
/// `tools!` binds with the call.
pub(crate) fn no_resolver(handler: &Handler, krate: &TokenStream) -> TokenStream {
    let attrs = beside_attrs(handler);
    let vis = &handler.vis;
    let name = resolve_name(&handler.name);
    quote! {
        #attrs
        #vis const #name: #krate::__private::NoResolver = #krate::__private::NoResolver;
    }
}

/// The resolver of a handler whose calls are resolved (`tools/resolve`): a function that reads
/// the arguments as the call does (the runtime's `resolve_with`), fills in the defaults as the
/// call would, and asks the author's function (given the state, for a method, and each
/// parameter from the model by reference, in order) or the named parameter's variant for the
/// call's hints. A method's takes `Self`; a function without `self` takes any state.
pub(crate) fn resolver(
    handler: &Handler,
    parts: &Parts,
    (plan, variant_ty): (&Plan<'_>, Option<&TokenStream>),
    krate: &TokenStream,
) -> TokenStream {
    let attrs = beside_attrs(handler);
    let method = handler.receiver == Receiver::Shared;
    let vis = &handler.vis;
    let name = resolve_name(&handler.name);
    let params_ty = parts.params_ty();
    let bindings = &parts.bindings;
    let defaults = &parts.defaults;
    let lent: Vec<TokenStream> = parts
        .model_bindings
        .iter()
        .map(|binding| quote!(&#binding))
        .collect();
    let answer = match plan {
        Plan::Function(path) => {
            // The call and what it answers are the function's: an error in either (how many
            // parameters it takes, what it returns) is at its name, not on the attribute.
            let at = TokenStream::clone(path)
                .into_iter()
                .last()
                .map_or_else(proc_macro2::Span::call_site, |token| token.span());
            // A bare name in an impl block is the handler type's own function.
            let bare = matches!(single_token(path), Some(proc_macro2::TokenTree::Ident(_)));
            let path = if bare && method {
                quote_spanned!(at=> Self::#path)
            } else {
                quote!(#path)
            };
            // The bindings keep their own spans: respanned to a name a `macro_rules!` passed
            // in, they would be another hygiene's and not found.
            let state = quote!(__state);
            let call = if method {
                quote_spanned!(at=> #path(#state, #(#lent),*))
            } else {
                quote_spanned!(at=> #path(#(#lent),*))
            };
            let into = quote!(#krate::__private::IntoResolution::into_resolution);
            quote_spanned!(at=> #into(#call))
        }
        Plan::Variant { index, .. } => {
            let binding = format_ident!("__p{}", index);
            let ty = variant_ty.expect("the type a `resolve_by` parameter is read as");
            let variant_hints = respan(quote!(#krate::__private::VariantHints), expr_span(ty));
            quote!(<#ty as #variant_hints>::variant_hints(&#binding))
        }
    };
    let (state, generics, bound, state_binding) = if method {
        (
            quote!(Self),
            quote!(),
            quote!(where Self: ::core::marker::Sized),
            quote!(__state),
        )
    } else {
        (
            quote!(__S),
            quote!(<__S: ?::core::marker::Sized>),
            quote!(),
            quote!(_),
        )
    };
    quote! {
        #attrs
        #[allow(unused_variables, unused_mut, clippy::needless_borrow)]
        #vis fn #name #generics(
            __state: &#state,
            __arguments: &#krate::__private::Map,
            __reads: &'static #krate::__private::Reads,
        ) -> ::core::result::Result<#krate::__private::ToolAnnotations, #krate::__private::ResolveError> #bound {
            #krate::__private::resolve_with::<#state, #params_ty, _>(
                __state,
                __arguments,
                __reads,
                |#state_binding, (#(#bindings,)*)| {
                    #(#defaults)*
                    #answer
                },
            )
        }
    }
}
