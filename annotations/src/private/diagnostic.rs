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
