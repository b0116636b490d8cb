//! Doc comment lines joined into one description, as rustdoc's Markdown reads them (the
//! description of a tool, an input or a type). A leaf: it imports nothing of the crate.

/// Doc comment lines joined as rustdoc joins them: the common indentation removed, lines
/// joined with newlines (paragraphs keep their blank line), blank lines at either end dropped.
/// `None` when nothing is left.
pub(crate) fn join_docs(lines: &[String]) -> Option<String> {
    let indent = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    let lines: Vec<&str> = lines
        .iter()
        .map(|line| {
            if line.trim().is_empty() {
                ""
            } else {
                line.get(indent..)
                    .unwrap_or_else(|| line.trim_start())
                    .trim_end()
            }
        })
        .collect();
    let text = paragraphs(&lines);
    let text = text.trim_matches('\n');
    (!text.trim().is_empty()).then(|| text.to_owned())
}

/// The lines as rustdoc's Markdown reads them: the lines of a paragraph joined by a space (a
/// line break inside a paragraph is a soft break), paragraphs apart by a blank line, and the
/// lines of code blocks, lists, headings, quotes and tables kept as they are.
fn paragraphs(lines: &[&str]) -> String {
    let mut out = String::new();
    let mut in_fence = false;
    // Whether the last line written is paragraph text a next line may continue.
    let mut open = false;
    for line in lines {
        let trimmed = line.trim_start();
        let fence = trimmed.starts_with("```") || trimmed.starts_with("~~~");
        if in_fence || fence {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(line);
            out.push('\n');
            if fence {
                in_fence = !in_fence;
            }
            open = false;
            continue;
        }
        if line.is_empty() {
            if !out.is_empty() && !out.ends_with("\n\n") {
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push('\n');
            }
            open = false;
            continue;
        }
        let ordered = trimmed
            .split_once(['.', ')'])
            .is_some_and(|(number, rest)| {
                !number.is_empty()
                    && number.chars().all(|c| c.is_ascii_digit())
                    && (rest.is_empty() || rest.starts_with(' '))
            });
        let block = ordered
            || line.starts_with("    ")
            || ["- ", "* ", "+ ", "# ", "## ", "### ", "> ", "|"]
                .iter()
                .any(|marker| trimmed.starts_with(marker));
        if open && !block {
            out.push(' ');
            out.push_str(trimmed);
        } else {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(line);
        }
        // A list item's next line continues the item; a heading or table row stands alone.
        open = !(trimmed.starts_with('#') || trimmed.starts_with('|') || line.starts_with("    "));
    }
    out
}
