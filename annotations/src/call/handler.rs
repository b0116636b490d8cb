//! The call of a `#[tool]` handler, as a listing holds it: [`Run`], implemented by the
//! handler's call bound to the handler ([`Bound`]). Every call goes the same way: the
//! arguments read together ([`ReadParams`]), unknown ones refused, the handler run with a panic
//! caught, and what it returns turned into a result. [`call_sync`] and [`call_async`] do this
//! once for every handler of the same signature; what `#[tool]` generates for a handler is only
//! the closure that supplies its `#[context]` parameters and calls it, or not even that where
//! one of the adapters ([`method`], [`free`]) can call it through its function pointer.

use std::future::Future;

use crate::call::arguments::{Args, Map, ReadParams, Spec, collect, failed};
use crate::call::arity::for_each_arity;
use crate::call::panic::{catch, catch_async, catch_dyn, finished};
use crate::call::{CallFuture, Context};
use crate::hints::ToolAnnotations;
use crate::resolution::ResolveError;
use crate::result::{IntoToolResult, ToolResult};

/// One tool's call in a listing: the state, the arguments object (`None` for none), the
/// request's context. `tools!` puts one in the listing for each entry: a handler's call
/// bound to the handler ([`bind`]), or a `#[derive(Tool)]` type's
/// ([`StructCall`](crate::call::struct_tool::StructCall)).
pub trait Run<S: ?Sized>: Sync {
    /// Calls the tool.
    fn call<'a>(
        &self,
        state: &'a S,
        arguments: Option<Map>,
        context: Context<'a>,
    ) -> CallFuture<'a>;

    /// The hints of a call with these arguments, without making it (`tools/resolve`): `None`
    /// when the tool has no resolver. The arguments are read as the call reads them, and
    /// refused as it refuses them (the generated resolvers do so through [`resolve_with`]).
    fn resolve(&self, state: &S, arguments: &Map) -> Option<Result<ToolAnnotations, ResolveError>> {
        let _ = (state, arguments);
        None
    }
}

/// The resolver `#[tool]` puts beside a handler (`__ANNOTATIONS_RESOLVE_{NAME}`), which
/// `tools!` binds with its call: [`NoResolver`] for a handler whose calls are not resolved, else
/// a function `(state, arguments, reads) -> hints`, which reads the arguments as the call does
/// and asks the author's function or the parameter's variant for the call's hints
/// ([`resolve_with`]).
pub trait Resolve<S: ?Sized>: Sync {
    /// The hints of a call with `arguments`, or `None` where the handler has no resolver.
    fn resolve(
        &self,
        state: &S,
        arguments: &Map,
        reads: &'static Reads,
    ) -> Option<Result<ToolAnnotations, ResolveError>>;
}

/// What `#[tool]` puts beside a handler whose calls are not resolved.
#[derive(Clone, Copy, Debug)]
pub struct NoResolver;

impl<S: ?Sized> Resolve<S> for NoResolver {
    fn resolve(
        &self,
        _: &S,
        _: &Map,
        _: &'static Reads,
    ) -> Option<Result<ToolAnnotations, ResolveError>> {
        None
    }
}

impl<S: ?Sized, F> Resolve<S> for F
where
    F: Fn(&S, &Map, &'static Reads) -> Result<ToolAnnotations, ResolveError> + Sync,
{
    fn resolve(
        &self,
        state: &S,
        arguments: &Map,
        reads: &'static Reads,
    ) -> Option<Result<ToolAnnotations, ResolveError>> {
        Some(self(state, arguments, reads))
    }
}

/// What a handler's call reads, beside the handler (`__ANNOTATIONS_READ_{NAME}`): the tool's
/// name, for messages, and how each parameter is read. Data, so that a handler whose call is
/// the runtime's own ([`method_call`]) has no code of its own at all.
pub struct Reads {
    /// The tool's name.
    pub tool: &'static str,
    /// Its parameters from the model, in order.
    pub specs: &'static [Spec],
}

/// The call `#[tool]` puts beside a handler (`__ANNOTATIONS_CALL_{NAME}`): it takes the handler
/// first (from `tools!`, which knows the handler's path, so that a function without `self` can
/// be called wherever it is) and what the call reads last. A constant naming [`method_call`]
/// where one implementation serves every handler of the signature, else a function of its own.
pub type Shim<S, H> =
    for<'a> fn(H, &'a S, Option<Map>, Context<'a>, &'static Reads) -> CallFuture<'a>;

