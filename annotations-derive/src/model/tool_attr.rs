//! Reading the arguments of `#[tool(...)]`: one entry per comma, each `key`, `key = value`.
//!
//! The attribute is read token by token rather than with syn's `parse_nested_meta`, so that a
//! malformed entry (`read_only = `, `"x"`, `read_only(true)`, an empty entry) is reported at its
//! own tokens and reading goes on with the next entry: every mistake in one compile.

use proc_macro2::{Delimiter, Ident, TokenStream, TokenTree};
use syn::{Error, Lit, LitStr};

use crate::leaf::errors::Errors;
use crate::leaf::hint::keys_with;
use crate::leaf::tokens::{flatten, single_token};
use crate::leaf::{case, spelling};
use crate::model::crate_path::crate_path;
use crate::model::entry::{Entry, Value, describe_literal, describe_token, first_time};
use crate::model::grouping;
use crate::model::hint_value::{StatedHint, hint_value};
use crate::model::http::{self, HttpPreset};
use crate::model::icons::{self, IconSpec};
use crate::model::meta;
use mcp_annotations_rules::{ByHint, Hint};

/// Every key `#[tool]` accepts, for suggestions.
const KEYS: [&str; Hint::ALL.len() + 14] = keys_with(&[
    "title",
    "name",
    "description",
    "http",
    "crate",
    "allow_mut",
    "rename_all",
    "icons",
    "meta",
    "task_support",
    "toolset",
    "scopes",
    "resolve",
    "resolve_by",
]);

/// The arguments of one `#[tool(...)]`, each with the tokens it came from.
#[derive(Default)]
pub(crate) struct Args {
    /// Each hint as stated, by hint.
    pub(crate) hints: ByHint<Option<StatedHint>>,
    pub(crate) title: Option<LitStr>,
    /// `name = "..."`: the tool's name, instead of the function's.
    pub(crate) name: Option<LitStr>,
    /// `description = "..."`: the tool's description, instead of the doc comment.
    pub(crate) description: Option<LitStr>,
    pub(crate) http: Option<Http>,
    /// `crate = path`: where the runtime crate is, for a renamed dependency.
    pub(crate) krate: Option<TokenStream>,
    /// `allow_mut`: a read-only handler may take `&mut` on purpose.
    pub(crate) allow_mut: Option<Ident>,
    /// `rename_all = "camelCase"`: the parameters' names in one of serde's cases.
    pub(crate) rename_all: Option<(case::Case, proc_macro2::Span)>,
    /// `annotations(...)`, rmcp's key: what `#[mcp_annotations::tool]` writes into the `#[tool]`
    /// below it, taking that one for rmcp's. Seen here, that `#[tool]` is this crate's own.
    pub(crate) handed_over: Option<Ident>,
    /// `icons = [...]`, each icon checked.
    pub(crate) icons: Vec<IconSpec>,
    /// `meta = r#"{...}"#`: the `_meta` object's JSON text, checked.
    pub(crate) meta: Option<LitStr>,
    /// `task_support = "optional"`.
    pub(crate) task_support: Option<LitStr>,
    /// `toolset = "issues"` or `toolset = ["issues", "labels"]`.
    pub(crate) toolsets: Vec<LitStr>,
    /// `scopes = ["repo"]`.
    pub(crate) scopes: Vec<LitStr>,
    /// `resolve = path` or `resolve_by = param`: how the tool's calls are resolved
    /// (`tools/resolve`).
    pub(crate) resolution: Option<Resolution>,
    /// The keys given that only this crate's descriptor and listing carry (`task_support`,
    /// `toolset`, `scopes`, `icons`, `meta`, `rename_all`), as written: handed to rmcp's
    /// `#[tool]` below this one, they would be dropped.
    pub(crate) listing_keys: Vec<Ident>,
    /// The keys given so far, valid or not: the one check for a repeated key, which reports
    /// the repeat whatever the values (the first may have been refused), so every later branch
    /// sees each key once.
    seen: std::collections::HashSet<String>,
}

