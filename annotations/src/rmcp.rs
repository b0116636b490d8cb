//! Lossless conversions with the official Rust SDK's `rmcp::model::ToolAnnotations`.

use std::borrow::Cow;

use crate::ToolAnnotations;

/// Keeps every field; a borrowed title becomes an owned `String`, as rmcp stores it.
///
/// ```
/// let ours = annotations::ToolAnnotations::LOOKUP.with_title("List notes");
/// let theirs = rmcp::model::ToolAnnotations::from(ours.clone());
/// assert_eq!(theirs.read_only_hint, Some(true));
/// assert_eq!(annotations::ToolAnnotations::from(theirs), ours);
/// ```
impl From<ToolAnnotations> for rmcp::model::ToolAnnotations {
    fn from(annotations: ToolAnnotations) -> Self {
        rmcp::model::ToolAnnotations::from_raw(
            annotations.title.map(Cow::into_owned),
            annotations.read_only_hint,
            annotations.destructive_hint,
            annotations.idempotent_hint,
            annotations.open_world_hint,
        )
    }
}

/// Keeps every field, by reference (clones the title).
impl From<&ToolAnnotations> for rmcp::model::ToolAnnotations {
    fn from(annotations: &ToolAnnotations) -> Self {
        annotations.clone().into()
    }
}

/// Keeps every field; the title is owned.
impl From<rmcp::model::ToolAnnotations> for ToolAnnotations {
    fn from(annotations: rmcp::model::ToolAnnotations) -> Self {
        ToolAnnotations {
            title: annotations.title.map(Cow::Owned),
            read_only_hint: annotations.read_only_hint,
            destructive_hint: annotations.destructive_hint,
            idempotent_hint: annotations.idempotent_hint,
            open_world_hint: annotations.open_world_hint,
        }
    }
}

/// Keeps every field, by reference (clones the title).
impl From<&rmcp::model::ToolAnnotations> for ToolAnnotations {
    fn from(annotations: &rmcp::model::ToolAnnotations) -> Self {
        annotations.clone().into()
    }
}

/// The descriptor as rmcp's `Tool`: every field kept (schemas parsed into JSON objects).
///
/// ```
/// use annotations::{Schema, Tool, ToolAnnotations};
///
/// let mut ours = Tool::new("list_notes", Schema::NO_INPUT);
/// ours.annotations = ToolAnnotations::LOOKUP;
/// let theirs = rmcp::model::Tool::from(&ours);
/// assert_eq!(theirs.name, "list_notes");
/// assert_eq!(theirs.input_schema["type"], "object");
/// assert_eq!(theirs.annotations.unwrap().read_only_hint, Some(true));
/// ```
impl From<&crate::Tool> for rmcp::model::Tool {
    fn from(tool: &crate::Tool) -> Self {
        let mut out = rmcp::model::Tool::new_with_raw(
            tool.name.clone(),
            tool.description.clone(),
            json_object(&tool.input_schema),
        );
        if let Some(title) = tool.title() {
            out = out.with_title(title);
        }
        if let Some(schema) = &tool.output_schema {
            out = out.with_raw_output_schema(json_object(schema));
        }
        if !tool.annotations.is_empty() {
            out = out.with_annotations((&tool.annotations).into());
        }
        out
    }
}

/// The descriptor as rmcp's `Tool`.
impl From<crate::Tool> for rmcp::model::Tool {
    fn from(tool: crate::Tool) -> Self {
        (&tool).into()
    }
}

fn json_object(schema: &crate::Schema) -> std::sync::Arc<rmcp::model::JsonObject> {
    match schema.to_value() {
        serde_json::Value::Object(object) => std::sync::Arc::new(object),
        _ => std::sync::Arc::default(),
    }
}

impl<S> crate::Listing<S> {
    /// The tools as rmcp's `list_tools` returns them, in order.
    ///
    /// ```
    /// use annotations::{Listing, tool, tools};
    ///
    /// #[tool(read_only, title = "List notes")]
    /// fn list_notes() {}
    ///
    /// static TOOLS: Listing = tools![list_notes];
    /// let listed: Vec<rmcp::model::Tool> = TOOLS.to_rmcp();
    /// assert_eq!(listed[0].title.as_deref(), Some("List notes"));
    /// # list_notes();
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
    #[must_use]
    pub fn to_rmcp(&self) -> Vec<rmcp::model::Tool> {
        self.tools().iter().map(rmcp::model::Tool::from).collect()
    }
}

/// The listing's tools, as rmcp's `list_tools` returns them.
impl<S> From<crate::Listing<S>> for Vec<rmcp::model::Tool> {
    fn from(listing: crate::Listing<S>) -> Self {
        listing.to_rmcp()
    }
}

