//! Reading a parameter's `#[schema(...)]`: one entry per comma, `key = value`, with the keys of
//! JSON Schema in snake case. Each mistake is reported at its own tokens and reading goes on,
//! as for `#[tool(...)]`. Whether a key fits the parameter's type is checked in
//! `check/schema.rs`.

use proc_macro2::{Delimiter, Ident, TokenStream, TokenTree};
use syn::{Error, Lit, LitStr};

use crate::leaf::errors::Errors;
use crate::leaf::integer::Integer;
use crate::leaf::json_write::json_string;
use crate::leaf::tokens::{flatten, split_top_level};
use crate::model::entry::{self, Entry, Value};

/// Every key `#[schema]` accepts, for suggestions.
pub(crate) const KEYS: [&str; 19] = [
    "rename",
    "default",
    "nullable",
    "required",
    "description",
    "title",
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "multiple_of",
    "min_length",
    "max_length",
    "min_items",
    "max_items",
    "unique_items",
    "examples",
    "format",
    "pattern",
];

/// A number as written: its value, exact when it is an integer, and its JSON text.
#[derive(Clone)]
pub(crate) struct Number {
    pub(crate) int: Option<Integer>,
    pub(crate) float: f64,
    pub(crate) json: String,
    /// Its tokens (`-` and the literal), for errors that cover the whole number.
    pub(crate) tokens: TokenStream,
}

impl Number {
    /// An error at the whole number as written (`-1`, not its `-` alone).
    pub(crate) fn error(&self, message: impl std::fmt::Display) -> Error {
        Error::new_spanned(&self.tokens, message)
    }

    /// The number as a float literal for a float type: an integer written without a suffix
    /// (`500`, `-1`) gets a `.0`, as the bounds take it; anything else as written.
    pub(crate) fn float_tokens(&self) -> TokenStream {
        self.tokens
            .clone()
            .into_iter()
            .map(|token| match &token {
                TokenTree::Literal(literal) => match Lit::new(literal.clone()) {
                    Lit::Int(int) if int.suffix().is_empty() => {
                        let float = format!("{}.0", int.base10_digits());
                        match float.parse::<proc_macro2::Literal>() {
                            Ok(mut float) => {
                                float.set_span(literal.span());
                                TokenTree::Literal(float)
                            }
                            Err(_) => token,
                        }
                    }
                    _ => token,
                },
                _ => token,
            })
            .collect()
    }
}

/// A literal value (a `default` or an example), as JSON, with what it is for type checks.
#[derive(Clone)]
pub(crate) enum Literal {
    Number(Number),
    Str(String),
    Bool(bool),
    Array(Vec<Literal>),
}

impl Literal {
    pub(crate) fn json(&self) -> String {
        match self {
            Literal::Number(number) => number.json.clone(),
            Literal::Str(text) => json_string(text),
            Literal::Bool(flag) => flag.to_string(),
            Literal::Array(items) => {
                let items: Vec<String> = items.iter().map(Literal::json).collect();
                format!("[{}]", items.join(","))
            }
        }
    }
}

/// A `default = EXPR`: the expression, and its JSON when it is a literal.
pub(crate) struct Default {
    pub(crate) key: Ident,
    pub(crate) expr: TokenStream,
    pub(crate) literal: Option<Literal>,
}

/// The keys of one parameter's `#[schema(...)]`s.
#[derive(Default)]
pub(crate) struct SchemaAttr {
    pub(crate) rename: Option<LitStr>,
    pub(crate) default: Option<Default>,
    /// `nullable = false`, with its key.
    pub(crate) nullable: Option<(Ident, bool)>,
    /// `required` (on an `Option`: it must be given, and may be `null`), its key.
    pub(crate) required: Option<Ident>,
    pub(crate) description: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    /// `minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum`, `multiple_of`.
    pub(crate) numbers: Vec<(Ident, Number)>,
    /// `min_length`, `max_length`, `min_items`, `max_items`.
    pub(crate) counts: Vec<(Ident, u64)>,
    pub(crate) unique_items: Option<Ident>,
    /// `examples`: each example with its tokens, for errors.
    pub(crate) examples: Option<(Ident, Vec<(Literal, TokenStream)>)>,
    pub(crate) format: Option<LitStr>,
    pub(crate) pattern: Option<LitStr>,
    seen: std::collections::HashSet<String>,
}

impl SchemaAttr {
    /// Whether any key was given.
    pub(crate) fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// The number given for `key`, if any.
    pub(crate) fn number(&self, key: &str) -> Option<&(Ident, Number)> {
        self.numbers.iter().find(|(ident, _)| ident == key)
    }

    /// The count given for `key`, if any.
    pub(crate) fn count(&self, key: &str) -> Option<&(Ident, u64)> {
        self.counts.iter().find(|(ident, _)| ident == key)
    }
}

