//! Memory of 10 000 tools: the heap that a listing's descriptors take at run time, beside
//! rmcp's `ToolRouter` for the same tools (the way rmcp holds a server's tools), and the router
//! made from a listing. Peak resident memory (`VmHWM`) is read from `/proc/self/status`, one
//! case per process.
//!
//! Served through `ListingServer` to rmcp's own client in-process, every tool listed once: a
//! server of one tool shows what the runtime, server and client take by themselves.
//!
//! `cargo bench --bench memory -- <case>`; with no argument it runs each case in a child
//! process and prints the table.

use mcp_annotations::Listing;
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::model::CallToolResult;

const TOOLS: usize = 10_000;
const SCHEMA: &str = r#"{"type":"object","properties":{"id":{"type":"integer","minimum":0,"maximum":18446744073709551615,"description":"The item's id"},"name":{"type":"string","description":"Its name"}},"required":["id","name"],"additionalProperties":false}"#;

fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The descriptors as `tools!` would hold them, built at run time (so on the heap) for the
/// measurement: a `tools!` listing holds them in the binary's read-only data instead.
fn listing() -> Listing<()> {
    annotations_tests::lookup_listing(TOOLS, SCHEMA, "by id and name.")
}

/// A listing of `tools` served by `ListingServer` to rmcp's client in-process, every tool
/// listed once, page by page (`page_size` 0: all in one page); the client drops each page as
/// it comes. With one tool, what the runtime, the server and the client take by themselves.
fn serve_and_list(tools: usize, page_size: usize) {
    serve_and_list_rounds(tools, page_size, 1, false);
}

/// [`serve_and_list`], every tool listed `rounds` times, each request through a filter of its
/// own (made from the request, as from a token's scopes) when `filtered`: what a server that
/// filters each request keeps past the requests.
fn serve_and_list_rounds(tools: usize, page_size: usize, rounds: usize, filtered: bool) {
    use rmcp::ServiceExt;
    use rmcp::model::PaginatedRequestParams;

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listing = annotations_tests::lookup_listing(tools, SCHEMA, "by id and name.");
        let mut server = mcp_annotations::rmcp::ListingServer::new(listing, ()).with_list_options(
            mcp_annotations::listing::ListOptions::default().with_page_size(page_size),
        );
        if filtered {
            server = server.with_request_filter(|_| {
                mcp_annotations::listing::Filter::new().granted_scopes(["repo"])
            });
        }
        let (server_end, client_end) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            let running = server.serve(tokio::io::split(server_end)).await.unwrap();
            let _ = running.waiting().await;
        });
        let client = ().serve(tokio::io::split(client_end)).await.unwrap();
        for _ in 0..rounds {
            let mut cursor = None;
            let mut seen = 0;
            loop {
                let request = PaginatedRequestParams::default().with_cursor(cursor);
                let page = client.list_tools(Some(request)).await.unwrap();
                seen += page.tools.len();
                cursor = page.next_cursor;
                if cursor.is_none() {
                    break;
                }
            }
            assert_eq!(seen, tools);
        }
        client.cancel().await.unwrap();
    });
}

fn main() {
    let case = std::env::args().nth(1).unwrap_or_default();
    let before = peak_kib();
    match case.as_str() {
        "listing" => {
            let listing = listing();
            std::hint::black_box(&listing);
        }
        "rmcp-router" => {
            let mut router: ToolRouter<()> = ToolRouter::new();
            for tool in listing().to_rmcp() {
                router.add_route(ToolRoute::new_dyn(tool, |_| {
                    Box::pin(async { Ok(CallToolResult::success(Vec::new()).into()) })
                }));
            }
            std::hint::black_box(&router);
        }
        "listing-router" => {
            let router: ToolRouter<()> = listing().into();
            std::hint::black_box(&router);
        }
        "listing-server" => serve_and_list(TOOLS, 100),
        "listing-server-filtered-20x" => serve_and_list_rounds(TOOLS, 100, 20, true),
        "listing-server-one-page" => serve_and_list(TOOLS, 0),
        "server-of-one-tool" => serve_and_list(1, 100),
        _ => {
            println!(
                "Peak resident memory each case adds to its process (VmHWM, KiB); 10 000 tools but where named"
            );
            for case in [
                "listing",
                "server-of-one-tool",
                "listing-server",
                "listing-server-filtered-20x",
                "listing-server-one-page",
                "listing-router",
                "rmcp-router",
            ] {
                let output = std::process::Command::new(std::env::current_exe().unwrap())
                    .arg(case)
                    .output()
                    .unwrap();
                print!("{}", String::from_utf8_lossy(&output.stdout));
            }
            return;
        }
    }
    println!("{case:<24} {:>8} KiB", peak_kib().saturating_sub(before));
}
