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

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::expand::call_params::{CallParam, ModelParam};
use crate::expand::call_types::{
    Pass, context_bound, output_probe, output_span, pointer_type, with_lifetime,
};
use crate::expand::names::{beside_attrs, call_name, read_name, upper_case_allow};
use crate::leaf::tokens::respan;
use crate::model::descriptor::Descriptor;
use crate::model::handler::Handler;
use crate::model::params::Receiver;

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

/// The call of `handler`, with the constant that says what it reads. It is decided in steps,
/// one function each: what each parameter contributes ([`Parts::gather`]: the specs the
/// arguments are read by, the types read, the `#[context]` reads, the defaults), how the
/// handler is reached ([`Shape::of`]: through a function pointer, by name, or as a method),
/// what rustc checks beside it ([`output_probe`]), and the body: a constant naming the
/// runtime's shared call for a plain method ([`method_constant`]), else a call function of its
/// own ([`call_function`]).
pub(crate) fn expand(
    handler: &Handler,
    descriptor: &Descriptor,
    krate: &TokenStream,
) -> (TokenStream, Option<Parts>) {
    let name = &handler.name;
    let attrs = beside_attrs(handler);
    if let Some(reason) = not_callable(handler) {
        let reason = Ident::new(reason, name.span());
        let call = uncallable(handler, krate, &quote!(#krate::__private::#reason), &attrs);
        return (call, None);
    }
    let Some(params) = CallParam::read(handler, descriptor, krate) else {
        // The descriptor reported why a parameter has no schema; nothing to call.
        return (uncallable(handler, krate, &quote!(), &attrs), None);
    };
    let method = handler.receiver == Receiver::Shared;
    // A synchronous handler comes as a function pointer where its type can be written (then
    // handlers of one signature share their code in the listing), else as nothing, and it is
    // called by name (see the module's docs).
    let pointer = if handler.is_async {
        None
    } else {
        pointer_type(handler)
    };
    let parts = Parts::gather(&params, handler, method, krate);
    let output_span = output_span(handler);
    // The path to the crate with every token at the return type, so that rustc points there.
    let krate_at_output = respan(krate.clone(), output_span);
    let probe = output_probe(handler, descriptor, &krate_at_output, output_span);
    let default_checks = &parts.default_checks;
    let reads = reads_const(
        handler,
        krate,
        &attrs,
        descriptor.name(),
        &parts.specs,
        &quote!(#probe #(#default_checks)*),
    );
    let plain = pointer.is_some()
        && parts.all_by_value
        && parts.context_reads.is_empty()
        && parts.defaults.is_empty()
        && handler.abi.is_empty();
    let call = if plain && method {
        method_constant(handler, &parts, krate, &krate_at_output, output_span)
    } else {
        let shape = Shape::of(
            handler,
            descriptor,
            pointer,
            method,
            &parts.arguments,
            krate,
        );
        call_function(handler, &parts, &shape, plain, krate, output_span)
    };
    let call = quote! {
        #reads
        #attrs
        #call
    };
    (call, Some(parts))
}

/// What the parameters contribute to a call, in order: gathered once, read by the body.
pub(crate) struct Parts {
    /// The state the call is given: `Self` for a method, else any `__S` its `#[context]`
    /// parameters can be had from, so that it fits the listing of any server.
    state: TokenStream,
    /// A `__private::Spec` for each parameter the model supplies.
    specs: Vec<TokenStream>,
    /// The types read, in order.
    owned_types: Vec<TokenStream>,
    /// The closure's bindings of the values read.
    pub(crate) bindings: Vec<TokenStream>,
    /// The names of those bindings, in order.
    pub(crate) model_bindings: Vec<Ident>,
    /// The `#[context]` values, read from the context.
    context_reads: Vec<TokenStream>,
    /// A default filled in for each missing argument that has one the call evaluates.
    pub(crate) defaults: Vec<TokenStream>,
    /// rustc's checks of the literal defaults.
    default_checks: Vec<TokenStream>,
    /// The arguments the handler is called with.
    arguments: Vec<TokenStream>,
    /// The call's `where` bounds.
    bounds: Vec<TokenStream>,
    /// Whether every parameter is taken as read, by value.
    all_by_value: bool,
    /// The span of the first type read, where an error about the types goes.
    first_type_span: Option<Span>,
}

impl Parts {
    fn gather(
        params: &[CallParam<'_>],
        handler: &Handler,
        method: bool,
        krate: &TokenStream,
    ) -> Self {
        let state = if method { quote!(Self) } else { quote!(__S) };
        let mut parts = Parts {
            state,
            specs: Vec::new(),
            owned_types: Vec::new(),
            bindings: Vec::new(),
            model_bindings: Vec::new(),
            context_reads: Vec::new(),
            defaults: Vec::new(),
            default_checks: Vec::new(),
            arguments: Vec::new(),
            bounds: Vec::new(),
            all_by_value: true,
            first_type_span: None,
        };
        // The context the closure reads from: a reference for a synchronous call, its own copy
        // in an `async` one.
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
                        parts.bounds.push(context_bound(ty, *span, krate));
                    }
                    let ty = with_lifetime(ty, "__a");
                    let state = &parts.state;
                    // Call-site hygiene for the names the call binds (a handler written by
                    // `macro_rules!` has parameters of the macro's), the type's own spans for
                    // errors.
                    let from_context = quote_spanned!(*span=> from_context);
                    parts.context_reads.push(quote! {
                        let #binding = <#ty as #krate::__private::FromContext<'__a, #state>>::#from_context(__state, #context_ref)?;
                    });
                    parts.arguments.push(quote!(#binding));
                }
                CallParam::Model {
                    read,
                    span,
                    ty_span,
                } => parts.model(read, &binding, *span, *ty_span, krate),
            }
        }
        if method {
            parts.bounds.push(quote!(Self: ::core::marker::Sized));
        }
        parts
    }

    /// What one parameter the model supplies contributes: its spec, its type, its default.
    fn model(
        &mut self,
        read: &ModelParam,
        binding: &Ident,
        span: Span,
        ty_span: Span,
        krate: &TokenStream,
    ) {
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
        } = read;
        self.default_checks.extend(default_check.clone());
        let default_json = match default_json {
            Some(json) => quote!(::core::option::Option::Some(#json)),
            None => quote!(::core::option::Option::None),
        };
        self.specs.push(quote!(#krate::__private::Spec { name: #key, expected: #expected, required: #required, null: #null, unique: &#unique, checks: &[#(#checks),*], default: #default_json }));
        if let Some(expr) = default {
            // A missing argument is the default, converted into the type read (so `"x"`
            // serves a `String`).
            self.defaults.push(quote! {
                let #binding = #binding.unwrap_or_else(|| -> #default_ty {
                    ::core::convert::Into::into(#expr)
                });
            });
        }
        self.first_type_span.get_or_insert(ty_span);
        self.owned_types.push(quote_spanned!(span=> #owned));
        self.all_by_value &= *pass == Pass::Value;
        let mutable = (*pass == Pass::RefMut).then(|| quote!(mut));
        self.bindings.push(quote!(#mutable #binding));
        self.model_bindings.push(binding.clone());
        self.arguments.push(pass.lend(binding));
    }

    /// The tuple of the parameters' types, carrying the first one's span: a type serde cannot
    /// read is an error there, not on the attribute.
    pub(crate) fn params_ty(&self) -> Group {
        let owned_types = &self.owned_types;
        let mut params_ty = Group::new(Delimiter::Parenthesis, quote!(#(#owned_types,)*));
        if let Some(span) = self.first_type_span {
            params_ty.set_span(span);
        }
        params_ty
    }
}

/// How a call reaches its handler.
struct Shape {
    /// The pointer type the handler comes as, if it can be written.
    pointer: Option<TokenStream>,
    /// Called by name as a free function (see the module's docs).
    by_name: bool,
    /// The call function's first parameter, the argument it passes on and its type.
    handler_param: TokenStream,
    handler_arg: TokenStream,
    handler_ty: TokenStream,
    /// The call function's generics and the handler's call expression.
    generics: TokenStream,
    invoke: TokenStream,
    /// For a call by name: the check that the name found is the handler listed.
    same_handler: TokenStream,
}

impl Shape {
    fn of(
        handler: &Handler,
        descriptor: &Descriptor,
        pointer: Option<TokenStream>,
        method: bool,
        arguments: &[TokenStream],
        krate: &TokenStream,
    ) -> Self {
        let name = &handler.name;
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
        // An associated function without `self` called by name would call a free function of
        // the same name instead, if there is one: refused, with what to do.
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
        Shape {
            pointer,
            by_name,
            handler_param,
            handler_arg,
            handler_ty,
            generics,
            invoke,
            same_handler,
        }
    }
}

/// The call of a method whose parameters all come from the model, taken as read, called
/// through a pointer with Rust's ABI: no code of its own, but the runtime's, named in a
/// constant (the pointer's parameters are the types read, lifetimes `'static`, so that a
/// parameter type with a lifetime does not make it a higher-ranked type).
fn method_constant(
    handler: &Handler,
    parts: &Parts,
    krate: &TokenStream,
    krate_at_output: &TokenStream,
    output_span: Span,
) -> TokenStream {
    let output = handler.output.as_ref().map(|output| quote!(-> #output));
    // The result's type, inferred, carries the return type's span: a type that cannot be a
    // result is an error there.
    let result_ty = quote_spanned!(output_span=> _);
    // The parameters' types given, so that one serde cannot read is an error at the first of
    // them, as for every other call.
    let params_ty = parts.params_ty();
    let method_call = quote_spanned!(output_span=>
        #krate_at_output::__private::method_call::<Self, #params_ty, _, #result_ty>
    );
    let allow = upper_case_allow(&handler.name);
    let vis = &handler.vis;
    let call = call_name(&handler.name);
    let owned_types = &parts.owned_types;
    quote! {
        #allow
        #vis const #call: #krate::__private::Shim<Self, fn(&Self, #(#owned_types),*) #output> =
            #method_call;
    }
}

/// A call function of the handler's own: it reads the arguments by the constant's specs and
/// runs a closure that fills in the defaults, reads the `#[context]` values and calls the
/// handler (awaiting it if `async`); `plain` without `self` runs the runtime's adapter instead.
fn call_function(
    handler: &Handler,
    parts: &Parts,
    shape: &Shape,
    plain: bool,
    krate: &TokenStream,
    output_span: Span,
) -> TokenStream {
    let Parts {
        state,
        owned_types,
        bindings,
        context_reads,
        defaults,
        bounds,
        ..
    } = parts;
    let Shape {
        handler_param,
        handler_ty,
        generics,
        invoke,
        same_handler,
        ..
    } = shape;
    let params_ty = parts.params_ty();
    let result_ty = quote_spanned!(output_span=> _);
    let where_clause = if bounds.is_empty() {
        quote!()
    } else {
        quote!(where #(#bounds),*)
    };
    // Each of the closure's parameters is named only where it is used.
    let used = |used: bool, name: &str| {
        if used {
            let ident = Ident::new(name, Span::call_site());
            quote!(#ident)
        } else {
            quote!(_)
        }
    };
    let method = handler.receiver == Receiver::Shared;
    let state_binding = used(method || !context_reads.is_empty(), "__state");
    let context_binding = used(!context_reads.is_empty(), "__context");
    let h_binding = used(shape.pointer.is_some() || shape.by_name, "__h");
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
    let (runner, run, handler_arg) = if handler.is_async {
        let result = quote_spanned!(output_span=> ::core::result::Result::Ok(#invoke.await));
        (
            quote!(call_async::<#state, #params_ty, #handler_ty, #result_ty, _>),
            closure(result, quote!(async move)),
            shape.handler_arg.clone(),
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
            shape.handler_arg.clone(),
        )
    };
    let vis = &handler.vis;
    let call = call_name(&handler.name);
    quote! {
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
