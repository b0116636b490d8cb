//! A listing served to rmcp at the listing's own cost: `tools/list` is exactly what
//! [`Listing::render`] writes for the session's protocol version and the server's options, page
//! by page (written for the page alone, nothing kept, and handed to rmcp's transport as a JSON
//! value), and `tools/call` goes through the
//! listing's dispatch, with rmcp's request context for `#[context]` parameters. Nothing is
//! copied into rmcp's own structures up front, so the server takes what the listing takes.

use std::borrow::Cow;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, CustomResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig, ServerResult,
};
use rmcp::service::ServiceRole;
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, Service};

use crate::call::Context;
use crate::listing::{AnnotationsForm, CacheScope, ListOptions, Listing};

impl<S: Send + Sync + 'static> Listing<S> {
    /// `tools/list` for a hand-written `ServerHandler::list_tools`: the page at the request's
    /// cursor, of `options`' page size, annotation form and (from 2026-07-28) cache fields,
    /// written for the protocol version of the session (`options.version` is not used) and
    /// converted for just that page.
    ///
    /// rmcp's `Tool` has no field for `execution`, so a tool's `task_support` does not reach a
    /// 2025-11-25 session this way; [`ListingServer`] writes it, as [`render`](Self::render)
    /// does.
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
    served: Served<S>,
}

/// What a [`ListingServer`] serves, as rmcp's `ServerHandler`: rmcp's own handling of every
/// request (versions, capabilities, errors), with the listing's tools.
struct Served<S: 'static> {
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
            served: Served {
                listing,
                state,
                options: ListOptions::default(),
                info: ServerConfig::new(ServerCapabilities::builder().enable_tools().build()),
            },
        }
    }

    /// Sets the page size, the annotation form and the 2026-07-28 cache fields (`ttlMs`,
    /// `cacheScope`) of `tools/list` (the version is always the session's).
    #[must_use]
    pub fn with_list_options(mut self, options: ListOptions) -> Self {
        self.served.options = options;
        self
    }

    /// Sets what `initialize` answers (name, version, instructions, capabilities); keep the
    /// `tools` capability enabled.
    #[must_use]
    pub fn with_info(mut self, info: ServerConfig) -> Self {
        self.served.info = info;
        self
    }

    /// The state the handlers receive.
    pub fn state(&self) -> &S {
        &self.served.state
    }

    /// The listing served.
    pub fn listing(&self) -> &Listing<S> {
        &self.served.listing
    }
}

/// `tools/list` is answered with the listing's own text for the session's version and the
/// server's options, exactly what [`Listing::render`] writes (rmcp's `Tool` cannot carry
/// everything a version lists, such as `execution`); every other request, and the checks
/// rmcp makes on this one first, are rmcp's.
impl<S: Send + Sync + 'static> Service<RoleServer> for ListingServer<S> {
    async fn handle_request(
        &self,
        request: <RoleServer as ServiceRole>::PeerReq,
        context: RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        let listed = match &request {
            ClientRequest::ListToolsRequest(list) => Some((
                list.params
                    .as_ref()
                    .and_then(|params| params.cursor.clone()),
                super::session_version(&context),
            )),
            _ => None,
        };
        let answer = self.served.handle_request(request, context).await?;
        let (Some((cursor, version)), ServerResult::ListToolsResult(_)) = (listed, &answer) else {
            return Ok(answer);
        };
        let options = self.served.options.with_version(version);
        let text = self
            .served
            .listing
            .render_page(&options, cursor.as_deref())
            .map_err(|error| ErrorData::invalid_params(error.to_string(), None))?;
        let value = serde_json::from_str(&text)
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
        Ok(ServerResult::CustomResult(CustomResult(value)))
    }

    async fn handle_notification(
        &self,
        notification: <RoleServer as ServiceRole>::PeerNot,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.served.handle_notification(notification, context).await
    }

    fn get_info(&self) -> ServerConfig {
        self.served.info.clone()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Service::supported_protocol_versions(&self.served)
    }
}

impl<S: Send + Sync + 'static> rmcp::ServerHandler for Served<S> {
    fn get_info(&self) -> ServerConfig {
        self.info.clone()
    }

    /// The cursor checked; the page itself is written by [`ListingServer`]'s `Service`.
    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cursor = request
            .as_ref()
            .and_then(|request| request.cursor.as_deref());
        self.listing.page(cursor, self.options.page_size)?;
        Ok(ListToolsResult::default())
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
