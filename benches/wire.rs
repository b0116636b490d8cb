//! Run-time cost of the wire format, side by side with the official Rust SDK's type
//! (`rmcp::model::ToolAnnotations`, whose serde impls are derived).
//!
//! `cargo bench --bench wire`. Each case runs in batches; the median time per operation over
//! the batches is printed. Numbers are for comparison on one machine, not absolute.

use std::hint::black_box;
use std::time::{Duration, Instant};

use mcp_annotations::ToolAnnotations;

const BATCH: u32 = 20_000;
const BATCHES: usize = 31;

fn median_ns_per_op(mut op: impl FnMut()) -> f64 {
    // Warm up caches and the allocator.
    for _ in 0..BATCH {
        op();
    }
    let mut per_op: Vec<f64> = (0..BATCHES)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..BATCH {
                op();
            }
            duration_ns(start.elapsed()) / f64::from(BATCH)
        })
        .collect();
    per_op.sort_by(f64::total_cmp);
    per_op[BATCHES / 2]
}

fn duration_ns(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e9
}

fn main() {
    let compact = r#"{"title":"Delete note","destructiveHint":true,"idempotentHint":true,"openWorldHint":false}"#;
    let explicit = r#"{"title":"Delete note","readOnlyHint":false,"destructiveHint":true,"idempotentHint":true,"openWorldHint":false}"#;
    let with_unknown = r#"{"title":"Delete note","readOnlyHint":false,"destructiveHint":true,"idempotentHint":true,"openWorldHint":false,"x-vendor":{"audit":[1,2,3],"owner":"ops"}}"#;
    let ours: ToolAnnotations = serde_json::from_str(explicit).unwrap();
    let theirs: rmcp::model::ToolAnnotations = serde_json::from_str(explicit).unwrap();

    println!(
        "{:<34} {:>12} {:>12}",
        "operation (ns/op, median)", "annotations", "rmcp"
    );
    for (name, input) in [
        ("deserialize compact", compact),
        ("deserialize explicit", explicit),
        ("deserialize with unknown keys", with_unknown),
    ] {
        let a = median_ns_per_op(|| {
            black_box(serde_json::from_str::<ToolAnnotations>(black_box(input)).unwrap());
        });
        let b = median_ns_per_op(|| {
            black_box(
                serde_json::from_str::<rmcp::model::ToolAnnotations>(black_box(input)).unwrap(),
            );
        });
        println!("{name:<34} {a:>12.1} {b:>12.1}");
    }
    let a = median_ns_per_op(|| {
        black_box(serde_json::to_string(black_box(&ours)).unwrap());
    });
    let b = median_ns_per_op(|| {
        black_box(serde_json::to_string(black_box(&theirs)).unwrap());
    });
    println!("{:<34} {a:>12.1} {b:>12.1}", "serialize explicit");
    let a = median_ns_per_op(|| {
        black_box(black_box(&ours).check().is_ok());
    });
    println!("{:<34} {a:>12.1} {:>12}", "check", "-");
}
