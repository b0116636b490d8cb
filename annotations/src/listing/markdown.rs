//! A listing as a Markdown table, for a README or a tool directory's submission.

use std::fmt::Write as _;

use crate::hints::Hint;
use crate::listing::Listing;
use crate::tool::Tool;

impl<S> Listing<S> {
    /// A Markdown table of the tools, one row a tool: name, display name, the first line of
    /// the description, and the effective hints (what a host assumes, defaults applied).
    ///
    /// ```
    /// use mcp_annotations::{Listing, tool, tools};
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
        table(self.tools.iter())
    }

    /// [`to_markdown`](Self::to_markdown), one table for each toolset (a `###` heading of its
    /// name, in the order the toolsets first appear), a tool in two toolsets in both, and the
    /// tools in none last, under "other tools".
    ///
    /// ```
    /// use mcp_annotations::{Listing, tool, tools};
    ///
    /// /// Read an issue.
    /// #[tool(read_only, open_world = false, toolset = "issues")]
    /// fn get_issue(number: u64) {}
    ///
    /// /// Who am I.
    /// #[tool(read_only, open_world = false)]
    /// fn get_me() {}
    ///
    /// let listing: Listing = tools![get_issue, get_me];
    /// let text = listing.to_markdown_by_toolset();
    /// assert!(text.starts_with("### issues\n\n| name |"));
    /// assert!(text.contains("### other tools\n\n| name |"));
    /// # get_issue(1); get_me();
    /// ```
    #[must_use]
    pub fn to_markdown_by_toolset(&self) -> String {
        grouped(&self.tools.iter().collect::<Vec<_>>())
    }
}

impl<S> crate::listing::Filtered<'_, S> {
    /// [`Listing::to_markdown`] of the tools the filter offers.
    #[must_use]
    pub fn to_markdown(&self) -> String {
        table(self.tools())
    }

    /// [`Listing::to_markdown_by_toolset`] of the tools the filter offers.
    #[must_use]
    pub fn to_markdown_by_toolset(&self) -> String {
        grouped(&self.tools().collect::<Vec<_>>())
    }
}

/// One table per toolset, then one of the tools in none.
fn grouped(tools: &[&Tool]) -> String {
    let mut toolsets: Vec<&str> = Vec::new();
    for tool in tools {
        for toolset in tool.toolsets() {
            if !toolsets.contains(toolset) {
                toolsets.push(toolset);
            }
        }
    }
    let mut out = String::new();
    for toolset in toolsets {
        let _ = write!(out, "### {}\n\n", markdown_cell(toolset));
        out.push_str(&table(
            tools
                .iter()
                .copied()
                .filter(|tool| tool.toolsets().contains(&toolset)),
        ));
        out.push('\n');
    }
    let rest: Vec<&Tool> = tools
        .iter()
        .copied()
        .filter(|tool| tool.toolsets().is_empty())
        .collect();
    if !rest.is_empty() {
        out.push_str("### other tools\n\n");
        out.push_str(&table(rest.into_iter()));
    }
    out
}

/// The table of `tools`: one row a tool.
fn table<'t>(tools: impl Iterator<Item = &'t Tool>) -> String {
    let mut out = String::from("| name | display name | description |");
    for hint in Hint::ALL {
        let _ = write!(out, " {} |", hint.column());
    }
    out.push_str("\n|---|---|---|");
    for _ in Hint::ALL {
        out.push_str("---|");
    }
    out.push('\n');
    let yes = |b: bool| if b { "yes" } else { "no" };
    for tool in tools {
        let description = tool
            .description()
            .and_then(|d| d.lines().next())
            .unwrap_or("");
        let hints = &tool.annotations;
        let _ = write!(
            out,
            "| {} | {} | {} |",
            code_cell(tool.name()),
            markdown_cell(tool.display_name()),
            markdown_cell(description),
        );
        for hint in Hint::ALL {
            let _ = write!(out, " {} |", yes(hints.effective(hint)));
        }
        out.push('\n');
    }
    out
}

/// Text for one cell: a `|` would end the cell and a line break the row, a backtick would open
/// a code span and a backslash would escape what follows, so each is escaped (a line break read
/// as a space, other control characters dropped).
fn markdown_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '|' => out.push_str("\\|"),
            '`' => out.push_str("\\`"),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' | '\n' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A name in a code span: fenced with more backticks than it holds, `|` escaped (tables end a
/// cell at it even in code), line breaks as spaces.
fn code_cell(name: &str) -> String {
    let longest = name.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let inner: String = name
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect::<String>()
        .replace('|', "\\|");
    let pad = if longest > 0 { " " } else { "" };
    format!("{fence}{pad}{inner}{pad}{fence}")
}
