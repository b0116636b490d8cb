//! The reports of `audit`, `probe` and `diff`, and their writers: the table (`--format text`),
//! Markdown for a pull request's comment and SARIF for code scanning (`--format json` is the
//! report itself).

use mcp_annotations::descriptor::Hint;
use serde_json::Value;

use crate::cli::args::{Format, Output};

pub mod markdown;
pub mod sarif;
pub mod table;
pub mod text;

/// The kind of the finding on a tool the audit cannot read (not one of the library's: the
/// library's findings are about tools it has read).
pub const UNREADABLE_TOOL: &str = "unreadable-tool";
/// The kind of a finding on the listing itself (its pages, its cursor, its answers).
pub const LISTING_PROBLEM: &str = "listing-problem";
/// The kind of a finding on the tool-resolution extension as the server states it: a tool
/// marked resolvable by a server that does not declare the extension, a marker that is not
/// the draft's, the extension declared with settings this revision does not define.
pub const TOOL_RESOLUTION: &str = "tool-resolution";

/// The lines of the state's diff a probe's note carries (`"diff"`), none when it has none.
pub fn diff_lines(note: &Value) -> Vec<&str> {
    note["diff"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// A hint's key in the report's `effective` object: its wire name without `Hint`.
pub fn effective_key(hint: Hint) -> &'static str {
    hint.wire_name().trim_end_matches("Hint")
}

/// `report` in the form `output` asks; `table` is its text form, `markdown` and `sarif` its
/// other two (`--format listing` is the audit's alone, written there).
pub fn rendered(
    output: &Output,
    report: &Value,
    table: fn(&Value) -> String,
    markdown: fn(&Value) -> String,
    sarif: fn(&Value, Option<&str>) -> Value,
) -> String {
    match output.format {
        Format::Text | Format::Listing => table(report),
        Format::Markdown => markdown(report),
        Format::Json => pretty(report),
        Format::Sarif => pretty(&sarif(report, output.sarif_artifact.as_deref())),
    }
}

/// `value` as indented JSON, and a newline.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}
