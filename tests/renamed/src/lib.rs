//! Every macro, used through a renamed dependency (`hints`) with no `crate = path`.
#![forbid(unsafe_code)]

use hints::{Listing, Tool, ToolSchema, tool, tools};

/// A note's filter.
#[derive(ToolSchema, serde::Deserialize)]
pub struct Query {
    /// Words the note holds.
    pub words: String,
}

/// Find notes.
#[tool(read_only, open_world = false, title = "Find notes")]
pub fn find_notes(query: Query) -> String {
    query.words
}

/// Count notes.
#[derive(Tool, serde::Deserialize)]
#[tool(read_only, open_world = false)]
pub struct CountNotes {
    /// Only notes newer than this many days.
    pub days: u32,
}

impl hints::call::CallTool<()> for CountNotes {
    type Output = String;
    async fn call(self, _: &(), _: hints::Context<'_>) -> String {
        self.days.to_string()
    }
}

/// The tools, listed through the renamed crate.
pub static TOOLS: Listing = tools![find_notes, CountNotes];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_renamed_crate_serves_every_macro() {
        assert!(FIND_NOTES_ANNOTATIONS.read_only());
        let names: Vec<&str> = TOOLS.tools().iter().map(|tool| tool.name()).collect();
        assert_eq!(names, ["find_notes", "count_notes"]);
        assert!(<Query as ToolSchema>::tool_schema()["properties"]["words"].is_object());
    }
}