/// Reads the `#[schema(...)]` attributes of one parameter (their inner tokens), every
/// mistake pushed to `errors`.
pub(crate) fn parse(attrs: &[TokenStream], errors: &mut Errors) -> SchemaAttr {
    let mut out = SchemaAttr::default();
    for attr in attrs {
        for entry in entry::split(attr.clone()) {
            // What `macro_rules!` passes (`$min:literal`) arrives in invisible groups.
            let entry = flatten(entry.into_iter().collect());
            if !entry.is_empty() {
                out.entry(entry, errors);
            }
        }
    }
    out
}

impl SchemaAttr {
    /// One entry: its key and value read ([`read_entry`](Self::read_entry)), then kept where
    /// the key says: a string, the default, a flag, a bound, a count, the examples.
    fn entry(&mut self, entry: Vec<TokenTree>, errors: &mut Errors) {
        let Some((key, value)) = self.read_entry(&entry, errors) else {
            return;
        };
        let name = key.to_string();
        match name.as_str() {
            "rename" | "description" | "title" | "format" | "pattern" => {
                self.string_key(&name, &value, errors);
            }
            "default" => {
                self.default = Some(Default {
                    key,
                    literal: literal(&value),
                    expr: tokens(&value),
                });
            }
            "nullable" | "unique_items" | "required" => self.flag_key(key, &value, errors),
            "minimum" | "maximum" | "exclusive_minimum" | "exclusive_maximum" | "multiple_of" => {
                match number(&value) {
                    Some(number) => self.numbers.push((key, number)),
                    None => errors.push(Error::new_spanned(
                        tokens(&value),
                        format!("#[schema({name})] takes a number literal: `{name} = 1`"),
                    )),
                }
            }
            "min_length" | "max_length" | "min_items" | "max_items" => {
                match number(&value).and_then(|n| n.int).and_then(Integer::to_u64) {
                    Some(count) => self.counts.push((key, count)),
                    None => errors.push(Error::new_spanned(
                        tokens(&value),
                        format!(
                            "#[schema({name})] takes a whole number of 0 or more: `{name} = 1`"
                        ),
                    )),
                }
            }
            "examples" => self.examples_key(key, &value, errors),
            _ => unreachable!("every key of KEYS has a branch"),
        }
    }

    /// An entry's key (a known one, given once) and its value's tokens, or `None` once an
    /// error says why the entry is not read on: no key, an unknown or repeated key, something
    /// else than `=` after it, no value for a key that needs one (all but the flags
    /// `unique_items` and `required`).
    fn read_entry(
        &mut self,
        entry: &[TokenTree],
        errors: &mut Errors,
    ) -> Option<(Ident, Vec<TokenTree>)> {
        let Some(Entry { key, value }) = Entry::read(entry) else {
            errors.push(Error::new_spanned(
                &entry[0],
                "expected a #[schema] key such as `minimum = 1` or `rename = \"...\"`",
            ));
            return None;
        };
        let name = key.to_string();
        let known = entry::known_key(&key, "#[schema]", &KEYS, &mut self.seen, |name| {
            format!("duplicate #[schema({name})]")
        });
        if let Err(error) = known {
            errors.push(error);
            return None;
        }
        let value: Vec<TokenTree> = match value {
            Ok(Value::Given(value)) => value,
            Ok(Value::Bare | Value::Missing(_)) => Vec::new(),
            Err(other) => {
                errors.push(Error::new_spanned(
                    &other,
                    format!("expected `=` after #[schema] key `{name}`"),
                ));
                return None;
            }
        };
        if value.is_empty() && name != "unique_items" && name != "required" {
            errors.push(Error::new(
                key.span(),
                format!("#[schema({name})] needs a value: `{name} = ...`"),
            ));
            return None;
        }
        Some((key, value))
    }

    /// `rename`, `description`, `title`, `format` or `pattern = "..."`: a string literal, not
    /// blank.
    fn string_key(&mut self, name: &str, value: &[TokenTree], errors: &mut Errors) {
        let Some(literal) = string(value) else {
            errors.push(Error::new_spanned(
                tokens(value),
                format!("#[schema({name})] takes a string literal: `{name} = \"...\"`"),
            ));
            return;
        };
        if literal.value().trim().is_empty() {
            errors.push(Error::new(
                literal.span(),
                format!("#[schema({name})] cannot be blank"),
            ));
            return;
        }
        let slot = match name {
            "rename" => &mut self.rename,
            "description" => &mut self.description,
            "title" => &mut self.title,
            "pattern" => &mut self.pattern,
            _ => &mut self.format,
        };
        *slot = Some(literal);
    }

    /// `nullable`, `unique_items` or `required`, bare or `= true`/`= false`: only the value
    /// that changes something is kept (`nullable = false`, `unique_items`, `required`); the
    /// other is an error that says why it is not needed.
    fn flag_key(&mut self, key: Ident, value: &[TokenTree], errors: &mut Errors) {
        let flag = match value {
            [] => Some(true),
            [TokenTree::Ident(word)] if word == "true" => Some(true),
            [TokenTree::Ident(word)] if word == "false" => Some(false),
            _ => None,
        };
        let Some(flag) = flag else {
            errors.push(Error::new_spanned(
                tokens(value),
                format!("#[schema({key})] takes `true` or `false`"),
            ));
            return;
        };
        if key == "nullable" {
            if flag {
                errors.push(Error::new(
                    key.span(),
                    "an `Option` parameter is nullable already; `nullable = false` is the one to write",
                ));
                return;
            }
            self.nullable = Some((key, false));
        } else if key == "required" {
            if flag {
                self.required = Some(key);
            } else {
                errors.push(Error::new(
                    key.span(),
                    "`required = false` is what an `Option` is already; leave it out",
                ));
            }
        } else if flag {
            self.unique_items = Some(key);
        } else {
            errors.push(Error::new(
                key.span(),
                "`unique_items = false` is the default; leave it out",
            ));
        }
    }

