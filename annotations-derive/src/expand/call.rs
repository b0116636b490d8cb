//! The call of a handler: beside it, `__ANNOTATIONS_READ_{NAME}`, a constant that says what the
//! call reads (the tool's name and a `Spec` for each parameter, the rules of the input schema),
//! and `__ANNOTATIONS_CALL_{NAME}`, which reads the arguments object by them, supplies
//! `#[context]` parameters, runs the handler and turns what it returns into a tool result.
//! `tools!` binds the two to the handler in the listing for each entry.
//!
//! Most methods (parameters all from the model, taken as read, a result type that can be
//! written) have no code of their own: their call is a constant naming the runtime's
//! `method_call`, one instance of which serves every handler of the same signature. That is
//! most of what a listing of many tools costs to compile (see BENCHMARKS.md).
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

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};

use crate::expand::call_types::{
    Pass, context_bound, mentions_impl, output_span, owned_type, pointer_type, with_lifetime,
};
use crate::expand::descriptor::check_tokens;
use crate::expand::names::{call_name, read_name, upper_case_allow};
use crate::leaf::tokens::{expr_span, respan};
use crate::model::descriptor::{DefaultRead, Descriptor, Property};
use crate::model::handler::Handler;
use crate::model::params::{Param, Receiver};
use crate::model::schema::static_lifetimes;

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
    let reads = reads_const(handler, krate, attrs, "", &[], &TokenStream::new());
    // In a trait, a generic method would make the trait unusable as `dyn`.
    let sized = if handler.has_receiver() {
        quote!(where Self: ::core::marker::Sized)
    } else {
        quote!()
    };
    quote! {
        #reads
        #attrs
        #[allow(non_snake_case)]
        #vis fn #call<'__a, __H, __S: ?::core::marker::Sized + #bound>(
            _: __H,
            _: &'__a __S,
            _: ::core::option::Option<#krate::__private::Map>,
            _: #krate::__private::Context<'__a>,
            _: &'static #krate::__private::Reads,
        ) -> #krate::__private::CallFuture<'__a> #sized {
            #krate::__private::not_callable()
        }
    }
}

/// The constant beside a handler that says what its call reads: the tool's name and how each
/// parameter is read, as data (`__private::Reads`). It also carries the checks rustc makes of
/// the handler's literal defaults and result type, in closures that never run.
fn reads_const(
    handler: &Handler,
    krate: &TokenStream,
    attrs: &TokenStream,
    tool_name: &str,
    specs: &[TokenStream],
    checks: &TokenStream,
) -> TokenStream {
    let vis = &handler.vis;
    let read = read_name(&handler.name);
    let allow = upper_case_allow(&handler.name);
    quote! {
        #attrs
        #allow
        #vis const #read: #krate::__private::Reads = {
            #checks
            #krate::__private::Reads { tool: #tool_name, specs: &[#(#specs),*] }
        };
    }
}

/// How many parameters from the model a listed handler may take: the last arity of the
/// runtime's one list (`annotations/src/call/arity.rs`), which reads them as a tuple. Past it,
/// the handler keeps its constants and is refused where it is listed, like the handlers below.
/// (`tests/calls.rs` calls a handler of this many; `tests/ui/uncallable/` lists one more.)
const MAX_MODEL_PARAMETERS: usize = 16;

/// Why a handler cannot be called from a listing, as the name of a never-implemented trait
/// in the runtime's `__private` whose message says so.
fn not_callable(handler: &Handler) -> Option<&'static str> {
    let model = handler.params.iter().filter(|param| !param.context).count();
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
    } else if model > MAX_MODEL_PARAMETERS {
        Some("TooManyParameters")
    } else {
        None
    }
}

