//! What a call receives besides its arguments: the [`Context`] of the request it answers, and
//! the values a `#[context]` parameter may ask for ([`FromContext`]).

use std::any::Any;
use std::fmt;

/// What the server passes to a call besides the state: the request it answers.
///
/// A server loop makes one per call; with rmcp, the router made from a listing passes rmcp's
/// `RequestContext<RoleServer>`, which a handler receives by asking for it with a
/// `#[context]` parameter (progress, logging, cancellation).
#[derive(Clone, Copy, Default)]
pub struct Context<'a> {
    request: Option<&'a (dyn Any + Send + Sync)>,
}

impl fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("has_request", &self.request.is_some())
            .finish()
    }
}

impl<'a> Context<'a> {
    /// A context with nothing in it.
    #[must_use]
    pub const fn none() -> Self {
        Context { request: None }
    }

    /// A context carrying the request a call answers, of any type the server uses.
    #[must_use]
    pub fn with_request<T: Any + Send + Sync>(request: &'a T) -> Self {
        Context {
            request: Some(request),
        }
    }

    /// The request, if this context carries one of type `T`.
    #[must_use]
    pub fn request<T: Any>(&self) -> Option<&'a T> {
        self.request.and_then(|request| {
            let request: &'a dyn Any = request;
            request.downcast_ref()
        })
    }
}

/// What a `#[context]` parameter can be: a value the server supplies rather than the model.
///
/// Provided: `&S`, the server's state (the listing's state type); [`Context`], the whole
/// context; with the `rmcp` feature, rmcp's `RequestContext<RoleServer>`. Implement it for a
/// type of your own to derive it from those.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a #[context] parameter of a tool called with state `{S}`",
    note = "a #[context] parameter receives `&S` (the listing's state), `mcp_annotations::Context`, or with the `rmcp` feature `rmcp::service::RequestContext<rmcp::RoleServer>`; or implement `mcp_annotations::call::FromContext` for it"
)]
pub trait FromContext<'a, S: ?Sized>: Sized {
    /// The value for this call, or a message saying why it is not available (the call then
    /// fails with that message).
    ///
    /// # Errors
    ///
    /// When the value cannot be had for this call.
    fn from_context(state: &'a S, context: &Context<'a>) -> Result<Self, String>;
}

impl<'a, S: ?Sized> FromContext<'a, S> for &'a S {
    fn from_context(state: &'a S, _: &Context<'a>) -> Result<Self, String> {
        Ok(state)
    }
}

impl<'a, S: ?Sized> FromContext<'a, S> for Context<'a> {
    fn from_context(_: &'a S, context: &Context<'a>) -> Result<Self, String> {
        Ok(*context)
    }
}
