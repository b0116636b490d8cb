//! JSON Schemas of parameter types, read from the type's tokens.
//!
//! The types the macro knows by name become JSON text at compile time. Any other type (a
//! user's struct or enum) is asked for its schema through the runtime crate's `ToolSchema`
//! trait, and then the input schema is built once, at run time, by the runtime crate's
//! helpers, which apply exactly the rules written here (`Option` makes a schema nullable,
//! `Vec` an array, ...). A syntactic reading: a type is known by its last path segment
//! (`String`, `std::string::String`), so a type alias is not seen through and a user type
//! named like a standard one is taken for it.

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use syn::Error;

use crate::leaf::errors::Errors;
use crate::leaf::integer::Integer;
use crate::leaf::json_write::object;
use crate::leaf::tokens::{Angles, Step, flatten, punct as is_punct};

/// A parameter type's schema.
pub(crate) enum Ty {
    /// Known at compile time: the keys of a JSON object, each with its value as JSON text.
    Json(Vec<(&'static str, String)>),
    /// An array of `items`, of exactly `len` items (`[T; N]`) or unique ones (sets).
    Array {
        items: Box<Ty>,
        len: Option<Len>,
        unique: bool,
    },
    /// An object with string keys and values of one type.
    Map(Box<Ty>),
    /// The schema or `null` (`Option<T>`).
    Nullable(Box<Ty>),
    /// Asked of `ToolSchema` at run time; the type's tokens, lifetimes made `'static`.
    Dynamic(TokenStream, Span),
    /// `u128` (`false`) or `i128` (`true`): an integer whose listed bounds are the ones the
    /// build reads exactly, known at run time (the whole type with serde_json's
    /// `arbitrary_precision`, else what a JSON value holds as an integer).
    Wide(bool),
    /// The schema with the keys of a parameter's `#[schema(...)]` set at its root, each value
    /// JSON text; and a `default` that is not a literal, set at run time from the expression
    /// (converted into the parameter's owned type) by serde.
    Keyed {
        inner: Box<Ty>,
        keys: Vec<(&'static str, String)>,
        runtime_default: Option<(TokenStream, TokenStream)>,
    },
}

/// What a schema's values are, for checking `#[schema(...)]` keys against the type.
pub(crate) enum Kind {
    /// An integer type, with its bounds.
    Integer(Option<Integer>, Option<Integer>),
    /// A float type, with its bounds.
    Number(Option<f64>, Option<f64>),
    String,
    Boolean,
    /// An array, with what its items are.
    Array(Box<Kind>),
    Object,
    /// `serde_json::Value`: anything.
    Any,
    /// A type whose schema comes from `ToolSchema`: not known here.
    Unknown,
}

/// The length of `[T; N]`.
pub(crate) enum Len {
    Known(u64),
    /// A const expression: the length is read at run time.
    Expr(TokenStream),
}

/// Reads a parameter's type: its schema, and whether the parameter may be left out
/// (`Option<T>` at the top).
pub(crate) fn read_param(ty: &TokenStream, errors: &mut Errors) -> (Ty, bool) {
    let tokens = flatten(ty.clone());
    let schema = read(&tokens, errors);
    let optional = matches!(schema, Ty::Nullable(_));
    (schema, optional)
}

fn json(pairs: &[(&'static str, &str)]) -> Ty {
    Ty::Json(
        pairs
            .iter()
            .map(|(key, value)| (*key, (*value).to_owned()))
            .collect(),
    )
}

fn integer(min: &str, max: &str) -> Ty {
    json(&[("type", "\"integer\""), ("minimum", min), ("maximum", max)])
}

fn string() -> Ty {
    json(&[("type", "\"string\"")])
}

fn read(tokens: &[TokenTree], errors: &mut Errors) -> Ty {
    let span = tokens.first().map_or_else(Span::call_site, TokenTree::span);
    match tokens {
        // `&T`, `&'a T`, `&mut T`
        [TokenTree::Punct(amp), rest @ ..] if amp.as_char() == '&' => {
            let mut rest = rest;
            if let [TokenTree::Punct(tick), TokenTree::Ident(_), after @ ..] = rest
                && tick.as_char() == '\''
            {
                rest = after;
            }
            if let [TokenTree::Ident(word), after @ ..] = rest
                && word == "mut"
            {
                rest = after;
            }
            read(rest, errors)
        }
        [TokenTree::Group(group)] if group.delimiter() == Delimiter::Bracket => {
            let inner = flatten(group.stream());
            match inner
                .iter()
                .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
            {
                // `[T]`
                None => Ty::Array {
                    items: Box::new(read(&inner, errors)),
                    len: None,
                    unique: false,
                },
                // `[T; N]`
                Some(at) => {
                    let len_tokens = &inner[at + 1..];
                    let len = match len_tokens {
                        [TokenTree::Literal(literal)] => match syn::Lit::new(literal.clone()) {
                            syn::Lit::Int(int) => int.base10_parse::<u64>().ok().map(Len::Known),
                            _ => None,
                        },
                        _ => None,
                    }
                    .unwrap_or_else(|| Len::Expr(len_tokens.iter().cloned().collect()));
                    Ty::Array {
                        items: Box::new(read(&inner[..at], errors)),
                        len: Some(len),
                        unique: false,
                    }
                }
            }
        }
        // `(T)`: grouping; a tuple or `()` goes to `ToolSchema`.
        [TokenTree::Group(group)] if group.delimiter() == Delimiter::Parenthesis => {
            let inner = flatten(group.stream());
            let is_tuple = inner.is_empty()
                || inner
                    .iter()
                    .any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','));
            if is_tuple {
                dynamic(tokens, span)
            } else {
                read(&inner, errors)
            }
        }
        _ => read_path(tokens, span, errors),
    }
}

/// A path type: known by its last segment and generic arguments.
fn read_path(tokens: &[TokenTree], span: Span, errors: &mut Errors) -> Ty {
    let Some((segments, args)) = path(tokens) else {
        return dynamic(tokens, span);
    };
    let last = segments.last().map(ToString::to_string).unwrap_or_default();
    let arg = |index: usize, errors: &mut Errors| args.get(index).map(|arg| read(arg, errors));
    match (last.as_str(), args.len()) {
        ("bool", 0) => json(&[("type", "\"boolean\"")]),
        ("u8", 0) => integer("0", "255"),
        ("u16", 0) => integer("0", "65535"),
        ("u32", 0) => integer("0", "4294967295"),
        // `usize` and `isize` as on 64-bit targets.
        ("u64" | "usize", 0) => integer("0", "18446744073709551615"),
        ("u128", 0) => Ty::Wide(false),
        ("i8", 0) => integer("-128", "127"),
        ("i16", 0) => integer("-32768", "32767"),
        ("i32", 0) => integer("-2147483648", "2147483647"),
        ("i64" | "isize", 0) => integer("-9223372036854775808", "9223372036854775807"),
        ("i128", 0) => Ty::Wide(true),
        // `f32::MAX` as the nearest double, which every JSON reader reads back exactly.
        ("f32", 0) => json(&[
            ("type", "\"number\""),
            ("minimum", "-3.4028234663852886e38"),
            ("maximum", "3.4028234663852886e38"),
        ]),
        ("f64", 0) => json(&[("type", "\"number\"")]),
        ("char", 0) => json(&[
            ("type", "\"string\""),
            ("minLength", "1"),
            ("maxLength", "1"),
        ]),
        ("String" | "str", 0) => string(),
        ("Value", 0)
            if segments.len() == 1 || (segments.len() == 2 && segments[0] == "serde_json") =>
        {
            Ty::Json(Vec::new())
        }
        ("Box" | "Arc" | "Rc" | "Cow", 1) => {
            arg(0, errors).unwrap_or_else(|| dynamic(tokens, span))
        }
        ("Option", 1) => Ty::Nullable(Box::new(
            arg(0, errors).unwrap_or_else(|| dynamic(tokens, span)),
        )),
        ("Vec" | "VecDeque", 1) => Ty::Array {
            items: Box::new(arg(0, errors).unwrap_or_else(|| dynamic(tokens, span))),
            len: None,
            unique: false,
        },
        ("HashSet" | "BTreeSet", 1 | 2) => Ty::Array {
            items: Box::new(arg(0, errors).unwrap_or_else(|| dynamic(tokens, span))),
            len: None,
            unique: true,
        },
        ("HashMap" | "BTreeMap", 2 | 3) => {
            let key = read(&args[0], errors);
            let is_string =
                matches!(&key, Ty::Json(pairs) if pairs.len() == 1 && pairs[0].1 == "\"string\"");
            if !is_string {
                let key_span = args[0].first().map_or(span, TokenTree::span);
                errors.push(Error::new(
                    key_span,
                    "#[tool] parameters that are maps need string keys (`String`, `&str`, ...): \
                     JSON object keys are strings",
                ));
            }
            Ty::Map(Box::new(read(&args[1], errors)))
        }
        _ => dynamic(tokens, span),
    }
}

/// The segments of a path type and the generic arguments of its last segment (lifetimes
/// left out), or `None` if the type is not a plain path.
pub(crate) fn path(tokens: &[TokenTree]) -> Option<(Vec<Ident>, Vec<Vec<TokenTree>>)> {
    let mut segments = Vec::new();
    let mut args = Vec::new();
    let mut i = 0;
    if is_punct(tokens.get(i), ':') && is_punct(tokens.get(i + 1), ':') {
        i += 2;
    }
    loop {
        let TokenTree::Ident(segment) = tokens.get(i)? else {
            return None;
        };
        if segment == "dyn" || segment == "impl" {
            return None;
        }
        segments.push(segment.clone());
        i += 1;
        if is_punct(tokens.get(i), ':') && is_punct(tokens.get(i + 1), ':') {
            i += 2;
            if is_punct(tokens.get(i), '<') {
                // `Vec::<u8>`
                continue_args(tokens, &mut i, &mut args)?;
                return (i == tokens.len()).then_some((segments, args));
            }
            continue;
        }
        if is_punct(tokens.get(i), '<') {
            continue_args(tokens, &mut i, &mut args)?;
            if i == tokens.len() {
                return Some((segments, args));
            }
            if is_punct(tokens.get(i), ':') && is_punct(tokens.get(i + 1), ':') {
                // `Foo<T>::Bar`: an associated type, not known here.
                return None;
            }
            return None;
        }
        return (i == tokens.len()).then_some((segments, std::mem::take(&mut args)));
    }
}

/// Reads `<...>` starting at `tokens[*i]`, splitting the arguments at top-level commas.
fn continue_args(
    tokens: &[TokenTree],
    i: &mut usize,
    args: &mut Vec<Vec<TokenTree>>,
) -> Option<()> {
    *i += 1;
    let mut angles = Angles::inside();
    let mut current = Vec::new();
    while let Some(token) = tokens.get(*i) {
        *i += 1;
        match angles.step(token) {
            Step::Closed if angles.depth() == 0 => {
                push_arg(args, std::mem::take(&mut current));
                return Some(());
            }
            Step::Other if angles.depth() == 1 && is_punct(Some(token), ',') => {
                push_arg(args, std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(token.clone());
    }
    None
}

/// Keeps a generic argument unless it is a lifetime (`'a`) or empty.
fn push_arg(args: &mut Vec<Vec<TokenTree>>, arg: Vec<TokenTree>) {
    if arg.is_empty() || is_punct(arg.first(), '\'') {
        return;
    }
    args.push(arg);
}

/// A type asked of `ToolSchema`, its lifetimes made `'static` (the schema is built in an item
/// of its own, where the handler's lifetimes are not in scope).
fn dynamic(tokens: &[TokenTree], span: Span) -> Ty {
    Ty::Dynamic(static_lifetimes(tokens.iter().cloned().collect()), span)
}

pub(crate) fn static_lifetimes(stream: TokenStream) -> TokenStream {
    let mut out = Vec::new();
    let mut after_tick = false;
    for token in stream {
        match token {
            TokenTree::Ident(ident) if after_tick => {
                out.push(TokenTree::Ident(Ident::new("static", ident.span())));
            }
            TokenTree::Group(group) => {
                let mut new =
                    proc_macro2::Group::new(group.delimiter(), static_lifetimes(group.stream()));
                new.set_span(group.span());
                out.push(TokenTree::Group(new));
            }
            other => out.push(other),
        }
        after_tick = matches!(out.last(), Some(TokenTree::Punct(p)) if p.as_char() == '\'');
    }
    out.into_iter().collect()
}

impl Ty {
    /// What the schema's values are (an `Option`'s: its inner type's).
    pub(crate) fn kind(&self) -> Kind {
        match self {
            Ty::Json(pairs) => {
                let get = |key: &str| value_of(pairs, key);
                match get("type") {
                    Some("\"integer\"") => Kind::Integer(
                        get("minimum").and_then(Integer::parse),
                        get("maximum").and_then(Integer::parse),
                    ),
                    Some("\"number\"") => Kind::Number(
                        get("minimum").and_then(|n| n.parse().ok()),
                        get("maximum").and_then(|n| n.parse().ok()),
                    ),
                    Some("\"string\"") => Kind::String,
                    Some("\"boolean\"") => Kind::Boolean,
                    Some("\"object\"") => Kind::Object,
                    Some(_) => Kind::Unknown,
                    None => Kind::Any,
                }
            }
            Ty::Array { items, .. } => Kind::Array(Box::new(items.kind())),
            Ty::Map(_) => Kind::Object,
            Ty::Nullable(inner) | Ty::Keyed { inner, .. } => inner.kind(),
            Ty::Dynamic(..) => Kind::Unknown,
            // The type's own range: a bound anywhere in it is one the type holds.
            Ty::Wide(true) => Kind::Integer(
                Some(Integer::Signed(i128::MIN)),
                Some(Integer::Signed(i128::MAX)),
            ),
            Ty::Wide(false) => Kind::Integer(
                Some(Integer::Signed(0)),
                Some(Integer::from_u128(u128::MAX)),
            ),
        }
    }

    /// The schema as JSON text, if it is known at compile time.
    pub(crate) fn to_json(&self) -> Option<String> {
        self.to_pairs().map(|pairs| object(&pairs))
    }

    fn to_pairs(&self) -> Option<Vec<(&'static str, String)>> {
        Some(match self {
            Ty::Json(pairs) => pairs.clone(),
            Ty::Array { items, len, unique } => {
                let mut pairs = vec![
                    ("type", "\"array\"".to_owned()),
                    ("items", items.to_json()?),
                ];
                match len {
                    Some(Len::Known(n)) => {
                        pairs.push(("minItems", n.to_string()));
                        pairs.push(("maxItems", n.to_string()));
                    }
                    Some(Len::Expr(_)) => return None,
                    None => {}
                }
                if *unique {
                    pairs.push(("uniqueItems", "true".to_owned()));
                }
                pairs
            }
            Ty::Map(values) => vec![
                ("type", "\"object\"".to_owned()),
                ("additionalProperties", values.to_json()?),
            ],
            Ty::Nullable(inner) => {
                let mut pairs = inner.to_pairs()?;
                // Keywords that would still refuse `null` beside a `type` that takes it.
                let has_enum = pairs.iter().any(|(key, _)| {
                    ["enum", "const", "oneOf", "anyOf", "allOf", "$ref", "not"].contains(key)
                });
                let single_type = pairs
                    .iter()
                    .position(|(key, value)| *key == "type" && value.starts_with('"'));
                match single_type {
                    Some(at) if !has_enum => {
                        pairs[at].1 = format!("[{},\"null\"]", pairs[at].1);
                        pairs
                    }
                    _ if pairs.is_empty() => pairs,
                    _ => vec![(
                        "anyOf",
                        format!("[{},{{\"type\":\"null\"}}]", object(&pairs)),
                    )],
                }
            }
            Ty::Dynamic(..) | Ty::Wide(_) => return None,
            Ty::Keyed {
                inner,
                keys,
                runtime_default,
            } => {
                if runtime_default.is_some() {
                    return None;
                }
                let mut pairs = inner.to_pairs()?;
                for (key, value) in keys {
                    match pairs.iter_mut().find(|(k, _)| k == key) {
                        Some(pair) => pair.1.clone_from(value),
                        None => pairs.push((key, value.clone())),
                    }
                }
                pairs
            }
        })
    }
}

/// The JSON text of `key` among a schema's pairs.
fn value_of<'a>(pairs: &'a [(&'static str, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.as_str())
}

impl Ty {
    /// What a value of this schema is, for error messages (`"an integer from 0 to 255"`), or
    /// `None` if part of it is known only to `ToolSchema` (serde's message says it then).
    pub(crate) fn describe(&self) -> Option<String> {
        Some(match self {
            Ty::Json(pairs) => {
                let get = |key: &str| value_of(pairs, key);
                match get("type") {
                    None => "any JSON value".to_owned(),
                    Some("\"boolean\"") => "`true` or `false`".to_owned(),
                    Some("\"number\"") => match (get("minimum"), get("maximum")) {
                        (Some(min), Some(max)) => format!("a number from {min} to {max}"),
                        _ => "a number".to_owned(),
                    },
                    Some("\"integer\"") => format!(
                        "an integer from {} to {}",
                        get("minimum").unwrap_or("?"),
                        get("maximum").unwrap_or("?")
                    ),
                    Some("\"string\"") if get("maxLength") == Some("1") => {
                        "a single character".to_owned()
                    }
                    Some(_) => "a string".to_owned(),
                }
            }
            Ty::Array { items, len, unique } => {
                let items = items.describe()?;
                match (len, unique) {
                    (Some(Len::Known(n)), _) => {
                        format!("an array of exactly {n} items, each {items}")
                    }
                    (Some(Len::Expr(_)), _) => {
                        format!("an array of a fixed length, each item {items}")
                    }
                    (None, true) => format!("an array of distinct items, each {items}"),
                    (None, false) => format!("an array, each item {items}"),
                }
            }
            Ty::Map(values) => format!("an object whose values are each {}", values.describe()?),
            Ty::Nullable(inner) => format!("{} or null", inner.describe()?),
            // The bounds the keys set are the ones to describe (`an integer from 1 to 10`).
            Ty::Keyed { inner, .. } => match (inner.as_ref(), self.to_pairs()) {
                (Ty::Json(_), Some(pairs)) => Ty::Json(pairs).describe()?,
                _ => inner.describe()?,
            },
            // The bounds depend on the build; the reader's message names them.
            Ty::Dynamic(..) | Ty::Wide(_) => return None,
        })
    }
}
