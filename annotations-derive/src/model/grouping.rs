//! `#[tool(toolset = "issues")]` (or `toolset = ["issues", "labels"]`) and
//! `#[tool(scopes = ["repo", "read:org"])]`: names a server groups its tools by, each checked
//! at its own literal.

use proc_macro2::{Delimiter, Ident, TokenTree};
use syn::{Error, Lit, LitStr};

use crate::leaf::errors::Errors;
use crate::leaf::tokens::{flatten, split_top_level};
use crate::model::entry::Value;

/// Whether `name` is a toolset's name: 1 to 64 of `a-z 0-9 _ -`, as the runtime's
/// `is_valid_toolset_name` says.
pub(crate) fn toolset_problem(name: &str) -> Option<String> {
    (!mcp_annotations_rules::name::is_valid_toolset_name(name)).then(|| {
        format!("`{name}` is not a toolset's name: 1 to 64 of `a-z 0-9 _ -` (`pull_requests`)")
    })
}

/// Whether `scope` is a scope: an OAuth scope token (RFC 6749's `scope-token`: printable ASCII
/// but space, `"` and `\`), as the runtime's `is_valid_scope` says.
pub(crate) fn scope_problem(scope: &str) -> Option<String> {
    (!mcp_annotations_rules::name::is_valid_scope(scope)).then(|| {
        format!(
            "`{scope}` is not a scope: an OAuth scope token is printable ASCII without spaces, \
             `\"` or `\\` (`read:org`)"
        )
    })
}

/// The names `key` gives: one string (where `one` allows it) or a list of strings, each
/// checked by `problem`, none twice, at least one.
pub(crate) fn names(
    key: &Ident,
    value: Value,
    one: bool,
    problem: fn(&str) -> Option<String>,
    errors: &mut Errors,
) -> Vec<LitStr> {
    let example = if one {
        format!("`{key} = \"issues\"` or `{key} = [\"issues\", \"labels\"]`")
    } else {
        format!("`{key} = [\"repo\", \"read:org\"]`")
    };
    let Value::Given(tokens) = value else {
        errors.push(Error::new(
            key.span(),
            format!("`{key}` needs a value: {example}"),
        ));
        return Vec::new();
    };
    let tokens = flatten(tokens.into_iter().collect());
    let items: Vec<Vec<TokenTree>> = match tokens.as_slice() {
        [TokenTree::Group(list)] if list.delimiter() == Delimiter::Bracket => {
            let items: Vec<Vec<TokenTree>> = split_top_level(list.stream())
                .into_iter()
                .map(|(item, _)| item)
                .filter(|item| !item.is_empty())
                .collect();
            if items.is_empty() {
                errors.push(Error::new(
                    list.span(),
                    format!("`{key}` needs at least one name: {example}"),
                ));
            }
            items
        }
        [TokenTree::Literal(_)] if one => vec![tokens.clone()],
        _ => {
            let at = tokens.first().map_or(key.span(), TokenTree::span);
            errors.push(Error::new(at, format!("`{key}` takes {example}")));
            return Vec::new();
        }
    };
    let mut out: Vec<LitStr> = Vec::new();
    for item in items {
        // A literal a `macro_rules!` macro passes on comes in an invisible group.
        let item = flatten(item.into_iter().collect());
        let literal = match item.as_slice() {
            [TokenTree::Literal(literal)] => match Lit::new(literal.clone()) {
                Lit::Str(text) => Some(text),
                _ => None,
            },
            _ => None,
        };
        let Some(literal) = literal else {
            errors.push(Error::new(
                item[0].span(),
                format!("`{key}` takes string literals: {example}"),
            ));
            continue;
        };
        let name = literal.value();
        if let Some(message) = problem(&name) {
            errors.push(Error::new(literal.span(), message));
        } else if out.iter().any(|seen| seen.value() == name) {
            errors.push(Error::new(
                literal.span(),
                format!("`{name}` is named twice in `{key}`"),
            ));
        } else {
            out.push(literal);
        }
    }
    out
}
