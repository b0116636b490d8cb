//! A listed tool the probe cannot read (annotations that are not booleans, no input schema):
//! in the report where the server lists it, never called, each claim it may make counted as
//! not judged, with why.

use serde_json::Value;

use crate::report::{ByHint, Note, ProbedTool, Verdict};

/// A listed tool the probe cannot read (annotations that are not booleans, no input schema):
/// reported, never called.
pub(super) struct Unreadable {
    /// Its place in the listing.
    pub(super) at: usize,
    /// The tool as listed.
    pub(super) raw: Value,
    /// Why it cannot be read.
    pub(super) error: String,
}

/// The report's row of a listed tool the probe cannot read: never called, each hint it may
/// claim (stated at its trusted value, or written so that it cannot be read) not judged, and
/// why.
pub(super) fn row(tool: &Unreadable) -> ProbedTool {
    let name = tool
        .raw
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("(no name)")
        .to_owned();
    let why = format!("not probed: its listing cannot be read ({})", tool.error);
    let annotations = tool.raw.get("annotations");
    let probe = ByHint::from_fn(|hint| {
        let stated = match annotations {
            None | Some(Value::Null) => None,
            Some(Value::Object(hints)) => hints.get(hint.wire_name()),
            // Hints that cannot be read at all may claim anything.
            Some(other) => Some(other),
        };
        match stated {
            None | Some(Value::Null) => Verdict::Unclaimed,
            Some(Value::Bool(value)) if *value != hint.trusted_value() => Verdict::Unclaimed,
            Some(_) => Verdict::Unexercised,
        }
    });
    let unjudged = probe
        .iter()
        .filter(|(_, verdict)| **verdict == Verdict::Unexercised)
        .map(|(hint, _)| (hint.claim(), why.clone()))
        .collect();
    ProbedTool {
        name,
        probe,
        succeeded: 0,
        calls: 0,
        unjudged,
        notes: vec![Note::Said(why)],
        concurrency: None,
        resolution: None,
    }
}
