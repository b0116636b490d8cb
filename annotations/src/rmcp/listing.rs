//! Every method of `Listing` for rmcp, in one home: listings and pages as rmcp's `Vec<Tool>`
//! and `ListToolsResult`, `tools/list` and `tools/call` for a hand-written `ServerHandler`
//! (the call through the listing's one admission route), and an invalid cursor as rmcp's
//! error.

use rmcp::model::{CallToolRequestParams, CallToolResult, ListToolsResult, PaginatedRequestParams};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use crate::call::Context;
use crate::listing::{AnnotationsForm, CacheScope, ListOptions, Listing};

impl<S> crate::listing::Listing<S> {
    /// The tools as rmcp's `list_tools` returns them, in order.
    ///
    /// ```
    /// use mcp_annotations::{Listing, tool, tools};
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
impl<S> From<crate::listing::Listing<S>> for Vec<rmcp::model::Tool> {
    fn from(listing: crate::listing::Listing<S>) -> Self {
        listing.to_rmcp()
    }
}

impl<S> crate::listing::Listing<S> {
    /// The page of tools at `cursor` as rmcp's `ListToolsResult`, for a hand-written
    /// `ServerHandler::list_tools`: [`page`](Self::page) with rmcp's types, the next cursor
    /// included, and an invalid cursor as the JSON-RPC error -32602 that rmcp sends back.
    ///
    /// ```
    /// use mcp_annotations::{Listing, tool, tools};
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
impl From<crate::listing::CursorError> for rmcp::ErrorData {
    fn from(error: crate::listing::CursorError) -> Self {
        rmcp::ErrorData::invalid_params(error.to_string(), None)
    }
}

impl<S: Send + Sync + 'static> Listing<S> {
    /// `tools/list` for a hand-written `ServerHandler::list_tools`: the page at the request's
    /// cursor, of `options`' page size, annotation form and (from 2026-07-28) cache fields,
    /// written for the protocol version of the session (`options.version` is not used) and
    /// converted for just that page.
    ///
    /// rmcp's `Tool` has no field for `execution`, so a tool's `task_support` does not reach a
    /// 2025-11-25 session this way; [`ListingServer`](crate::rmcp::ListingServer) writes it, as [`render`](Self::render)
    /// does.
    ///
    /// See [`ListingServer`](crate::rmcp::ListingServer) for a whole server; call this (and
    /// [`call_tool_rmcp`](Self::call_tool_rmcp)) from a `ServerHandler` of your own to serve
    /// prompts, resources or logging beside the tools.
    ///
    /// # Errors
    ///
    /// An invalid cursor, as rmcp's -32602 error.
    #[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
    pub fn list_tools_rmcp(
        &self,
        request: Option<&PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
        options: &ListOptions,
    ) -> Result<ListToolsResult, ErrorData> {
        let cursor = request.and_then(|request| request.cursor.as_deref());
        let page = self.page(cursor, options.page_size)?;
        let version = super::session_version(context);
        let explicit = matches!(options.annotations, AnnotationsForm::Explicit);
        let tools = page
            .tools
            .iter()
            .map(|tool| super::tool::for_version(tool, version, explicit))
            .collect();
        let mut result = ListToolsResult::with_all_items(tools);
        result.next_cursor = page.next_cursor;
        if version.has_cache_fields() {
            result.ttl_ms = Some(options.ttl_ms);
            result.cache_scope = Some(match options.cache_scope {
                CacheScope::Public => rmcp::model::CacheScope::Public,
                _ => rmcp::model::CacheScope::Private,
            });
        }
        Ok(result)
    }

    /// `tools/call` for a hand-written `ServerHandler::call_tool`: the call found through the
    /// listing's index, its arguments read as its schema states, rmcp's request context for
    /// `#[context]` parameters, and the result written for the session's protocol version.
    ///
    /// # Errors
    ///
    /// A name the listing does not have, as rmcp's -32602 error (a failed tool is a result,
    /// not an error).
    #[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
    pub async fn call_tool_rmcp(
        &self,
        state: &S,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        self.call_tool_rmcp_if(state, request, &context, |_, _| true)
            .await
    }

    /// [`call_tool_rmcp`](Self::call_tool_rmcp), for a tool that `offered` admits: one it
    /// does not is answered as one the listing does not have. The tool is looked up once,
    /// by [`Listing::call_if`], the route every filtered call takes.
    pub(crate) async fn call_tool_rmcp_if(
        &self,
        state: &S,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        offered: impl FnOnce(&crate::tool::Tool, &RequestContext<RoleServer>) -> bool,
    ) -> Result<CallToolResult, ErrorData> {
        let call = self
            .call_if(
                state,
                &request.name,
                request.arguments,
                Context::with_request(context),
                |tool| offered(tool, context),
            )
            .map_err(|unknown| ErrorData::invalid_params(unknown.to_string(), None))?;
        let result = call.await;
        let version = || super::session_version(context);
        Ok(super::result::call_tool_result(result, version, false))
    }
}