pub(crate) fn expand(
    handler: &Handler,
    descriptor: &Descriptor,
    krate: &TokenStream,
) -> TokenStream {
    let name = &handler.name;
    let carried = &handler.carried_attrs;
    let attrs = quote! {
        #[doc(hidden)]
        #(#carried)*
        #[allow(clippy::all, clippy::pedantic, clippy::nursery, non_snake_case, unused_mut)]
    };
    if let Some(reason) = not_callable(handler) {
        let reason = Ident::new(reason, name.span());
        return uncallable(handler, krate, &quote!(#krate::__private::#reason), &attrs);
    }
    let Some(params) = CallParam::read(handler, descriptor, krate) else {
        // The descriptor reported why a parameter has no schema; nothing to call.
        return uncallable(handler, krate, &quote!(), &attrs);
    };
    let method = handler.receiver == Receiver::Shared;
    // A method's state is its type. A function without `self` takes any `__S` its `#[context]`
    // parameters can be had from, so that it fits the listing of any server.
    let state = if method { quote!(Self) } else { quote!(__S) };
    // A synchronous handler comes as a function pointer where its type can be written (then
    // handlers of one signature share their code in the listing), else as nothing, and it is
    // called by name (see the module's docs).
    let pointer = if handler.is_async {
        None
    } else {
        pointer_type(handler)
    };

    let mut specs = Vec::new();
    let mut owned_types = Vec::new();
    let mut bindings = Vec::new();
    let mut context_reads = Vec::new();
    let mut defaults = Vec::new();
    let mut default_checks = Vec::new();
    let mut arguments = Vec::new();
    let mut bounds = Vec::new();
    let mut all_by_value = true;
    let mut first_type_span = None;
    // The context the closure reads from: a reference for a synchronous call, its own copy in
    // an `async` one.
    let context_ref = if handler.is_async {
        quote!(&__context)
    } else {
        quote!(__context)
    };
    for (index, param) in params.iter().enumerate() {
        let binding = format_ident!("__p{}", index);
        match param {
            CallParam::Context { ty, span } => {
                if !method {
                    bounds.push(context_bound(ty, *span, krate));
                }
                let ty = with_lifetime(ty, "__a");
                // Call-site hygiene for the names the call binds (a handler written by
                // `macro_rules!` has parameters of the macro's), the type's own spans for errors.
                let from_context = quote_spanned!(*span=> from_context);
                context_reads.push(quote! {
                    let #binding = <#ty as #krate::__private::FromContext<'__a, #state>>::#from_context(__state, #context_ref)?;
                });
                arguments.push(quote!(#binding));
            }
            CallParam::Model {
                read,
                span,
                ty_span,
            } => {
                let ModelParam {
                    key,
                    expected,
                    required,
                    null,
                    unique,
                    checks,
                    owned,
                    default,
                    default_json,
                    default_check,
                    default_ty,
                    pass,
                } = &**read;
                default_checks.extend(default_check.clone());
                let default_json = match default_json {
                    Some(json) => quote!(::core::option::Option::Some(#json)),
                    None => quote!(::core::option::Option::None),
                };
                specs.push(quote!(#krate::__private::Spec { name: #key, expected: #expected, required: #required, null: #null, unique: &#unique, checks: &[#(#checks),*], default: #default_json }));
                if let Some(expr) = default {
                    // A missing argument is the default, converted into the type read (so
                    // `"x"` serves a `String`).
                    defaults.push(quote! {
                        let #binding = #binding.unwrap_or_else(|| -> #default_ty {
                            ::core::convert::Into::into(#expr)
                        });
                    });
                }
                first_type_span.get_or_insert(*ty_span);
                owned_types.push(quote_spanned!(*span=> #owned));
                all_by_value &= *pass == Pass::Value;
                let mutable = (*pass == Pass::RefMut).then(|| quote!(mut));
                bindings.push(quote!(#mutable #binding));
                arguments.push(pass.lend(&binding));
            }
        }
    }
    if method {
        bounds.push(quote!(Self: ::core::marker::Sized));
    }
    let by_name = pointer.is_none() && !method;
    let (handler_param, handler_arg, handler_ty, h) = match &pointer {
        Some(pointer) => (
            quote!(__handler: #pointer),
            quote!(__handler),
            quote!(#pointer),
            quote!(),
        ),
        // Called by name as a free function (see the module's docs), with the handler the
        // listing names passed along to check that the name found is that handler.
        None if by_name => (
            quote!(__handler: __H),
            quote!(__handler),
            quote!(__H),
            quote!(__H: ::core::marker::Copy + ::core::marker::Send + ::core::marker::Sync + 'static,),
        ),
        None => (quote!(_: __H), quote!(()), quote!(()), quote!(__H,)),
    };
    let invoke = match (&pointer, method) {
        (Some(_), true) => quote!(__h(__state, #(#arguments),*)),
        (Some(_), false) => quote!(__h(#(#arguments),*)),
        (None, true) => quote!(Self::#name(__state, #(#arguments),*)),
        (None, false) => quote!(#name(#(#arguments),*)),
    };
    // An associated function without `self` called by name would call a free function of the
    // same name instead, if there is one: refused, with what to do.
    let same_handler = if by_name {
        let message = format!(
            "the tool `{tool_name}` cannot be called from a listing: it is an associated \
             function without `self` whose type cannot be written as a function pointer \
             (`async`, or returning `impl Trait`); make it a method (take `&self`) or a free \
             function",
            tool_name = descriptor.name()
        );
        quote! {
            if !#krate::__private::same_function(&__h, &#name) {
                return ::core::result::Result::Err(::std::string::String::from(#message));
            }
        }
    } else {
        quote!()
    };
    let generics = if method {
        quote!(<'__a, #h>)
    } else {
        quote!(<'__a, #h __S: ?::core::marker::Sized + ::core::marker::Sync>)
    };
    // The tuple of the parameters' types carries the first one's span: a type serde cannot
    // read is an error there, not on the attribute.
    let mut params_ty = Group::new(Delimiter::Parenthesis, quote!(#(#owned_types,)*));
    if let Some(span) = first_type_span {
        params_ty.set_span(span);
    }
    let where_clause = if bounds.is_empty() {
        quote!()
    } else {
        quote!(where #(#bounds),*)
    };
    let output_span = output_span(handler);
    // The result's type, inferred, carries the return type's span: a type that cannot be a
    // result is an error there.
    let result_ty = quote_spanned!(output_span=> _);
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
    let h_binding = used(pointer.is_some() || by_name, "__h");
    let tool_name = descriptor.name();
    let call = call_name(name);
    let vis = &handler.vis;
    // The closure that supplies the `#[context]` values and calls the handler; an `async`
    // one's body is a future that awaits it.
    let closure = |result: TokenStream, asyncness: TokenStream| {
        quote! {
            |#state_binding, #context_binding, (#(#bindings,)*), #h_binding| #asyncness {
                #same_handler
                #(#defaults)*
                #(#context_reads)*
                #result
            }
        }
    };
    // The path to the crate with every token at the return type, so that rustc points there.
    let krate_at_output = respan(krate.clone(), output_span);
    // A `Json<T>` behind an alias would lose its `outputSchema` silently: refused, at the
    // return type.
    let output_probe = match &handler.output {
        Some(output)
            if !descriptor.writes_json() && !mentions_impl(output) && !plainly_not_json(output) =>
        {
            let output = static_lifetimes(output.clone());
            let krate = &krate_at_output;
            quote_spanned! {output_span=>
                let _ = || {
                    use #krate::__private::Plain as _;
                    (&#krate::__private::OutputProbe::<#output>::new()).check_output();
                };
            }
        }
        _ => quote!(),
    };
    let reads = reads_const(
        handler,
        krate,
        &attrs,
        tool_name,
        &specs,
        &quote!(#output_probe #(#default_checks)*),
    );
    let plain = pointer.is_some()
        && all_by_value
        && context_reads.is_empty()
        && defaults.is_empty()
        && handler.abi.is_empty();
    if plain && method {
        // A method whose parameters all come from the model, taken as read, called through a
        // pointer with Rust's ABI, has no code of its own: its call is the runtime's, named in
        // a constant (the pointer's parameters are the types read, lifetimes `'static`, so
        // that a parameter type with a lifetime does not make it a higher-ranked type).
        let output = handler.output.as_ref().map(|output| quote!(-> #output));
        // The parameters' types given, so that one serde cannot read is an error at the first
        // of them, as for every other call.
        let method_call = quote_spanned!(output_span=>
            #krate_at_output::__private::method_call::<Self, #params_ty, _, #result_ty>
        );
        let allow = upper_case_allow(&handler.name);
        return quote! {
            #reads
            #attrs
            #allow
            #vis const #call: #krate::__private::Shim<Self, fn(&Self, #(#owned_types),*) #output> =
                #method_call;
        };
    }
    let (runner, run, handler_arg) = if handler.is_async {
        let result = quote_spanned!(output_span=> ::core::result::Result::Ok(#invoke.await));
        (
            quote!(call_async::<#state, #params_ty, #handler_ty, #result_ty, _>),
            closure(result, quote!(async move)),
            handler_arg,
        )
    } else if plain {
        // The same without `self`: the runtime's adapter calls it.
        (
            quote!(call_sync::<#state, #params_ty, _, #result_ty>),
            quote_spanned!(output_span=> #krate::__private::free),
            quote!(__handler as fn(#(#owned_types),*) -> _),
        )
    } else {
        let result = quote_spanned!(output_span=> ::core::result::Result::Ok(#invoke));
        (
            quote!(call_sync::<#state, #params_ty, #handler_ty, #result_ty>),
            closure(result, quote!()),
            handler_arg,
        )
    };
    quote! {
        #reads
        #attrs
        #vis fn #call #generics(
            #handler_param,
            __state: &'__a #state,
            __arguments: ::core::option::Option<#krate::__private::Map>,
            __context: #krate::__private::Context<'__a>,
            __reads: &'static #krate::__private::Reads,
        ) -> #krate::__private::CallFuture<'__a> #where_clause {
            #krate::__private::#runner(
                __state,
                __arguments,
                __context,
                __reads,
                #handler_arg,
                #run,
            )
        }
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

/// One parameter of the handler, as its call passes it: the one model of the parameters that
/// the call is written from, matched to the descriptor's inputs by position.
enum CallParam<'a> {
    /// `#[context]`: supplied by the server.
    Context { ty: &'a TokenStream, span: Span },
    /// Supplied by the model, read under the schema the descriptor wrote for it.
    Model {
        read: Box<ModelParam>,
        /// The parameter's name.
        span: Span,
        /// The parameter's type.
        ty_span: Span,
    },
}

impl<'a> CallParam<'a> {
    /// Every parameter of the handler, or `None` if one the model supplies has no input in the
    /// descriptor (which has reported why).
    fn read(
        handler: &'a Handler,
        descriptor: &Descriptor,
        krate: &TokenStream,
    ) -> Option<Vec<Self>> {
        handler
            .params
            .iter()
            .enumerate()
            .map(|(index, param)| {
                let span = param
                    .name
                    .as_ref()
                    .map_or_else(Span::call_site, Ident::span);
                if param.context {
                    return Some(CallParam::Context {
                        ty: &param.ty,
                        span,
                    });
                }
                let read = ModelParam::new(param, descriptor.input(index)?, krate);
                Some(CallParam::Model {
                    read: Box::new(read),
                    span,
                    ty_span: expr_span(&param.ty),
                })
            })
            .collect()
    }
}

/// How a call reads one parameter the model supplies.
struct ModelParam {
    key: String,
    /// `Option<&str>`: what its schema says, for messages.
    expected: TokenStream,
    required: bool,
    /// Whether an explicit `null` is read.
    null: bool,
    /// Where it holds sets (`__private::Unique`).
    unique: TokenStream,
    /// Its `#[schema(...)]` constraints, as `__private::Check`s.
    checks: Vec<TokenStream>,
    /// The type read: `Option<T>` for a parameter with a default, which fills in a missing one.
    owned: TokenStream,
    /// `#[schema(default = EXPR)]` when the call evaluates it.
    default: Option<TokenStream>,
    /// `#[schema(default = literal)]` when the reader reads it, as JSON.
    default_json: Option<String>,
    /// rustc's check of that literal against the parameter's type.
    default_check: Option<TokenStream>,
    /// The owned type itself, which the default converts into.
    default_ty: TokenStream,
    pass: Pass,
}

impl ModelParam {
    /// The parameter, with the input the descriptor read for it.
    fn new(param: &Param, input: &Property, krate: &TokenStream) -> Self {
        let schema = &input.schema;
        let expected = match schema.describe() {
            Some(text) => quote!(::core::option::Option::Some(#text)),
            None => quote!(::core::option::Option::None),
        };
        let (owned, pass) = owned_type(param);
        let checks = check_tokens(&input.checks, krate);
        let (default, default_json) = match &input.default {
            Some(DefaultRead::Expr(expr)) => (Some(expr.clone()), None),
            Some(DefaultRead::Json(json, _)) => (None, Some(json.clone())),
            None => (None, None),
        };
        // A literal default the reader reads as JSON is still checked by rustc against the
        // parameter's type, in a closure that never runs.
        let default_check = match &input.default {
            Some(DefaultRead::Json(_, Some((expr, scalar)))) => {
                let value = if *scalar {
                    quote!(#expr)
                } else {
                    quote!(::core::convert::Into::into(#expr))
                };
                Some(quote!(let _ = || -> #owned { #value };))
            }
            _ => None,
        };
        let read = match &default {
            Some(_) => quote!(::core::option::Option<#owned>),
            None => owned.clone(),
        };
        ModelParam {
            key: input.name.clone(),
            expected,
            required: !input.optional,
            null: input.null,
            unique: schema
                .unique(krate)
                .unwrap_or_else(|| quote!(#krate::__private::Unique::None)),
            checks,
            owned: read,
            default,
            default_json,
            default_check,
            default_ty: owned,
            pass,
        }
    }
}
