//! Rules across keys: contradictions between hints, between a hint and an `http` preset, and a
//! read-only handler that takes `&mut`. What the literals decide is an error now; what depends
//! on a `const` expression becomes a const assertion in the expansion, spanned at the key.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Error;

use crate::attr::{Args, HintValue};
use crate::errors::Errors;
use crate::hint::HintKind;

/// The checked annotations, ready to expand.
pub(crate) struct Checked<'a> {
    /// The value of each hint field (`None`: unset), indexed like [`HintKind::ALL`].
    pub(crate) fields: [Option<Value<'a>>; 4],
    /// Const assertions for rules that depend on `const` expressions.
    pub(crate) assertions: Vec<TokenStream>,
}

/// A hint's value in the rules: literal, from the `http` preset, or a `const` expression.
#[derive(Clone, Copy)]
struct Stated<'a> {
    value: Value<'a>,
    /// The key that stated it (`http` for a preset's value), for spans and messages.
    span: Span,
    position: usize,
    /// Whether the value comes from the `http` preset rather than a key of its own.
    from_preset: bool,
}

/// A hint's value: a literal (or the `http` preset's), or a `const` expression.
#[derive(Clone, Copy)]
pub(crate) enum Value<'a> {
    Known(bool),
    Expr(&'a TokenStream),
}

/// `exclusive_borrows`: every `&mut` the handler takes (none for a struct).
pub(crate) fn check<'a>(
    args: &'a Args,
    exclusive_borrows: &[TokenStream],
    errors: &mut Errors,
) -> Checked<'a> {
    let mut assertions = Vec::new();
    let mut stated: [Option<Stated<'a>>; 4] = [None; 4];
    let http_written = args
        .http
        .as_ref()
        .map(|http| format!("http = {}", http.literal.token()));

    for kind in HintKind::ALL {
        let explicit = args.hint(kind).map(|hint| Stated {
            value: match &hint.value {
                HintValue::Bool(value) => Value::Known(*value),
                HintValue::Expr(tokens) => Value::Expr(tokens),
            },
            span: hint.key.span(),
            position: hint.position,
            from_preset: false,
        });
        let preset = args
            .http
            .as_ref()
            .map(|http| (http, http.preset.value(kind)));
        stated[kind as usize] = match (explicit, preset) {
            (Some(explicit), Some((http, preset_value))) if http.preset.settles(kind) => {
                let method = http.preset.method;
                let message = format!(
                    "cannot have both #[tool({})] and #[tool({})]: {method} is {}",
                    http_written.as_deref().unwrap_or_default(),
                    written(kind, explicit.value),
                    kind.describe(preset_value),
                );
                match explicit.value {
                    Value::Known(value) if value != preset_value => {
                        errors.push(Error::new(explicit.span, message));
                        // Reported here; the pairwise rules below would repeat it.
                        continue;
                    }
                    Value::Known(_) => {}
                    Value::Expr(expr) => {
                        assertions.push(assertion(explicit.span, is(expr, !preset_value), &message))
                    }
                }
                Some(explicit)
            }
            (Some(explicit), _) => Some(explicit),
            (None, Some((http, preset_value))) => Some(Stated {
                value: Value::Known(preset_value),
                span: http.key.span(),
                position: 0,
                from_preset: true,
            }),
            (None, None) => None,
        };
    }

    if let Some(read_only) = stated[HintKind::ReadOnly as usize] {
        for (kind, conflicting, reason) in [
            (HintKind::Destructive, true, ""),
            (
                HintKind::Idempotent,
                false,
                ": a read-only tool is idempotent",
            ),
        ] {
            if let Some(other) = stated[kind as usize] {
                let other = (kind, other);
                check_pair(
                    read_only,
                    other,
                    conflicting,
                    reason,
                    &mut assertions,
                    errors,
                );
            }
        }
        const MUT: &str = "a #[tool(read_only)] handler should not take `&mut`; take `&`, or add \
                           #[tool(allow_mut)] if it only mutates private state such as a cache";
        if args.allow_mut.is_none() {
            match read_only.value {
                Value::Known(true) => {
                    for borrow in exclusive_borrows {
                        errors.push(Error::new_spanned(borrow, MUT));
                    }
                }
                // `read_only = READ_ONLY`: the same rule, as a const assertion.
                Value::Expr(expr) => {
                    for borrow in exclusive_borrows {
                        let span = expr_span(borrow);
                        assertions.push(assertion(span, is(expr, true), MUT));
                    }
                }
                Value::Known(false) => {}
            }
        }
    }

    Checked {
        fields: stated.map(|stated| stated.map(|stated| stated.value)),
        assertions,
    }
}

