//! The handler function `#[tool]` is put on, read only as far as the macro needs: its
//! visibility, its name, its body, and where it takes `&mut`.
//!
//! A scan of the item's tokens, not a syn syntax tree: the function is emitted unchanged, so
//! nothing else of it is needed, and parsing whole signatures would cost every expansion.

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use syn::Error;

use crate::leaf::hint::keys_with;
use crate::leaf::manifest;
use crate::leaf::tokens::{Angles, Step, flatten, group, ident, punct};
use crate::model::attrs::{doc_lines, skip_visibility};
use crate::model::params::{Param, Receiver, read_params};
use mcp_annotations_rules::Hint;

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

/// The keys only `#[mcp_annotations::tool]` has: a second `#[tool]` with one of them is this
/// crate's attribute written twice, not rmcp's.
const OWN_KEYS: [&str; Hint::ALL.len() + 3] = keys_with(&["http", "allow_mut", "crate"]);

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

/// A `#[tool]` attribute other than the one being expanded: its path, its arguments, and
/// whether it is this crate's (`mcp_annotations::tool`, or a bare `tool` with one of this crate's
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
        [krate, "tool"] if *krate == manifest::DEFAULT || *krate == manifest::runtime_name() => {
            Some((path_tokens, args, true))
        }
        ["rmcp", "tool"] => Some((path_tokens, args, false)),
        ["tool"] => Some((path_tokens, args, has_own_key)),
        _ => None,
    }
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
