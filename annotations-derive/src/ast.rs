//! The handler function `#[tool]` is put on, read only as far as the macro needs: its
//! visibility, its name, its body, and where it takes `&mut`.
//!
//! A scan of the item's tokens, not a syn syntax tree: the function is emitted unchanged, so
//! nothing else of it is needed, and parsing whole signatures would cost every expansion.

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use syn::Error;

use crate::tokens::{Angles, Step, flatten, punct, split_top_level};

pub(crate) struct Handler {
    /// The function as it will be emitted: parameter doc comments and `#[context]` removed.
    pub(crate) tokens: Vec<TokenTree>,
    /// `pub`, `pub(crate)`, ... or nothing.
    pub(crate) vis: TokenStream,
    pub(crate) name: Ident,
    /// Every `&mut` (or `&'a mut`) in the parameters, receiver included.
    pub(crate) exclusive_borrows: Vec<TokenStream>,
    /// The lines of the function's doc comment.
    pub(crate) docs: Vec<String>,
    /// The parameters, receiver excluded.
    pub(crate) params: Vec<Param>,
    /// `#[doc(hidden)]`, `#[deprecated]`, `#[cfg(...)]` on the function, for the constants.
    pub(crate) carried_attrs: Vec<TokenStream>,
    /// The names of the function's generic type and const parameters.
    pub(crate) generics: Vec<String>,
    /// How it takes `self`.
    pub(crate) receiver: Receiver,
    pub(crate) is_async: bool,
    pub(crate) is_unsafe: bool,
    /// `extern "C"` and the like, or nothing.
    pub(crate) abi: TokenStream,
    /// The names of its lifetime parameters (`'a`), for the type of a pointer to it.
    pub(crate) lifetimes: Vec<Ident>,
    /// The return type, if one is written.
    pub(crate) output: Option<TokenStream>,
    /// rmcp's `#[tool]` below this attribute, which receives the checked hints.
    pub(crate) rmcp: Option<RmcpTool>,
    /// A second `#[tool]` of this crate's on the same function, and where its `#` is.
    pub(crate) repeated: Option<(TokenStream, usize)>,
}

/// rmcp's `#[tool(...)]` on the handler, below ours.
pub(crate) struct RmcpTool {
    /// Where its bracket group is in the handler's tokens.
    pub(crate) index: usize,
    /// Its path as written (`tool`, `rmcp::tool`).
    pub(crate) path: TokenStream,
    /// Its arguments, if any.
    pub(crate) args: TokenStream,
}

/// The keys only `#[annotations::tool]` has: a second `#[tool]` with one of them is this
/// crate's attribute written twice, not rmcp's.
const OWN_KEYS: [&str; 7] = [
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "http",
    "allow_mut",
    "crate",
];

/// How a handler takes `self`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Receiver {
    None,
    /// `&self`, `&'a self`, `self: &Self`.
    Shared,
    /// `&mut self`, `self: &mut Self`.
    Exclusive,
    /// `self`, `mut self`, `self: Box<Self>`, ...
    Owned,
}

/// One parameter of the handler (not the receiver).
pub(crate) struct Param {
    /// The name, if the pattern is a plain identifier (`x`, `mut x`).
    pub(crate) name: Option<Ident>,
    /// The pattern's tokens, to point at when it has no plain name.
    pub(crate) pattern: TokenStream,
    /// The type's tokens.
    pub(crate) ty: TokenStream,
    /// The lines of its doc comment.
    pub(crate) docs: Vec<String>,
    /// `#[context]`: supplied by the server, not the model.
    pub(crate) context: bool,
    /// Its `#[cfg(...)]` attributes, whole.
    pub(crate) cfgs: Vec<TokenStream>,
    /// What its `#[schema(...)]` attributes hold, one stream each (read in `schema_attr.rs`).
    pub(crate) schema: Vec<TokenStream>,
    /// A `#[derive(Tool)]` field's name as serde reads it, when its `#[serde]` says another.
    pub(crate) serde_name: Option<String>,
    /// A `#[derive(Tool)]` field serde may do without (`#[serde(default)]`).
    pub(crate) serde_default: bool,
    /// Whether it is a `#[derive(Tool)]` field (serde names it and fills it in).
    pub(crate) field: bool,
}

