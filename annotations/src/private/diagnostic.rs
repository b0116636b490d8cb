//! The marker traits behind the diagnostics of handlers a listing cannot call: each is never
//! implemented (or implemented for every type that may be used), so the bound that names it
//! fails with the message it carries, at the `tools![...]` entry or the handler.

/// Never implemented: a handler taking `&mut self` cannot be called through shared state.
#[diagnostic::on_unimplemented(
    message = "a #[tool] handler that takes `&mut self` cannot be called from a listing",
    label = "calls share the server's state",
    note = "take `&self` and keep what changes behind a lock (a `Mutex` or `RwLock`)"
)]
pub trait TakesMutSelf {}

/// Never implemented: a handler taking `self` by value cannot be called through shared state.
#[diagnostic::on_unimplemented(
    message = "a #[tool] handler that takes `self` by value cannot be called from a listing",
    label = "calls share the server's state",
    note = "take `&self`"
)]
pub trait TakesSelf {}

/// Never implemented: an `unsafe fn` handler.
#[diagnostic::on_unimplemented(
    message = "an `unsafe fn` #[tool] handler cannot be called from a listing",
    label = "nothing can check the safety contract of a call the model makes",
    note = "make a safe wrapper the tool, with the checks its contract needs"
)]
pub trait IsUnsafe {}

/// Implemented by every sized type. A method's tool constants require it of `Self`, which
/// holds in an `impl` block and fails in a trait whose `Self` may be unsized: there, associated
/// constants would make the trait silently not dyn compatible.
#[diagnostic::on_unimplemented(
    message = "#[tool] on a trait's method makes the trait not dyn compatible (it adds constants to the trait)",
    label = "this trait may be used as `dyn`",
    note = "declare the trait `trait Name: Sized` if it is never used as `dyn Name`; else put #[tool] on a method of an `impl` block"
)]
pub trait SizedSelf {}

impl<T> SizedSelf for T {}

/// Requires `SizedSelf` of a method's `Self` (see there), in the annotations constant.
pub const fn sized_self<T: SizedSelf + ?Sized>() {}

/// Never implemented: a handler with type parameters.
#[diagnostic::on_unimplemented(
    message = "a generic #[tool] handler cannot be called from a listing",
    label = "a listing's call has no types to choose its type parameters",
    note = "make a non-generic handler the tool"
)]
pub trait IsGeneric {}

/// Never implemented: a handler that takes more parameters from the model than the argument
/// reader's tuples go to (`call/arity.rs`).
#[diagnostic::on_unimplemented(
    message = "a #[tool] handler called from a listing takes at most 16 arguments from the model",
    label = "this handler takes more",
    note = "gather them in a struct that derives `Tool` and `serde::Deserialize`, and list that"
)]
pub trait TooManyParameters {}

/// Never implemented: a handler with `#[cfg]` on a parameter.
#[diagnostic::on_unimplemented(
    message = "a #[tool] handler with `#[cfg]` on a parameter cannot be called from a listing",
    label = "the call cannot follow which parameters are compiled in",
    note = "move the `#[cfg]` to the whole handler, or give each configuration its own handler"
)]
pub trait HasCfgParameters {}

/// Never implemented: a `Json<T>` result the macro could not see in the signature (behind a
/// type alias), whose `outputSchema` would be silently left out.
#[diagnostic::on_unimplemented(
    message = "this #[tool] returns a `Json<T>` behind a type alias, so its `outputSchema` cannot be listed",
    label = "#[tool] reads the signature's tokens, and an alias hides the `Json`",
    note = "write `Json<...>` (or `Result<Json<...>, E>`) in the signature itself"
)]
pub trait ListedOutput {}

/// What a result type is probed for, by method resolution: a `Json<T>` (or a `Result` of one)
/// finds the inherent `check_output`, whose bound fails; any other type finds [`Plain`]'s.
pub struct OutputProbe<T>(core::marker::PhantomData<fn() -> T>);

/// The type of the failing bound for a hidden `Json<T>`.
pub struct HiddenJson<T>(core::marker::PhantomData<fn() -> T>);

impl<T> OutputProbe<T> {
    /// A probe of `T` (generated code names only this).
    #[must_use]
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        OutputProbe(core::marker::PhantomData)
    }
}

impl<T> OutputProbe<crate::result::Json<T>> {
    /// Chosen for a `Json<T>` result: fails with [`ListedOutput`]'s message.
    pub fn check_output(&self)
    where
        HiddenJson<T>: ListedOutput,
    {
    }
}

impl<T, E> OutputProbe<Result<crate::result::Json<T>, E>> {
    /// Chosen for a `Result<Json<T>, E>` result: fails with [`ListedOutput`]'s message.
    pub fn check_output(&self)
    where
        HiddenJson<T>: ListedOutput,
    {
    }
}

/// Chosen for every other result type: nothing to list.
pub trait Plain {
    /// Nothing to check.
    fn check_output(&self) {}
}

impl<T> Plain for &OutputProbe<T> {}
