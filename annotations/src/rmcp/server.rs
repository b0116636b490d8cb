//! A listing served to rmcp at the listing's own cost: `tools/list` is exactly what
//! [`Listing::render`] writes for the session's protocol version and the server's options, page
//! by page (written for the page alone, nothing kept, and handed to rmcp's transport as a JSON
//! value), and `tools/call` goes through the
//! listing's dispatch, with rmcp's request context for `#[context]` parameters. Nothing is
//! copied into rmcp's own structures up front, so the server takes what the listing takes.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError, RwLock, RwLockReadGuard};

use rmcp::model::{
    CallToolRequestParams, ClientRequest, CustomRequest, CustomResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig, ServerResult,
};
use rmcp::service::ServiceRole;
use rmcp::service::{NotificationContext, Peer, RequestContext};
use rmcp::{ErrorData, RoleServer, Service};

use crate::listing::{Filter, FilterError, ListOptions, Listing};
use crate::resolution::{
    self, Declaration, ResolveError, ResolveOptions, ResolveRequest, ResolveResult,
};

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
/// use mcp_annotations::{Listing, rmcp::ListingServer, tool, tools};
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
    served: ListingHandler<S>,
}

/// Computes a request's own filter from its context (its authorization, say).
type RequestFilter = Box<dyn Fn(&RequestContext<RoleServer>) -> Filter + Send + Sync>;

/// A [`ListingServer`] as an rmcp `ServerHandler` ([`ListingServer::into_handler`]), for what
/// takes one: rmcp's Streamable HTTP service (`StreamableHttpService::new(move ||
/// Ok(server.into_handler()), ...)`), or a router of your own. It serves the same tools through
/// the same filters; its `tools/list` goes out through rmcp's `Tool`, which has no field for
/// `execution`, so a tool's `task_support` does not reach a 2025-11-25 session this way
/// (everything else does, `ttlMs` and `cacheScope` included).
pub struct ListingHandler<S: 'static> {
    listing: Listing<S>,
    state: S,
    options: ListOptions,
    info: ServerConfig,
    /// The operator's filter: what the server offers at most.
    operator: RwLock<Filter>,
    /// Whether the operator's filter may change while serving (`listChanged: true`).
    changing: bool,
    /// Whether the operator's filter cannot change and offers every tool: then a call without
    /// a request filter is judged by nothing (no lock taken, no tool looked up twice).
    offers_all: bool,
    request_filter: Option<RequestFilter>,
    /// The session's client, once it has initialized, and its protocol version: where a
    /// change of the tools is announced.
    session: Mutex<Option<(Peer<RoleServer>, crate::protocol::ProtocolVersion)>>,
    /// Whether the session was told of a change it has not listed since: one notification
    /// for any number of changes before the client lists again.
    told: AtomicBool,
    /// Serving on its own (a `ServerHandler`), not inside [`ListingServer`]'s `Service`,
    /// which writes `tools/list` itself.
    alone: bool,
    /// Whether a tool of the listing is resolvable: then the server declares the
    /// tool-resolution extension and answers `tools/resolve`.
    resolves: bool,
}

