//! Text a server wrote, made safe for a table cell or a code span: nothing it sends ends a
//! cell, opens a link or reaches a terminal as an escape sequence.

/// Text for a table cell from a server: `\\`, `|`, backticks, `*`, `~`, `[`, `]` and `<`
/// escaped (they would end the cell, open code, emphasis, a link or an image, or HTML), line
/// breaks as spaces, other control characters (a terminal's escape sequences) dropped.
pub fn cell(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\r')
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('`', "\\`")
        .replace('*', "\\*")
        .replace('~', "\\~")
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace('<', "&lt;")
        .replace(['\r', '\n'], " ")
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