    /// `examples = [...]`: a non-empty array of literals, each kept with its own tokens for
    /// errors that point at it.
    fn examples_key(&mut self, key: Ident, value: &[TokenTree], errors: &mut Errors) {
        match literal(value) {
            Some(Literal::Array(items)) if !items.is_empty() => {
                let item_tokens: Vec<TokenStream> = match value {
                    [TokenTree::Group(group)] => split_top_level(group.stream())
                        .into_iter()
                        .map(|(item, _)| item.into_iter().collect::<TokenStream>())
                        .filter(|item| !item.is_empty())
                        .collect(),
                    _ => Vec::new(),
                };
                let items = if item_tokens.len() == items.len() {
                    items.into_iter().zip(item_tokens).collect()
                } else {
                    items.into_iter().map(|item| (item, tokens(value))).collect()
                };
                self.examples = Some((key, items));
            }
            Some(Literal::Array(_)) => errors.push(Error::new_spanned(
                tokens(value),
                "#[schema(examples)] needs at least one example: `examples = [1, 2]`, or leave it out",
            )),
            _ => errors.push(Error::new_spanned(
                tokens(value),
                "#[schema(examples)] takes an array of literals: `examples = [1, 2]`",
            )),
        }
    }
}

fn tokens(value: &[TokenTree]) -> TokenStream {
    value.iter().cloned().collect()
}

fn string(value: &[TokenTree]) -> Option<LitStr> {
    match value {
        [TokenTree::Literal(literal)] => match Lit::new(literal.clone()) {
            Lit::Str(text) => Some(text),
            _ => None,
        },
        _ => None,
    }
}

/// A number literal, with an optional `-`: `3`, `-1`, `0.5`, `1e3`, `255u8`, `1_000`.
fn number(value: &[TokenTree]) -> Option<Number> {
    let (negative, literal) = match value {
        [TokenTree::Literal(literal)] => (false, literal),
        [TokenTree::Punct(minus), TokenTree::Literal(literal)] if minus.as_char() == '-' => {
            (true, literal)
        }
        _ => return None,
    };
    let tokens = tokens(value);
    let sign = if negative { "-" } else { "" };
    match Lit::new(literal.clone()) {
        Lit::Int(int) => {
            let digits = int.base10_digits();
            // Any integer an `i128` or a `u128` holds, exactly.
            let int = Integer::parse(&format!("{sign}{digits}"))?;
            Some(Number {
                int: Some(int),
                float: int.to_f64(),
                json: int.to_string(),
                tokens,
            })
        }
        Lit::Float(float) => {
            let text = format!("{sign}{}", float.base10_digits());
            let value: f64 = text.parse().ok()?;
            if !value.is_finite() {
                return None;
            }
            // JSON's own spelling of the number: `1e3` is `1000.0`.
            Some(Number {
                int: None,
                float: value,
                json: serde_json_like(value),
                tokens,
            })
        }
        _ => None,
    }
}

/// A finite float as JSON text (shortest round-trip form, with a `.0` for whole numbers).
fn serde_json_like(value: f64) -> String {
    let text = format!("{value:?}");
    if text.contains('e') || text.contains('.') || text.contains("inf") || text.contains("NaN") {
        text
    } else {
        format!("{text}.0")
    }
}

/// A literal value, if `value` is one: a number, a string, `true`/`false`, or an array of
/// literals (`[]` included).
fn literal(value: &[TokenTree]) -> Option<Literal> {
    if let Some(number) = number(value) {
        return Some(Literal::Number(number));
    }
    match value {
        [TokenTree::Ident(word)] if word == "true" => Some(Literal::Bool(true)),
        [TokenTree::Ident(word)] if word == "false" => Some(Literal::Bool(false)),
        [TokenTree::Literal(_)] => string(value).map(|text| Literal::Str(text.value())),
        [TokenTree::Group(group)] if group.delimiter() == Delimiter::Bracket => {
            let mut items = Vec::new();
            for (item, _) in split_top_level(group.stream()) {
                if item.is_empty() {
                    continue;
                }
                items.push(literal(&item)?);
            }
            Some(Literal::Array(items))
        }
        // `vec![...]` is the usual way to write a `Vec` default: read its elements too.
        [
            TokenTree::Ident(vec),
            TokenTree::Punct(bang),
            TokenTree::Group(group),
        ] if vec == "vec" && bang.as_char() == '!' && group.delimiter() == Delimiter::Bracket => {
            literal(&[TokenTree::Group(group.clone())])
        }
        _ => None,
    }
}