impl<S: Send + Sync + 'static> ListingServer<S> {
    /// A server of `listing`'s tools with this state, every tool in one page, annotations as
    /// stated, and rmcp's server info for this build (`tools` capability enabled).
    #[must_use]
    pub fn new(listing: Listing<S>, state: S) -> Self {
        let resolves = listing.tools().iter().any(|tool| tool.resolvable);
        ListingServer {
            served: ListingHandler {
                listing,
                state,
                options: ListOptions::default(),
                info: ServerConfig::new(ServerCapabilities::builder().enable_tools().build()),
                operator: RwLock::new(Filter::new()),
                changing: false,
                offers_all: true,
                request_filter: None,
                session: Mutex::new(None),
                told: AtomicBool::new(false),
                alone: false,
                resolves,
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
    /// `tools` capability enabled (its `listChanged` is the server's to say: see
    /// [`with_changing_filter`](Self::with_changing_filter)).
    #[must_use]
    pub fn with_info(mut self, info: ServerConfig) -> Self {
        self.served.info = info;
        self
    }

    /// The operator's filter (read-only mode, toolsets, tools, exclusions: GitHub's
    /// `--read-only`, `--toolsets`, `--tools`, `--exclude-tools`): the most the server offers,
    /// in `tools/list` and `tools/call` alike (a hidden tool is answered as an unknown one).
    /// The server tells its clients its tools never change (`listChanged: false`).
    ///
    /// # Errors
    ///
    /// [`FilterError`] when the filter names a toolset or tool the listing does not have.
    pub fn with_filter(mut self, filter: Filter) -> Result<Self, FilterError> {
        self.served.listing.filtered(&filter)?;
        self.served.offers_all = filter.is_everything();
        self.served.operator = RwLock::new(filter);
        self.served.changing = false;
        Ok(self)
    }

    /// As [`with_filter`](Self::with_filter), for a filter that may change while the server
    /// serves ([`set_filter`](Self::set_filter)): the server tells its clients so
    /// (`listChanged: true`).
    ///
    /// # Errors
    ///
    /// [`FilterError`] when the filter names a toolset or tool the listing does not have.
    pub fn with_changing_filter(mut self, filter: Filter) -> Result<Self, FilterError> {
        self = self.with_filter(filter)?;
        self.served.changing = true;
        self.served.offers_all = false;
        Ok(self)
    }

    /// A filter of each request's own, computed from its context (rmcp's `RequestContext`:
    /// the scopes of the request's token, from the HTTP request's parts in its
    /// `extensions` under the Streamable HTTP transport), narrowed by the operator's: a
    /// request may see less than the operator allows, never more. Protocol 2026-07-28 lets
    /// `tools/list` vary by a request's authorization, and by nothing else of the connection:
    /// compute the filter from the authorization alone. A name in it that the listing does not
    /// have, or that the operator hides, offers nothing, and is answered alike (no error that
    /// would tell a client which tools exist).
    #[must_use]
    pub fn with_request_filter(
        mut self,
        filter: impl Fn(&RequestContext<RoleServer>) -> Filter + Send + Sync + 'static,
    ) -> Self {
        self.served.request_filter = Some(Box::new(filter));
        self
    }

    /// Changes the operator's filter while serving (`running.service().set_filter(...)`), and
    /// tells the session's client its tools changed: see [`ListingHandler::set_filter`].
    ///
    /// # Errors
    ///
    /// [`FilterError`] when the filter names a toolset or tool the listing does not have, or
    /// the server was not built with [`with_changing_filter`](Self::with_changing_filter)
    /// (its clients were told its tools never change).
    pub async fn set_filter(&self, filter: Filter) -> Result<(), FilterError> {
        self.served.set_filter(filter).await
    }

    /// The server as an rmcp `ServerHandler` ([`ListingHandler`]), for rmcp's Streamable HTTP
    /// service or a router of your own: the same tools through the same filters, its
    /// `tools/list` through rmcp's types (which cannot carry `execution.taskSupport`).
    #[must_use]
    pub fn into_handler(mut self) -> ListingHandler<S> {
        self.served.alone = true;
        self.served
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

impl<S: Send + Sync + 'static> ListingHandler<S> {
    /// Changes the operator's filter while serving (`running.service().set_filter(...)`, for a
    /// handler served on its own), and tells the session's client its tools changed
    /// (`notifications/tools/list_changed`), once however many changes come before it lists
    /// them again. A 2026-07-28 session is not
    /// told this way (that version delivers it on a `subscriptions/listen` stream, which this
    /// server does not open); it lists again when its `ttlMs` runs out.
    ///
    /// # Errors
    ///
    /// [`FilterError`] when the filter names a toolset or tool the listing does not have, or
    /// the server was not built with [`with_changing_filter`](ListingServer::with_changing_filter)
    /// (its clients were told its tools never change).
    pub async fn set_filter(&self, filter: Filter) -> Result<(), FilterError> {
        if !self.changing {
            return Err(FilterError::fixed());
        }
        self.listing.filtered(&filter)?;
        if let Ok(mut operator) = self.operator.write() {
            *operator = filter;
        }
        let session = self.session.lock().ok().and_then(|session| session.clone());
        if let Some((peer, version)) = session {
            let notified = version.is_told_of_list_changes();
            if notified && !self.told.swap(true, Ordering::AcqRel) {
                // A session that has gone away has nothing to be told.
                let _ = peer.notify_tool_list_changed().await;
            }
        }
        Ok(())
    }

    /// What a request is offered (`None`: no request, as when rmcp asks
    /// [`get_tool`](rmcp::ServerHandler::get_tool) outside one): the one rule by which
    /// `tools/list`, `tools/call`, `tools/resolve` and `get_tool` judge a tool. The operator's
    /// filter, narrowed by the request's own where the server makes one; nothing is locked or
    /// made while the operator's filter offers every tool for good and no request filter is
    /// set. The request's filter is not checked: a name in it that the listing lacks and one
    /// the operator hides both offer nothing, so a request asking for more than the operator
    /// allows sees what it allows, and a client cannot tell a hidden tool from a missing one by
    /// the answer. Without a request to judge, a server of request filters offers nothing.
    fn offer(&self, context: Option<&RequestContext<RoleServer>>) -> Offer<'_> {
        let request = match (&self.request_filter, context) {
            (None, _) if self.offers_all => return Offer::Everything,
            (None, _) => None,
            (Some(make), Some(context)) => Some(make(context)),
            (Some(_), None) => return Offer::Nothing,
        };
        let operator = self.operator.read().unwrap_or_else(PoisonError::into_inner);
        Offer::Filtered { operator, request }
    }

    /// What a `tools/list` request asks, read before rmcp takes the request: the page
    /// (`cursor`), the session's version, what the request is offered, and whether it declared
    /// the tool-resolution extension. The session counts as told of every change before it.
    fn list_request(
        &self,
        params: Option<&PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> ListRequest {
        // Cleared before the filter is read: a change after this point is told again.
        self.told.store(false, Ordering::Release);
        let version = super::session_version(context);
        let meta = params.and_then(|params| params.meta.as_ref());
        let declared = self
            .declaration(version, meta.map(|meta| &meta.0.0), context)
            .is_declared();
        ListRequest {
            cursor: params.and_then(|params| params.cursor.clone()),
            version,
            filter: self.offer(Some(context)).into_filter(),
            declared,
        }
    }

    /// The `tools/list` result `list` asks for, as [`Listing::render`] writes it (written for
    /// the page alone, nothing kept).
    fn page(&self, list: ListRequest) -> Result<serde_json::Value, ErrorData> {
        let options = self
            .options
            .with_version(list.version)
            .with_tool_resolution(list.declared);
        let cursor = list.cursor.as_deref();
        let invalid =
            |error: &dyn std::fmt::Display| ErrorData::invalid_params(error.to_string(), None);
        let text = match list.filter {
            None => self.listing.render_page(&options, cursor),
            Some(filter) => self
                .listing
                .filtered_unchecked(filter)
                .render_page(&options, cursor),
        }
        .map_err(|error| invalid(&error))?;
        serde_json::from_str(&text)
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))
    }

    /// The server's info, with the `tools` capability saying whether its tools may change,
    /// and the tool-resolution extension declared (its empty settings) where a tool is
    /// resolvable.
    fn info(&self) -> ServerConfig {
        let mut info = self.info.clone();
        let mut tools = info.capabilities.tools.take().unwrap_or_default();
        tools.list_changed = Some(self.changing);
        info.capabilities.tools = Some(tools);
        if self.resolves {
            info.capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(resolution::EXTENSION.to_owned(), serde_json::Map::new());
        }
        info
    }

    /// What the client declared of the tool-resolution extension for this request: for
    /// 2026-07-28 in the request's own `_meta` (`params_meta` where the params carry it, else
    /// what rmcp read off the request), before it in the session's `initialize`.
    fn declaration(
        &self,
        version: crate::protocol::ProtocolVersion,
        params_meta: Option<&serde_json::Map<String, serde_json::Value>>,
        context: &RequestContext<RoleServer>,
    ) -> Declaration {
        if !self.resolves {
            return Declaration::Absent;
        }
        let request_meta = params_meta.or(Some(&context.meta.0.0));
        // The session's declaration only where the version reads it there: its extensions,
        // as `initialize` sent them.
        let session = (!version.has_per_request_capabilities())
            .then(|| context.peer.peer_info())
            .flatten()
            .and_then(|info| {
                let extensions = info.capabilities.extensions.as_ref()?;
                serde_json::to_value(extensions).ok()
            })
            .map(|extensions| serde_json::json!({ "extensions": extensions }));
        Declaration::read(version, request_meta, session.as_ref())
    }

    /// `tools/resolve`: the hints of the call its params name, through the listing's resolver
    /// and the server's filters (a tool not offered is answered as one that does not exist).
    fn resolve(
        &self,
        params: Option<&serde_json::Value>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let error = |error: ResolveError| {
            let value = error.to_error();
            ErrorData::new(
                rmcp::model::ErrorCode(error.code()),
                error.to_string(),
                value.get("data").cloned(),
            )
        };
        // The capability first, as the draft orders the checks: a request that did not
        // declare the extension is told so whatever else is wrong with it.
        let version = super::session_version(context);
        let params_meta = params
            .and_then(|params| params.get("_meta"))
            .and_then(serde_json::Value::as_object);
        let declaration = self.declaration(version, params_meta, context);
        // The resolution asks for what this check alone makes: it is not made again.
        let declared = ResolveOptions::new(declaration).declared().map_err(error)?;
        let empty = serde_json::Value::Null;
        let request = ResolveRequest::from_params(params.unwrap_or(&empty)).map_err(error)?;
        let hints = self
            .listing
            .resolve_if(
                &self.state,
                &request.name,
                &request.arguments,
                declared,
                |tool| self.offer(Some(context)).admits(tool),
            )
            .map_err(error)?;
        Ok(CustomResult(
            ResolveResult::new(request.name, hints).to_value(),
        ))
    }
}

/// `tools/list` is answered with the listing's own text for the session's version and the
/// server's options, exactly what [`Listing::render`] writes (rmcp's `Tool` cannot carry
/// everything a version lists, such as `execution`), through the server's filter; every other
/// request, and the checks rmcp makes on this one first, are rmcp's.
impl<S: Send + Sync + 'static> Service<RoleServer> for ListingServer<S> {
    async fn handle_request(
        &self,
        request: <RoleServer as ServiceRole>::PeerReq,
        context: RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        let listed = match &request {
            ClientRequest::ListToolsRequest(list) => {
                Some(self.served.list_request(list.params.as_ref(), &context))
            }
            _ => None,
        };
        let answer = self.served.handle_request(request, context).await?;
        let (Some(list), ServerResult::ListToolsResult(_)) = (listed, &answer) else {
            return Ok(answer);
        };
        let value = self.served.page(list)?;
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
        self.served.info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Service::supported_protocol_versions(&self.served)
    }
}

