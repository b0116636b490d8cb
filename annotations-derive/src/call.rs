//! The call of a handler: a function beside it, `__annotations_call_{name}`, that reads the
//! arguments object under the same rules as the input schema, supplies `#[context]`
//! parameters, runs the handler and turns what it returns into a tool result. `tools!` puts
//! one in the listing for each entry.
//!
//! Every call takes the handler itself as its first argument (from `tools!`, which knows the
//! handler's path and binds the two with `__private::bind`). A handler without `self` is
//! called through that argument, so the call works whether the handler is a free function or
//! an associated function, which the macro cannot tell apart. A method is called through it
//! too where its type can be written as a function pointer (then every handler of the same
//! signature shares one implementation of the listing's call), else as `Self::name`. An
//! `async fn` without `self` cannot be passed as a function pointer (its return type has no
//! name), so it is called by name, as a free function.
//!
//! A method's state is its own type, which it gets as `&self` with nothing to convert, and its
//! call is not generic; a function without `self` takes any state its `#[context]` parameters
//! can be had from. The call's lifetime appears in no bound (`for<'__x>` bounds instead), so
//! the call is a function pointer for every lifetime, as a listing holds it.

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};

use crate::ast::{Handler, Param, Receiver};
use crate::descriptor::Descriptor;
use crate::expand::unraw;
use crate::schema::{Ty, flatten, static_lifetimes};

/// The name of the call function beside `handler`.
pub(crate) fn call_name(handler: &Ident) -> Ident {
    format_ident!(
        "__annotations_call_{}",
        unraw(handler),
        span = handler.span()
    )
}

/// The call of a handler that cannot be called: its `__S` is bound by `bound`, which is never
/// met for a handler that cannot be called (the error at the `tools!` entry says why), or by
/// nothing for the placeholder emitted beside a handler whose attribute has errors.
pub(crate) fn uncallable(
    handler: &Handler,
    krate: &TokenStream,
    bound: &TokenStream,
    attrs: &TokenStream,
) -> TokenStream {
    let vis = &handler.vis;
    let call = call_name(&handler.name);
    // In a trait, a generic method would make the trait unusable as `dyn`.
    let sized = if handler.has_receiver {
        quote!(where Self: ::core::marker::Sized)
    } else {
        quote!()
    };
    quote! {
        #attrs
        #vis fn #call<'__a, __H, __S: ?::core::marker::Sized + #bound>(
            _: __H,
            _: &'__a __S,
            _: ::core::option::Option<#krate::__private::Map>,
            _: #krate::Context<'__a>,
            _: #krate::__private::Now,
        ) -> #krate::CallFuture<'__a> #sized {
            #krate::__private::not_callable()
        }
    }
}

/// Why a handler cannot be called from a listing, as the name of a never-implemented trait
/// in the runtime's `__private` whose message says so.
fn not_callable(handler: &Handler) -> Option<&'static str> {
    if handler.receiver == Receiver::Exclusive {
        Some("TakesMutSelf")
    } else if handler.receiver == Receiver::Owned {
        Some("TakesSelf")
    } else if handler.is_unsafe {
        Some("IsUnsafe")
    } else if !handler.generics.is_empty() {
        Some("IsGeneric")
    } else if handler.params.iter().any(|param| !param.cfgs.is_empty()) {
        Some("HasCfgParameters")
    } else {
        None
    }
}