/// A handler's call bound to the handler, to what it reads and to its resolver.
pub struct Bound<S: ?Sized, H, R = NoResolver> {
    shim: Shim<S, H>,
    handler: H,
    reads: &'static Reads,
    resolver: R,
}

/// A handler's call bound to the handler, what it reads and its resolver
/// (`__ANNOTATIONS_RESOLVE_{NAME}`, [`NoResolver`] for most), as a listing holds it. `H` is the
/// handler as a function pointer wherever its type can be written, so that handlers of the same
/// signature share one `Run` implementation.
pub const fn bind<S: ?Sized, H, R>(
    shim: Shim<S, H>,
    handler: H,
    reads: &'static Reads,
    resolver: R,
) -> Bound<S, H, R> {
    Bound {
        shim,
        handler,
        reads,
        resolver,
    }
}

/// What an author's resolver returns: the call's hints, or why they cannot be told
/// (`Result<ToolAnnotations, E>` with `E: Display`), which is answered with JSON-RPC -32603.
#[diagnostic::on_unimplemented(
    message = "a resolver returns `ToolAnnotations` or `Result<ToolAnnotations, E>` with `E: Display`, not `{Self}`",
    label = "the resolver's return type"
)]
pub trait IntoResolution {
    /// The hints, or why they cannot be told.
    ///
    /// # Errors
    ///
    /// The resolver's reason, as text.
    fn into_resolution(self) -> Result<ToolAnnotations, String>;
}

impl IntoResolution for ToolAnnotations {
    fn into_resolution(self) -> Result<ToolAnnotations, String> {
        Ok(self)
    }
}

impl<E: std::fmt::Display> IntoResolution for Result<ToolAnnotations, E> {
    fn into_resolution(self) -> Result<ToolAnnotations, String> {
        self.map_err(|error| error.to_string())
    }
}

/// The body of a generated resolver: the arguments read as the call reads them (from a copy:
/// what was sent is not changed), then `resolver` given the parameters read (the generated
/// closure fills in a parameter's default as the call would, and lends each to the author's
/// function by reference), a panic caught. Arguments the call would refuse are refused (-32602) with the
/// same messages; a resolver that cannot tell, or panics, is -32603.
///
/// # Errors
///
/// [`ResolveError::InvalidArguments`] or [`ResolveError::CannotResolve`].
pub fn resolve_with<S: ?Sized, P: ReadParams, R: IntoResolution>(
    state: &S,
    arguments: &Map,
    reads: &'static Reads,
    resolver: impl FnOnce(&S, P) -> R,
) -> Result<ToolAnnotations, ResolveError> {
    let Reads { tool, specs } = *reads;
    let read = catch(tool, || read::<P>(Some(arguments.clone()), specs));
    let params = match read {
        Ok(Ok(params)) => params,
        Ok(Err(failed)) => {
            return Err(ResolveError::InvalidArguments {
                tool: tool.to_owned(),
                problems: failed.text_content(),
            });
        }
        // A reader that panicked is the server's fault, not the arguments'.
        Err(_) => {
            return Err(ResolveError::CannotResolve(
                "reading the arguments panicked".to_owned(),
            ));
        }
    };
    match catch(tool, || resolver(state, params).into_resolution()) {
        Ok(Ok(hints)) => Ok(hints),
        Ok(Err(reason)) => Err(ResolveError::CannotResolve(reason)),
        Err(_) => Err(ResolveError::CannotResolve(
            "the resolver panicked".to_owned(),
        )),
    }
}

