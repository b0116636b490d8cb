//! A parameter's (or field's) `#[schema(...)]` against its type, one function a rule: a key
//! that does not fit the type, a bound outside the type's range, bounds that leave nothing, a
//! literal default or example of the wrong type or outside the bounds, a length on a type whose
//! length is fixed.

use std::cmp::Ordering::{self, Equal, Greater, Less};

use proc_macro2::{Ident, TokenStream};
use syn::Error;

use crate::leaf::errors::Errors;
use crate::leaf::integer::Integer;
use crate::leaf::json_write::json_string;
use crate::model::schema::{Kind, Ty};
use crate::model::schema_attr::{Literal, Number, SchemaAttr};

/// What a kind of value is, for messages.
fn kind_name(kind: &Kind) -> &'static str {
    match kind {
        Kind::Integer(..) => "an integer",
        Kind::Number(..) => "a number",
        Kind::String => "a string",
        Kind::Boolean => "a boolean",
        Kind::Array(_) => "an array",
        Kind::Object => "an object",
        Kind::Any => "any JSON value",
        Kind::Unknown => "a type whose schema comes from `ToolSchema`",
    }
}

/// Checks a parameter's `#[schema(...)]` keys against its type (`ty` as written, `kind` what
/// its values are, `option` whether it is an `Option`): a key that does not fit the type, a
/// bound outside the type's range, bounds that leave nothing, a literal default or example of
/// the wrong type or outside the bounds. Each error is at the offending token, in the order of
/// the rules below.
pub(crate) fn schema_attr(
    attr: &SchemaAttr,
    kind: &Kind,
    option: bool,
    ty: &TokenStream,
    errors: &mut Errors,
) {
    let ty_text = ty.to_string().replace(' ', "");
    let ty_text = ty_text.as_str();
    bounds_fit_type(attr, kind, ty_text, errors);
    exclusive_bound_inside_range(attr, kind, ty_text, errors);
    bounds_leave_a_value(attr, errors);
    counts_fit_type(attr, kind, ty_text, errors);
    counts_in_order(attr, errors);
    keys_of_one_kind_fit(attr, kind, ty_text, errors);
    pattern_parses(attr, kind, errors);
    not_nullable_only_on_option(attr, option, ty_text, errors);
    required_only_on_nullable_option(attr, option, ty_text, errors);
    default_fits(attr, kind, option, ty_text, errors);
    examples_fit(attr, kind, ty_text, errors);
}

/// A bound (`minimum`, `multiple_of`, ...) the type cannot meet would be listed and then refuse
/// every value: each is checked against the type, one error a key.
fn bounds_fit_type(attr: &SchemaAttr, kind: &Kind, ty_text: &str, errors: &mut Errors) {
    for (key, number) in &attr.numbers {
        if let Some(error) = bound_problem(key, number, kind, ty_text) {
            errors.push(error);
        }
    }
}

/// The first way a bound does not fit the type: a key for numbers on another type, a fraction
/// for an integer type, a value outside the type's range, a `multiple_of` of 0 or less.
fn bound_problem(key: &Ident, number: &Number, kind: &Kind, ty_text: &str) -> Option<Error> {
    let numeric = matches!(kind, Kind::Integer(..) | Kind::Number(..));
    if !numeric {
        return Some(Error::new(
            key.span(),
            format!(
                "#[schema({key})] is a bound for numbers, and `{ty_text}` is {}",
                kind_name(kind)
            ),
        ));
    }
    if let Kind::Integer(min, max) = kind {
        let Some(value) = number.int else {
            return Some(number.error(format!(
                "`{ty_text}` holds integers: write a whole number for #[schema({key})]"
            )));
        };
        let outside = min.is_some_and(|min| value < min) || max.is_some_and(|max| value > max);
        if outside && key != "multiple_of" {
            return Some(number.error(format!(
                "#[schema({key} = {value})] is outside what `{ty_text}` holds ({} to {})",
                min.map_or("?".to_owned(), |n| n.to_string()),
                max.map_or("?".to_owned(), |n| n.to_string()),
            )));
        }
    }
    if let Kind::Number(min, max) = kind {
        let outside =
            min.is_some_and(|min| number.float < min) || max.is_some_and(|max| number.float > max);
        if outside && key != "multiple_of" {
            return Some(number.error(format!(
                "#[schema({key})] is outside what `{ty_text}` holds"
            )));
        }
    }
    (key == "multiple_of" && number.float <= 0.0)
        .then(|| number.error("#[schema(multiple_of)] must be greater than 0"))
}