impl Handler {
    /// Whether it takes `self` in some form (so it is in an impl block or a trait).
    pub(crate) fn has_receiver(&self) -> bool {
        self.receiver != Receiver::None
    }

    pub(crate) fn parse(item: TokenStream) -> Result<Self, Error> {
        // What `macro_rules!` passes (`$vis:vis`, `$body:block`) arrives in invisible groups:
        // read through them.
        let tokens: Vec<TokenTree> = flatten(item);
        let mut i = 0;

        // Outer attributes: `#[...]`.
        let mut docs = Vec::new();
        let mut carried_attrs = Vec::new();
        let mut rmcp = None;
        let mut repeated = None;
        while punct(tokens.get(i), '#') && group(tokens.get(i + 1), Delimiter::Bracket) {
            if let Some(TokenTree::Group(attr)) = tokens.get(i + 1) {
                if let Some(lines) = doc_lines(attr) {
                    docs.extend(lines);
                } else if carried(attr) {
                    carried_attrs.push(tokens[i..i + 2].iter().cloned().collect());
                } else if let Some((path, args, ours)) = tool_attribute(attr) {
                    if ours {
                        repeated = Some((tokens[i..i + 2].iter().cloned().collect(), i));
                    } else if rmcp.is_none() {
                        rmcp = Some(RmcpTool {
                            index: i + 1,
                            path,
                            args,
                        });
                    }
                }
            }
            i += 2;
        }

        let after_vis = skip_visibility(&tokens, i);
        let vis: TokenStream = tokens[i..after_vis].iter().cloned().collect();
        i = after_vis;

        // Qualifiers, up to `fn`.
        let mut is_async = false;
        let mut is_unsafe = false;
        let mut abi = TokenStream::new();
        loop {
            match tokens.get(i) {
                Some(TokenTree::Ident(word)) if word == "fn" => break,
                Some(TokenTree::Ident(word)) if word == "const" => {
                    let next = tokens.get(i + 1);
                    if !["fn", "async", "unsafe", "extern", "safe"]
                        .iter()
                        .any(|q| ident(next, q))
                    {
                        return Err(not_a_function(&tokens[i], "a constant"));
                    }
                    i += 1;
                }
                Some(TokenTree::Ident(word))
                    if ["async", "unsafe", "safe", "default"]
                        .iter()
                        .any(|q| word == q) =>
                {
                    is_async |= word == "async";
                    is_unsafe |= word == "unsafe";
                    i += 1;
                }
                Some(TokenTree::Ident(word)) if word == "extern" => {
                    abi.extend([tokens[i].clone()]);
                    i += 1;
                    if matches!(tokens.get(i), Some(TokenTree::Literal(_))) {
                        abi.extend([tokens[i].clone()]);
                        i += 1;
                    }
                }
                Some(other) => return Err(not_a_function(other, &describe_item(other))),
                None => {
                    return Err(Error::new(
                        Span::call_site(),
                        "#[tool] goes on a handler function, such as `fn list_notes() { ... }`",
                    ));
                }
            }
        }
        let fn_token = &tokens[i];
        let Some(TokenTree::Ident(name)) = tokens.get(i + 1).cloned() else {
            return Err(Error::new_spanned(
                fn_token,
                "expected the function's name after `fn`",
            ));
        };

        match tokens.last() {
            Some(TokenTree::Group(body)) if body.delimiter() == Delimiter::Brace => {}
            // A trait method without a default body: there is no handler to annotate.
            last => {
                return Err(Error::new_spanned(
                    last.unwrap_or(fn_token),
                    format!(
                        "#[tool] goes on a function with a body; `{name}` has none (a trait \
                         method declaration is not a handler: put #[tool] on the method in an \
                         inherent impl)"
                    ),
                ));
            }
        }

        let mut exclusive_borrows = Vec::new();
        let mut params = Vec::new();
        let mut tokens = tokens;
        let (generics, lifetimes) = generic_parameters(&tokens[i + 2..]);
        let mut receiver = Receiver::None;
        let mut output = None;
        if let Some(at) = parameters(&tokens[i + 2..]).map(|offset| i + 2 + offset) {
            // `-> Type` up to `where` or the body.
            if punct(tokens.get(at + 1), '-') && punct(tokens.get(at + 2), '>') {
                let end = tokens.len() - 1;
                let stop = (at + 3..end)
                    .find(|&j| ident(tokens.get(j), "where"))
                    .unwrap_or(end);
                output = Some(tokens[at + 3..stop].iter().cloned().collect());
            }
            let TokenTree::Group(group) = &tokens[at] else {
                unreachable!("parameters() returns the index of a group")
            };
            let (read, emitted, taken) = read_params(group.stream(), &mut exclusive_borrows);
            params = read;
            receiver = taken.unwrap_or(Receiver::None);
            let mut replaced = Group::new(Delimiter::Parenthesis, emitted);
            replaced.set_span(group.span());
            tokens[at] = TokenTree::Group(replaced);
        }

        Ok(Handler {
            vis,
            name,
            exclusive_borrows,
            tokens,
            docs,
            params,
            carried_attrs,
            generics,
            receiver,
            is_async,
            is_unsafe,
            abi,
            lifetimes,
            output,
            rmcp,
            repeated,
        })
    }
}