/// A read-only tool cannot also state `kind = conflicting`.
fn check_pair(
    read_only: Stated<'_>,
    (other_kind, other): (HintKind, Stated<'_>),
    conflicting: bool,
    reason: &str,
    assertions: &mut Vec<TokenStream>,
    errors: &mut Errors,
) {
    // The preset is consistent in itself, and an explicit key that contradicts it was
    // reported above: a pair involving it has nothing new to say.
    if read_only.from_preset || other.from_preset {
        return;
    }
    let message = format!(
        "cannot have both #[tool({})] and #[tool({})]{reason}",
        written(HintKind::ReadOnly, read_only.value),
        written(other_kind, other.value),
    );
    // Point at the later key: the one that made the pair contradictory.
    let span = if other.position > read_only.position {
        other.span
    } else {
        read_only.span
    };
    let condition = |stated: Stated<'_>, wanted: bool| match stated.value {
        Value::Known(value) => {
            let holds = value == wanted;
            quote!(#holds)
        }
        Value::Expr(expr) => is(expr, wanted),
    };
    match (read_only.value, other.value) {
        (Value::Known(read_only), Value::Known(value)) => {
            if read_only && value == conflicting {
                errors.push(Error::new(span, message));
            }
        }
        _ => {
            let both = condition(read_only, true);
            let other = condition(other, conflicting);
            assertions.push(assertion(span, quote!(#both && #other), &message));
        }
    }
}

/// How a key was written, as it appears in messages: `read_only`, `idempotent = false`, or
/// `destructive = ...` for an expression.
fn written(kind: HintKind, value: Value<'_>) -> String {
    match value {
        Value::Known(true) => kind.key().to_owned(),
        Value::Known(false) => format!("{} = false", kind.key()),
        Value::Expr(_) => format!("{} = ...", kind.key()),
    }
}

/// The condition that `expr` is `wanted`, without comparing to a bool literal. Every token
/// made here carries the expression's span, so an error in it points at what the user wrote.
fn is(expr: &TokenStream, wanted: bool) -> TokenStream {
    let value = typed(expr);
    if wanted {
        value
    } else {
        let span = expr_span(expr);
        quote_spanned!(span=> !#value)
    }
}

/// The expression as a `bool`, written the same way, with the same spans, everywhere it is
/// used (in the constant and in each assertion), so that an expression of another type gives
/// the same diagnostic at each use, which the compiler reports once.
pub(crate) fn typed(expr: &TokenStream) -> TokenStream {
    let span = expr_span(expr);
    quote_spanned!(span=> { let __annotations_hint: bool = #expr; __annotations_hint })
}

/// The span of an expression's first token.
pub(crate) fn expr_span(expr: &TokenStream) -> Span {
    expr.clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |token| token.span())
}

/// `if failed { panic!(message) }`, evaluated in a `const`, with the panic at `span`.
fn assertion(span: Span, failed: TokenStream, message: &str) -> TokenStream {
    quote_spanned! {span=>
        if #failed {
            ::core::panic!(#message);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A parameter's `#[schema(...)]` against its type

use crate::schema::Kind;
use crate::schema_attr::{Literal, SchemaAttr};

/// What a kind of value is, for messages.
fn kind_name(kind: &Kind) -> &'static str {
    match kind {
        Kind::Integer(..) => "an integer",
        Kind::Number(..) => "a number",
        Kind::String => "a string",
        Kind::Boolean => "a boolean",
        Kind::Array => "an array",
        Kind::Object => "an object",
        Kind::Any => "any JSON value",
        Kind::Unknown => "a type whose schema comes from `ToolSchema`",
    }
}

/// Checks a parameter's `#[schema(...)]` keys against its type (`ty` as written, `kind` what
/// its values are, `option` whether it is an `Option`): a key that does not fit the type, a
/// bound outside the type's range, bounds that leave nothing, a literal default or example of
/// the wrong type or outside the bounds. Each error is at the offending token.
pub(crate) fn schema_attr(
    attr: &SchemaAttr,
    kind: &Kind,
    option: bool,
    ty: &TokenStream,
    errors: &mut Errors,
) {
    let ty_text = ty.to_string().replace(' ', "");
    let numeric = matches!(kind, Kind::Integer(..) | Kind::Number(..));
    for (key, number) in &attr.numbers {
        if !numeric {
            errors.push(Error::new(
                key.span(),
                format!(
                    "#[schema({key})] is a bound for numbers, and `{ty_text}` is {}",
                    kind_name(kind)
                ),
            ));
            continue;
        }
        if let Kind::Integer(min, max) = kind {
            let Some(value) = number.int else {
                errors.push(Error::new(
                    number.span,
                    format!(
                        "`{ty_text}` holds integers: write a whole number for #[schema({key})]"
                    ),
                ));
                continue;
            };
            let outside = min.is_some_and(|min| value < min) || max.is_some_and(|max| value > max);
            if outside && key != "multiple_of" {
                errors.push(Error::new(
                    number.span,
                    format!(
                        "#[schema({key} = {value})] is outside what `{ty_text}` holds ({} to {})",
                        min.map_or("?".to_owned(), |n| n.to_string()),
                        max.map_or("?".to_owned(), |n| n.to_string()),
                    ),
                ));
                continue;
            }
        }
        if let Kind::Number(min, max) = kind {
            let outside = min.is_some_and(|min| number.float < min)
                || max.is_some_and(|max| number.float > max);
            if outside && key != "multiple_of" {
                errors.push(Error::new(
                    number.span,
                    format!("#[schema({key})] is outside what `{ty_text}` holds"),
                ));
                continue;
            }
        }
        if key == "multiple_of" && number.float <= 0.0 {
            errors.push(Error::new(
                number.span,
                "#[schema(multiple_of)] must be greater than 0",
            ));
        }
    }
    // An exclusive bound at the edge of the type's range leaves no value.
    if let Kind::Integer(min, max) = kind {
        if let Some((key, number)) = attr.number("exclusive_minimum") {
            if number.int.is_some_and(|n| max.is_some_and(|max| n >= max)) {
                errors.push(Error::new(
                    key.span(),
                    format!(
                        "#[schema(exclusive_minimum = {})] leaves no value `{ty_text}` holds",
                        number.json
                    ),
                ));
            }
        }
        if let Some((key, number)) = attr.number("exclusive_maximum") {
            if number.int.is_some_and(|n| min.is_some_and(|min| n <= min)) {
                errors.push(Error::new(
                    key.span(),
                    format!(
                        "#[schema(exclusive_maximum = {})] leaves no value `{ty_text}` holds",
                        number.json
                    ),
                ));
            }
        }
    }
    // Bounds that leave no value.
    let bound = |key: &str| attr.number(key).map(|(ident, n)| (ident, n));
    let lower = [bound("minimum"), bound("exclusive_minimum")];
    let upper = [bound("maximum"), bound("exclusive_maximum")];
    for (low_index, low) in lower.iter().enumerate() {
        for (high_index, high) in upper.iter().enumerate() {
            if let (Some((low_key, low)), Some((high_key, high))) = (low, high) {
                let exclusive = low_index == 1 || high_index == 1;
                if low.float > high.float || (exclusive && low.float >= high.float) {
                    errors.push(Error::new(
                        high_key.span(),
                        format!(
                            "#[schema({high_key} = {})] and #[schema({low_key} = {})] leave no value between them",
                            high.json, low.json
                        ),
                    ));
                }
            }
        }
    }
    for (key, _) in &attr.counts {
        let fits = match key.to_string().as_str() {
            "min_length" | "max_length" => matches!(kind, Kind::String),
            _ => matches!(kind, Kind::Array),
        };
        if !fits {
            let what = if key.to_string().ends_with("length") {
                "strings"
            } else {
                "arrays"
            };
            errors.push(Error::new(
                key.span(),
                format!(
                    "#[schema({key})] is a bound for {what}, and `{ty_text}` is {}",
                    kind_name(kind)
                ),
            ));
        }
    }
    for (min, max) in [("min_length", "max_length"), ("min_items", "max_items")] {
        if let (Some((_, low)), Some((high_key, high))) = (attr.count(min), attr.count(max)) {
            if low > high {
                errors.push(Error::new(
                    high_key.span(),
                    format!("#[schema({max} = {high})] is below #[schema({min} = {low})]"),
                ));
            }
        }
    }
    // Keys for one kind of value.
    let one_kind = [
        (
            attr.unique_items.as_ref().map(proc_macro2::Ident::span),
            "unique_items",
            "arrays",
            matches!(kind, Kind::Array),
        ),
        (
            attr.format.as_ref().map(syn::LitStr::span),
            "format",
            "strings",
            matches!(kind, Kind::String),
        ),
        (
            attr.pattern.as_ref().map(syn::LitStr::span),
            "pattern",
            "strings",
            matches!(kind, Kind::String),
        ),
    ];
    for (span, key, what, fits) in one_kind {
        if let (Some(span), false) = (span, fits) {
            errors.push(Error::new(
                span,
                format!(
                    "#[schema({key})] is for {what}, and `{ty_text}` is {}",
                    kind_name(kind)
                ),
            ));
        }
    }
    if let (Some(pattern), Kind::String) = (&attr.pattern, kind) {
        if let Err(problem) = check_pattern(&pattern.value()) {
            errors.push(Error::new(pattern.span(), problem));
        }
    }
    if let Some((key, _)) = &attr.nullable {
        if !option {
            errors.push(Error::new(
                key.span(),
                format!("#[schema(nullable = false)] is for `Option` parameters; `{ty_text}` never takes `null`"),
            ));
        }
    }
    if let Some(default) = &attr.default {
        if option {
            errors.push(Error::new(
                default.key.span(),
                "an `Option` parameter's default is `None`: give #[schema(default)] to a parameter that is not an `Option`",
            ));
        } else if let Some(literal) = &default.literal {
            if let Some(problem) = literal_problem(literal, kind, attr) {
                errors.push(Error::new_spanned(
                    &default.expr,
                    format!("#[schema(default)] {problem} (`{ty_text}`)"),
                ));
            }
        }
    }
    if let Some((key, examples)) = &attr.examples {
        for example in examples {
            if let Some(problem) = literal_problem(example, kind, attr) {
                errors.push(Error::new(
                    key.span(),
                    format!("#[schema(examples)]: an example {problem} (`{ty_text}`)"),
                ));
            }
        }
    }
}

/// Why a literal cannot be a value of the parameter, if it cannot: the wrong type, or outside
/// the type's or the attribute's bounds.
fn literal_problem(literal: &Literal, kind: &Kind, attr: &SchemaAttr) -> Option<String> {
    let bound = |key: &str| attr.number(key).map(|(_, n)| n.float);
    let count = |key: &str| attr.count(key).map(|(_, n)| *n);
    match (kind, literal) {
        (Kind::Any | Kind::Unknown, _) => None,
        (Kind::Integer(..), Literal::Number(number)) if number.int.is_none() => {
            Some(format!("is `{}`, not an integer", number.json))
        }
        (Kind::Integer(min, max), Literal::Number(number)) => {
            let value = number.int?;
            if min.is_some_and(|min| value < min) || max.is_some_and(|max| value > max) {
                return Some(format!("is {value}, outside what the type holds"));
            }
            number_bounds(
                number.float,
                bound("minimum"),
                bound("maximum"),
                bound("exclusive_minimum"),
                bound("exclusive_maximum"),
            )
        }
        (Kind::Number(..), Literal::Number(number)) => number_bounds(
            number.float,
            bound("minimum"),
            bound("maximum"),
            bound("exclusive_minimum"),
            bound("exclusive_maximum"),
        ),
        (Kind::String, Literal::Str(text)) => {
            let length = text.chars().count() as u64;
            if count("min_length").is_some_and(|min| length < min) {
                Some(format!("is {length} characters, below `min_length`"))
            } else if count("max_length").is_some_and(|max| length > max) {
                Some(format!("is {length} characters, above `max_length`"))
            } else {
                None
            }
        }
        (Kind::Boolean, Literal::Bool(_)) => None,
        (Kind::Array, Literal::Array(items)) => {
            let length = items.len() as u64;
            if count("min_items").is_some_and(|min| length < min) {
                Some(format!("has {length} items, below `min_items`"))
            } else if count("max_items").is_some_and(|max| length > max) {
                Some(format!("has {length} items, above `max_items`"))
            } else {
                None
            }
        }
        (kind, literal) => {
            let what = match literal {
                Literal::Number(_) => "a number",
                Literal::Str(_) => "a string",
                Literal::Bool(_) => "a boolean",
                Literal::Array(_) => "an array",
            };
            Some(format!(
                "is {what}, and the parameter is {}",
                kind_name(kind)
            ))
        }
    }
}

fn number_bounds(
    value: f64,
    minimum: Option<f64>,
    maximum: Option<f64>,
    exclusive_minimum: Option<f64>,
    exclusive_maximum: Option<f64>,
) -> Option<String> {
    if minimum.is_some_and(|min| value < min) {
        Some(format!("is {value}, below `minimum`"))
    } else if maximum.is_some_and(|max| value > max) {
        Some(format!("is {value}, above `maximum`"))
    } else if exclusive_minimum.is_some_and(|min| value <= min) {
        Some(format!("is {value}, not above `exclusive_minimum`"))
    } else if exclusive_maximum.is_some_and(|max| value >= max) {
        Some(format!("is {value}, not below `exclusive_maximum`"))
    } else {
        None
    }
}

/// Whether the runtime can enforce `pattern`: it parses, with the `regex` feature on.
#[cfg(feature = "regex")]
fn check_pattern(pattern: &str) -> Result<(), String> {
    regex_syntax::Parser::new()
        .parse(pattern)
        .map(|_| ())
        .map_err(|error| {
            let error = error.to_string();
            let reason = error.lines().last().unwrap_or("invalid").trim();
            let reason = reason.strip_prefix("error: ").unwrap_or(reason);
            format!("#[schema(pattern)] is not a regular expression the call can check: {reason}")
        })
}

/// Without the `regex` feature a pattern could be listed but not checked: refused.
#[cfg(not(feature = "regex"))]
fn check_pattern(_: &str) -> Result<(), String> {
    Err(
        "#[schema(pattern)] needs the `regex` feature of `annotations` (`annotations = { \
         version = \"...\", features = [\"regex\"] }`), which checks it while compiling and \
         enforces it on every call; without it the pattern would be listed but not checked"
            .to_owned(),
    )
}

/// A length key on a type whose length is fixed (`char`, `[T; N]`) would override it: the
/// schema would then say what the call refuses.
pub(crate) fn fixed_length(
    attr: &SchemaAttr,
    ty: &crate::schema::Ty,
    written: &TokenStream,
    errors: &mut Errors,
) {
    use crate::schema::Ty;
    let inner = match ty {
        Ty::Nullable(inner) => inner.as_ref(),
        other => other,
    };
    let (fixed, keys) = match inner {
        Ty::Json(pairs) if pairs.iter().any(|(k, v)| *k == "maxLength" && v == "1") => {
            ("a single character", ["min_length", "max_length"])
        }
        Ty::Array { len: Some(_), .. } => ("a fixed number of items", ["min_items", "max_items"]),
        _ => return,
    };
    let written = written.to_string().replace(' ', "");
    for key in keys {
        if let Some((ident, _)) = attr.count(key) {
            errors.push(Error::new(
                ident.span(),
                format!("#[schema({key})] on `{written}`, which always holds {fixed}"),
            ));
        }
    }
}