pub(crate) fn expand(
    handler: &Handler,
    descriptor: &Descriptor,
    krate: &TokenStream,
) -> TokenStream {
    let tool_name = descriptor.name();
    let vis = &handler.vis;
    let name = &handler.name;
    let call = call_name(name);
    let carried = &handler.carried_attrs;
    let attrs = quote! {
        #[doc(hidden)]
        #(#carried)*
        #[allow(clippy::all, clippy::pedantic, clippy::nursery, non_snake_case, unused_mut)]
    };
    let map = quote!(::core::option::Option<#krate::__private::Map>);

    if let Some(reason) = not_callable(handler) {
        let reason = Ident::new(reason, name.span());
        return uncallable(handler, krate, &quote!(#krate::__private::#reason), &attrs);
    }

    if let Some(shared) = shared_sync_call(handler, descriptor, krate, &attrs, &map) {
        return shared;
    }
    let method = handler.receiver == Receiver::Shared;
    // A method's state is its type. A function without `self` takes any `__S` its `#[context]`
    // parameters can be had from, so that it fits the listing of any server.
    let state = if method { quote!(Self) } else { quote!(__S) };
    let mut inputs = descriptor.inputs();
    let mut reads = Vec::new();
    let mut keys = Vec::new();
    let mut bindings = Vec::new();
    let mut arguments = Vec::new();
    let mut bounds = Vec::new();
    for (index, param) in handler.params.iter().enumerate() {
        let binding = format_ident!("__p{}", index);
        let span = param
            .name
            .as_ref()
            .map_or_else(Span::call_site, Ident::span);
        if param.context {
            let ty = with_lifetime(&param.ty, "__a");
            if !method {
                bounds.push(context_bound(param, span, krate));
            }
            reads.push(quote_spanned! {span=>
                let #binding = #krate::__private::collect(
                    #krate::__private::context::<#state, #ty>(__state, &__context),
                    &mut __errors,
                );
            });
            arguments.push(quote!(#binding));
            bindings.push((binding, false));
            continue;
        }
        let (Some(ident), Some(input)) = (&param.name, inputs.next()) else {
            continue;
        };
        let read = ModelParam::new(ident, param, input);
        let (key, expected, required, owned) =
            (&read.key, &read.expected, read.required, &read.owned);
        keys.push(key.clone());
        let take = if read.set {
            quote!(take_set)
        } else {
            quote!(take)
        };
        reads.push(quote_spanned! {span=>
            let #binding = #krate::__private::collect(
                __args.#take::<#owned>(#key, #expected, #required),
                &mut __errors,
            );
        });
        arguments.push(read.pass.lend(&binding));
        bindings.push((binding, read.pass == Pass::RefMut));
    }
    let patterns = bindings.iter().map(|(binding, mutable)| {
        if *mutable {
            quote!(::core::option::Option::Some(mut #binding))
        } else {
            quote!(::core::option::Option::Some(#binding))
        }
    });
    let names = bindings.iter().map(|(binding, _)| binding);
    // A handler without `self` that is not `async` is called through a pointer to it (see the
    // module's docs); otherwise `__H`, the handler's type, goes unused.
    let pointer = if method || handler.is_async {
        None
    } else {
        pointer_type(handler)
    };
    let h = if pointer.is_some() {
        quote!()
    } else {
        quote!(__H,)
    };
    let (handler_param, invoke) = if method {
        (
            quote!(_: __H),
            quote!(Self::#name(__state, #(#arguments),*)),
        )
    } else if let Some(pointer) = &pointer {
        (
            quote!(__handler: #pointer),
            quote!(__handler(#(#arguments),*)),
        )
    } else {
        (quote!(_: __H), quote!(#name(#(#arguments),*)))
    };
    let generics = if method {
        bounds.push(quote!(Self: ::core::marker::Sized));
        quote!(<'__a, #h>)
    } else {
        quote!(<'__a, #h __S: ?::core::marker::Sized + ::core::marker::Sync>)
    };
    let where_clause = if bounds.is_empty() {
        quote!()
    } else {
        quote!(where #(#bounds),*)
    };
    // The handler runs with a panic turned into a failed result.
    let run = if handler.is_async {
        quote!(#krate::__private::catch_async(#tool_name, #invoke).await)
    } else {
        quote!(#krate::__private::catch(#tool_name, move || #invoke))
    };
    let output_span = output_span(handler);
    let convert = quote_spanned! {output_span=>
        #krate::IntoToolResult::into_tool_result(__result)
    };
    // A synchronous handler runs in the call itself, whose future is then ready at once; an
    // `async` one runs in the future. `ready` makes a result what the body returns.
    let ready = |value: TokenStream| {
        if handler.is_async {
            quote!(#value)
        } else {
            quote!(#krate::CallFuture::ready(#value))
        }
    };
    let failed = ready(quote!(#krate::__private::failed(__errors)));
    let panicked = ready(quote!(__failed));
    let done = ready(convert);
    let body = quote! {
        let _ = &__state;
        let _ = &__context;
        let mut __args = #krate::__private::Args::new(__arguments);
        let mut __errors = ::std::vec::Vec::new();
        #(#reads)*
        #krate::__private::collect(__args.finish(&[#(#keys),*]), &mut __errors);
        if !__errors.is_empty() {
            return #failed;
        }
        let (#(#patterns,)*) = (#(#names,)*) else {
            return #failed;
        };
        let __result = match #run {
            ::core::result::Result::Ok(__result) => __result,
            ::core::result::Result::Err(__failed) => return #panicked,
        };
        #done
    };
    let body = if handler.is_async {
        quote!(#krate::CallFuture::new(async move { #body }))
    } else {
        body
    };
    // Whether the call finishes before it returns, as its type tells the listing.
    let completion = if handler.is_async {
        format_ident!("Later")
    } else {
        format_ident!("Now")
    };
    quote! {
        #attrs
        #vis fn #call #generics(
            #handler_param,
            __state: &'__a #state,
            __arguments: #map,
            __context: #krate::Context<'__a>,
            _: #krate::__private::#completion,
        ) -> #krate::CallFuture<'__a> #where_clause {
            #body
        }
    }
}

/// The call of a synchronous handler with at most eight arguments from the model, through
/// the runtime's `call_sync`, which is compiled once for every handler of the same signature:
/// what is generated for each handler is only a closure that gets the `#[context]` values and
/// calls it. (`None` for any other handler, which gets a call of its own.)
fn shared_sync_call(
    handler: &Handler,
    descriptor: &Descriptor,
    krate: &TokenStream,
    attrs: &TokenStream,
    map: &TokenStream,
) -> Option<TokenStream> {
    let model: Vec<&Param> = handler
        .params
        .iter()
        .filter(|param| !param.context)
        .collect();
    if handler.is_async || model.len() > 8 || model.iter().any(|param| param.name.is_none()) {
        return None;
    }
    let method = handler.receiver == Receiver::Shared;
    // A method is called on the listing's state, which is its type; the handler comes as a
    // function pointer where its type can be written (handlers of one signature then share
    // their code in the listing), else as itself and the method is called by name.
    let pointer = if method {
        pointer_type(handler)
    } else {
        Some(pointer_type(handler)?)
    };
    let state = if method { quote!(Self) } else { quote!(__S) };
    let tool_name = descriptor.name();
    let mut inputs = descriptor.inputs();
    let vis = &handler.vis;
    let name = &handler.name;
    let call = call_name(name);
    let mut specs = Vec::new();
    let mut owned_types = Vec::new();
    let mut model_bindings = Vec::new();
    let mut all_by_value = true;
    let mut bounds = Vec::new();
    let mut context_reads = Vec::new();
    let mut arguments = Vec::new();
    let mut first_type_span = None;
    for (index, param) in handler.params.iter().enumerate() {
        let binding = format_ident!("__p{}", index);
        let span = param
            .name
            .as_ref()
            .map_or_else(Span::call_site, Ident::span);
        if param.context {
            let ty = with_lifetime(&param.ty, "__a");
            if !method {
                bounds.push(context_bound(param, span, krate));
            }
            context_reads.push(quote_spanned! {span=>
                let #binding = <#ty as #krate::FromContext<'__a, #state>>::from_context(__state, __context)?;
            });
            arguments.push(quote!(#binding));
            continue;
        }
        let read = ModelParam::new(param.name.as_ref()?, param, inputs.next()?);
        let (key, expected, required, set, owned) = (
            &read.key,
            &read.expected,
            read.required,
            read.set,
            &read.owned,
        );
        specs.push(quote!(#krate::__private::Spec { name: #key, expected: #expected, required: #required, set: #set }));
        if first_type_span.is_none() {
            first_type_span = Some(crate::valid::expr_span(&param.ty));
        }
        owned_types.push(quote_spanned!(span=> #owned));
        all_by_value &= read.pass == Pass::Value;
        let mutable = if read.pass == Pass::RefMut {
            quote!(mut)
        } else {
            quote!()
        };
        model_bindings.push(quote!(#mutable #binding));
        arguments.push(read.pass.lend(&binding));
    }
    if method {
        bounds.push(quote!(Self: ::core::marker::Sized));
    }
    let (handler_param, handler_arg, handler_ty, invoke, h) = match (&pointer, method) {
        (Some(pointer), true) => (
            quote!(__handler: #pointer),
            quote!(__handler),
            quote!(#pointer),
            quote!(__h(__state, #(#arguments),*)),
            quote!(),
        ),
        (Some(pointer), false) => (
            quote!(__handler: #pointer),
            quote!(__handler),
            quote!(#pointer),
            quote!(__h(#(#arguments),*)),
            quote!(__S: ?::core::marker::Sized + ::core::marker::Sync,),
        ),
        (None, _) => (
            quote!(_: __H),
            quote!(()),
            quote!(()),
            quote!(Self::#name(__state, #(#arguments),*)),
            quote!(__H,),
        ),
    };
    let where_clause = if bounds.is_empty() {
        quote!()
    } else {
        quote!(where #(#bounds),*)
    };
    // The tuple of the parameters' types carries the first one's span: a type serde cannot
    // read is an error there, not on the attribute.
    let mut params = proc_macro2::Group::new(Delimiter::Parenthesis, quote!(#(#owned_types,)*));
    if let Some(span) = first_type_span {
        params.set_span(span);
    }
    let output_span = output_span(handler);
    // The result's type, inferred, carries the return type's span: a type that cannot be a
    // result is an error there.
    let result_ty = quote_spanned!(output_span=> _);
    // A handler whose parameters all come from the model, taken as read, and that is called
    // through a pointer with Rust's ABI needs no code of its own: the runtime's adapter for
    // its arity calls it. Otherwise a closure does.
    let run = if pointer.is_some()
        && all_by_value
        && context_reads.is_empty()
        && handler.abi.is_empty()
    {
        let adapter = format_ident!(
            "{}{}",
            if method { "method" } else { "free" },
            model_bindings.len()
        );
        quote_spanned!(output_span=> #krate::__private::#adapter)
    } else {
        let result = quote_spanned!(output_span=> ::core::result::Result::Ok(#invoke));
        // Each of the closure's parameters is named only where it is used.
        let used = |used: bool, name: &str| {
            if used {
                let ident = Ident::new(name, Span::call_site());
                quote!(#ident)
            } else {
                quote!(_)
            }
        };
        let state_binding = used(method || !context_reads.is_empty(), "__state");
        let context_binding = used(!context_reads.is_empty(), "__context");
        let h_binding = used(pointer.is_some(), "__h");
        quote! {
            |#state_binding, #context_binding, (#(#model_bindings,)*), #h_binding| {
                #(#context_reads)*
                #result
            }
        }
    };
    Some(quote! {
        #attrs
        #vis fn #call<'__a, #h>(
            #handler_param,
            __state: &'__a #state,
            __arguments: #map,
            __context: #krate::Context<'__a>,
            _: #krate::__private::Now,
        ) -> #krate::CallFuture<'__a> #where_clause {
            #krate::__private::call_sync::<#state, #params, #handler_ty, #result_ty>(
                __state,
                __arguments,
                __context,
                #tool_name,
                &[#(#specs),*],
                #handler_arg,
                #run,
            )
        }
    })
}

/// How a call reads one parameter the model supplies.
struct ModelParam {
    key: String,
    /// `Option<&str>`: what its schema says, for messages.
    expected: TokenStream,
    required: bool,
    set: bool,
    owned: TokenStream,
    pass: Pass,
}

impl ModelParam {
    /// The parameter named `ident`, with the schema the descriptor read for it.
    fn new(ident: &Ident, param: &Param, (schema, optional): (&Ty, bool)) -> Self {
        let expected = match schema.describe() {
            Some(text) => quote!(::core::option::Option::Some(#text)),
            None => quote!(::core::option::Option::None),
        };
        let (owned, pass) = owned_type(param);
        ModelParam {
            key: unraw(ident),
            expected,
            required: !optional,
            set: schema.is_set(),
            owned,
            pass,
        }
    }
}

impl Pass {
    /// How the read value is handed to the handler.
    fn lend(self, binding: &Ident) -> TokenStream {
        match self {
            Pass::Value => quote!(#binding),
            Pass::Ref => quote!(&#binding),
            Pass::RefMut => quote!(&mut #binding),
            Pass::OptionDeref => quote!(#binding.as_deref()),
            Pass::OptionRef => quote!(#binding.as_ref()),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Value,
    Ref,
    RefMut,
    /// `Option<&str>`, `Option<&[T]>`: read as `Option<String>`, passed `.as_deref()`.
    OptionDeref,
    /// `Option<&T>`: read as `Option<T>`, passed `.as_ref()`.
    OptionRef,
}

/// The type an argument is read into, and how the handler takes it: `&str` is read as a
/// `String` and passed as `&s`, `&[T]` as a `Vec<T>`, `&T` as a `T`.
fn owned_type(param: &Param) -> (TokenStream, Pass) {
    let tokens = flatten(param.ty.clone());
    // `Option<&T>`: an `Option` of the owned type, lent with `as_deref` or `as_ref`.
    if let [
        TokenTree::Ident(option),
        TokenTree::Punct(open),
        inner @ ..,
        TokenTree::Punct(close),
    ] = tokens.as_slice()
    {
        if option == "Option"
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
    if let [TokenTree::Punct(tick), TokenTree::Ident(_), after @ ..] = rest {
        if tick.as_char() == '\'' {
            rest = after;
        }
    }
    let mut pass = Pass::Ref;
    if let [TokenTree::Ident(word), after @ ..] = rest {
        if word == "mut" {
            rest = after;
            pass = Pass::RefMut;
        }
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
fn with_lifetime(ty: &TokenStream, lifetime: &str) -> TokenStream {
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
fn pointer_type(handler: &Handler) -> Option<TokenStream> {
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
fn context_bound(param: &Param, span: Span, krate: &TokenStream) -> TokenStream {
    let ty = with_lifetime(&param.ty, "__x");
    quote_spanned!(span=> for<'__x> #ty: #krate::FromContext<'__x, __S>)
}

/// Where the handler's result type is written (its name, if it has none): errors about what
/// the handler returns point there.
fn output_span(handler: &Handler) -> Span {
    handler
        .output
        .as_ref()
        .and_then(|output| output.clone().into_iter().next())
        .map_or_else(|| handler.name.span(), |token| token.span())
}