/// The index of the parenthesized parameter list: the first `( ... )` after the name that is
/// not inside the generic parameters (`<F: Fn(u8) -> u8>` holds parentheses and a `>` of its
/// own).
fn parameters(after_name: &[TokenTree]) -> Option<usize> {
    let mut angles = Angles::default();
    after_name.iter().position(|token| {
        angles.step(token);
        angles.depth() == 0
            && matches!(token, TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis)
    })
}

/// The names of the generic parameters in `<...>` right after the name: type and const
/// parameters, and lifetimes (without their `'`).
fn generic_parameters(after_name: &[TokenTree]) -> (Vec<String>, Vec<Ident>) {
    let (mut names, mut lifetimes) = (Vec::new(), Vec::new());
    if !punct(after_name.first(), '<') {
        return (names, lifetimes);
    }
    let mut angles = Angles::default();
    let mut at_start = false;
    for (i, token) in after_name.iter().enumerate() {
        match angles.step(token) {
            Step::Opened => {
                at_start = angles.depth() == 1;
                continue;
            }
            Step::Closed if angles.depth() == 0 => break,
            Step::Closed => continue,
            Step::Other => {}
        }
        match token {
            TokenTree::Punct(p) if p.as_char() == ',' && angles.depth() == 1 => at_start = true,
            TokenTree::Punct(p) if p.as_char() == '\'' && at_start => {
                if let Some(TokenTree::Ident(name)) = after_name.get(i + 1) {
                    lifetimes.push(name.clone());
                }
                at_start = false;
            }
            TokenTree::Ident(word) if at_start && word == "const" => {}
            TokenTree::Ident(word) if at_start => {
                names.push(word.to_string());
                at_start = false;
            }
            _ => at_start = false,
        }
    }
    (names, lifetimes)
}

