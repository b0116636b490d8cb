//! The `ToolAnnotations` struct literal: the title and the four hints as stated, a hint given as
//! a `const` expression typed as a `bool` at its key.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::LitStr;

use crate::check::hints::{Value, typed};
use crate::leaf::hint::HintKind;
use crate::leaf::tokens::expr_span;

/// The annotations as a struct literal (usable in other `const` items).
pub(crate) fn annotations_value(
    krate: &TokenStream,
    title: Option<&LitStr>,
    fields: [Option<Value<'_>>; HintKind::ALL.len()],
) -> TokenStream {
    let title = match title {
        Some(title) => {
            quote!(::core::option::Option::Some(#krate::__private::Cow::Borrowed(#title)))
        }
        None => quote!(::core::option::Option::None),
    };
    let names = HintKind::ALL
        .map(|kind| proc_macro2::Ident::new(kind.field(), proc_macro2::Span::call_site()));
    let values = fields.map(|field| match field {
        None => quote!(::core::option::Option::None),
        Some(Value::Known(value)) => quote!(::core::option::Option::Some(#value)),
        Some(Value::Expr(expr)) => {
            let span = expr_span(expr);
            let expr = typed(expr);
            quote_spanned!(span=> ::core::option::Option::Some(#expr))
        }
    });
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
    fields: &[Option<Value<'_>>; HintKind::ALL.len()],
    ty: &TokenStream,
) -> TokenStream {
    let title = match title {
        Some(title) => {
            quote!(::core::option::Option::Some(#krate::__private::Cow::Borrowed(#title)))
        }
        None => quote!(::core::option::Option::None),
    };
    let stated = crate::check::resolution::stated(fields);
    let span = expr_span(ty);
    let variant_hints = crate::leaf::tokens::respan(quote!(#krate::__private::VariantHints), span);
    let names = HintKind::ALL
        .map(|kind| proc_macro2::Ident::new(kind.field(), proc_macro2::Span::call_site()));
    let indexes = 0..HintKind::ALL.len();
    quote! {{
        let __listed = #krate::__private::listed_by_variants(
            #stated,
            <#ty as #variant_hints>::JOIN,
        );
        #krate::__private::ToolAnnotations {
            title: #title,
            #(#names: ::core::option::Option::Some(__listed[#indexes]),)*
        }
    }}
}
