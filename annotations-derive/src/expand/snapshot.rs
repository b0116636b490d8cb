//! The expansion of two small handlers by `#[tool]`, written out in `tests/expansion/call.txt` so that
//! the generated call can be read without reading the `quote!`s of `call.rs`: a plain method (its
//! call a constant naming the runtime's shared call) and an `async` function with a
//! `#[context]` parameter and a default (a call function of its own). A change to what the
//! macro writes shows here as a diff; `UPDATE_EXPANSION=1 cargo test -p
//! mcp-annotations-derive` rewrites the file once the change is meant.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

use crate::expand::tool::expand_tool;

/// The tokens laid out one statement, item or field a line, blocks indented.
fn layout(tokens: TokenStream) -> String {
    let mut out = String::new();
    write(tokens, 0, false, &mut out);
    let lines: Vec<&str> = out
        .lines()
        .map(str::trim_end)
        .filter(|line| !line.trim().is_empty())
        .collect();
    lines.join("\n") + "\n"
}

fn trim(out: &mut String) {
    while out.ends_with(' ') {
        out.pop();
    }
}

fn newline(out: &mut String, depth: usize) {
    trim(out);
    out.push('\n');
    out.push_str(&"    ".repeat(depth));
}

/// Writes `tokens` at `depth`; `braced` when they are a block's or a struct literal's,
/// whose commas end lines (outside `<...>`).
fn write(tokens: TokenStream, depth: usize, braced: bool, out: &mut String) {
    const KEYWORDS: [&str; 10] = [
        "return", "as", "for", "where", "in", "mut", "dyn", "impl", "let", "const",
    ];
    let mut angles = 0usize;
    // Whether the last token can be the left side of a path's `::` (`Self::X`, `T>::f`).
    let mut path_side = false;
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        let mut next_path_side = false;
        match token {
            TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => {
                out.push('{');
                if !group.stream().is_empty() {
                    newline(out, depth + 1);
                    write(group.stream(), depth + 1, true, out);
                    newline(out, depth);
                }
                out.push('}');
                newline(out, depth);
            }
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    _ => ("", ""),
                };
                if path_side {
                    trim(out);
                }
                out.push_str(open);
                write(group.stream(), depth, false, out);
                trim(out);
                out.push_str(close);
                out.push(' ');
                next_path_side = true;
            }
            TokenTree::Punct(punct)
                if punct.as_char() == ':'
                    && punct.spacing() == Spacing::Joint
                    && matches!(tokens.peek(), Some(TokenTree::Punct(next)) if next.as_char() == ':') =>
            {
                tokens.next();
                if path_side {
                    trim(out);
                }
                out.push_str("::");
            }
            TokenTree::Punct(punct) => {
                let char = punct.as_char();
                let joined_after = out.ends_with('-') || out.ends_with('=');
                if matches!(char, ',' | ';' | '.' | '?')
                    || (char == ':' && path_side)
                    || (char == '>' && angles > 0 && !joined_after)
                {
                    trim(out);
                }
                match char {
                    '<' => angles += 1,
                    '>' if !joined_after => angles = angles.saturating_sub(1),
                    _ => {}
                }
                out.push(char);
                next_path_side = char == '>' && !joined_after;
                if char == ';' || (char == ',' && braced && angles == 0) {
                    newline(out, depth);
                } else if punct.spacing() == Spacing::Alone
                    && !matches!(char, '&' | '!' | '#' | '.' | '<')
                {
                    out.push(' ');
                }
            }
            TokenTree::Ident(ident) => {
                let word = ident.to_string();
                next_path_side = !KEYWORDS.contains(&word.as_str());
                out.push_str(&word);
                out.push(' ');
            }
            TokenTree::Literal(literal) => {
                out.push_str(&literal.to_string());
                out.push(' ');
            }
        }
        path_side = next_path_side;
    }
}

#[test]
fn a_small_handlers_expansion_reads_as_written_out() {
    let handlers = [
        (
            "read_only, title = \"Add\"",
            "/// Adds two numbers.\nfn add(&self, a: u64, b: u64) -> String { (a + b).to_string() }",
        ),
        (
            "destructive = false",
            "async fn greet(#[context] who: Peer, #[schema(default = \"world\")] name: String) -> String { name }",
        ),
    ];
    let mut expanded = String::new();
    for (attr, item) in handlers {
        expanded.push_str(&format!("// #[tool({attr})]\n"));
        for line in item.lines() {
            expanded.push_str(&format!("// {line}\n"));
        }
        let (attr, item): (TokenStream, TokenStream) =
            (attr.parse().unwrap(), item.parse().unwrap());
        expanded.push_str(&layout(expand_tool(attr, item)));
        expanded.push('\n');
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expansion/call.txt");
    if std::env::var_os("UPDATE_EXPANSION").is_some() {
        std::fs::write(&path, &expanded).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == expanded,
        "the expansion changed; if that is meant, rewrite {} with UPDATE_EXPANSION=1:\n{expanded}",
        path.display()
    );
}