impl<S: Send + Sync + 'static> rmcp::ServerHandler for ListingHandler<S> {
    fn get_info(&self) -> ServerConfig {
        self.info()
    }

    /// Inside [`ListingServer`], nothing but rmcp's checks (the page is written there); on
    /// its own, the page through the filters, as rmcp's types carry it.
    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if !self.alone {
            return Ok(ListToolsResult::default());
        }
        let value = self.page(self.list_request(request.as_ref(), &context))?;
        serde_json::from_value(value)
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        // The listing's one admission route: the tool looked up once, and one it does not offer
        // answered as a name it does not have (nothing says it exists).
        self.listing
            .call_tool_rmcp_if(&self.state, request, &context, |tool, context| {
                self.offer(Some(context)).admits(tool)
            })
            .await
            .map(Into::into)
    }

    /// `tools/resolve` where a tool is resolvable (the extension declared in the server's
    /// capabilities); any other method, or `tools/resolve` where none is, is not found
    /// (-32601), as rmcp answers it.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if self.resolves && request.method == resolution::METHOD {
            return self.resolve(request.params.as_ref(), &context);
        }
        Err(ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            request.method,
            None,
        ))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        if self.changing {
            let version = super::negotiated_version(&context.peer);
            if let Ok(mut session) = self.session.lock() {
                *session = Some((context.peer, version));
            }
        }
    }

    /// The tool named `name` as the operator's filter offers it. Under a request filter there
    /// is no request to judge it by here (rmcp asks this outside one, to check a call's
    /// headers), so nothing is found: a tool some requests may not see is never told apart
    /// from a missing one this way.
    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        let tool = self.listing.get(name)?;
        self.offer(None)
            .admits(tool)
            .then(|| rmcp::model::Tool::from(tool))
    }
}

