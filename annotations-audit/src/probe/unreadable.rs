//! A listed tool the probe cannot read (annotations that are not booleans, no input schema):
//! in the report where the server lists it, never called, each claim it may make counted as
//! not judged, with why.

use std::collections::BTreeMap;

use serde_json::Value;

use mcp_annotations::descriptor::Hint;

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

impl Unreadable {
    /// Its name as listed, where it lists a string.
    pub(super) fn name(&self) -> Option<&str> {
        self.raw.get("name").and_then(Value::as_str)
    }
}

/// The report's row of a listed tool the probe cannot read: never called, each hint it may
/// claim (stated at its trusted value, or written so that it cannot be read) not judged, and
/// why.
pub(super) fn row(tool: &Unreadable) -> ProbedTool {
    let name = tool.name().unwrap_or("(no name)").to_owned();
    let why = format!("not probed: its listing cannot be read ({})", tool.error);
    let annotations = tool.raw.get("annotations");
    // Whether a hint may be claimed: stated at its trusted value, or written so that it
    // cannot be read (hints that cannot be read at all may claim anything).
    let may_claim = |hint: Hint| {
        let stated = match annotations {
            None | Some(Value::Null) => None,
            Some(Value::Object(hints)) => hints.get(hint.wire_name()),
            Some(other) => Some(other),
        };
        match stated {
            None | Some(Value::Null) => false,
            Some(Value::Bool(value)) => *value == hint.trusted_value(),
            Some(_) => true,
        }
    };
    // A read-only claim claims what it implies, as a readable tool's does.
    let read_only = may_claim(Hint::ReadOnly);
    let probe = ByHint::from_fn(|hint| {
        if may_claim(hint) || (read_only && hint.implied_by_read_only()) {
            Verdict::Unexercised
        } else {
            Verdict::Unclaimed
        }
    });
    let unjudged = probe
        .iter()
        .filter(|(_, verdict)| **verdict == Verdict::Unexercised)
        .map(|(hint, _)| (hint.claim(), why.clone()))
        .collect();
    ProbedTool {
        name,
        digest: mcp_annotations::host::Evidence::digest(&tool.raw),
        probe,
        succeeded: 0,
        calls: 0,
        unjudged,
        succeeded_with: Vec::new(),
        failed_alike: None,
        notes: vec![Note::Said(why)],
        concurrency: None,
        resolution: None,
        ignored: BTreeMap::new(),
    }
}
