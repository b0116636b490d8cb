//! What an image result costs, from the tool's bytes to the bytes on the wire, side by side
//! with rmcp's `ContentBlock::image` (whose caller base64-encodes the bytes first, here with
//! the `base64` crate, as rmcp's own examples do).
//!
//! `cargo bench --bench content`. Median microseconds per result over 31 runs, release build.

use std::hint::black_box;
use std::time::Instant;

use base64::Engine as _;
use mcp_annotations::{ProtocolVersion, ToolResult, content::Content, content::Image};
use rmcp::model::{CallToolResult, ContentBlock};

const RUNS: usize = 31;

fn median_us(mut op: impl FnMut()) -> f64 {
    for _ in 0..3 {
        op();
    }
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            op();
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[RUNS / 2]
}

fn main() {
    println!(
        "{:<44} {:>12} {:>12} {:>7}",
        "image result (µs, median)", "annotations", "rmcp", "ratio"
    );
    for (label, size) in [("1 MB", 1 << 20), ("10 MB", 10 << 20)] {
        // Bytes that do not repeat in any short pattern.
        let bytes: Vec<u8> = (0..size as u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        // Results already made, written as JSON text: ours by `Serialize`, by reference.
        let ours = ToolResult::new(vec![Content::from(Image::png(&bytes))]);
        let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let theirs = CallToolResult::success(vec![ContentBlock::image(data, "image/png")]);
        let rows: [(&str, f64, f64); 4] = [
            (
                "bytes to base64",
                median_us(|| {
                    black_box(Image::png(black_box(&bytes)));
                }),
                median_us(|| {
                    black_box(base64::engine::general_purpose::STANDARD.encode(black_box(&bytes)));
                }),
            ),
            (
                "bytes to rmcp's CallToolResult",
                median_us(|| {
                    let result = ToolResult::new(vec![Image::png(black_box(&bytes)).into()]);
                    black_box(CallToolResult::from(result));
                }),
                median_us(|| {
                    let data = base64::engine::general_purpose::STANDARD.encode(black_box(&bytes));
                    black_box(CallToolResult::success(vec![ContentBlock::image(
                        data,
                        "image/png",
                    )]));
                }),
            ),
            (
                "bytes to the JSON text of the result",
                median_us(|| {
                    let result =
                        ToolResult::new(vec![Content::from(Image::png(black_box(&bytes)))]);
                    black_box(
                        serde_json::to_vec(&result.into_json(ProtocolVersion::LATEST)).unwrap(),
                    );
                }),
                median_us(|| {
                    let data = base64::engine::general_purpose::STANDARD.encode(black_box(&bytes));
                    let result =
                        CallToolResult::success(vec![ContentBlock::image(data, "image/png")]);
                    black_box(serde_json::to_vec(&result).unwrap());
                }),
            ),
            (
                "a made result to JSON text (Serialize)",
                median_us(|| {
                    black_box(serde_json::to_vec(black_box(&ours)).unwrap());
                }),
                median_us(|| {
                    black_box(serde_json::to_vec(black_box(&theirs)).unwrap());
                }),
            ),
        ];
        for (name, ours, theirs) in rows {
            println!(
                "{:<44} {:>12.0} {:>12.0} {:>6.2}x",
                format!("{label}: {name}"),
                ours,
                theirs,
                ours / theirs
            );
        }
    }
}
