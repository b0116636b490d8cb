//! Calling a `#[derive(Tool)]` struct: its arguments read into the struct with serde, then
//! its [`CallTool::call`].

use std::future::Future;

use serde_json::Value;

use crate::call::arguments::{Map, not_too_deep, unknown_arguments};
use crate::call::exact::Exact;
use crate::call::handler::Run;
use crate::call::panic::catch_async;
use crate::call::{CallFuture, Context};
use crate::result::{IntoToolResult, ToolResult};
use crate::schema::constraints::{Check, check, check_unique};

/// How a `#[derive(Tool)]` struct runs: what a listing calls for a struct entry, after reading
/// the struct from the arguments object with serde.
///
/// ```
/// use mcp_annotations::{call::CallTool, Context, Listing, Tool, tools};
/// use serde::Deserialize;
///
/// /// Add two numbers.
/// #[derive(Tool, Deserialize)]
/// #[tool(read_only, title = "Add")]
/// struct Add {
///     a: i64,
///     b: i64,
/// }
///
/// impl CallTool<()> for Add {
///     type Output = i64;
///
///     async fn call(self, _state: &(), _context: Context<'_>) -> i64 {
///         self.a + self.b
///     }
/// }
///
/// static TOOLS: Listing = tools![Add];
/// let arguments = serde_json::json!({"a": 2, "b": 3}).as_object().cloned();
/// let call = TOOLS.call(&(), "add", arguments, Context::none())?;
/// # let block_on = |call| tokio::runtime::Runtime::new().unwrap().block_on(call);
/// assert_eq!(block_on(call).text_content(), "5");
/// # Ok::<(), mcp_annotations::listing::UnknownToolError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is listed, but a listing cannot call it with state `{S}`",
    note = "implement `mcp_annotations::call::CallTool<{S}>` for it (and derive `serde::Deserialize`), so that a call can run it"
)]
pub trait CallTool<S: ?Sized>:
    crate::tool::StaticTool + serde::de::DeserializeOwned + Send
{
    /// What the tool returns.
    type Output: IntoToolResult;

    /// Runs the tool with the arguments read into `self`.
    fn call(self, state: &S, context: Context<'_>) -> impl Future<Output = Self::Output> + Send;
}

/// The call of a `#[derive(Tool)]` type `T`: the arguments read into the struct (unknown keys
/// refused, as its schema says), then its `CallTool::call`.
pub struct StructCall<T>(std::marker::PhantomData<fn() -> T>);

/// The call of the `#[derive(Tool)]` type `T`.
#[must_use]
pub const fn struct_call<T>() -> StructCall<T> {
    StructCall(std::marker::PhantomData)
}

impl<S: ?Sized + Sync, T: crate::call::CallTool<S>> Run<S> for StructCall<T> {
    fn call<'a>(
        &self,
        state: &'a S,
        arguments: Option<Map>,
        context: Context<'a>,
    ) -> CallFuture<'a> {
        CallFuture::new(async move {
            catch_async(T::NAME, run_struct::<T, S>(state, arguments, context))
                .await
                .unwrap_or_else(|failed| failed)
        })
    }
}

/// Reads a `#[derive(Tool)]` struct from the arguments and runs it.
async fn run_struct<'a, T: crate::call::CallTool<S>, S: ?Sized + Sync + 'a>(
    state: &'a S,
    arguments: Option<Map>,
    context: Context<'a>,
) -> ToolResult {
    let arguments = arguments.unwrap_or_default();
    let schema = T::TOOL.input_schema.to_value();
    let names: Vec<&str> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().map(String::as_str).collect())
        .unwrap_or_default();
    if let Err(message) = unknown_arguments(&arguments, &names) {
        return ToolResult::error(message);
    }
    for (name, value) in &arguments {
        if let Err(message) = not_too_deep(name, value) {
            return ToolResult::error(message);
        }
    }
    for (name, unique) in T::UNIQUE_FIELDS {
        if let Some(value) = arguments.get(*name)
            && let Err(message) = check_unique(value, unique, name)
        {
            return ToolResult::error(format!("invalid argument `{name}`: {message}"));
        }
    }
    for (name, checks) in T::FIELD_CHECKS {
        match arguments.get(*name) {
            Some(value) => {
                if let Err(message) = check(value, checks) {
                    return ToolResult::error(format!("invalid argument `{name}`: {message}"));
                }
            }
            // `#[schema(required)]` on an `Option` field, which serde reads as `None` when
            // missing.
            None if checks.contains(&Check::Required) => {
                return ToolResult::error(format!("missing argument `{name}`"));
            }
            None => {}
        }
    }
    let empty = arguments.is_empty();
    // Read as a handler's arguments are (see `Exact`): whole floats for integer fields, an
    // `f32` in its range. The strings are copied out of the object.
    let arguments = Value::Object(arguments);
    crate::call::place::forget_marks();
    let read = T::deserialize(Exact(&arguments))
        // A unit struct (a tool without inputs) reads from nothing, not from `{}`.
        .or_else(|error| {
            if empty {
                T::deserialize(Value::Null).map_err(|_| error)
            } else {
                Err(error)
            }
        });
    match read {
        Ok(tool) => tool.call(state, context).await.into_tool_result(),
        Err(error) => {
            let message = error.to_string();
            let (place, message) = crate::call::place::place_of(&message);
            ToolResult::error(argument_message(&names, &place, &message))
        }
    }
}

/// The message for a field that serde refused at `place` (`.person.kids[0]`, or
/// `["first-name"]` for a name that is not an identifier): the argument, one of `names`, and
/// where inside it.
fn argument_message(names: &[&str], place: &str, message: &str) -> String {
    let found = names.iter().find_map(|name| {
        let inside = place.strip_prefix(&crate::call::place::key_segment(name))?;
        (inside.is_empty() || inside.starts_with(['.', '['])).then_some((*name, inside))
    });
    // serde's `missing field `x`` at the top: an argument of the tool left out, said as a
    // handler's is.
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
        .filter(|name| place.is_empty() && names.contains(name));
    if let Some(name) = missing {
        return format!("missing argument `{name}`");
    }
    match found {
        None if place.is_empty() => format!("invalid arguments: {message}"),
        None => format!("invalid arguments: `{place}`: {message}"),
        Some((name, inside)) => crate::call::arguments::invalid_argument(name, inside, message),
    }
}
