//! Memory of 10 000 tools: the heap that a listing's descriptors take at run time, beside
//! rmcp's `ToolRouter` for the same tools (the way rmcp holds a server's tools), and the router
//! made from a listing. Peak resident memory (`VmHWM`) is read from `/proc/self/status`, one
//! case per process.
//!
//! `cargo bench --bench memory -- <listing|rmcp-router|listing-router>`; with no argument it
//! runs each case in a child process and prints the table.

use annotations::Listing;
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
        _ => {
            println!(
                "Peak resident memory added by 10 000 tools (VmHWM, KiB), one process per case"
            );
            for case in ["listing", "listing-router", "rmcp-router"] {
                let output = std::process::Command::new(std::env::current_exe().unwrap())
                    .arg(case)
                    .output()
                    .unwrap();
                print!("{}", String::from_utf8_lossy(&output.stdout));
            }
            return;
        }
    }
    println!("{case:<16} {:>8} KiB", peak_kib().saturating_sub(before));
}
