//! The `ToolAnnotations` struct literal: the title and the four hints as stated, a hint given as
//! a `const` expression typed as a `bool` at its key.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::LitStr;

use mcp_annotations_rules::{ByHint, Hint};

use crate::check::hints::{Value, typed};
use crate::leaf::hint::{field, in_order, place};
use crate::leaf::tokens::{expr_span, respan};

/// The annotations as a struct literal (usable in other `const` items).
pub(crate) fn annotations_value(
    krate: &TokenStream,
    title: Option<&LitStr>,
    fields: ByHint<Option<Value<'_>>>,
) -> TokenStream {
    literal(krate, title, hint_values(&fields))
}

/// Each hint as stated, as an `Option<bool>` expression: `None`, `Some(true)`, or
/// `Some(<the const expression, typed as a bool at its key>)`.
pub(crate) fn hint_values(fields: &ByHint<Option<Value<'_>>>) -> ByHint<TokenStream> {
    fields.map(|_, field| match field {
        None => quote!(::core::option::Option::None),
        Some(Value::Known(value)) => quote!(::core::option::Option::Some(#value)),
        Some(Value::Expr(expr)) => {
            let span = expr_span(expr);
            let expr = typed(expr);
            quote_spanned!(span=> ::core::option::Option::Some(#expr))
        }
    })
}

/// The struct literal of `title` and the four hints' `Option<bool>` expressions.
fn literal(
    krate: &TokenStream,
    title: Option<&LitStr>,
    values: ByHint<TokenStream>,
) -> TokenStream {
    let title = match title {
        Some(title) => {
            quote!(::core::option::Option::Some(#krate::__private::Cow::Borrowed(#title)))
        }
        None => quote!(::core::option::Option::None),
    };
    let names = Hint::ALL.map(field);
    let values = in_order(&values);
    quote! {
        #krate::__private::ToolAnnotations {
            title: #title,
            #(#names: #values,)*
        }
    }
}

/// The annotations of a tool resolved by the variants of a parameter of type `ty`: the join of
/// the variants' hints, with each hint stated on `#[tool]` in its place (the runtime's
/// `listed_by_variants`), computed while compiling.
pub(crate) fn annotations_by_variants(
    krate: &TokenStream,
    title: Option<&LitStr>,
    fields: &ByHint<Option<Value<'_>>>,
    ty: &TokenStream,
) -> TokenStream {
    let stated = in_order(&hint_values(fields));
    let variant_hints = respan(quote!(#krate::__private::VariantHints), expr_span(ty));
    let values = ByHint::from_fn(|hint| {
        let place = place(hint);
        quote!(::core::option::Option::Some(__listed[#place]))
    });
    let literal = literal(krate, title, values);
    quote! {{
        let __listed = #krate::__private::listed_by_variants(
            [#(#stated),*],
            <#ty as #variant_hints>::JOIN,
        );
        #literal
    }}
}

/// The check that the hints stated on `#[tool]` bound every variant of `ty`, for the const in
/// the handler's body; nothing when none is stated. Spanned at the parameter's type, so that a
/// type whose variants state no hints is an error there.
pub(crate) fn variant_bound(
    krate: &TokenStream,
    ty: &TokenStream,
    fields: &ByHint<Option<Value<'_>>>,
) -> Option<TokenStream> {
    if fields.iter().all(|(_, field)| field.is_none()) {
        return None;
    }
    let stated = in_order(&hint_values(fields));
    let span = expr_span(ty);
    let within = respan(quote!(#krate::__private::HintsWithin), span);
    Some(quote! {
        let () = <#ty as #within<{ #krate::__private::encode_listed([#(#stated),*]) }>>::CHECKED;
    })
}

/// The rule that a read-only handler takes no `&mut`, for a tool whose read-only comes from
/// its variants (every one `#[hints(read_only)]`): a const assertion at each `&mut`.
pub(crate) fn read_only_mut(
    krate: &TokenStream,
    ty: &TokenStream,
    fields: &ByHint<Option<Value<'_>>>,
    exclusive_borrows: &[TokenStream],
) -> Vec<TokenStream> {
    // A read-only stated on #[tool] is checked by the hints' own rule.
    if fields[Hint::ReadOnly].is_some() {
        return Vec::new();
    }
    let stated = in_order(&hint_values(fields));
    let read_only = place(Hint::ReadOnly);
    let variant_hints = respan(quote!(#krate::__private::VariantHints), expr_span(ty));
    exclusive_borrows
        .iter()
        .map(|borrow| {
            let span = expr_span(borrow);
            let message = "every variant `resolve_by` reads is read-only, so the tool is \
                           listed read-only, and a read-only handler should not take `&mut`; \
                           take `&`, or add #[tool(allow_mut)] if it only mutates private state \
                           such as a cache";
            quote_spanned! {span=>
                if #krate::__private::listed_by_variants([#(#stated),*], <#ty as #variant_hints>::JOIN)[#read_only] {
                    ::core::panic!(#message);
                }
            }
        })
        .collect()
}
