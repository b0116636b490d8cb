//! Text a server wrote, made safe for a table cell or a code span: nothing it sends ends a
//! cell, opens a link or reaches a terminal as an escape sequence.

/// Text for a table cell from a server: `\\`, `|`, backticks, `*`, `_`, `~`, `[`, `]` and `<`
/// escaped (they would end the cell, open code, emphasis, a link or an image, or HTML), a
/// mention (`@name`) and a bare link (`https://`, `www.`) broken by an entity so that a pull
/// request's comment neither notifies anyone nor links anywhere, line breaks as spaces, other
/// control characters (a terminal's escape sequences) dropped.
pub fn cell(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\r')
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('`', "\\`")
        .replace('*', "\\*")
        .replace('_', "\\_")
        .replace('~', "\\~")
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace('<', "&lt;")
        .replace('@', "&#64;")
        .replace("://", "&#58;//")
        .replace("www.", "www&#46;")
        .replace(['\r', '\n'], " ")
}

/// Text from a server for a terminal: every control character (an escape sequence, a carriage
/// return that would rewrite the line) dropped, line breaks as spaces.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect()
}

/// A name in a code span, fenced with more backticks than it holds (in code only `|` and line
/// breaks need escaping).
pub fn code(name: &str) -> String {
    let name: String = name
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    let fence = "`".repeat(name.split(|c| c != '`').map(str::len).max().unwrap_or(0) + 1);
    let pad = if fence.len() > 1 { " " } else { "" };
    format!("{fence}{pad}{}{pad}{fence}", name.replace('|', "\\|"))
}

/// What follows an ignored finding or violation: ` (ignored: REASON)`, escaped as a cell;
/// nothing for one not ignored.
pub fn ignored(reason: Option<&str>) -> String {
    reason.map_or_else(String::new, |why| format!(" (ignored: {})", cell(why)))
}

#[cfg(test)]
mod tests {
    use super::{cell, printable};

    /// What a server writes into a pull request's comment stays text: no emphasis from `_`, no
    /// mention from `@`, no link from a bare URL.
    #[test]
    fn a_cell_neither_emphasizes_mentions_nor_links() {
        let written = cell("__bold__ @octocat https://example.com www.example.com");
        assert_eq!(
            written,
            "\\_\\_bold\\_\\_ &#64;octocat https&#58;//example.com www&#46;example.com"
        );
    }

    /// A tool's name cannot rewrite the terminal: escape sequences and carriage returns go.
    #[test]
    fn printable_text_holds_no_control_character() {
        assert_eq!(printable("a\u{1b}[2Kb\rno changes\n"), "a[2Kb no changes ");
    }
}
