//! Per-call overhead of a `tools/call` (arguments in, result out), side by side with rmcp's own
//! router for the same tool with `Parameters<T>`: no transport, the router called directly with
//! a request context taken from a running rmcp server.
//!
//! `cargo bench --bench call`. Prints the median nanoseconds per call over batches.

use std::hint::black_box;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use mcp_annotations::{Context, Listing, tool, tools};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, CallToolResult, ListToolsResult, PaginatedRequestParams};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;

/// The server of this crate's tool.
pub struct Ours;

impl Ours {
    /// Look up an item by id.
    #[tool(read_only, open_world = false, title = "Lookup")]
    fn lookup(
        &self,
        /// The item's id
        id: u64,
        /// Its name
        name: String,
    ) -> String {
        format!("{name}#{id}")
    }
}

static TOOLS: Listing<Ours> = tools![Ours::lookup];

/// The same tool, the way rmcp's documentation writes it.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Lookup {
    /// The item's id
    pub id: u64,
    /// Its name
    pub name: String,
}

pub struct Theirs;

#[rmcp::tool_router]
impl Theirs {
    /// Look up an item by id.
    #[rmcp::tool(annotations(read_only_hint = true, open_world_hint = false, title = "Lookup"))]
    fn lookup(&self, Parameters(Lookup { id, name }): Parameters<Lookup>) -> String {
        format!("{name}#{id}")
    }
}

/// A server that keeps the request context of the first request it answers, so the routers
/// can be called directly with a real one.
struct Capture(Arc<OnceLock<RequestContext<RoleServer>>>);

impl ServerHandler for Capture {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let _ = self.0.set(context);
        Ok(ListToolsResult::default())
    }
}

