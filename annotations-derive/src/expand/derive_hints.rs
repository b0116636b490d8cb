//! `#[derive(ToolSchema)]` on an enum whose variants carry `#[hints(...)]`: the runtime's
//! `VariantHints` (each variant's hints, and their join, which a tool resolved by the variant
//! lists) and `HintsWithin` (the check, evaluated while compiling the tool, that the hints the
//! tool states bound each variant, its error at the variant that breaks them).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::Error;

use crate::check::hints::Value;
use crate::expand::annotations::annotations_value;
use crate::leaf::errors::Errors;
use crate::leaf::tokens::unraw;
use crate::model::variant_hints::{self, Shape};
use mcp_annotations_rules::{ByHint, Hint};

/// The implementations for the enum `name` whose body is `variants`; nothing when no variant
/// states its hints.
pub(crate) fn expand(
    name: &Ident,
    variants: TokenStream,
    krate: &TokenStream,
    errors: &mut Errors,
) -> TokenStream {
    let variants = variant_hints::read(variants, errors);
    if variants.iter().all(|variant| variant.hints.is_none()) {
        return quote!();
    }
    let hints_of = |stated: &ByHint<Option<bool>>| {
        annotations_value(krate, None, stated.map(|_, value| value.map(Value::Known)))
    };
    let mut stated = Vec::new();
    for variant in &variants {
        match (&variant.hints, variant.skipped) {
            (Some(hints), _) => stated.push((variant, hints_of(hints))),
            (None, true) => {}
            (None, false) => errors.push(Error::new(
                variant.ident.span(),
                format!(
                    "the variant `{}` states no hints, and others of `{name}` do: a tool \
                     resolved by the variant lists their join, so every variant serde reads \
                     states its own: #[hints(...)] with {}",
                    unraw(&variant.ident),
                    Hint::ALL.map(|hint| format!("`{}`", hint.key())).join(", ")
                ),
            )),
        }
    }
    let Some((_, first)) = stated.first() else {
        return quote!();
    };
    let join = stated.iter().skip(1).fold(
        first.clone(),
        |joined, (_, next)| quote!(#krate::__private::join(#joined, #next)),
    );
    let arms = variants.iter().map(|variant| {
        let ident = &variant.ident;
        let pattern = match variant.shape {
            Shape::Unit => quote!(Self::#ident),
            Shape::Tuple => quote!(Self::#ident(..)),
            Shape::Struct => quote!(Self::#ident { .. }),
        };
        let hints = stated
            .iter()
            .find(|(stated, _)| stated.ident == *ident)
            .map_or_else(
                || quote!(::core::clone::Clone::clone(<Self as #krate::__private::VariantHints>::JOIN)),
                |(_, hints)| hints.clone(),
            );
        quote!(#pattern => #hints,)
    });
    let checks = stated.iter().map(|(variant, hints)| {
        let span = variant.ident.span();
        let shown = unraw(&variant.ident);
        let arms = Hint::ALL.map(|hint| {
            let trusted = hint.trusted_value();
            let stated = if trusted {
                hint.key().to_owned()
            } else {
                format!("{} = false", hint.key())
            };
            let message = format!(
                "a tool resolved by `{name}` states `{stated}` on #[tool], but the variant \
                 `{shown}` is {}: each hint #[tool] states beside `resolve_by` must hold for \
                 every variant (leave it out, and the tool lists the variants' join)",
                hint.words(!trusted)
            );
            let which = format_ident!("{hint:?}");
            quote_spanned! {span=>
                if #krate::__private::variant_breaks(__L, &#hints, #krate::__private::Hint::#which) {
                    ::core::panic!(#message);
                }
            }
        });
        quote_spanned! {span=> #(#arms)* }
    });
    quote! {
        impl #krate::__private::VariantHints for #name {
            const JOIN: &'static #krate::__private::ToolAnnotations = &#join;
            fn variant_hints(&self) -> #krate::__private::ToolAnnotations {
                match self {
                    #(#arms)*
                }
            }
        }
        impl<const __L: u8> #krate::__private::HintsWithin<__L> for #name {
            const CHECKED: () = {
                #(#checks)*
            };
        }
    }
}