/// How a tool's calls are resolved, per call, by the tool-resolution extension.
pub(crate) enum Resolution {
    /// `resolve = path`: a function of the handler's state and parameters, by reference.
    Function { key: Ident, path: TokenStream },
    /// `resolve_by = param`: the variant of the parameter `param`, an enum whose variants
    /// state their hints.
    Variant { key: Ident, param: Ident },
}

impl Resolution {
    /// The key it was given by.
    pub(crate) fn key(&self) -> &Ident {
        match self {
            Resolution::Function { key, .. } | Resolution::Variant { key, .. } => key,
        }
    }
}

/// `http = "METHOD"`.
pub(crate) struct Http {
    pub(crate) key: Ident,
    pub(crate) literal: LitStr,
    pub(crate) preset: &'static HttpPreset,
}

impl Args {
    pub(crate) fn hint(&self, kind: Hint) -> Option<&StatedHint> {
        self.hints[kind].as_ref()
    }
}

pub(crate) fn parse(attr: TokenStream, errors: &mut Errors) -> Args {
    let mut args = Args::default();
    let mut entry: Vec<TokenTree> = Vec::new();
    let mut position = 0;
    // What `macro_rules!` passes (`$e:expr`, `$t:literal`) arrives in invisible groups: read
    // through them.
    let mut tokens = flatten(attr).into_iter();
    // Inside a turbofish (`is::<u8, u16>()`) a comma does not end the entry: values are
    // expressions. Only a `<` right after `::` opens one, so `a < b, c` still splits.
    let mut turbofish = 0usize;
    loop {
        let token = tokens.next();
        match &token {
            Some(TokenTree::Punct(p)) if p.as_char() == '<' => {
                let after_path = entry.len() >= 2
                    && matches!(&entry[entry.len() - 1], TokenTree::Punct(c) if c.as_char() == ':')
                    && matches!(&entry[entry.len() - 2], TokenTree::Punct(c) if c.as_char() == ':');
                if after_path || turbofish > 0 {
                    turbofish += 1;
                }
            }
            Some(TokenTree::Punct(p)) if p.as_char() == '>' && turbofish > 0 => turbofish -= 1,
            _ => {}
        }
        match token {
            Some(token @ TokenTree::Punct(_)) if turbofish > 0 => entry.push(token),
            Some(TokenTree::Punct(comma)) if comma.as_char() == ',' => {
                if entry.is_empty() {
                    // `#[tool(read_only,, open_world)]` or `#[tool(, read_only)]`
                    errors.push(Error::new(
                        comma.span(),
                        "expected a #[tool] key, found `,`",
                    ));
                } else {
                    args.entry(std::mem::take(&mut entry), position, errors);
                    position += 1;
                }
            }
            Some(token) => entry.push(token),
            None => {
                // A trailing comma leaves nothing here, which is fine.
                if !entry.is_empty() {
                    args.entry(entry, position, errors);
                }
                return args;
            }
        }
    }
}

