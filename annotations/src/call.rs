//! Calling tools: what a handler returns ([`ToolResult`], [`IntoToolResult`]), what it may ask
//! the server for ([`Context`], [`FromContext`]), and the future of a call ([`CallFuture`]).

use std::any::Any;
use std::borrow::Cow;
use std::fmt::{self, Display};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

/// The result of a tool call, as the protocol's `CallToolResult` carries it: content for the
/// model, optional structured content, and whether the tool failed.
///
/// A failed tool is still a result (`isError: true`), not a protocol error, so the model sees
/// the message and can correct itself: a bad argument, an `Err` returned by the handler, a
/// handler that panicked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolResult {
    /// What the model reads: text blocks, in order.
    pub content: Vec<Content>,
    /// The result as a JSON object, for a tool with an `outputSchema` (`structuredContent`).
    pub structured_content: Option<Value>,
    /// Whether the tool failed (`isError`).
    pub is_error: bool,
}

/// One block of a tool result's content.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Content {
    /// A text block.
    Text(String),
}

impl Content {
    /// The text of a text block.
    #[must_use]
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(text),
        }
    }
}

impl ToolResult {
    /// A successful result with no content (a handler returning `()`).
    #[must_use]
    pub const fn empty() -> Self {
        ToolResult {
            content: Vec::new(),
            structured_content: None,
            is_error: false,
        }
    }

    /// A successful result of one text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        ToolResult {
            content: vec![Content::Text(text.into())],
            structured_content: None,
            is_error: false,
        }
    }

    /// A failed result (`isError: true`) whose text tells the model what went wrong.
    #[must_use]
    pub fn error(message: impl Into<String>) -> Self {
        ToolResult {
            content: vec![Content::Text(message.into())],
            structured_content: None,
            is_error: true,
        }
    }

    /// The text of all text blocks, joined by newlines.
    #[must_use]
    pub fn text_content(&self) -> String {
        let texts: Vec<&str> = self.content.iter().filter_map(Content::as_text).collect();
        texts.join("\n")
    }

    /// The result as the protocol's `CallToolResult` JSON object.
    ///
    /// ```
    /// use annotations::ToolResult;
    ///
    /// assert_eq!(
    ///     ToolResult::error("no note 4").to_json(),
    ///     serde_json::json!({"content": [{"type": "text", "text": "no note 4"}], "isError": true})
    /// );
    /// ```
    #[must_use]
    pub fn to_json(&self) -> Value {
        let content: Vec<Value> = self
            .content
            .iter()
            .map(|block| match block {
                Content::Text(text) => {
                    let mut object = Map::new();
                    object.insert("type".into(), "text".into());
                    object.insert("text".into(), text.clone().into());
                    Value::Object(object)
                }
            })
            .collect();
        let mut object = Map::new();
        object.insert("content".into(), Value::Array(content));
        if let Some(structured) = &self.structured_content {
            object.insert("structuredContent".into(), structured.clone());
        }
        if self.is_error {
            object.insert("isError".into(), true.into());
        }
        Value::Object(object)
    }
}

/// What a tool handler may return: the conversion to a [`ToolResult`].
///
/// - `()` and `None`: no content;
/// - strings, numbers, `bool`, `char`: one text block (their `Display`); any other `Display`
///   value through [`Text`];
/// - [`Json`]: structured content, with its JSON text as the text block;
/// - `Result<T, E>` with `E: Display`: `T`'s result, or a failed result with `E`'s message;
/// - a [`ToolResult`] as it is.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's result",
    label = "a #[tool] handler's return type must implement `annotations::IntoToolResult`",
    note = "return text (`String`, `&str`, a number), `()`, `annotations::Text(value)` for any `Display` value, `annotations::Json(value)` for structured content, a `ToolResult`, or a `Result` of one of these with an error that implements `Display`"
)]
pub trait IntoToolResult {
    /// The result.
    fn into_tool_result(self) -> ToolResult;
}

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::empty()
    }
}

macro_rules! display_results {
    ($($ty:ty),* $(,)?) => {$(
        impl IntoToolResult for $ty {
            fn into_tool_result(self) -> ToolResult {
                ToolResult::text(self.to_string())
            }
        }
    )*};
}

display_results!(
    String,
    &str,
    Box<str>,
    Arc<str>,
    Cow<'_, str>,
    bool,
    char,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
);

/// A borrowed result, cloned: `Option<&String>` from a lookup, for example.
impl<T: IntoToolResult + Clone> IntoToolResult for &T {
    fn into_tool_result(self) -> ToolResult {
        self.clone().into_tool_result()
    }
}