fn median_ns(rt: &tokio::runtime::Runtime, batch: u32, mut op: impl AsyncFnMut()) -> f64 {
    rt.block_on(async {
        for _ in 0..batch {
            op().await;
        }
        let mut times = Vec::new();
        for _ in 0..31 {
            let start = Instant::now();
            for _ in 0..batch {
                op().await;
            }
            times.push(start.elapsed().as_secs_f64() * 1e9 / f64::from(batch));
        }
        times.sort_by(f64::total_cmp);
        times[15]
    })
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let slot = Arc::new(OnceLock::new());
    let context = rt.block_on(async {
        let (server_end, client_end) = tokio::io::duplex(1 << 16);
        let capture = Capture(slot.clone());
        tokio::spawn(async move {
            let running = capture.serve(tokio::io::split(server_end)).await.unwrap();
            let _ = running.waiting().await;
        });
        let client = ().serve(tokio::io::split(client_end)).await.unwrap();
        let _ = client.list_tools(None).await;
        let context = slot.get().unwrap().clone();
        std::mem::forget(client);
        context
    });

    let arguments = json!({"id": 42, "name": "note"})
        .as_object()
        .cloned()
        .unwrap();
    let request = CallToolRequestParams::new("lookup").with_arguments(arguments.clone());
    let our_router: ToolRouter<Ours> = TOOLS.into();
    let their_router = Theirs::tool_router();
    // The floor: the same router call with a route that does nothing but answer.
    let mut floor_router: ToolRouter<Theirs> = ToolRouter::new();
    floor_router.add_route(rmcp::handler::server::router::tool::ToolRoute::new_dyn(
        rmcp::model::Tool::new_with_raw("lookup", None, serde_json::Map::new()),
        |_call: ToolCallContext<'_, Theirs>| {
            Box::pin(async { Ok(CallToolResult::success(Vec::new()).into()) })
        },
    ));

    // All three give the same result.
    let mut expected = CallToolResult::success(vec![rmcp::model::ContentBlock::text("note#42")]);
    // This crate leaves `isError` out unless the tool failed; rmcp writes `false`.
    expected.is_error = None;
    let direct = rt.block_on(
        TOOLS
            .call(&Ours, "lookup", Some(arguments.clone()), Context::none())
            .unwrap(),
    );
    assert_eq!(CallToolResult::from(direct), expected);

    const BATCH: u32 = 20_000;
    // For a profiler: `CALL_BENCH_ONLY=server` (or `rmcp`) runs that one case for a while.
    if let Ok(case) = std::env::var("CALL_BENCH_ONLY") {
        let server = mcp_annotations::rmcp::ListingServer::new(TOOLS, Ours).into_handler();
        rt.block_on(async {
            for _ in 0..2_000_000 {
                if case == "server" {
                    let answer = server.call_tool(black_box(request.clone()), context.clone());
                    black_box(answer.await.unwrap());
                } else {
                    let call =
                        ToolCallContext::new(&Theirs, black_box(request.clone()), context.clone());
                    black_box(their_router.call(call).await.unwrap());
                }
            }
        });
        return;
    }
    // Every route compared gives the same answer, not only the first.
    let routed = |answer: rmcp::model::CallToolResponse| match answer {
        rmcp::model::CallToolResponse::Complete(mut answer) => {
            answer.is_error = answer.is_error.filter(|&failed| failed);
            answer
        }
        other => panic!("not a complete result: {other:?}"),
    };
    rt.block_on(async {
        let call = ToolCallContext::new(&Ours, request.clone(), context.clone());
        assert_eq!(
            routed(our_router.call(call).await.unwrap()),
            expected,
            "our router"
        );
        let call = ToolCallContext::new(&Theirs, request.clone(), context.clone());
        assert_eq!(
            routed(their_router.call(call).await.unwrap()),
            expected,
            "rmcp's router"
        );
    });
    // `Listing::call` given the same copy of the request and its context as each rmcp route
    // is (rmcp's dispatch makes it too), so that both sides pay it.
    let ours_direct = median_ns(&rt, BATCH, async || {
        let (request, context) = black_box((black_box(request.clone()), context.clone()));
        let call = TOOLS.call(&Ours, "lookup", request.arguments, Context::none());
        black_box(CallToolResult::from(call.unwrap().await));
        drop(context);
    });
    let ours_router = median_ns(&rt, BATCH, async || {
        let call = ToolCallContext::new(&Ours, black_box(request.clone()), context.clone());
        black_box(our_router.call(call).await.unwrap());
    });
    // What `ListingServer`'s `tools/call` runs once rmcp has dispatched the request: its
    // `ServerHandler::call_tool`, the operator's filter and the request's included.
    let server = mcp_annotations::rmcp::ListingServer::new(TOOLS, Ours).into_handler();
    let ours_server = median_ns(&rt, BATCH, async || {
        let answer = server.call_tool(black_box(request.clone()), context.clone());
        black_box(answer.await.unwrap());
    });
    // The same through a filter the tool passes: the operator's read-only mode, narrowed for
    // each request by a filter of its own (as a token's scopes would).
    let filtered = mcp_annotations::rmcp::ListingServer::new(TOOLS, Ours)
        .with_filter(mcp_annotations::listing::Filter::new().read_only())
        .unwrap()
        .with_request_filter(|_| mcp_annotations::listing::Filter::new().read_only())
        .into_handler();
    let answer = |server: &mcp_annotations::rmcp::ListingHandler<Ours>| {
        let answer = rt.block_on(server.call_tool(request.clone(), context.clone()));
        routed(answer.unwrap())
    };
    assert_eq!(answer(&server), expected, "ListingServer's tools/call");
    assert_eq!(
        answer(&filtered),
        answer(&server),
        "the filter admits the tool"
    );
    let ours_filtered = median_ns(&rt, BATCH, async || {
        let answer = filtered.call_tool(black_box(request.clone()), context.clone());
        black_box(answer.await.unwrap());
    });
    let clones = median_ns(&rt, BATCH, async || {
        black_box((black_box(request.clone()), context.clone()));
    });
    let theirs = median_ns(&rt, BATCH, async || {
        let call = ToolCallContext::new(&Theirs, black_box(request.clone()), context.clone());
        black_box(their_router.call(call).await.unwrap());
    });
    let floor = median_ns(&rt, BATCH, async || {
        let call = ToolCallContext::new(&Theirs, black_box(request.clone()), context.clone());
        black_box(floor_router.call(call).await.unwrap());
    });
    println!(
        "tools/call of one tool (id: u64, name: String), median ns per call over 31 batches of {BATCH}"
    );
    println!(
        "{:<46} {:>10}",
        "annotations: Listing::call (same copy, to rmcp's)",
        format!("{ours_direct:.0}")
    );
    println!(
        "{:<46} {:>10}",
        "annotations: ToolRouter from the listing",
        format!("{ours_router:.0}")
    );
    println!(
        "{:<46} {:>10}",
        "annotations: ListingServer's tools/call",
        format!("{ours_server:.0}")
    );
    println!(
        "{:<46} {:>10}",
        "annotations: ListingServer's, through filters",
        format!("{ours_filtered:.0}")
    );
    println!(
        "{:<46} {:>10}",
        "rmcp: #[tool_router] with Parameters<T>",
        format!("{theirs:.0}")
    );
    println!(
        "{:<46} {:>10}",
        "(of which copying the request and its context)",
        format!("{clones:.0}")
    );
    println!(
        "{:<46} {:>10}",
        "floor: the router with a route that only answers",
        format!("{floor:.0}")
    );
    println!(
        "rmcp / annotations through the router: {:.2}x; beyond the floor: {:.2}x",
        theirs / ours_router,
        (theirs - floor) / (ours_router - floor)
    );
    println!(
        "rmcp / annotations' Listing::call, the same copy on both: {:.2}x",
        theirs / ours_direct
    );
    println!(
        "rmcp / annotations through ListingServer: {:.2}x",
        theirs / ours_server
    );
}