/// Reads the parameters, and returns them with the stream to emit in their place: the same
/// tokens without parameter doc comments and `#[context]` (which rustc would reject).
fn read_params(
    stream: TokenStream,
    exclusive_borrows: &mut Vec<TokenStream>,
) -> (Vec<Param>, TokenStream, Option<Receiver>) {
    let mut params = Vec::new();
    let mut receiver = None;
    let mut emitted = TokenStream::new();
    for (piece, comma) in split_top_level(stream) {
        let mut i = 0;
        let mut docs = Vec::new();
        let mut context = false;
        let mut cfgs = Vec::new();
        let mut schema = Vec::new();
        while punct(piece.get(i), '#') && group(piece.get(i + 1), Delimiter::Bracket) {
            let TokenTree::Group(attr) = &piece[i + 1] else {
                unreachable!()
            };
            if let Some(lines) = doc_lines(attr) {
                docs.extend(lines);
            } else if is_word(attr, "context") {
                context = true;
            } else if let Some(inner) = schema_args(attr) {
                schema.push(inner);
            } else {
                if matches!(attr.stream().into_iter().next(), Some(TokenTree::Ident(word)) if word == "cfg")
                {
                    cfgs.push(piece[i..i + 2].iter().cloned().collect());
                }
                emitted.extend(piece[i..i + 2].iter().cloned());
            }
            i += 2;
        }
        let rest = &piece[i..];
        emitted.extend(rest.iter().cloned());
        emitted.extend(comma);
        // Pattern and type: split at the first `:` that is not half of a `::`.
        let mut colon = None;
        let mut j = 0;
        while j < rest.len() {
            if punct(rest.get(j), ':') {
                if punct(rest.get(j + 1), ':') {
                    j += 2;
                    continue;
                }
                colon = Some(j);
                break;
            }
            j += 1;
        }
        let (pattern, ty) = match colon {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let is_receiver = pattern
            .iter()
            .any(|token| matches!(token, TokenTree::Ident(word) if word == "self"));
        if is_receiver {
            receiver = Some(receiver_kind(pattern, ty));
        }
        // A parameter under `#[cfg]` may not be compiled at all: not scanned.
        if cfgs.is_empty() {
            find_exclusive_borrows(if is_receiver { rest } else { ty }, exclusive_borrows);
        }
        if is_receiver || rest.is_empty() {
            continue;
        }
        let words: Vec<&TokenTree> = pattern
            .iter()
            .filter(
                |token| !matches!(token, TokenTree::Ident(word) if word == "mut" || word == "ref"),
            )
            .collect();
        let name = match words.as_slice() {
            [TokenTree::Ident(name)] if name != "_" => Some(name.clone()),
            _ => None,
        };
        params.push(Param {
            name,
            pattern: pattern.iter().cloned().collect(),
            ty: ty.iter().cloned().collect(),
            docs,
            context,
            cfgs,
            schema,
            serde_name: None,
            serde_default: false,
            field: false,
        });
    }
    (params, emitted, receiver)
}

/// What `#[schema(...)]` holds, if the attribute is one.
pub(crate) fn schema_args(attr: &Group) -> Option<TokenStream> {
    let mut tokens = attr.stream().into_iter();
    match (tokens.next(), tokens.next(), tokens.next()) {
        (Some(TokenTree::Ident(word)), Some(TokenTree::Group(args)), None)
            if word == "schema" && args.delimiter() == Delimiter::Parenthesis =>
        {
            Some(args.stream())
        }
        _ => None,
    }
}

/// How a receiver takes `self`: `&self`, `&'a mut self`, `self: &Self`, `mut self`, ...
fn receiver_kind(pattern: &[TokenTree], ty: &[TokenTree]) -> Receiver {
    let reference = |tokens: &[TokenTree]| {
        if !punct(tokens.first(), '&') {
            return None;
        }
        let mutable = tokens
            .iter()
            .any(|token| matches!(token, TokenTree::Ident(word) if word == "mut"));
        Some(if mutable {
            Receiver::Exclusive
        } else {
            Receiver::Shared
        })
    };
    if ty.is_empty() {
        reference(pattern).unwrap_or(Receiver::Owned)
    } else {
        // `self: &Self`, `self: &mut Self`; any other type (`Box<Self>`, ...) holds `self`.
        let is_self_ref = matches!(ty.last(), Some(TokenTree::Ident(word)) if word == "Self");
        reference(ty)
            .filter(|_| is_self_ref)
            .unwrap_or(Receiver::Owned)
    }
}

/// The lines of a `doc = "..."` attribute, or `None` for any other attribute. A doc attribute
/// whose value is not a literal (`doc = include_str!(...)`) has no lines the macro can read.
pub(crate) fn doc_lines(attr: &Group) -> Option<Vec<String>> {
    let tokens: Vec<TokenTree> = attr.stream().into_iter().collect();
    match tokens.as_slice() {
        [TokenTree::Ident(doc), TokenTree::Punct(eq), value]
            if doc == "doc" && eq.as_char() == '=' =>
        {
            let literal = match value {
                TokenTree::Literal(literal) => literal.clone(),
                TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                    match g.stream().into_iter().next() {
                        Some(TokenTree::Literal(literal)) => literal,
                        _ => return Some(Vec::new()),
                    }
                }
                _ => return Some(Vec::new()),
            };
            match syn::Lit::new(literal) {
                // `split`, not `lines`: an empty `///` line is a line (`"".lines()` yields none).
                syn::Lit::Str(text) => Some(
                    text.value()
                        .split('\n')
                        .map(|line| line.strip_suffix('\r').unwrap_or(line).to_owned())
                        .collect(),
                ),
                _ => Some(Vec::new()),
            }
        }
        _ => None,
    }
}

