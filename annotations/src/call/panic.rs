//! Panics of handlers, caught: a handler that panics gives a failed result naming the tool,
//! and the server goes on.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::task::Poll;

use crate::result::ToolResult;

/// Runs a synchronous handler, a panic turned into a failed result so the server goes on.
///
/// # Errors
///
/// The failed result, when the handler panicked.
pub(crate) fn catch<T>(tool: &'static str, handler: impl FnOnce() -> T) -> Result<T, ToolResult> {
    // Through `dyn FnMut`, so that the unwinding machinery is compiled once for every tool,
    // not once for each handler's closure (it is most of a call's code).
    let mut handler = Some(handler);
    let mut output = None;
    catch_dyn(tool, &mut || {
        if let Some(handler) = handler.take() {
            output = Some(handler());
        }
    })?;
    output.ok_or_else(|| returned_nothing(tool))
}

/// Runs `run` with a panic caught: the one compiled piece of unwinding machinery every
/// synchronous call goes through.
///
/// # Errors
///
/// The failed result, when `run` panicked.
pub(crate) fn catch_dyn(tool: &'static str, run: &mut dyn FnMut()) -> Result<(), ToolResult> {
    std::panic::catch_unwind(AssertUnwindSafe(run)).map_err(|payload| panicked(tool, &*payload))
}

/// The result of a call run through [`catch_dyn`]: the one it wrote, or the failed result of
/// its panic (or, never, of its writing nothing).
pub(crate) fn finished(
    tool: &'static str,
    caught: Result<(), ToolResult>,
    result: Option<ToolResult>,
) -> ToolResult {
    match (caught, result) {
        (Err(failed), _) => failed,
        (Ok(()), Some(result)) => result,
        (Ok(()), None) => returned_nothing(tool),
    }
}

/// The failed result of a guarded run that wrote no result (which a run that did not panic
/// always does).
fn returned_nothing(tool: &str) -> ToolResult {
    ToolResult::error(format!("the tool `{tool}` returned nothing"))
}

/// Awaits an `async` handler, a panic while it runs turned into a failed result.
///
/// # Errors
///
/// The failed result, when the handler panicked.
pub(crate) async fn catch_async<T>(
    tool: &'static str,
    handler: impl Future<Output = T> + Send,
) -> Result<T, ToolResult> {
    let mut handler = std::pin::pin!(handler);
    std::future::poll_fn(|cx| {
        match std::panic::catch_unwind(AssertUnwindSafe(|| handler.as_mut().poll(cx))) {
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(panicked(tool, &*payload))),
        }
    })
    .await
}

fn panicked(tool: &str, payload: &(dyn std::any::Any + Send)) -> ToolResult {
    let message = payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned());
    ToolResult::error(format!(
        "the tool `{tool}` failed unexpectedly (it panicked: {message})"
    ))
}
