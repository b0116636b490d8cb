//! A listing as a Markdown table, for a README or a tool directory's submission.

use std::fmt::Write as _;

use crate::Listing;

impl<S> Listing<S> {
    /// A Markdown table of the tools, one row a tool: name, display name, the first line of
    /// the description, and the effective hints (what a host assumes, defaults applied).
    ///
    /// ```
    /// use annotations::{Listing, tool, tools};
    ///
    /// /// List every saved note.
    /// #[tool(read_only, open_world = false, title = "List notes")]
    /// fn list_notes() {}
    ///
    /// let listing: Listing = tools![list_notes];
    /// let table = listing.to_markdown();
    /// assert!(table.contains("| `list_notes` | List notes | List every saved note. | yes | no | yes | no |"));
    /// # list_notes();
    /// ```
    #[must_use]
    pub fn to_markdown(&self) -> String {
        let mut out = String::from(
            "| name | display name | description | read-only | destructive | idempotent | open world |\n\
             |---|---|---|---|---|---|---|\n",
        );
        let yes = |b: bool| if b { "yes" } else { "no" };
        for tool in self.tools {
            let description = tool
                .description()
                .and_then(|d| d.lines().next())
                .unwrap_or("");
            let hints = &tool.annotations;
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} | {} | {} |",
                tool.name(),
                markdown_cell(tool.display_name()),
                markdown_cell(description),
                yes(hints.read_only()),
                yes(hints.destructive()),
                yes(hints.idempotent()),
                yes(hints.open_world()),
            );
        }
        out
    }
}

fn markdown_cell(text: &str) -> String {
    text.replace('|', "\\|")
}