impl Args {
    /// One entry of the attribute, the `position`-th: its key and value read
    /// ([`read_entry`](Self::read_entry)), then kept where the key says: a hint, a key of the
    /// descriptor's text, `http`, `crate`, a key of the listing, a resolution, `allow_mut`;
    /// any other key is an error that suggests the closest known one.
    fn entry(&mut self, entry: Vec<TokenTree>, position: usize, errors: &mut Errors) {
        let Some((key, value)) = self.read_entry(&entry, errors) else {
            return;
        };
        let name = key.to_string();
        if let Some(kind) = Hint::from_key(&name) {
            if let Some(value) = hint_value(&key, value, errors) {
                self.hints[kind] = Some(StatedHint {
                    key,
                    position,
                    value,
                });
            }
            return;
        }
        match name.as_str() {
            "title" | "name" | "description" => self.text_key(&key, value, errors),
            "http" => self.http_key(key, value, errors),
            "crate" => self.crate_key(&key, value, errors),
            "rename_all" | "icons" | "meta" | "task_support" | "toolset" | "scopes" => {
                self.listing_key(key, value, errors);
            }
            "resolve" | "resolve_by" => {
                let resolution = resolution(&key, value, errors);
                match (&self.resolution, resolution) {
                    (Some(first), Some(_)) => errors.push(Error::new(
                        key.span(),
                        format!(
                            "#[tool({name})] cannot stand beside #[tool({})]: a tool's calls \
                             are resolved either by a function (`resolve = path`) or by the \
                             variant of one parameter (`resolve_by = param`), not both",
                            first.key()
                        ),
                    )),
                    (None, resolution) => self.resolution = resolution,
                    (Some(_), None) => {}
                }
            }
            "allow_mut" => {
                if !matches!(value, Value::Bare) {
                    errors.push(Error::new(
                        key.span(),
                        "#[tool(allow_mut)] takes no value: write `allow_mut`",
                    ));
                }
                // Kept even with a value, so the `&mut` rule does not report a second error.
                self.allow_mut = Some(key);
            }
            _ => {
                let message = spelling::unknown_key("#[tool]", &name, &KEYS, suggest(&name));
                errors.push(Error::new(key.span(), message));
            }
        }
    }

    /// An entry's key and what follows it, or `None` once an error says why the entry is not
    /// read on: a key written with dashes, no key, a known key given twice (reported whatever
    /// its values, so that every mistake shows in one compile), a value in brackets or after
    /// something else than `=`. rmcp's `annotations(...)` is kept as handed over (read no
    /// further).
    fn read_entry(&mut self, entry: &[TokenTree], errors: &mut Errors) -> Option<(Ident, Value)> {
        // `open-world`, `read-only`: a key written with dashes.
        if let [
            TokenTree::Ident(first),
            TokenTree::Punct(dash),
            TokenTree::Ident(second),
            ..,
        ] = entry
            && dash.as_char() == '-'
        {
            let name = format!("{first}-{second}");
            let message = spelling::unknown_key("#[tool]", &name, &[], suggest(&name));
            let written: TokenStream = entry[..3].iter().cloned().collect();
            errors.push(Error::new_spanned(written, message));
            return None;
        }
        let Some(Entry { key, value }) = Entry::read(entry) else {
            // `#[tool("x")]`
            if let Some(other) = entry.first() {
                errors.push(Error::new_spanned(
                    other,
                    format!(
                        "expected a #[tool] key such as `read_only` or `title = \"...\"`, found {}",
                        describe_token(other)
                    ),
                ));
            }
            return None;
        };
        let name = key.to_string();
        if KEYS.contains(&name.as_str())
            && let Err(error) = first_time(&key, &mut self.seen, |name| {
                format!("duplicate #[tool({name})]")
            })
        {
            errors.push(error);
            return None;
        }
        // annotations(...): rmcp's key, handed over by this crate's #[tool] above
        if name == "annotations" && self.handed_over.is_none() {
            self.handed_over = Some(key);
            return None;
        }
        match value {
            Ok(value) => Some((key, value)),
            // `#[tool(read_only(true))]`
            Err(TokenTree::Group(group)) if group.delimiter() != Delimiter::None => {
                errors.push(Error::new(
                    group.span(),
                    format!("#[tool({name})] takes its value after `=`, not in brackets: write `{name} = ...`"),
                ));
                None
            }
            Err(other) => {
                errors.push(Error::new_spanned(
                    &other,
                    format!("expected `=` or `,` after #[tool] key `{name}`"),
                ));
                None
            }
        }
    }