/// A `#[tool]` attribute other than the one being expanded: its path, its arguments, and
/// whether it is this crate's (`annotations::tool`, or a bare `tool` with one of this crate's
/// own keys) rather than rmcp's (`rmcp::tool`, or a bare `tool` without them).
fn tool_attribute(attr: &Group) -> Option<(TokenStream, TokenStream, bool)> {
    let tokens: Vec<TokenTree> = attr.stream().into_iter().collect();
    let args_at = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis))
        .unwrap_or(tokens.len());
    let path: Vec<String> = tokens[..args_at]
        .iter()
        .filter_map(|t| match t {
            TokenTree::Ident(word) => Some(word.to_string()),
            _ => None,
        })
        .collect();
    let args: TokenStream = match tokens.get(args_at) {
        Some(TokenTree::Group(group)) if args_at + 1 == tokens.len() => group.stream(),
        None => TokenStream::new(),
        Some(_) => return None,
    };
    let path_tokens: TokenStream = tokens[..args_at].iter().cloned().collect();
    let has_own_key = args
        .clone()
        .into_iter()
        .any(|t| matches!(&t, TokenTree::Ident(word) if OWN_KEYS.iter().any(|key| word == key)));
    match path
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["annotations", "tool"] => Some((path_tokens, args, true)),
        ["rmcp", "tool"] => Some((path_tokens, args, false)),
        ["tool"] => Some((path_tokens, args, has_own_key)),
        _ => None,
    }
}

/// Whether the attribute is `#[word]` alone.
fn is_word(attr: &Group, word: &str) -> bool {
    let mut tokens = attr.stream().into_iter();
    matches!((tokens.next(), tokens.next()), (Some(TokenTree::Ident(w)), None) if w == word)
}

/// Attributes of the function that its constants should carry too.
fn carried(attr: &Group) -> bool {
    let mut tokens = attr.stream().into_iter();
    match tokens.next() {
        Some(TokenTree::Ident(word)) if word == "deprecated" || word == "cfg" => true,
        Some(TokenTree::Ident(word)) if word == "doc" => {
            matches!(tokens.next(), Some(TokenTree::Group(g)) if g.stream().to_string() == "hidden")
        }
        _ => false,
    }
}

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

