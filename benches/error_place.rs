//! What tracking the place of a read error costs with `serde_path_to_error`, the alternative to
//! the marks the crate's exact reader writes into an error's text as it climbs out of items,
//! fields and variants (`call/place.rs`). Both wrap a reader of a JSON value; here the reader
//! is serde_json's own, so the figure is what `serde_path_to_error` adds to reading, which the
//! marks do not (they are written only when an error climbs out; a read that succeeds pays one
//! thread-local write).
//!
//! `cargo bench --bench error_place`. Median nanoseconds per read over 301 batches.

use std::hint::black_box;
use std::time::Instant;

use serde::Deserialize;
use serde_json::{Value, json};

const RUNS: usize = 301;
const BATCH: u32 = 200;

#[derive(Deserialize)]
#[allow(dead_code)] // Read, never looked at.
struct Person {
    name: String,
    age: u8,
    tags: Vec<String>,
}

fn median_ns(mut op: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..BATCH {
                op();
            }
            start.elapsed().as_secs_f64() * 1e9 / f64::from(BATCH)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[RUNS / 2]
}

fn main() {
    let people = |bad: bool| -> Value {
        Value::Array(
            (0..10)
                .map(|i| {
                    let age = if bad && i == 7 {
                        json!("old")
                    } else {
                        json!(30 + i)
                    };
                    json!({"name": format!("person {i}"), "age": age, "tags": ["a", "b"]})
                })
                .collect(),
        )
    };
    println!(
        "{:<44} {:>10} {:>14} {:>7}",
        "10 people read from a JSON value (ns)", "plain", "path tracked", "ratio"
    );
    for (label, value) in [
        ("valid", people(false)),
        ("invalid at [7].age", people(true)),
    ] {
        let plain = median_ns(|| {
            black_box(Vec::<Person>::deserialize(black_box(&value)).is_ok());
        });
        let tracked = median_ns(|| {
            let read: Result<Vec<Person>, _> = serde_path_to_error::deserialize(black_box(&value));
            black_box(read.map_err(|error| error.path().to_string()).is_ok());
        });
        println!(
            "{:<44} {:>10.0} {:>14.0} {:>6.2}x",
            label,
            plain,
            tracked,
            tracked / plain
        );
    }
}
