//! What saying where a read failed costs: the crate's own reader (`Args::take`, which reads a
//! call's argument exactly and marks the place of an error in its text as the error climbs out
//! of items, fields and variants: `call/place.rs`), beside serde_json's reader of a JSON value
//! without any place (the floor) and wrapped in `serde_path_to_error` (the alternative to the
//! marks, which tracks the path on every read, failed or not). Each side reads its own copy of
//! the same value, copied the same way, so the copy is in every column.
//!
//! `cargo bench --bench error_place`. Median nanoseconds per read over 301 batches.

use std::hint::black_box;
use std::time::Instant;

use mcp_annotations::__private::{Args, Map, Spec, Unique};
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

/// The argument `people`, as `#[tool]` describes a required `Vec<Person>` parameter.
const PEOPLE: Spec = Spec {
    name: "people",
    expected: None,
    required: true,
    null: false,
    unique: &Unique::None,
    checks: &[],
    default: None,
};

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

fn ours(arguments: &Map) -> Result<Vec<Person>, String> {
    Args::new(Some(arguments.clone())).take::<Vec<Person>>(&PEOPLE)
}

fn plain(arguments: &Map) -> Result<Vec<Person>, serde_json::Error> {
    let value = arguments.clone().remove("people").unwrap_or(Value::Null);
    Vec::<Person>::deserialize(value)
}

fn tracked(arguments: &Map) -> Result<Vec<Person>, String> {
    let value = arguments.clone().remove("people").unwrap_or(Value::Null);
    serde_path_to_error::deserialize(value).map_err(|error| error.path().to_string())
}

fn main() {
    let people = |bad: bool| -> Map {
        let people: Vec<Value> = (0..10)
            .map(|i| {
                let age = if bad && i == 7 {
                    json!("old")
                } else {
                    json!(30 + i)
                };
                json!({"name": format!("person {i}"), "age": age, "tags": ["a", "b"]})
            })
            .collect();
        let mut arguments = Map::new();
        arguments.insert("people".to_owned(), Value::Array(people));
        arguments
    };
    // The same verdicts, and the same place where the read fails.
    let (valid, invalid) = (people(false), people(true));
    assert!(ours(&valid).is_ok() && plain(&valid).is_ok() && tracked(&valid).is_ok());
    let message = ours(&invalid)
        .err()
        .expect("the crate's reader refuses age \"old\"");
    assert!(message.contains("people[7].age"), "{message}");
    assert_eq!(tracked(&invalid).err().as_deref(), Some("[7].age"));
    assert!(plain(&invalid).is_err());
    println!(
        "{:<40} {:>10} {:>12} {:>14} {:>11} {:>13}",
        "10 people read from a call's arguments",
        "plain ns",
        "marks ns",
        "path ns",
        "marks/plain",
        "path/plain"
    );
    for (label, arguments) in [("valid", valid), ("invalid at [7].age", invalid)] {
        let plain = median_ns(|| {
            black_box(plain(black_box(&arguments)).is_ok());
        });
        let marks = median_ns(|| {
            black_box(ours(black_box(&arguments)).is_ok());
        });
        let path = median_ns(|| {
            black_box(tracked(black_box(&arguments)).is_ok());
        });
        println!(
            "{label:<40} {plain:>10.0} {marks:>12.0} {path:>14.0} {:>10.2}x {:>12.2}x",
            marks / plain,
            path / plain
        );
    }
}