/// An exclusive bound at the edge of an integer type's range leaves no value.
fn exclusive_bound_inside_range(
    attr: &SchemaAttr,
    kind: &Kind,
    ty_text: &str,
    errors: &mut Errors,
) {
    if let Kind::Integer(min, max) = kind {
        if let Some((key, number)) = attr.number("exclusive_minimum")
            && number.int.is_some_and(|n| max.is_some_and(|max| n >= max))
        {
            errors.push(Error::new(
                key.span(),
                format!(
                    "#[schema(exclusive_minimum = {})] leaves no value `{ty_text}` holds",
                    number.json
                ),
            ));
        }
        if let Some((key, number)) = attr.number("exclusive_maximum")
            && number.int.is_some_and(|n| min.is_some_and(|min| n <= min))
        {
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

/// A lower bound above an upper one (or equal, when either is exclusive) leaves no value: the
/// schema would refuse every argument.
fn bounds_leave_a_value(attr: &SchemaAttr, errors: &mut Errors) {
    let bound = |key: &str| attr.number(key).map(|(ident, n)| (ident, n));
    let lower = [bound("minimum"), bound("exclusive_minimum")];
    let upper = [bound("maximum"), bound("exclusive_maximum")];
    for (low_index, low) in lower.iter().enumerate() {
        for (high_index, high) in upper.iter().enumerate() {
            if let (Some((low_key, low)), Some((high_key, high))) = (low, high) {
                let exclusive = low_index == 1 || high_index == 1;
                let order = order(low, high);
                if order == Some(Greater) || (exclusive && order == Some(Equal)) {
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
}

/// How two numbers as written compare: exactly when both are integers.
fn order(a: &Number, b: &Number) -> Option<Ordering> {
    match (a.int, b.int) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        _ => a.float.partial_cmp(&b.float),
    }
}

/// A length bound is for strings and an item count for arrays: on another type the key would be
/// listed and mean nothing.
fn counts_fit_type(attr: &SchemaAttr, kind: &Kind, ty_text: &str, errors: &mut Errors) {
    for (key, _) in &attr.counts {
        let fits = match key.to_string().as_str() {
            "min_length" | "max_length" => matches!(kind, Kind::String),
            _ => matches!(kind, Kind::Array(_)),
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
}

/// A minimum count above the maximum leaves no value.
fn counts_in_order(attr: &SchemaAttr, errors: &mut Errors) {
    for (min, max) in [("min_length", "max_length"), ("min_items", "max_items")] {
        if let (Some((_, low)), Some((high_key, high))) = (attr.count(min), attr.count(max))
            && low > high
        {
            errors.push(Error::new(
                high_key.span(),
                format!("#[schema({max} = {high})] is below #[schema({min} = {low})]"),
            ));
        }
    }
}

/// `unique_items` is for arrays, `format` and `pattern` for strings: on another type the key
/// would be listed and mean nothing.
fn keys_of_one_kind_fit(attr: &SchemaAttr, kind: &Kind, ty_text: &str, errors: &mut Errors) {
    let one_kind = [
        (
            attr.unique_items.as_ref().map(proc_macro2::Ident::span),
            "unique_items",
            "arrays",
            matches!(kind, Kind::Array(_)),
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
}

/// A string's `pattern` is enforced by the call: one the runtime cannot parse is an error now,
/// not on every call.
fn pattern_parses(attr: &SchemaAttr, kind: &Kind, errors: &mut Errors) {
    if let (Some(pattern), Kind::String) = (&attr.pattern, kind)
        && let Err(problem) = check_pattern(&pattern.value())
    {
        errors.push(Error::new(pattern.span(), problem));
    }
}

/// `nullable = false` takes `null` away from an `Option`; on any other type there is none to
/// take.
fn not_nullable_only_on_option(
    attr: &SchemaAttr,
    option: bool,
    ty_text: &str,
    errors: &mut Errors,
) {
    if let Some((key, _)) = &attr.nullable
        && !option
    {
        errors.push(Error::new(
                key.span(),
                format!("#[schema(nullable = false)] is for `Option` parameters; `{ty_text}` never takes `null`"),
            ));
    }
}

/// `required` makes an `Option` one that must be given and may be `null`: any other type is
/// required already, a default would fill in a missing one, and `nullable = false` would leave
/// a value that is never `None` (a type that is not an `Option`).
fn required_only_on_nullable_option(
    attr: &SchemaAttr,
    option: bool,
    ty_text: &str,
    errors: &mut Errors,
) {
    let Some(key) = &attr.required else {
        return;
    };
    let problem = if !option {
        format!(
            "#[schema(required)] is for `Option` parameters (given, and maybe `null`); \
             `{ty_text}` is required already"
        )
    } else if attr.default.is_some() {
        "#[schema(required)] beside a `default`: a required parameter is never missing, so \
         its default would never be used; keep one"
            .to_owned()
    } else if attr.nullable.is_some() {
        "#[schema(required)] beside `nullable = false`: a parameter that must be given and \
         cannot be `null` is one that is not an `Option`; write its type without `Option`"
            .to_owned()
    } else {
        return;
    };
    errors.push(Error::new(key.span(), problem));
}

/// An `Option`'s default is `None` already; a literal default of another type must be a value
/// of it, inside its bounds, or the schema would list a default the call refuses.
fn default_fits(attr: &SchemaAttr, kind: &Kind, option: bool, ty_text: &str, errors: &mut Errors) {
    if let Some(default) = &attr.default {
        if option && attr.required.is_some() {
            // `required` says why a default is of no use.
        } else if option {
            errors.push(Error::new(
                default.key.span(),
                "an `Option` parameter's default is `None`: give #[schema(default)] to a parameter that is not an `Option`",
            ));
        } else if let Some(literal) = &default.literal
            && let Some(problem) = literal_problem(literal, kind, attr)
        {
            errors.push(Error::new_spanned(
                &default.expr,
                format!("#[schema(default)] {problem} (`{ty_text}`)"),
            ));
        }
    }
}

/// Each example must be a value the call takes, or the schema would show the model a wrong one.
fn examples_fit(attr: &SchemaAttr, kind: &Kind, ty_text: &str, errors: &mut Errors) {
    if let Some((_, examples)) = &attr.examples {
        for (example, tokens) in examples {
            if let Some(problem) = literal_problem(example, kind, attr) {
                errors.push(Error::new_spanned(
                    tokens,
                    format!("#[schema(examples)]: an example {problem} (`{ty_text}`)"),
                ));
            }
        }
    }
}

/// Why a literal cannot be a value of the parameter, if it cannot: the wrong type, or outside
/// the type's or the attribute's bounds, not a multiple of `multiple_of`, no match of
/// `pattern`, or an array with a repeated item under `unique_items`.
fn literal_problem(literal: &Literal, kind: &Kind, attr: &SchemaAttr) -> Option<String> {
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
            number_bounds(number, attr).or_else(|| not_a_multiple(number, attr))
        }
        (Kind::Number(..), Literal::Number(number)) => {
            number_bounds(number, attr).or_else(|| not_a_multiple(number, attr))
        }
        (Kind::String, Literal::Str(text)) => {
            let length = text.chars().count() as u64;
            if count("min_length").is_some_and(|min| length < min) {
                Some(format!("is {length} characters, below `min_length`"))
            } else if count("max_length").is_some_and(|max| length > max) {
                Some(format!("is {length} characters, above `max_length`"))
            } else if !matches_pattern(attr, text) {
                Some(format!(
                    "is {}, which `pattern` does not match",
                    json_string(text)
                ))
            } else {
                None
            }
        }
        (Kind::Boolean, Literal::Bool(_)) => None,
        (Kind::Array(item_kind), Literal::Array(items)) => {
            // Each item a value of the items' type (their own keys are not the array's).
            let each = SchemaAttr::default();
            let misfit = items.iter().enumerate().find_map(|(n, item)| {
                literal_problem(item, item_kind, &each).map(|problem| {
                    let problem = problem.replacen("the parameter is", "each item is", 1);
                    format!("has an item that does not fit: item {} {problem}", n + 1)
                })
            });
            if misfit.is_some() {
                return misfit;
            }
            let length = items.len() as u64;
            if count("min_items").is_some_and(|min| length < min) {
                Some(format!("has {length} items, below `min_items`"))
            } else if count("max_items").is_some_and(|max| length > max) {
                Some(format!("has {length} items, above `max_items`"))
            } else if attr.unique_items.is_some() {
                repeated(items)
                    .map(|item| format!("repeats {}, and `unique_items` is set", item.json()))
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

/// Why `number` is not a multiple of the `multiple_of` given, if it is not, judged as the call
/// judges it: exactly for integers (a whole float included), else within the float's rounding.
fn not_a_multiple(number: &Number, attr: &SchemaAttr) -> Option<String> {
    let (_, step) = attr.number("multiple_of")?;
    let whole = |n: &Number| {
        n.int.or_else(|| {
            #[allow(clippy::cast_possible_truncation)]
            (n.float.fract() == 0.0 && n.float.abs() < 1.7e38)
                .then_some(Integer::Signed(n.float as i128))
        })
    };
    let multiple = match (whole(number), step.int) {
        (Some(n), Some(step)) => n.is_multiple_of(step),
        _ => {
            let quotient = number.float / step.float;
            quotient.is_finite()
                && (quotient - quotient.round()).abs() <= quotient.abs() * f64::EPSILON * 4.0
        }
    };
    (!multiple).then(|| format!("is {}, not a multiple of `multiple_of`", number.json))
}

/// The first item of `items` that one before it equals, as the call compares a set's items
/// (numbers by their value: `1` and `1.0` are one).
fn repeated(items: &[Literal]) -> Option<&Literal> {
    fn key(literal: &Literal) -> String {
        match literal {
            Literal::Number(number) => match number.int {
                Some(int) => int.to_string(),
                #[allow(clippy::cast_possible_truncation)]
                None if number.float.fract() == 0.0 && number.float.abs() < 1.7e38 => {
                    (number.float as i128).to_string()
                }
                None => format!("{:e}", number.float),
            },
            Literal::Array(items) => {
                let items: Vec<String> = items.iter().map(key).collect();
                format!("[{}]", items.join(","))
            }
            other => other.json(),
        }
    }
    let mut seen = std::collections::HashSet::new();
    items.iter().find(|item| !seen.insert(key(item)))
}

/// Whether `text` holds a match of the `pattern` given (true without one, or when the pattern
/// cannot be compiled, which is an error of its own).
#[cfg(feature = "regex")]
fn matches_pattern(attr: &SchemaAttr, text: &str) -> bool {
    match &attr.pattern {
        Some(pattern) => compile_pattern(&pattern.value()).map_or(true, |re| re.is_match(text)),
        None => true,
    }
}

/// Without the `regex` feature a pattern is an error of its own.
#[cfg(not(feature = "regex"))]
fn matches_pattern(_: &SchemaAttr, _: &str) -> bool {
    true
}

fn number_bounds(value: &Number, attr: &SchemaAttr) -> Option<String> {
    let broken = |key: &str, refused: &[Ordering]| {
        attr.number(key)
            .is_some_and(|(_, bound)| order(value, bound).is_some_and(|o| refused.contains(&o)))
    };
    let value = &value.json;
    if broken("minimum", &[Less]) {
        Some(format!("is {value}, below `minimum`"))
    } else if broken("maximum", &[Greater]) {
        Some(format!("is {value}, above `maximum`"))
    } else if broken("exclusive_minimum", &[Less, Equal]) {
        Some(format!("is {value}, not above `exclusive_minimum`"))
    } else if broken("exclusive_maximum", &[Greater, Equal]) {
        Some(format!("is {value}, not below `exclusive_maximum`"))
    } else {
        None
    }
}

/// Whether the runtime can enforce `pattern`: it is ECMA-262 syntax the `regex` crate can run
/// with ECMA-262's meaning (`mcp_annotations_rules::pattern`), and it compiles, with the `regex` feature on.
#[cfg(feature = "regex")]
fn check_pattern(pattern: &str) -> Result<(), String> {
    compile_pattern(pattern).map(|_| ())
}

/// `pattern` translated and compiled as the runtime compiles it, or why it cannot be.
#[cfg(feature = "regex")]
fn compile_pattern(pattern: &str) -> Result<regex::Regex, String> {
    let translated = mcp_annotations_rules::pattern::translate(pattern).map_err(|reason| {
        format!("#[schema(pattern)] is read as JSON Schema reads it (ECMA-262, no flags): {reason}")
    })?;
    regex::Regex::new(&translated).map_err(|error| {
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
        "#[schema(pattern)] needs the `regex` feature of `mcp-annotations` (`mcp-annotations = { \
         version = \"...\", features = [\"regex\"] }`), which checks it while compiling and \
         enforces it on every call; without it the pattern would be listed but not checked"
            .to_owned(),
    )
}

/// A length key on a type whose length is fixed (`char`, `[T; N]`) would override it: the
/// schema would then say what the call refuses.
pub(crate) fn fixed_length(attr: &SchemaAttr, ty: &Ty, written: &TokenStream, errors: &mut Errors) {
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

#[cfg(test)]
mod tests {
    /// Without the `regex` feature (the derive crate's own tests build without it; the
    /// workspace's build turns it on), a pattern is refused with the feature's name.
    #[cfg(not(feature = "regex"))]
    #[test]
    fn a_pattern_without_the_regex_feature_names_it() {
        let error = super::check_pattern("^a$").unwrap_err();
        assert!(
            error.contains("needs the `regex` feature of `mcp-annotations`"),
            "{error}"
        );
    }

    /// With it, a pattern the call can run is accepted and one it cannot is refused.
    #[cfg(feature = "regex")]
    #[test]
    fn a_pattern_with_the_regex_feature_is_compiled() {
        assert!(super::check_pattern("^[a-z]+$").is_ok());
        assert!(super::check_pattern("(").is_err());
    }
}
