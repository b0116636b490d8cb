//! Finding a listed tool's call by name ([`Listing::call`](crate::Listing::call)), and the
//! protocol error for a name that is not listed ([`UnknownToolError`]).

use std::fmt::{self, Display};

use serde_json::{Map, Value};

use crate::call::{CallFuture, Context};
use crate::listing::Listing;

impl<S> Listing<S> {
    /// Calls the tool named `name` with the server's `state`, the arguments object (`None` for
    /// none) and the request's `context`.
    ///
    /// The future always gives a [`ToolResult`](crate::ToolResult): a bad argument, an `Err`
    /// from the handler, or a handler that panicked is a failed result (`isError: true`) whose
    /// message the model can act on. Only a name that is not in the listing is an error
    /// here, which the protocol answers with JSON-RPC -32602.
    ///
    /// ```
    /// use mcp_annotations::{Context, Listing, tool, tools};
    /// use serde_json::json;
    ///
    /// pub struct Notes(Vec<String>);
    ///
    /// impl Notes {
    ///     /// Read one note.
    ///     #[tool(read_only, title = "Read note")]
    ///     pub fn read_note(&self, note_id: usize) -> Result<String, String> {
    ///         self.0.get(note_id).cloned().ok_or(format!("no note {note_id}"))
    ///     }
    /// }
    ///
    /// static TOOLS: Listing<Notes> = tools![Notes::read_note];
    ///
    /// let notes = Notes(vec!["Buy milk".into()]);
    /// let arguments = json!({"note_id": 0}).as_object().cloned();
    /// let call = TOOLS.call(&notes, "read_note", arguments, Context::none())?;
    /// // A synchronous handler has run by now; an `async` one's call is awaited.
    /// let result = call.into_ready().expect("a synchronous handler's call is ready");
    /// assert_eq!(result.text_content(), "Buy milk");
    ///
    /// let arguments = json!({"note_id": -1}).as_object().cloned();
    /// let call = TOOLS.call(&notes, "read_note", arguments, Context::none())?;
    /// let result = call.into_ready().expect("a synchronous handler's call is ready");
    /// assert!(result.is_error);
    /// assert!(result.text_content().starts_with("invalid argument `note_id`"));
    ///
    /// let Err(unknown) = TOOLS.call(&notes, "nope", None, Context::none()) else {
    ///     panic!("no tool is named nope");
    /// };
    /// assert_eq!(unknown.code(), -32602);
    /// assert_eq!(unknown.to_string(), "unknown tool: nope");
    /// # Ok::<(), mcp_annotations::listing::UnknownToolError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`UnknownToolError`] when no tool has this name, or the listing has no handlers.
    pub fn call<'a>(
        &self,
        state: &'a S,
        name: &str,
        arguments: Option<Map<String, Value>>,
        context: Context<'a>,
    ) -> Result<CallFuture<'a>, UnknownToolError> {
        self.call_if(state, name, arguments, context, |_| true)
    }

    /// [`call`](Self::call), for a tool that `offered` admits: one that it does not is
    /// answered as one that does not exist. The tool is looked up once.
    pub(crate) fn call_if<'a>(
        &self,
        state: &'a S,
        name: &str,
        arguments: Option<Map<String, Value>>,
        context: Context<'a>,
        offered: impl FnOnce(&crate::tool::Tool) -> bool,
    ) -> Result<CallFuture<'a>, UnknownToolError> {
        let call = self
            .position(name)
            .filter(|&index| offered(&self.tools()[index]))
            .and_then(|index| self.call_at(index))
            .ok_or_else(|| UnknownToolError::new(name))?;
        Ok(call.call(state, arguments, context))
    }
}

/// A call that names no tool of the listing: a protocol error (JSON-RPC -32602), not a tool
/// result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownToolError {
    name: String,
}

impl UnknownToolError {
    /// The JSON-RPC error code to answer with: -32602, invalid params.
    pub const CODE: i32 = -32602;

    pub(crate) fn new(name: &str) -> Self {
        UnknownToolError {
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

impl Display for UnknownToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown tool: {}", self.name)
    }
}

impl std::error::Error for UnknownToolError {}
