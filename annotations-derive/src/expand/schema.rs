//! The JSON Schema of a parameter type, written: as JSON text when it is known while
//! compiling, else as an expression that builds it at run time; and where a value of it holds
//! sets or user types that a call checks.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::model::schema::{Len, Ty};

impl Ty {
    /// An expression that builds the schema as a `serde_json::Value` at run time.
    pub(crate) fn to_expr(&self, krate: &TokenStream) -> TokenStream {
        if let Some(json) = self.to_json() {
            return quote!(#krate::__private::fragment(#json));
        }
        match self {
            Ty::Json(_) => unreachable!("a JSON fragment is always known"),
            Ty::Array { items, len, unique } => {
                let items = items.to_expr(krate);
                let len = match len {
                    Some(Len::Known(n)) => {
                        let n = usize::try_from(*n).unwrap_or(usize::MAX);
                        quote!(::core::option::Option::Some(#n))
                    }
                    Some(Len::Expr(expr)) => quote!(::core::option::Option::Some(#expr)),
                    None => quote!(::core::option::Option::None),
                };
                let max = len.clone();
                quote!(#krate::__private::array(#items, #len, #max, #unique))
            }
            Ty::Map(values) => {
                let values = values.to_expr(krate);
                quote!(#krate::__private::map(#values))
            }
            Ty::Nullable(inner) => {
                let inner = inner.to_expr(krate);
                quote!(#krate::__private::nullable(#inner))
            }
            Ty::Dynamic(ty, span) => {
                quote_spanned!(*span=> <#ty as #krate::__private::ToolSchema>::tool_schema())
            }
            Ty::Wide(signed) => quote!(#krate::__private::wide_integer(#signed)),
            Ty::Keyed {
                inner,
                keys,
                runtime_default,
            } => {
                let inner = inner.to_expr(krate);
                let names = keys.iter().map(|(key, _)| key);
                let values = keys.iter().map(|(_, value)| value);
                let schema =
                    quote!(#krate::__private::with_keys(#inner, &[#((#names, #values)),*]));
                match runtime_default {
                    Some((expr, owned)) => quote! {
                        #krate::__private::with_default(#schema, &{
                            let __default: #owned = ::core::convert::Into::into(#expr);
                            __default
                        })
                    },
                    None => schema,
                }
            }
        }
    }

    /// Where this schema says `uniqueItems`, or holds a user type (which checks its own
    /// values: `ToolSchema::check_value`), as the runtime's `__private::Unique`; `None` if
    /// nowhere.
    pub(crate) fn unique(&self, krate: &TokenStream) -> Option<TokenStream> {
        let shape = |variant: &str, inner: TokenStream| {
            let variant = proc_macro2::Ident::new(variant, Span::call_site());
            quote!(#krate::__private::Unique::#variant(&#inner))
        };
        match self {
            Ty::Array { items, unique, .. } => {
                let inner = items.unique(krate);
                if *unique {
                    let inner = inner.unwrap_or_else(|| quote!(#krate::__private::Unique::None));
                    Some(shape("Set", inner))
                } else {
                    inner.map(|inner| shape("Items", inner))
                }
            }
            Ty::Map(values) => values.unique(krate).map(|inner| shape("Values", inner)),
            Ty::Nullable(inner) | Ty::Keyed { inner, .. } => inner.unique(krate),
            Ty::Dynamic(ty, span) => Some(
                quote_spanned!(*span=> #krate::__private::Unique::Type(<#ty as #krate::__private::ToolSchema>::check_value)),
            ),
            // An `f32` (its bounds are `f32::MAX`): checked where serde's buffer would
            // take a number past them as infinity.
            Ty::Json(pairs)
                if pairs
                    .iter()
                    .any(|(key, value)| *key == "maximum" && value == "3.4028234663852886e38") =>
            {
                Some(quote!(#krate::__private::Unique::F32))
            }
            Ty::Json(_) | Ty::Wide(_) => None,
        }
    }
}
