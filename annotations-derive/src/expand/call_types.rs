//! The types a handler's call writes: the owned type an argument is read into and how it is
//! lent to the handler, a `#[context]` parameter's type with the call's lifetime and its bound,
//! the handler's type as a function pointer, where its result type is written, and the probe
//! that refuses a `Json<T>` behind an alias.

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};

use crate::leaf::tokens::flatten;
use crate::model::descriptor::Descriptor;
use crate::model::handler::Handler;
use crate::model::params::{Param, Receiver};
use crate::model::schema::static_lifetimes;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pass {
    Value,
    Ref,
    RefMut,
    /// `Option<&str>`, `Option<&[T]>`: read as `Option<String>`, passed `.as_deref()`.
    OptionDeref,
    /// `Option<&T>`: read as `Option<T>`, passed `.as_ref()`.
    OptionRef,
}

impl Pass {
    /// How the read value is handed to the handler.
    pub(crate) fn lend(self, binding: &Ident) -> TokenStream {
        match self {
            Pass::Value => quote!(#binding),
            Pass::Ref => quote!(&#binding),
            Pass::RefMut => quote!(&mut #binding),
            Pass::OptionDeref => quote!(#binding.as_deref()),
            Pass::OptionRef => quote!(#binding.as_ref()),
        }
    }
}

/// The type an argument is read into, and how the handler takes it: `&str` is read as a
/// `String` and passed as `&s`, `&[T]` as a `Vec<T>`, `&T` as a `T`.
pub(crate) fn owned_type(param: &Param) -> (TokenStream, Pass) {
    let tokens = flatten(param.ty.clone());
    // `Option<&T>`: an `Option` of the owned type, lent with `as_deref` or `as_ref`.
    if let [
        TokenTree::Ident(option),
        TokenTree::Punct(open),
        inner @ ..,
        TokenTree::Punct(close),
    ] = tokens.as_slice()
        && option == "Option"
        && open.as_char() == '<'
        && close.as_char() == '>'
        && matches!(inner.first(), Some(TokenTree::Punct(p)) if p.as_char() == '&')
    {
        let (owned, pass) = reference_type(inner);
        let pass = match (pass, inner.last()) {
            (Pass::RefMut, _) => Pass::Value,
            (_, Some(TokenTree::Ident(word))) if word == "str" => Pass::OptionDeref,
            (_, Some(TokenTree::Group(g))) if g.delimiter() == Delimiter::Bracket => {
                Pass::OptionDeref
            }
            _ => Pass::OptionRef,
        };
        if pass != Pass::Value {
            return (quote!(::core::option::Option<#owned>), pass);
        }
    }
    if !matches!(tokens.first(), Some(TokenTree::Punct(amp)) if amp.as_char() == '&') {
        return (static_lifetimes(param.ty.clone()), Pass::Value);
    }
    reference_type(&tokens)
}

/// `&T`, `&'a mut T`: the owned type to read and how to lend it.
fn reference_type(tokens: &[TokenTree]) -> (TokenStream, Pass) {
    let rest = &tokens[1..];
    let mut rest = rest;
    if let [TokenTree::Punct(tick), TokenTree::Ident(_), after @ ..] = rest
        && tick.as_char() == '\''
    {
        rest = after;
    }
    let mut pass = Pass::Ref;
    if let [TokenTree::Ident(word), after @ ..] = rest
        && word == "mut"
    {
        rest = after;
        pass = Pass::RefMut;
    }
    let owned = match rest {
        [TokenTree::Ident(word)] if word == "str" => quote!(::std::string::String),
        [TokenTree::Group(group)]
            if group.delimiter() == Delimiter::Bracket
                && !group
                    .stream()
                    .into_iter()
                    .any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';')) =>
        {
            let inner = static_lifetimes(group.stream());
            quote!(::std::vec::Vec<#inner>)
        }
        other => static_lifetimes(other.iter().cloned().collect()),
    };
    (owned, pass)
}

/// A `#[context]` parameter's type with every lifetime the call's `'__a` (an elided `&T`
/// becomes `&'__a T`).
pub(crate) fn with_lifetime(ty: &TokenStream, lifetime: &str) -> TokenStream {
    let tick = proc_macro2::Punct::new('\'', proc_macro2::Spacing::Joint);
    let name = Ident::new(lifetime, Span::call_site());
    let lifetime_tokens = quote!(#tick #name);
    let mut out = Vec::new();
    let tokens: Vec<TokenTree> = flatten(ty.clone());
    let mut i = 0;
    while i < tokens.len() {
        let token = &tokens[i];
        match token {
            TokenTree::Punct(p) if p.as_char() == '&' => {
                out.push(token.clone());
                let has_lifetime =
                    matches!(tokens.get(i + 1), Some(TokenTree::Punct(t)) if t.as_char() == '\'');
                if !has_lifetime {
                    out.extend(lifetime_tokens.clone());
                }
            }
            TokenTree::Punct(p) if p.as_char() == '\'' => {
                out.extend(lifetime_tokens.clone());
                i += 1; // the lifetime's name
            }
            // The parameters of a function pointer or closure type keep their own lifetimes.
            TokenTree::Group(group)
                if group.delimiter() == Delimiter::Parenthesis
                    && matches!(out.last(), Some(TokenTree::Ident(word))
                        if ["fn", "Fn", "FnMut", "FnOnce"].iter().any(|w| word == w)) =>
            {
                out.push(token.clone());
            }
            TokenTree::Group(group) => {
                let mut new = proc_macro2::Group::new(
                    group.delimiter(),
                    with_lifetime(&group.stream(), lifetime),
                );
                new.set_span(group.span());
                out.push(TokenTree::Group(new));
            }
            other => out.push(other.clone()),
        }
        i += 1;
    }
    out.into_iter().collect()
}

/// The handler's type as a function pointer: `for<'a> extern "C" fn(T, U) -> R` for a
/// function without `self`, `fn(&Self, T) -> R` for a `&self` method; `None` where it cannot
/// be written: an `impl Trait` in the result, or for a method, lifetime parameters or a result
/// that borrows (elision cannot tie a result to `&Self` in a pointer type).
pub(crate) fn pointer_type(handler: &Handler) -> Option<TokenStream> {
    let method = handler.receiver == Receiver::Shared;
    let output = handler.output.clone().unwrap_or_default();
    let unwritable = flatten(output).iter().any(|token| match token {
        TokenTree::Ident(word) => word == "impl",
        TokenTree::Punct(p) => method && (p.as_char() == '&' || p.as_char() == '\''),
        _ => false,
    });
    if unwritable || (method && !handler.lifetimes.is_empty()) {
        return None;
    }
    let receiver = method.then(|| quote!(&Self,));
    let types = handler.params.iter().map(|param| &param.ty);
    let abi = &handler.abi;
    let output = handler.output.as_ref().map(|output| quote!(-> #output));
    let lifetimes = &handler.lifetimes;
    let binder = if lifetimes.is_empty() {
        quote!()
    } else {
        let lifetimes = lifetimes.iter().map(|name| {
            let tick = proc_macro2::Punct::new('\'', proc_macro2::Spacing::Joint);
            quote!(#tick #name)
        });
        quote!(for<#(#lifetimes),*>)
    };
    Some(quote!(#binder #abi fn(#receiver #(#types),*) #output))
}

/// The bound a call without `self` puts on its state for a `#[context]` parameter, higher-ranked
/// (`for<'__x> &'__x Store: FromContext<'__x, __S>`) so that the call's own lifetime stays
/// late-bound, as a call a listing holds as a function pointer needs.
pub(crate) fn context_bound(ty: &TokenStream, span: Span, krate: &TokenStream) -> TokenStream {
    let ty = with_lifetime(ty, "__x");
    quote_spanned!(span=> for<'__x> #ty: #krate::__private::FromContext<'__x, __S>)
}

/// Where the handler's result type is written (its name, if it has none): errors about what
/// the handler returns point there.
pub(crate) fn output_span(handler: &Handler) -> Span {
    handler
        .output
        .as_ref()
        .and_then(|output| output.clone().into_iter().next())
        .map_or_else(|| handler.name.span(), |token| token.span())
}

/// Whether a type's tokens hold `impl Trait` (which a probe cannot name).
pub(crate) fn mentions_impl(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|token| match token {
        TokenTree::Ident(word) => word == "impl",
        TokenTree::Group(group) => mentions_impl(&group.stream()),
        _ => false,
    })
}

/// A `Json<T>` behind an alias would lose its `outputSchema` silently: refused, at the return
/// type, by a probe in a closure that never runs (none for a type that plainly is not one).
pub(crate) fn output_probe(
    handler: &Handler,
    descriptor: &Descriptor,
    krate_at_output: &TokenStream,
    output_span: Span,
) -> TokenStream {
    match &handler.output {
        Some(output)
            if !descriptor.writes_json() && !mentions_impl(output) && !plainly_not_json(output) =>
        {
            let output = static_lifetimes(output.clone());
            quote_spanned! {output_span=>
                let _ = || {
                    // Used for every type but a `Json<T>` (whose own `check_output` is the
                    // error): no warning beside that error.
                    #[allow(unused_imports)]
                    use #krate_at_output::__private::Plain as _;
                    (&#krate_at_output::__private::OutputProbe::<#output>::new()).check_output();
                };
            }
        }
        _ => quote!(),
    }
}

/// Whether a return type is one that cannot be `Json<T>` behind an alias: a standard type
/// written by its own name (`String`, `&'static str`, `u64`, `()`), so that no probe of it is
/// emitted (a type checked per tool, for nothing).
fn plainly_not_json(output: &TokenStream) -> bool {
    const PLAIN: [&str; 17] = [
        "String", "str", "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
        "i32", "i64", "i128", "isize", "f64",
    ];
    let tokens: Vec<TokenTree> = crate::leaf::tokens::flatten(output.clone());
    let words: Vec<String> = tokens
        .iter()
        .filter_map(|token| match token {
            TokenTree::Ident(ident) => Some(ident.to_string()),
            _ => None,
        })
        .collect();
    match (tokens.as_slice(), words.as_slice()) {
        // `()`
        ([TokenTree::Group(group)], []) => group.stream().is_empty(),
        // `String`, `u64`, `&str`, `&'static str`
        (_, [word]) | (_, [_, word]) if PLAIN.contains(&word.as_str()) => tokens
            .iter()
            .all(|token| !matches!(token, TokenTree::Punct(p) if p.as_char() == '<' || p.as_char() == ':')),
        _ => false,
    }
}
