//! Cases per second of `mcp_annotations_verify`: on the notes example's own tools against its real
//! file store (each case a fresh file, the observation the file read back), and on a listing of
//! 100 tools over an in-memory store. A case is everything one check takes: a fresh state, the
//! calls before, the call checked, a second call where the tool claims idempotence, the
//! observations around them, and one call with broken arguments.
//!
//! `cargo bench --bench verify`. Prints cases per second, median of 5 runs.

#[path = "../examples/notes/store.rs"]
#[allow(dead_code)]
mod store;
#[path = "../examples/notes/tools.rs"]
#[allow(dead_code)] // The server's settings are the example's.
mod tools;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use mcp_annotations::{Listing, tool, tools};
use mcp_annotations_verify::Verify;

/// A store of counters, by key.
#[derive(Default, serde::Serialize)]
pub struct Counters(Mutex<BTreeMap<String, u64>>);

macro_rules! hundred {
    ($($read:ident $write:ident),*) => {
        impl Counters {
            $(
                /// Read a counter.
                #[tool(read_only, open_world = false)]
                pub fn $read(&self, #[schema(max_length = 8)] key: String) -> u64 {
                    self.0.lock().unwrap().get(&key).copied().unwrap_or(0)
                }

                /// Add to a counter.
                #[tool(destructive = false, open_world = false)]
                pub fn $write(&self, #[schema(max_length = 8)] key: String, #[schema(maximum = 100)] by: u64) -> u64 {
                    let mut counters = self.0.lock().unwrap();
                    let slot = counters.entry(key).or_insert(0);
                    // Adding 0 keeps the value; anything else overwrites a number, which the
                    // additive rule counts as destructive: keep the store's keys apart.
                    *slot = slot.saturating_add(by.min(0));
                    *slot
                }
            )*
        }
        static HUNDRED: Listing<Counters> = tools![$(Counters::$read, Counters::$write),*];
    };
}

hundred!(
    r0 w0, r1 w1, r2 w2, r3 w3, r4 w4, r5 w5, r6 w6, r7 w7, r8 w8, r9 w9,
    r10 w10, r11 w11, r12 w12, r13 w13, r14 w14, r15 w15, r16 w16, r17 w17, r18 w18, r19 w19,
    r20 w20, r21 w21, r22 w22, r23 w23, r24 w24, r25 w25, r26 w26, r27 w27, r28 w28, r29 w29,
    r30 w30, r31 w31, r32 w32, r33 w33, r34 w34, r35 w35, r36 w36, r37 w37, r38 w38, r39 w39,
    r40 w40, r41 w41, r42 w42, r43 w43, r44 w44, r45 w45, r46 w46, r47 w47, r48 w48, r49 w49
);

fn median(mut runs: Vec<f64>) -> f64 {
    runs.sort_by(f64::total_cmp);
    runs[runs.len() / 2]
}

fn main() {
    let dir = std::env::temp_dir().join(format!("verify-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let file = AtomicUsize::new(0);
    let fresh = || {
        let path = dir.join(format!("{}.json", file.fetch_add(1, Ordering::Relaxed)));
        let store = store::Store::open(path, std::time::Duration::from_secs(5)).unwrap();
        tools::Notes::new(std::sync::Arc::new(store))
    };
    let observe = |notes: &tools::Notes| {
        std::fs::read_to_string(notes.store().path())
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .unwrap_or_else(|| serde_json::json!([]))
    };
    let notes: Vec<f64> = (0..5)
        .map(|seed| {
            let start = Instant::now();
            let report = runtime.block_on(
                Verify::new(&tools::TOOLS, fresh)
                    .observe(observe)
                    .cases(64)
                    .seed(seed)
                    .run_async(),
            );
            assert!(report.is_ok(), "{report}");
            #[allow(clippy::cast_precision_loss)]
            let cases = report.cases() as f64;
            cases / start.elapsed().as_secs_f64()
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let hundred: Vec<f64> = (0..5)
        .map(|seed| {
            let start = Instant::now();
            let report = Verify::new(&HUNDRED, Counters::default)
                .observe(|counters: &Counters| serde_json::to_value(counters).unwrap())
                .cases(16)
                .seed(seed)
                .run();
            assert!(report.is_ok(), "{report}");
            #[allow(clippy::cast_precision_loss)]
            let cases = report.cases() as f64;
            cases / start.elapsed().as_secs_f64()
        })
        .collect();
    println!("verification cases per second, median of 5 runs");
    println!(
        "notes example (3 tools, real file store)   {:>8.0}",
        median(notes)
    );
    println!(
        "100-tool listing (in-memory store)         {:>8.0}",
        median(hundred)
    );
}