impl<S: ?Sized, H: Copy + Sync, R: Resolve<S>> Run<S> for Bound<S, H, R> {
    fn call<'a>(
        &self,
        state: &'a S,
        arguments: Option<Map>,
        context: Context<'a>,
    ) -> CallFuture<'a> {
        (self.shim)(self.handler, state, arguments, context, self.reads)
    }

    fn resolve(&self, state: &S, arguments: &Map) -> Option<Result<ToolAnnotations, ResolveError>> {
        self.resolver.resolve(state, arguments, self.reads)
    }
}

/// The parameters of a call read from its arguments, or the failed result that lists every
/// argument that could not be read and every one the tool does not take. Only `P::read` is
/// generic: the rest is compiled once, not for each handler's parameter types.
fn read<P: ReadParams>(arguments: Option<Map>, specs: &[Spec]) -> Result<P, ToolResult> {
    let mut args = Args::new(arguments);
    let mut errors = Vec::new();
    let params = P::read(&mut args, specs, &mut errors);
    finish_read(&args, specs, errors)?;
    params.ok_or_else(|| failed(Vec::new()))
}

/// The end of a read: the arguments the tool does not take, and every error, as one failed
/// result.
fn finish_read(args: &Args, specs: &[Spec], mut errors: Vec<String>) -> Result<(), ToolResult> {
    collect(args.finish(specs), &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(failed(errors))
    }
}

/// The call of a synchronous handler, compiled once for every handler with the same state,
/// parameter types and result: `run` gets the state, the context, the parameters read and the
/// handler, and calls it (a `#[context]` parameter that cannot be had is its `Err`).
pub fn call_sync<'a, S: ?Sized, P: ReadParams, H, R: IntoToolResult>(
    state: &'a S,
    arguments: Option<Map>,
    context: Context<'a>,
    reads: &'static Reads,
    handler: H,
    run: fn(&'a S, &Context<'a>, P, H) -> Result<R, String>,
) -> CallFuture<'a> {
    let Reads { tool, specs } = *reads;
    // Everything from reading the arguments (a user type's `Deserialize`) to the finished
    // result (an error's `Display`, a `Json` value's `Serialize`) runs with a panic caught, so
    // every call is answered. (Through `catch_dyn` directly: a generic layer around it would
    // be compiled again for each handler's types.)
    let mut once = Some((arguments, handler));
    let mut result = None;
    let caught = catch_dyn(tool, &mut || {
        if let Some((arguments, handler)) = once.take() {
            result = Some(match read(arguments, specs) {
                Ok(params) => outcome(run(state, &context, params, handler)),
                Err(failed) => failed,
            });
        }
    });
    CallFuture::ready(finished(tool, caught, result))
}

/// The call of an `async` handler: the arguments are read at once (a failed read is a ready
/// future), and `run` makes the future that supplies the `#[context]` parameters and awaits
/// the handler.
pub fn call_async<'a, S, P, H, R, F>(
    state: &'a S,
    arguments: Option<Map>,
    context: Context<'a>,
    reads: &'static Reads,
    handler: H,
    run: fn(&'a S, Context<'a>, P, H) -> F,
) -> CallFuture<'a>
where
    S: ?Sized + Sync,
    P: ReadParams,
    R: IntoToolResult,
    F: Future<Output = Result<R, String>> + Send + 'a,
{
    let Reads { tool, specs } = *reads;
    let params = match catch(tool, || read(arguments, specs)) {
        Ok(Ok(params)) => params,
        Ok(Err(failed)) | Err(failed) => return CallFuture::ready(failed),
    };
    let future = run(state, context, params, handler);
    CallFuture::new(async move {
        catch_async(tool, async move { outcome(future.await) })
            .await
            .unwrap_or_else(|failed| failed)
    })
}

/// The result of a handler that ran: what it returned, or a `#[context]` value it could not
/// have.
fn outcome<R: IntoToolResult>(ran: Result<R, String>) -> ToolResult {
    match ran {
        Ok(result) => result.into_tool_result(),
        Err(message) => ToolResult::error(message),
    }
}

