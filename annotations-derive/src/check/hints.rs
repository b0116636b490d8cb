//! Rules across keys: contradictions between hints, between a hint and an `http` preset, and a
//! read-only handler that takes `&mut`. What the literals decide is an error now; what depends
//! on a `const` expression becomes a const assertion in the expansion, spanned at the key.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Error;

use crate::leaf::errors::Errors;
use crate::leaf::tokens::expr_span;
use crate::model::hint_value::HintValue;
use crate::model::tool_attr::Args;
use mcp_annotations_rules::{ByHint, Hint};

/// The checked annotations, ready to expand.
pub(crate) struct Checked<'a> {
    /// The value of each hint field (`None`: unset), indexed like [`Hint::ALL`].
    pub(crate) fields: ByHint<Option<Value<'a>>>,
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
    let mut stated: ByHint<Option<Stated<'a>>> = ByHint::default();
    let http_written = args
        .http
        .as_ref()
        .map(|http| format!("http = {}", http.literal.token()));

    for kind in Hint::ALL {
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
            .map(|http| (http, crate::model::http::value(http.preset, kind)));
        stated[kind] = match (explicit, preset) {
            (Some(explicit), Some((http, preset_value)))
                if crate::model::http::settles(http.preset, kind) =>
            {
                let method = http.preset.method;
                let message = format!(
                    "cannot have both #[tool({})] and #[tool({})]: {method} is {}",
                    http_written.as_deref().unwrap_or_default(),
                    written(kind, explicit.value),
                    kind.words(preset_value),
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

    if let Some(read_only) = stated[Hint::ReadOnly] {
        // What read-only settles, stated the other way.
        for kind in Hint::ALL
            .into_iter()
            .filter(|kind| kind.implied_by_read_only())
        {
            if let Some(other) = stated[kind] {
                let reason = format!(": a read-only tool is {}", kind.words(kind.trusted_value()));
                check_pair(
                    read_only,
                    (kind, other),
                    !kind.trusted_value(),
                    &reason,
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
        fields: stated.map(|_, stated| stated.map(|stated| stated.value)),
        assertions,
    }
}

/// A read-only tool cannot also state `kind = conflicting`.
fn check_pair(
    read_only: Stated<'_>,
    (other_kind, other): (Hint, Stated<'_>),
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
        written(Hint::ReadOnly, read_only.value),
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
fn written(kind: Hint, value: Value<'_>) -> String {
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

/// `if failed { panic!(message) }`, evaluated in a `const`, with the panic at `span`.
fn assertion(span: Span, failed: TokenStream, message: &str) -> TokenStream {
    quote_spanned! {span=>
        if #failed {
            ::core::panic!(#message);
        }
    }
}