/// Every `&mut` (or `&'a mut`) the tokens of one parameter take, except inside the
/// parameter list of a function pointer or closure type (`fn(&mut T)`, `impl Fn(&mut T)`),
/// which borrows nothing when the handler is called.
fn find_exclusive_borrows(tokens: &[TokenTree], found: &mut Vec<TokenStream>) {
    for (i, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Group(inner) => {
                let callable = i > 0
                    && inner.delimiter() == Delimiter::Parenthesis
                    && ["fn", "Fn", "FnMut", "FnOnce"]
                        .iter()
                        .any(|word| ident(tokens.get(i - 1), word));
                if !callable {
                    let inner: Vec<TokenTree> = inner.stream().into_iter().collect();
                    find_exclusive_borrows(&inner, found);
                }
            }
            TokenTree::Punct(amp) if amp.as_char() == '&' => {
                // `&mut` or `&'a mut`
                let mut j = i + 1;
                if punct(tokens.get(j), '\'') {
                    j += 2;
                }
                if ident(tokens.get(j), "mut") {
                    found.push(tokens[i..=j].iter().cloned().collect());
                }
            }
            _ => {}
        }
    }
}

fn not_a_function(token: &TokenTree, what: &str) -> Error {
    Error::new_spanned(
        token,
        format!(
            "#[tool] goes on a handler function, not on {what}; put it on a `fn` with a body, \
             free or in an inherent impl block"
        ),
    )
}

fn describe_item(token: &TokenTree) -> String {
    let TokenTree::Ident(word) = token else {
        return "this item".to_owned();
    };
    match word.to_string().as_str() {
        "struct" => "a struct",
        "enum" => "an enum",
        "union" => "a union",
        "static" => "a static",
        "impl" => "an impl block",
        "trait" => "a trait",
        "mod" => "a module",
        "type" => "a type alias",
        "use" => "a use declaration",
        "macro_rules" => "a macro",
        _ => "this item",
    }
    .to_owned()
}

/// The index after a visibility (`pub`, `pub(crate)`, ...) at `i`, or `i` if there is none.
pub(crate) fn skip_visibility(tokens: &[TokenTree], i: usize) -> usize {
    if !ident(tokens.get(i), "pub") {
        return i;
    }
    if group(tokens.get(i + 1), Delimiter::Parenthesis) {
        i + 2
    } else {
        i + 1
    }
}

fn ident(token: Option<&TokenTree>, word: &str) -> bool {
    matches!(token, Some(TokenTree::Ident(i)) if i == word)
}

fn group(token: Option<&TokenTree>, delimiter: Delimiter) -> bool {
    matches!(token, Some(TokenTree::Group(g)) if g.delimiter() == delimiter)
}

/// One item's or field's leading attributes: its doc lines, its other attributes (each
/// `#[...]`'s bracket group), and where the item itself starts.
pub(crate) fn attributes(tokens: &[TokenTree]) -> (Vec<String>, Vec<Group>, usize) {
    let mut docs = Vec::new();
    let mut attrs = Vec::new();
    let mut i = 0;
    while punct(tokens.get(i), '#') {
        if let Some(TokenTree::Group(attr)) = tokens.get(i + 1) {
            match doc_lines(attr) {
                Some(lines) => docs.extend(lines),
                None => attrs.push(attr.clone()),
            }
        }
        i += 2;
    }
    (docs, attrs, i)
}

/// A named field of a struct or struct variant, as tokens.
pub(crate) struct NamedField {
    pub(crate) docs: Vec<String>,
    /// Its attributes other than doc comments, each `#[...]`'s bracket group.
    pub(crate) attrs: Vec<Group>,
    pub(crate) name: Ident,
    pub(crate) ty: TokenStream,
}

/// The named fields in a struct's (or struct variant's) braces.
pub(crate) fn named_fields(stream: TokenStream) -> Vec<NamedField> {
    split_top_level(stream)
        .into_iter()
        .filter_map(|(field, _)| {
            let (docs, attrs, i) = attributes(&field);
            let i = skip_visibility(&field, i);
            let Some(TokenTree::Ident(name)) = field.get(i) else {
                return None;
            };
            let ty = field
                .get(i + 2..)
                .unwrap_or_default()
                .iter()
                .cloned()
                .collect();
            Some(NamedField {
                docs,
                attrs,
                name: name.clone(),
                ty,
            })
        })
        .collect()
}