/// What one request is offered ([`ListingHandler::offer`]).
enum Offer<'a> {
    /// Every tool: the operator's filter offers all and cannot change, and no request filter
    /// is set.
    Everything,
    /// No tool: the server judges each request by its own filter, and there is no request.
    Nothing,
    /// What the operator's filter (read in place) and the request's own, if any, both offer.
    Filtered {
        operator: RwLockReadGuard<'a, Filter>,
        request: Option<Filter>,
    },
}

impl Offer<'_> {
    /// Whether `tool` is offered.
    fn admits(&self, tool: &crate::tool::Tool) -> bool {
        match self {
            Offer::Everything => true,
            Offer::Nothing => false,
            Offer::Filtered { operator, request } => {
                operator.admits(tool) && request.as_ref().is_none_or(|request| request.admits(tool))
            }
        }
    }

    /// The filter a listing is rendered through: `None` for every tool.
    fn into_filter(self) -> Option<Filter> {
        match self {
            Offer::Everything => None,
            // An allow-list that names no tool.
            Offer::Nothing => Some(Filter::new().tools(std::iter::empty::<String>())),
            Offer::Filtered {
                operator,
                request: Some(request),
            } => Some(operator.narrow(&request)),
            Offer::Filtered {
                operator,
                request: None,
            } => (!operator.is_everything()).then(|| operator.clone()),
        }
    }
}

/// What a `tools/list` request asks ([`ListingHandler::list_request`]).
struct ListRequest {
    /// The page's cursor.
    cursor: Option<String>,
    /// The session's protocol version.
    version: crate::protocol::ProtocolVersion,
    /// What the request is offered (`None`: every tool).
    filter: Option<Filter>,
    /// Whether the request declared the tool-resolution extension.
    declared: bool,
}
