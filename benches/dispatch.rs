//! Dispatch: finding a tool by name in a listing of 10 and of 10 000 tools, the first, the
//! middle and the last listed, through the name index `tools!` builds while compiling (the same
//! `const fn`, run here at run time on synthetic listings) and, for contrast, in a listing made
//! with `Listing::new`, which compares every name. The lookup is the only part of a call whose
//! cost depends on the listing's size.
//!
//! `cargo bench --bench dispatch`. Prints the median nanoseconds per lookup over batches.

use std::hint::black_box;
use std::time::Instant;

use mcp_annotations::{Listing, Tool, listing::Filter, schema::Schema};

const BATCH: u32 = 100_000;

/// An indexed listing of `N` tools named `tool_{i}` and the same tools without an index.
fn listings<const N: usize, const SLOTS: usize>() -> (Listing, Listing) {
    let tools: Vec<Tool> = (0..N)
        .map(|i| Tool::new_owned(format!("tool_{i}"), Schema::NO_INPUT))
        .collect();
    let tools: &'static [Tool; N] = Box::leak(tools.into_boxed_slice().try_into().unwrap());
    let slots: &'static [u32] = &Box::leak(Box::new(mcp_annotations::__private::name_index::<
        N,
        SLOTS,
    >(tools)))
    .slots;
    (Listing::from_parts(tools, &[], slots), Listing::new(tools))
}

fn median_ns(listing: &Listing, name: &str) -> f64 {
    let mut times: Vec<f64> = (0..31)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..BATCH {
                black_box(black_box(listing).get(black_box(name)));
            }
            start.elapsed().as_secs_f64() * 1e9 / f64::from(BATCH)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[15]
}

fn main() {
    let (small, small_scan) = listings::<10, 32>();
    let (large, large_scan) = listings::<10_000, 32_768>();
    println!("name lookup, median ns over 31 batches of {BATCH}");
    println!(
        "{:>8} {:>8} {:>10} {:>10} {:>12} {:>12}",
        "tools", "which", "indexed", "vs 10", "scanned", "vs 10"
    );
    for (which, small_name, large_name) in [
        ("first", "tool_0", "tool_0"),
        ("middle", "tool_5", "tool_5000"),
        ("last", "tool_9", "tool_9999"),
    ] {
        let (indexed_small, scanned_small) = (
            median_ns(&small, small_name),
            median_ns(&small_scan, small_name),
        );
        let (indexed_large, scanned_large) = (
            median_ns(&large, large_name),
            median_ns(&large_scan, large_name),
        );
        println!(
            "{:>8} {:>8} {:>10.1} {:>10} {:>12.1} {:>12}",
            10, which, indexed_small, "", scanned_small, ""
        );
        println!(
            "{:>8} {:>8} {:>10.1} {:>9.2}x {:>12.1} {:>11.1}x",
            10_000,
            which,
            indexed_large,
            indexed_large / indexed_small,
            scanned_large,
            scanned_large / scanned_small
        );
    }
    // Through a filter (read-only mode, every tool read-only here): the index finds the tool,
    // the filter judges it alone.
    let read_only = Filter::new().read_only();
    let filtered_ns = |listing: &Listing, name: &str| {
        let view = listing.filtered(&read_only).unwrap();
        let mut times: Vec<f64> = (0..31)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..BATCH {
                    black_box(black_box(&view).get(black_box(name)));
                }
                start.elapsed().as_secs_f64() * 1e9 / f64::from(BATCH)
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[15]
    };
    let (small_ro, large_ro) = (read_only_of(&small), read_only_of(&large));
    let (a, b) = (
        filtered_ns(&small_ro, "tool_9"),
        filtered_ns(&large_ro, "tool_9999"),
    );
    println!(
        "filtered lookup (read-only mode), last tool: 10 tools {a:.1} ns, 10000 tools {b:.1} ns ({:.2}x)",
        b / a
    );
}

/// The same tools, each read-only, with the same index.
fn read_only_of(listing: &Listing) -> Listing {
    let tools: Vec<Tool> = listing
        .tools()
        .iter()
        .map(|tool| {
            let mut tool = tool.clone();
            tool.annotations = tool.annotations.clone().with_read_only(true);
            tool
        })
        .collect();
    let n = tools.len();
    let tools: &'static [Tool] = Vec::leak(tools);
    let slots: &'static [u32] = match n {
        10 => {
            &Box::leak(Box::new(mcp_annotations::__private::name_index::<10, 32>(
                tools.try_into().unwrap(),
            )))
            .slots
        }
        _ => {
            &Box::leak(Box::new(mcp_annotations::__private::name_index::<
                10_000,
                32_768,
            >(tools.try_into().unwrap())))
            .slots
        }
    };
    Listing::from_parts(tools, &[], slots)
}
