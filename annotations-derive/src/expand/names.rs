//! The names generated code gives what it writes beside a handler: `LIST_NOTES` for the
//! `_ANNOTATIONS` and `_TOOL` constants, `__ANNOTATIONS_CALL_LIST_NOTES` for the call and
//! `__ANNOTATIONS_READ_LIST_NOTES` for what it reads, `__ANNOTATIONS_RESOLVE_LIST_NOTES` for its
//! resolver.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::leaf::tokens::unraw;
use crate::model::handler::Handler;

/// `list_notes` -> `LIST_NOTES`, `listNotes` -> `LIST_NOTES`, `getURLForNote` ->
/// `GET_URL_FOR_NOTE`: a word starts at an upper-case letter after a lower-case one or a
/// digit, and at the last upper-case letter of an acronym followed by a lower-case one.
pub(crate) fn upper_snake(function: &Ident) -> String {
    let name = unraw(function);
    let chars: Vec<char> = name.chars().collect();
    let mut upper = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if i > 0 && c.is_uppercase() && !upper.ends_with('_') {
            let previous = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if previous.is_lowercase()
                || previous.is_ascii_digit()
                || (previous.is_uppercase() && next_lower)
            {
                upper.push('_');
            }
        }
        upper.extend(c.to_uppercase());
    }
    upper
}

/// The name of the call beside `handler` (a constant or a function; upper-case, so that a
/// crate that forbids `non_upper_case_globals` can still use `#[tool]`).
pub(crate) fn call_name(handler: &Ident) -> Ident {
    format_ident!(
        "__ANNOTATIONS_CALL_{}",
        upper_snake(handler),
        span = handler.span()
    )
}

/// The name of the constant beside `handler` that says what its call reads.
pub(crate) fn read_name(handler: &Ident) -> Ident {
    format_ident!(
        "__ANNOTATIONS_READ_{}",
        upper_snake(handler),
        span = handler.span()
    )
}

/// The name of the resolver beside `handler` (`tools/resolve`): a function, or a constant
/// saying there is none.
pub(crate) fn resolve_name(handler: &Ident) -> Ident {
    format_ident!(
        "__ANNOTATIONS_RESOLVE_{}",
        upper_snake(handler),
        span = handler.span()
    )
}

/// The attributes of what is generated beside a handler (its call, what it reads, its
/// resolver): hidden, with the handler's own `#[cfg]` and the like, and no lints of the
/// user's applied to it.
pub(crate) fn beside_attrs(handler: &Handler) -> TokenStream {
    let carried = &handler.carried_attrs;
    quote! {
        #[doc(hidden)]
        #(#carried)*
        #[allow(clippy::all, clippy::pedantic, clippy::nursery, non_snake_case, unused_mut)]
    }
}

/// `allow(non_upper_case_globals)` on what is named after a handler whose name is not ASCII,
/// whose upper-case form the lint may still find wanting; nothing for any other.
pub(crate) fn upper_case_allow(handler: &Ident) -> TokenStream {
    if upper_snake(handler).is_ascii() {
        quote!()
    } else {
        quote!(#[allow(non_upper_case_globals)])
    }
}
