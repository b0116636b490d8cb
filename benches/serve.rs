//! Throughput of 1000 concurrent `tools/call`s through a real rmcp server and client
//! (in-process, over a duplex pipe): the server's router made from a listing, beside rmcp's own
//! `#[tool_router]` for the same tool.
//!
//! `cargo bench --bench serve`. Prints the median wall time of 1000 concurrent calls over 15
//! rounds, and calls per second.

use std::sync::Arc;
use std::time::Instant;

use mcp_annotations::{Listing, tool, tools};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServerHandler, ServiceExt, tool_handler, tool_router};
use serde_json::json;

pub struct Ours {
    router: ToolRouter<Ours>,
}

impl Ours {
    /// Look up an item by id.
    #[tool(read_only, open_world = false, title = "Lookup")]
    fn lookup(&self, id: u64, name: String) -> String {
        format!("{name}#{id}")
    }
}

static TOOLS: Listing<Ours> = tools![Ours::lookup];

#[tool_handler(router = self.router)]
impl ServerHandler for Ours {}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Lookup {
    pub id: u64,
    pub name: String,
}

pub struct Theirs {
    tool_router: ToolRouter<Theirs>,
}

#[tool_router]
impl Theirs {
    /// Look up an item by id.
    #[rmcp::tool(annotations(read_only_hint = true, open_world_hint = false, title = "Lookup"))]
    fn lookup(&self, Parameters(Lookup { id, name }): Parameters<Lookup>) -> String {
        format!("{name}#{id}")
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Theirs {}

async fn client_of<S: ServerHandler>(server: S) -> Arc<RunningService<RoleClient, ()>> {
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let running = server.serve(tokio::io::split(server_end)).await.unwrap();
        let _ = running.waiting().await;
    });
    Arc::new(().serve(tokio::io::split(client_end)).await.unwrap())
}

async fn thousand_calls(client: &Arc<RunningService<RoleClient, ()>>) -> f64 {
    let start = Instant::now();
    let calls: Vec<_> = (0..1000u64)
        .map(|i| {
            let client = client.clone();
            tokio::spawn(async move {
                let params = CallToolRequestParams::new("lookup").with_arguments(
                    json!({"id": i, "name": "note"})
                        .as_object()
                        .cloned()
                        .unwrap(),
                );
                let result = client.call_tool(params).await.unwrap();
                assert_eq!(
                    result.content[0].as_text().unwrap().text,
                    format!("note#{i}")
                );
            })
        })
        .collect();
    for call in calls {
        call.await.unwrap();
    }
    start.elapsed().as_secs_f64()
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let ours = client_of(Ours { router: TOOLS.into() }).await;
        let theirs = client_of(Theirs { tool_router: Theirs::tool_router() }).await;
        let mut ours_times = Vec::new();
        let mut theirs_times = Vec::new();
        for _ in 0..3 {
            thousand_calls(&ours).await;
            thousand_calls(&theirs).await;
        }
        for _ in 0..15 {
            ours_times.push(thousand_calls(&ours).await);
            theirs_times.push(thousand_calls(&theirs).await);
        }
        ours_times.sort_by(f64::total_cmp);
        theirs_times.sort_by(f64::total_cmp);
        let (ours, theirs) = (ours_times[7], theirs_times[7]);
        println!("1000 concurrent tools/call through an rmcp server and client (in-process), median of 15 rounds");
        println!("{:<44} {:>9.1} ms {:>9.0} calls/s", "annotations: ToolRouter from the listing", ours * 1e3, 1000.0 / ours);
        println!("{:<44} {:>9.1} ms {:>9.0} calls/s", "rmcp: #[tool_router] with Parameters<T>", theirs * 1e3, 1000.0 / theirs);
    });
}