impl<S> crate::Listing<S> {
    /// The page of tools at `cursor` as rmcp's `ListToolsResult`, for a hand-written
    /// `ServerHandler::list_tools`: [`page`](Self::page) with rmcp's types, the next cursor
    /// included, and an invalid cursor as the JSON-RPC error -32602 that rmcp sends back.
    ///
    /// ```
    /// use annotations::{Listing, tool, tools};
    ///
    /// #[tool(read_only, title = "List notes")]
    /// fn list_notes() {}
    /// #[tool(read_only, title = "Find note")]
    /// fn find_note(text: String) {}
    ///
    /// let listing: Listing = tools![list_notes, find_note];
    /// let first = listing.to_rmcp_page(None, 1)?;
    /// assert_eq!(first.tools[0].name, "list_notes");
    /// let cursor = first.next_cursor.unwrap();
    /// let second = listing.to_rmcp_page(Some(&cursor), 1)?;
    /// assert_eq!(second.tools[0].name, "find_note");
    /// assert_eq!(second.next_cursor, None);
    /// assert_eq!(listing.to_rmcp_page(Some("forged"), 1).unwrap_err().code.0, -32602);
    /// # list_notes(); find_note(String::new());
    /// # Ok::<(), rmcp::ErrorData>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An invalid cursor, as `rmcp::ErrorData` with code -32602.
    #[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
    pub fn to_rmcp_page(
        &self,
        cursor: Option<&str>,
        page_size: usize,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        let page = self.page(cursor, page_size)?;
        let mut result = rmcp::model::ListToolsResult::with_all_items(
            page.tools.iter().map(rmcp::model::Tool::from).collect(),
        );
        result.next_cursor = page.next_cursor;
        Ok(result)
    }
}

/// An invalid cursor as rmcp's error: JSON-RPC code -32602 (invalid params), with the message.
impl From<crate::CursorError> for rmcp::ErrorData {
    fn from(error: crate::CursorError) -> Self {
        rmcp::ErrorData::invalid_params(error.to_string(), None)
    }
}

/// The result as rmcp's `CallToolResult`: every text block, the structured content and the
/// error flag.
impl From<crate::ToolResult> for rmcp::model::CallToolResult {
    fn from(result: crate::ToolResult) -> Self {
        let content = result
            .content
            .into_iter()
            .map(|block| match block {
                crate::Content::Text(text) => rmcp::model::ContentBlock::text(text),
            })
            .collect();
        let mut out = rmcp::model::CallToolResult::success(content);
        out.structured_content = result.structured_content;
        if result.is_error {
            out.is_error = Some(true);
        }
        out
    }
}

/// A `#[context]` parameter of this type receives the request context of the rmcp call it
/// answers (progress, logging, cancellation, the peer). Only a listing served through rmcp
/// (its [`ToolRouter`](rmcp::handler::server::router::tool::ToolRouter), made from the
/// listing) has one; any other call fails with a message saying so.
impl<'a, S: ?Sized> crate::FromContext<'a, S> for rmcp::service::RequestContext<rmcp::RoleServer> {
    fn from_context(_: &'a S, context: &crate::Context<'a>) -> Result<Self, String> {
        context
            .request::<rmcp::service::RequestContext<rmcp::RoleServer>>()
            .cloned()
            .ok_or_else(|| {
                "this tool needs the rmcp request context, which this call does not have".to_owned()
            })
    }
}

/// rmcp's router for the listing's tools, so that rmcp's `#[tool_handler]` serves it: the
/// descriptors as listed, each call through the listing (arguments read as the schema says,
/// the handler's `#[context]` parameters given the server and rmcp's request context).
///
/// rmcp's router lists tools sorted by name and answers an unknown name with its own
/// invalid-params error (-32602).
///
/// ```
/// use annotations::{Listing, tool, tools};
/// use rmcp::handler::server::router::tool::ToolRouter;
///
/// pub struct Notes;
///
/// impl Notes {
///     /// List every saved note with its id and title.
///     #[tool(read_only, destructive = false, open_world = false, title = "List notes")]
///     pub fn list_notes(&self) -> String {
///         String::new()
///     }
/// }
///
/// static TOOLS: Listing<Notes> = tools![Notes::list_notes];
/// let router: ToolRouter<Notes> = TOOLS.into();
/// assert!(router.has_route("list_notes"));
/// ```
impl<S: Send + Sync + 'static> From<crate::Listing<S>>
    for rmcp::handler::server::router::tool::ToolRouter<S>
{
    fn from(listing: crate::Listing<S>) -> Self {
        use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
        use rmcp::handler::server::tool::ToolCallContext;

        let mut router = ToolRouter::new();
        for (index, tool) in listing.tools().iter().enumerate() {
            let name: &'static str = tool.name();
            // The call is found once, here, not by name on every call.
            let call = listing.call_at(index);
            // A synchronous handler runs in the route, and only its result is boxed, as
            // rmcp's own routes do; an `async` one runs in a future that holds the request,
            // whose context the call borrows.
            let at_once = call.filter(|call| call.at_once());
            let route = ToolRoute::new_dyn(
                rmcp::model::Tool::from(tool),
                move |mut request: ToolCallContext<'_, S>| {
                    if let Some(call) = at_once {
                        let arguments = request.arguments.take();
                        let context = crate::Context::with_request(&request.request_context);
                        let result = call
                            .call(request.service, arguments, context)
                            .into_ready()
                            .unwrap_or_else(|_| {
                                crate::ToolResult::error("this call did not finish at once")
                            });
                        let response = rmcp::model::CallToolResult::from(result).into();
                        return Box::pin(std::future::ready(Ok(response)));
                    }
                    Box::pin(async move {
                        let Some(call) = call else {
                            return Err(rmcp::ErrorData::invalid_params(
                                crate::UnknownTool::new(name).to_string(),
                                None,
                            ));
                        };
                        let arguments = request.arguments.take();
                        let context = crate::Context::with_request(&request.request_context);
                        let result = call.call(request.service, arguments, context).await;
                        Ok(rmcp::model::CallToolResult::from(result).into())
                    })
                },
            );
            router.add_route(route);
        }
        router
    }
}