    /// `title`, `name` or `description = "..."`: the descriptor's text, each a string with
    /// its own rule (a title one line and not blank, a name the protocol's, a description not
    /// blank).
    fn text_key(&mut self, key: &Ident, value: Value, errors: &mut Errors) {
        if key == "title" {
            string_key(&mut self.title, key, value, errors, |text| {
                if text.trim().is_empty() {
                    let what = if text.is_empty() { "empty" } else { "blank" };
                    return Some(format!(
                        "#[tool(title)] cannot be {what}: give the tool a display title, or leave `title` out"
                    ));
                }
                text.chars()
                    .any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}')
                    .then(|| {
                        "#[tool(title)] cannot hold a line break or other control character: a \
                         title is one line that hosts show in menus and tables"
                            .to_owned()
                    })
            });
        } else if key == "name" {
            string_key(&mut self.name, key, value, errors, |text| {
                mcp_annotations_rules::name::tool_name_problem(text)
                    .map(|problem| format!("invalid tool name: {problem}"))
            });
        } else {
            string_key(&mut self.description, key, value, errors, |text| {
                text.trim().is_empty().then(|| {
                    "#[tool(description)] cannot be blank: describe what the tool does, or \
                     leave `description` out to use the doc comment"
                        .to_owned()
                })
            });
        }
    }

    /// `http = "METHOD"`: one of the presets' methods.
    fn http_key(&mut self, key: Ident, value: Value, errors: &mut Errors) {
        let Some(literal) = string_value(&key, value, errors) else {
            return;
        };
        let Some(preset) = http::lookup(&literal.value()) else {
            errors.push(Error::new(
                literal.span(),
                format!(
                    "unknown HTTP method `{}` in #[tool(http)]; expected one of {}",
                    literal.value(),
                    http::PRESETS
                        .iter()
                        .map(|p| p.method)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
            return;
        };
        self.http = Some(Http {
            key,
            literal,
            preset,
        });
    }

    /// `crate = path`: where the runtime crate is.
    fn crate_key(&mut self, key: &Ident, value: Value, errors: &mut Errors) {
        let path = match value {
            Value::Given(tokens) => crate_path(tokens.into_iter().collect()),
            Value::Bare => Err(Error::new(
                key.span(),
                "#[tool(crate)] needs a path: `crate = my_annotations`",
            )),
            Value::Missing(eq) => Err(Error::new(eq, "expected a path after `crate =`")),
        };
        match path {
            Ok(path) => self.krate = Some(path),
            Err(error) => errors.push(error),
        }
    }

    /// A key that only a handler listed with `tools!` can use (`rename_all`, `icons`,
    /// `meta`, `task_support`, `toolset`, `scopes`): kept in `listing_keys` (`icons` only
    /// with a value), and read by its own rule.
    fn listing_key(&mut self, key: Ident, value: Value, errors: &mut Errors) {
        if key != "icons" {
            self.listing_keys.push(key.clone());
        }
        match key.to_string().as_str() {
            "rename_all" => self.rename_all_key(&key, value, errors),
            "icons" => match value {
                Value::Given(tokens) => {
                    self.listing_keys.push(key.clone());
                    self.icons = icons::read(tokens.into_iter().collect(), key.span(), errors);
                }
                Value::Bare | Value::Missing(_) => errors.push(Error::new(
                    key.span(),
                    "#[tool(icons)] needs a list: `icons = [\"https://example.com/icon.png\"]`",
                )),
            },
            "meta" => string_key(&mut self.meta, &key, value, errors, meta::problem),
            "task_support" => {
                string_key(&mut self.task_support, &key, value, errors, |text| {
                    (!["forbidden", "optional", "required"].contains(&text)).then(|| {
                        format!(
                            "unknown task support `{text}`; expected \"forbidden\", \"optional\" \
                             or \"required\""
                        )
                    })
                });
            }
            "toolset" => {
                self.toolsets =
                    grouping::names(&key, value, true, grouping::toolset_problem, errors);
            }
            // `scopes`
            _ => {
                self.scopes = grouping::names(&key, value, false, grouping::scope_problem, errors);
            }
        }
    }

    /// `rename_all = "case"`: one of serde's cases, read once with where it was written.
    fn rename_all_key(&mut self, key: &Ident, value: Value, errors: &mut Errors) {
        let mut named = None;
        string_key(&mut named, key, value, errors, |text| {
            (!case::CASES.contains(&text)).then(|| {
                let known = spelling::closest(text, &case::CASES)
                    .map(|case| format!("did you mean `{case}`? "))
                    .unwrap_or_default();
                format!(
                    "unknown case `{text}` in #[tool(rename_all)]; {known}serde's cases are {}",
                    case::CASES
                        .iter()
                        .map(|case| format!("`{case}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
        });
        if let Some(named) = named {
            self.rename_all = case::Case::parse(&named.value()).map(|case| (case, named.span()));
        }
    }
}

/// `resolve = path` (a path to a function) or `resolve_by = param` (a parameter's name).
fn resolution(key: &Ident, value: Value, errors: &mut Errors) -> Option<Resolution> {
    let by_variant = key == "resolve_by";
    let usage = if by_variant {
        "#[tool(resolve_by)] names the parameter whose variant decides the call's hints: \
         `resolve_by = action`"
    } else {
        "#[tool(resolve)] names the function that gives a call's hints: `resolve = classify` \
         (for a method, the handler type's own; else a free function), `resolve = \
         Self::classify` or `resolve = path::to::classify`"
    };
    let tokens: TokenStream = match value {
        Value::Given(tokens) => tokens.into_iter().collect(),
        Value::Bare => {
            errors.push(Error::new(key.span(), usage));
            return None;
        }
        Value::Missing(eq) => {
            errors.push(Error::new(eq, usage));
            return None;
        }
    };
    if by_variant {
        if let Some(TokenTree::Ident(param)) = single_token(&tokens) {
            return Some(Resolution::Variant {
                key: key.clone(),
                param,
            });
        }
        errors.push(Error::new_spanned(tokens, usage));
        return None;
    }
    if crate::model::crate_path::is_path(&tokens) {
        return Some(Resolution::Function {
            key: key.clone(),
            path: tokens,
        });
    }
    errors.push(Error::new_spanned(tokens, usage));
    None
}

/// A `key = "..."` entry: the literal, checked by `problem` (an error message at the literal),
/// stored in `slot`.
fn string_key(
    slot: &mut Option<LitStr>,
    key: &Ident,
    value: Value,
    errors: &mut Errors,
    problem: impl FnOnce(&str) -> Option<String>,
) {
    let Some(literal) = string_value(key, value, errors) else {
        return;
    };
    if let Some(message) = problem(&literal.value()) {
        errors.push(Error::new(literal.span(), message));
    } else {
        *slot = Some(literal);
    }
}

/// The known key a misspelled one most likely means: the same words in another case or
/// spelling (`readOnlyHint`, `read_only_hint`, `readonly`), or a typo (`destructve`).
fn suggest(name: &str) -> Option<&'static str> {
    spelling::closest_key(name, &KEYS)
}

fn string_value(key: &Ident, value: Value, errors: &mut Errors) -> Option<LitStr> {
    let tokens = match value {
        // `#[tool(title)]`
        Value::Bare => {
            errors.push(Error::new(
                key.span(),
                format!("#[tool({key})] needs a value: `{key} = \"...\"`"),
            ));
            return None;
        }
        Value::Missing(eq) => {
            errors.push(Error::new(
                eq,
                format!("expected a string literal after `{key} =`"),
            ));
            return None;
        }
        Value::Given(tokens) => tokens.into_iter().collect::<TokenStream>(),
    };
    if let Some(TokenTree::Literal(literal)) = single_token(&tokens) {
        if let Lit::Str(string) = Lit::new(literal.clone()) {
            return Some(string);
        }
        errors.push(Error::new(
            literal.span(),
            format!(
                "expected a string literal for #[tool({key})], found {}",
                describe_literal(&literal)
            ),
        ));
        return None;
    }
    errors.push(Error::new_spanned(
        tokens,
        format!("expected a string literal for #[tool({key})]"),
    ));
    None
}