/// A method's function pointer, `fn(&S, A, B) -> R`, called with its parameters as a tuple.
#[diagnostic::on_unimplemented(
    message = "a #[tool] handler takes at most 16 arguments from the model",
    label = "this handler takes more"
)]
pub trait MethodPointer<S: ?Sized, P, R>: Copy {
    /// Calls the method on `state`.
    fn call_with(self, state: &S, params: P) -> R;
}

/// A function pointer without `self`, `fn(A, B) -> R`, called with its parameters as a tuple.
#[diagnostic::on_unimplemented(
    message = "a #[tool] handler takes at most 16 arguments from the model",
    label = "this handler takes more"
)]
pub trait FreePointer<P, R>: Copy {
    /// Calls the function.
    fn call_with(self, params: P) -> R;
}

macro_rules! pointers {
    ($($index:tt $ty:ident $value:ident),*) => {
        impl<S: ?Sized, $($ty,)* R> MethodPointer<S, ($($ty,)*), R> for fn(&S, $($ty),*) -> R {
            #[allow(clippy::unused_unit)]
            fn call_with(self, state: &S, ($($value,)*): ($($ty,)*)) -> R {
                self(state, $($value),*)
            }
        }

        impl<$($ty,)* R> FreePointer<($($ty,)*), R> for fn($($ty),*) -> R {
            #[allow(clippy::unused_unit)]
            fn call_with(self, ($($value,)*): ($($ty,)*)) -> R {
                self($($value),*)
            }
        }
    };
}

for_each_arity!(pointers);

/// Runs a method whose parameters all come from the model, taken as read, through its
/// function pointer: the `run` of [`call_sync`] for such handlers, which then have no code of
/// their own. (The generated call casts the handler to `fn(&Self, A, B) -> _`, so that a
/// parameter type with a lifetime is one type here.)
///
/// # Errors
///
/// Never: the `Result` is the shape `call_sync` takes.
#[allow(clippy::unnecessary_wraps)]
pub fn method<'a, S: ?Sized, P, R, H: MethodPointer<S, P, R>>(
    state: &'a S,
    _: &Context<'a>,
    params: P,
    handler: H,
) -> Result<R, String> {
    Ok(handler.call_with(state, params))
}

/// [`method`] for a function without `self`.
///
/// # Errors
///
/// Never: the `Result` is the shape `call_sync` takes.
#[allow(clippy::unnecessary_wraps)]
pub fn free<'a, S: ?Sized, P, R, H: FreePointer<P, R>>(
    _: &'a S,
    _: &Context<'a>,
    params: P,
    handler: H,
) -> Result<R, String> {
    Ok(handler.call_with(params))
}

/// The call of every method whose parameters all come from the model, taken as read, with
/// Rust's ABI: `#[tool]` names it in a constant instead of writing a function, so that such a
/// handler costs no code of its own (one instance serves every handler of the signature).
pub fn method_call<'a, S, P, H, R>(
    handler: H,
    state: &'a S,
    arguments: Option<Map>,
    context: Context<'a>,
    reads: &'static Reads,
) -> CallFuture<'a>
where
    S: ?Sized,
    P: ReadParams,
    H: MethodPointer<S, P, R>,
    R: IntoToolResult,
{
    call_sync(state, arguments, context, reads, handler, method)
}

/// Whether `a` and `b` are the same function: the handler a listing names, and the one a call
/// found by its name. Decided by their types (each function has its own), so it costs nothing
/// once compiled.
pub fn same_function<A: 'static, B: 'static>(_: &A, _: &B) -> bool {
    std::any::TypeId::of::<A>() == std::any::TypeId::of::<B>()
}

/// The body of the call of a handler that cannot be called; never instantiated, since its
/// bound is never met.
pub fn not_callable<'a>() -> CallFuture<'a> {
    CallFuture::ready(ToolResult::error("this tool cannot be called"))
}
