//! A listing served to rmcp at the listing's own cost: `tools/list` written from the listing
//! for the session's protocol version, page by page, and `tools/call` through the listing's
//! dispatch, with rmcp's request context for `#[context]` parameters. Nothing is copied into
//! rmcp's own structures up front, so the server takes what the listing takes.

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use crate::call::Context;
use crate::listing::{AnnotationsForm, ListOptions, Listing};

impl<S: Send + Sync + 'static> Listing<S> {
    /// `tools/list` for a hand-written `ServerHandler::list_tools`: the page at the request's
    /// cursor, of `options`' page size and annotation form, written for the protocol version
    /// of the session (`options.version` is not used) and converted for just that page.
    ///
    /// See [`ListingServer`] for a whole server; call this (and
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
        let version = super::session_version(&context);
        let call = self
            .call(
                state,
                &request.name,
                request.arguments,
                Context::with_request(&context),
            )
            .map_err(|unknown| ErrorData::invalid_params(unknown.to_string(), None))?;
        let result = call.await;
        Ok(super::result::call_tool_result(result, version, false))
    }
}

/// An rmcp server of a listing's tools: `tools/list` from the listing, page by page, for the
/// session's protocol version, and `tools/call` through the listing's own index, with the
/// state for `&self` handlers and rmcp's request context for `#[context]` parameters.
///
/// Choose it over the listing as rmcp's `ToolRouter` (`TOOLS.into()` with `#[tool_handler]`)
/// when the listing is all the server's tools: it holds nothing beyond the listing and the
/// state (the router copies every descriptor into rmcp's JSON trees), dispatches through the
/// listing's index, and writes each session's own protocol version (the router lists one
/// form to every session). Choose the router to mix the listing with rmcp's own `#[tool]`
/// routes. For prompts, resources or logging beside the tools, write your own
/// `ServerHandler` and call [`Listing::list_tools_rmcp`] and [`Listing::call_tool_rmcp`]
/// from it.
///
/// ```no_run
/// use annotations::{Listing, ListingServer, tool, tools};
/// use rmcp::ServiceExt;
///
/// #[derive(Default)]
/// pub struct Notes;
///
/// impl Notes {
///     /// List every saved note with its id and title.
///     #[tool(read_only, open_world = false, title = "List notes")]
///     pub fn list_notes(&self) -> String {
///         String::from("1: Milk")
///     }
/// }
///
/// static TOOLS: Listing<Notes> = tools![Notes::list_notes];
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let server = ListingServer::new(TOOLS, Notes);
///     server.serve(rmcp::transport::stdio()).await?.waiting().await?;
///     Ok(())
/// }
/// ```
pub struct ListingServer<S: 'static> {
    listing: Listing<S>,
    state: S,
    options: ListOptions,
    info: ServerConfig,
}

impl<S: Send + Sync + 'static> ListingServer<S> {
    /// A server of `listing`'s tools with this state, every tool in one page, annotations as
    /// stated, and rmcp's server info for this build (`tools` capability enabled).
    #[must_use]
    pub fn new(listing: Listing<S>, state: S) -> Self {
        ListingServer {
            listing,
            state,
            options: ListOptions::default(),
            info: ServerConfig::new(ServerCapabilities::builder().enable_tools().build()),
        }
    }

    /// Sets the page size and the annotation form of `tools/list` (the version is always the
    /// session's).
    #[must_use]
    pub fn with_list_options(mut self, options: ListOptions) -> Self {
        self.options = options;
        self
    }

    /// Sets what `initialize` answers (name, version, instructions, capabilities); keep the
    /// `tools` capability enabled.
    #[must_use]
    pub fn with_info(mut self, info: ServerConfig) -> Self {
        self.info = info;
        self
    }

    /// The state the handlers receive.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The listing served.
    pub fn listing(&self) -> &Listing<S> {
        &self.listing
    }
}

impl<S: Send + Sync + 'static> rmcp::ServerHandler for ListingServer<S> {
    fn get_info(&self) -> ServerConfig {
        self.info.clone()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.listing
            .list_tools_rmcp(request.as_ref(), &context, &self.options)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        // (Written as one future instead, with the call inline, it measured the same.)
        self.listing
            .call_tool_rmcp(&self.state, request, context)
            .await
            .map(Into::into)
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        self.listing.get(name).map(rmcp::model::Tool::from)
    }
}
