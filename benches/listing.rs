//! Run-time cost of rendering a `tools/list` result, side by side with the official Rust SDK:
//! `Listing::render` against `serde_json::to_string` of rmcp's `ListToolsResult` holding the
//! same tools, and against copying the rendered bytes (the floor: `String::clone`). A listing's
//! tools are written once and kept (the render cache), so both are timed: the first render of a
//! listing (a fresh copy of the same tools for each timing, never rendered before) and a later
//! one.
//!
//! `cargo bench --bench listing`. The median time per render over the batches is printed.

use std::hint::black_box;
use std::time::Instant;

use mcp_annotations::{
    Listing, ProtocolVersion, Tool, listing::AnnotationsForm, listing::Filter, listing::ListOptions,
};

/// The input schema `#[tool]` writes for a method taking one `u64` (`id`).
const SCHEMA: &str = r#"{"type":"object","properties":{"id":{"type":"integer","minimum":0,"maximum":18446744073709551615,"description":"The item's id"}},"required":["id"],"additionalProperties":false}"#;

fn listing_of(n: usize) -> Listing {
    annotations_tests::lookup_listing(n, SCHEMA, "by id.")
}

fn median_ns(runs: usize, mut op: impl FnMut()) -> f64 {
    for _ in 0..runs.min(50) {
        op();
    }
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            op();
            start.elapsed().as_secs_f64() * 1e9
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

/// The median time of the first render of `copies` listings holding the same tools as
/// `listing`, each made before the clock starts and never rendered before.
fn first_render_ns(listing: &Listing, options: &ListOptions, copies: usize) -> f64 {
    let fresh: Vec<Listing> = (0..copies)
        .map(|_| Listing::new(Vec::leak(listing.tools().to_vec())))
        .collect();
    let mut times: Vec<f64> = fresh
        .iter()
        .map(|listing| {
            let start = Instant::now();
            black_box(black_box(listing).render(options, None).unwrap());
            start.elapsed().as_secs_f64() * 1e9
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[copies / 2]
}

fn main() {
    println!(
        "{:>6} {:>9} {:>8} {:>9} {:>10} {:>9} {:>10} {:>11} {:>10}",
        "tools",
        "bytes",
        "copy µs",
        "first µs",
        "render µs",
        "rmcp µs",
        "rmcp/first",
        "rmcp/render",
        "first/copy"
    );
    for n in [10, 100, 1000, 10_000] {
        let runs = if n >= 10_000 { 61 } else { 301 };
        let listing = listing_of(n);
        let options = ListOptions::new(ProtocolVersion::V2025_11_25);
        let rendered = listing.render(&options, None).unwrap();
        let theirs = rmcp::model::ListToolsResult {
            result_type: None,
            meta: None,
            next_cursor: None,
            ttl_ms: None,
            cache_scope: None,
            tools: listing.to_rmcp(),
        };
        // Both write the same JSON value.
        let their_text = serde_json::to_string(&theirs).unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&their_text).unwrap(),
            serde_json::from_str::<serde_json::Value>(&rendered).unwrap()
        );
        let copy = median_ns(runs, || {
            black_box(black_box(&rendered).clone());
        });
        let ours = median_ns(runs, || {
            black_box(black_box(&listing).render(&options, None).unwrap());
        });
        // Fewer fresh copies of the largest, so that all stay within the render cache's bound
        // (and no timing pays for letting one go).
        let first = first_render_ns(&listing, &options, if n >= 10_000 { 11 } else { 31 });
        let rmcp = median_ns(runs, || {
            black_box(serde_json::to_string(black_box(&theirs)).unwrap());
        });
        println!(
            "{n:>6} {:>9} {:>8.1} {:>9.1} {:>10.1} {:>9.1} {:>9.1}x {:>10.1}x {:>9.1}x",
            rendered.len(),
            copy / 1e3,
            first / 1e3,
            ours / 1e3,
            rmcp / 1e3,
            rmcp / first,
            rmcp / ours,
            first / copy
        );
    }
    // Every protocol version and both annotation forms, at 1000 and 10 000 tools.
    println!("render / copy of the whole listing, by protocol version and annotation form");
    for n in [1000, 10_000] {
        let listing = listing_of(n);
        for version in ProtocolVersion::ALL {
            for form in [AnnotationsForm::Minimal, AnnotationsForm::Explicit] {
                let options = ListOptions::new(version).with_annotations(form);
                let rendered = listing.render(&options, None).unwrap();
                let copy = median_ns(61, || {
                    black_box(black_box(&rendered).clone());
                });
                let ours = median_ns(61, || {
                    black_box(black_box(&listing).render(&options, None).unwrap());
                });
                println!("{n:>6} {version} {form:?}: {:.1}x", ours / copy);
            }
        }
    }
    // The first page of 50 out of 10 000 tools.
    let listing = listing_of(10_000);
    let options = ListOptions::new(ProtocolVersion::V2026_07_28).with_page_size(50);
    let page = median_ns(301, || {
        black_box(listing.render(&options, None).unwrap());
    });
    let cursor = listing.page(None, 5000).unwrap().next_cursor.unwrap();
    let middle = median_ns(301, || {
        black_box(listing.render(&options, Some(&cursor)).unwrap());
    });
    println!(
        "first page of 50 of 10000 tools: {:.1} µs; a page in the middle: {:.1} µs",
        page / 1e3,
        middle / 1e3
    );
    // Through a filter, at 10 000 tools, against copying the filtered text: one toolset of
    // two, as a listing groups them (each toolset's tools together) and interleaved (every
    // other tool: the worst case, each tool its own slice of text); read-only mode (every
    // tool here); the tools a token's scopes allow (half, interleaved).
    let base = listing_of(10_000);
    let grouped = |interleaved: bool| -> Listing {
        let tools: Vec<Tool> = base
            .tools()
            .iter()
            .enumerate()
            .map(|(i, tool)| {
                let first = if interleaved { i % 2 == 0 } else { i < 5_000 };
                let (toolsets, scopes): (&'static [&'static str], &'static [&'static str]) =
                    if first {
                        (&["first"], &["repo"])
                    } else {
                        (&["second"], &["admin"])
                    };
                tool.clone().with_toolsets(toolsets).with_scopes(scopes)
            })
            .collect();
        Listing::new(Vec::leak(tools))
    };
    let (together, interleaved) = (grouped(false), grouped(true));
    let options = ListOptions::new(ProtocolVersion::V2025_11_25);
    println!("render / copy of 10000 tools through a filter (made for each request)");
    for (what, listing, filter) in [
        (
            "a toolset, grouped",
            &together,
            Filter::new().toolsets(["first"]),
        ),
        (
            "a toolset, interleaved",
            &interleaved,
            Filter::new().toolsets(["first"]),
        ),
        ("read-only mode", &together, Filter::new().read_only()),
        (
            "granted scopes, interleaved",
            &interleaved,
            Filter::new().granted_scopes(["repo"]),
        ),
    ] {
        let rendered = listing
            .filtered(&filter)
            .unwrap()
            .render(&options, None)
            .unwrap();
        let copy = median_ns(61, || {
            black_box(black_box(&rendered).clone());
        });
        let ours = median_ns(61, || {
            let view = listing.filtered(black_box(&filter)).unwrap();
            black_box(view.render(&options, None).unwrap());
        });
        println!("{what:>28}: {} bytes, {:.1}x", rendered.len(), ours / copy);
    }
}