impl<T: IntoToolResult> IntoToolResult for Option<T> {
    fn into_tool_result(self) -> ToolResult {
        self.map_or_else(ToolResult::empty, IntoToolResult::into_tool_result)
    }
}

impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(value) => value.into_tool_result(),
            Err(error) => ToolResult::error(error.to_string()),
        }
    }
}

/// Any `Display` value as a text result.
///
/// ```
/// use annotations::{IntoToolResult, Text};
///
/// let result = Text(std::net::Ipv4Addr::LOCALHOST).into_tool_result();
/// assert_eq!(result.text_content(), "127.0.0.1");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Text<T>(pub T);

impl<T: Display> IntoToolResult for Text<T> {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self.0.to_string())
    }
}

/// A serializable value as structured content (`structuredContent`), with its JSON text as
/// the text block for clients that read only text.
///
/// Structured content is a JSON object: a value that serializes to anything else is wrapped
/// as `{"result": value}`, and the descriptor's `outputSchema`, which `#[tool]` writes for a
/// handler returning `Json<T>`, says the same. A value that cannot be serialized gives a failed
/// result.
///
/// ```
/// use annotations::{IntoToolResult, Json};
/// use serde_json::json;
///
/// let result = Json(json!({"id": 4, "title": "Milk"})).into_tool_result();
/// assert_eq!(result.structured_content, Some(json!({"id": 4, "title": "Milk"})));
/// assert_eq!(result.text_content(), r#"{"id":4,"title":"Milk"}"#);
///
/// let listed = Json(vec![1, 2]).into_tool_result();
/// assert_eq!(listed.structured_content, Some(json!({"result": [1, 2]})));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> ToolResult {
        match serde_json::to_value(&self.0) {
            Ok(value) => {
                let text = value.to_string();
                let structured = if value.is_object() {
                    value
                } else {
                    let mut wrapper = Map::new();
                    wrapper.insert("result".into(), value);
                    Value::Object(wrapper)
                };
                ToolResult {
                    content: vec![Content::Text(text)],
                    structured_content: Some(structured),
                    is_error: false,
                }
            }
            Err(error) => ToolResult::error(format!(
                "the tool's result could not be serialized: {error}"
            )),
        }
    }
}

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
    note = "a #[context] parameter receives `&S` (the listing's state), `annotations::Context`, or with the `rmcp` feature `rmcp::service::RequestContext<rmcp::RoleServer>`; or implement `annotations::FromContext` for it"
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
    pub fn ready(result: ToolResult) -> Self {
        CallFuture {
            inner: Inner::Ready(Some(result)),
        }
    }

    /// A call whose result `future` gives.
    pub fn new(future: impl Future<Output = ToolResult> + Send + 'a) -> Self {
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
    /// use annotations::{Context, Listing, tool, tools};
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
    /// # Ok::<(), annotations::UnknownTool>(())
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

/// A call that names no tool of the listing: a protocol error (JSON-RPC -32602), not a tool
/// result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTool {
    name: String,
}

impl UnknownTool {
    /// The JSON-RPC error code to answer with: -32602, invalid params.
    pub const CODE: i32 = -32602;

    pub(crate) fn new(name: &str) -> Self {
        UnknownTool {
            name: name.chars().take(200).collect(),
        }
    }

    /// [`CODE`](Self::CODE).
    #[must_use]
    pub const fn code(&self) -> i32 {
        Self::CODE
    }

    /// The name asked for (at most its first 200 characters).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Display for UnknownTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown tool: {}", self.name)
    }
}

impl std::error::Error for UnknownTool {}

/// How a `#[derive(Tool)]` struct runs: what a listing calls for a struct entry, after reading
/// the struct from the arguments object with serde.
///
/// ```
/// use annotations::{CallTool, Context, Listing, Tool, tools};
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
/// assert_eq!(annotations::__private::block_on(call).text_content(), "5");
/// # Ok::<(), annotations::UnknownTool>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is listed, but a listing cannot call it with state `{S}`",
    note = "implement `annotations::CallTool<{S}>` for it (and derive `serde::Deserialize`), so that a call can run it"
)]
pub trait CallTool<S: ?Sized>: crate::StaticTool + serde::de::DeserializeOwned + Send {
    /// What the tool returns.
    type Output: IntoToolResult;

    /// Runs the tool with the arguments read into `self`.
    fn call(self, state: &S, context: Context<'_>) -> impl Future<Output = Self::Output> + Send;
}
