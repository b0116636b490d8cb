//! The future of one call: ready at once for a synchronous handler, boxed for an `async` one.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use crate::result::ToolResult;

/// The future of one call, driven by whatever runtime the server uses (the crate has none).
///
/// The call of a synchronous handler has run by the time its future exists, so the future is
/// ready at once and allocates nothing; an `async` handler's is a boxed future.
#[must_use = "a call does nothing for an `async` handler until it is awaited"]
pub struct CallFuture<'a> {
    inner: Inner<'a>,
}

enum Inner<'a> {
    Ready(Option<ToolResult>),
    Pending(Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>>),
}

impl<'a> CallFuture<'a> {
    /// A call whose result is known already.
    pub(crate) fn ready(result: ToolResult) -> Self {
        CallFuture {
            inner: Inner::Ready(Some(result)),
        }
    }

    /// A call whose result `future` gives.
    pub(crate) fn new(future: impl Future<Output = ToolResult> + Send + 'a) -> Self {
        CallFuture {
            inner: Inner::Pending(Box::pin(future)),
        }
    }
}

impl<'a> CallFuture<'a> {
    /// The result, if the call has finished already (as a synchronous handler's has), else
    /// the future itself, to be awaited.
    ///
    /// ```
    /// use mcp_annotations::{Context, Listing, tool, tools};
    ///
    /// /// Add two numbers.
    /// #[tool(read_only)]
    /// fn add(a: i64, b: i64) -> i64 {
    ///     a + b
    /// }
    ///
    /// static TOOLS: Listing = tools![add];
    /// let arguments = serde_json::json!({"a": 2, "b": 3}).as_object().cloned();
    /// let call = TOOLS.call(&(), "add", arguments, Context::none())?;
    /// let result = call.into_ready().expect("a synchronous handler has run");
    /// assert_eq!(result.text_content(), "5");
    /// # Ok::<(), mcp_annotations::listing::UnknownToolError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The future, when the call has not finished (an `async` handler's).
    pub fn into_ready(self) -> Result<ToolResult, Self> {
        match self.inner {
            Inner::Ready(Some(result)) => Ok(result),
            inner => Err(CallFuture { inner }),
        }
    }
}

impl Future for CallFuture<'_> {
    type Output = ToolResult;

    fn poll(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<ToolResult> {
        match &mut self.inner {
            Inner::Ready(result) => std::task::Poll::Ready(
                result
                    .take()
                    .unwrap_or_else(|| ToolResult::error("this call's result was taken already")),
            ),
            Inner::Pending(future) => future.as_mut().poll(cx),
        }
    }
}

impl fmt::Debug for CallFuture<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.inner {
            Inner::Ready(_) => "CallFuture(ready)",
            Inner::Pending(_) => "CallFuture(pending)",
        })
    }
}
