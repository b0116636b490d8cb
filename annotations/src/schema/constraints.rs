//! The constraints a parameter's schema states beyond its type, enforced on the value before
//! it is read: bounds, multiples, lengths, item counts, patterns ([`Check`]) and sets without
//! repeats ([`Unique`]), each refused with a message that says what was expected.

use serde_json::Value;

use crate::protocol::number::whole;

/// A bound of a `#[schema(...)]` constraint, exact for integers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// An integer bound.
    Int(i128),
    /// An integer bound above `i128::MAX`, which only a `u128` holds (any other integer bound
    /// is an `Int`).
    Unsigned(u128),
    /// Any other number.
    Float(f64),
}

/// One constraint of a parameter's `#[schema(...)]`, as its schema states it and the call
/// enforces it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// `minimum`.
    Minimum(Bound),
    /// `maximum`.
    Maximum(Bound),
    /// `exclusiveMinimum`.
    ExclusiveMinimum(Bound),
    /// `exclusiveMaximum`.
    ExclusiveMaximum(Bound),
    /// `multipleOf` (greater than 0).
    MultipleOf(Bound),
    /// `minLength`, in characters (Unicode code points, as JSON Schema counts).
    MinLength(u64),
    /// `maxLength`.
    MaxLength(u64),
    /// `minItems`.
    MinItems(u64),
    /// `maxItems`.
    MaxItems(u64),
    /// `pattern`: the string must contain a match (with the `regex` feature).
    Pattern(&'static str),
    /// `nullable = false` on an `Option` field: an explicit `null` is refused (serde would
    /// read it as `None`).
    NotNull,
    /// `required` on an `Option` field: it must be given (serde would read a missing one as
    /// `None`). Checked by what holds the field ([`missing_field`]); a value always passes.
    Required,
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bound::Int(n) => write!(f, "{n}"),
            Bound::Unsigned(n) => write!(f, "{n}"),
            Bound::Float(x) => write!(f, "{x}"),
        }
    }
}

/// An integer exactly, from `i128::MIN` to `u128::MAX`; the order of the variants is the order
/// of the values (`Above` holds only values above `i128::MAX`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Wide {
    Signed(i128),
    Above(u128),
}

impl Wide {
    fn of_bound(bound: Bound) -> Option<Wide> {
        match bound {
            Bound::Int(n) => Some(Wide::Signed(n)),
            Bound::Unsigned(n) => Some(i128::try_from(n).map_or(Wide::Above(n), Wide::Signed)),
            Bound::Float(_) => None,
        }
    }

    /// The distance from 0: the multiples of a number are those of its magnitude.
    fn magnitude(self) -> u128 {
        match self {
            Wide::Signed(n) => n.unsigned_abs(),
            Wide::Above(n) => n,
        }
    }
}

/// How `number` compares with `bound`: exactly for integers (see [`exact_integer`]), as
/// `f64` otherwise.
fn compare(number: &serde_json::Number, bound: Bound) -> Option<std::cmp::Ordering> {
    match (exact_integer(number), Wide::of_bound(bound)) {
        (Some(n), Some(b)) => Some(n.cmp(&b)),
        _ => number.as_f64()?.partial_cmp(&bound_f64(bound)),
    }
}

/// How one JSON number compares with another: exactly for integers, as `f64` otherwise.
pub(crate) fn compare_numbers(
    a: &serde_json::Number,
    b: &serde_json::Number,
) -> Option<std::cmp::Ordering> {
    match (exact_integer(a), exact_integer(b)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// The nearest `f64` to `bound`.
#[allow(clippy::cast_precision_loss)]
fn bound_f64(bound: Bound) -> f64 {
    match bound {
        Bound::Int(n) => n as f64,
        Bound::Unsigned(n) => n as f64,
        Bound::Float(x) => x,
    }
}

/// `number` as an exact integer: itself (past 64 bits too, when the value keeps the number's
/// text, up to `u128::MAX`), or a whole float within `i128` (every such float is an integer
/// exactly).
fn exact_integer(number: &serde_json::Number) -> Option<Wide> {
    number
        .as_i64()
        .map(|n| Wide::Signed(i128::from(n)))
        .or_else(|| number.as_u64().map(|n| Wide::Signed(i128::from(n))))
        .or_else(|| {
            let text = crate::protocol::number::integer_text(number)?;
            text.parse()
                .map(Wide::Signed)
                .or_else(|_| text.parse().map(Wide::Above))
                .ok()
        })
        .or_else(|| {
            let x = number.as_f64()?;
            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
            (x.fract() == 0.0 && x.abs() < 1.7e38).then_some(Wide::Signed(x as i128))
        })
}

/// Whether `number` is a multiple of `step`: exactly for integers (a whole float included);
/// otherwise when the quotient is a whole number within the float's rounding of it, judged
/// relative to the quotient (so a tiny value is not taken for a multiple of everything).
fn multiple_of(number: &serde_json::Number, step: Bound) -> bool {
    match (exact_integer(number), Wide::of_bound(step)) {
        (Some(n), Some(step)) => step.magnitude() != 0 && n.magnitude() % step.magnitude() == 0,
        _ => {
            let step = bound_f64(step);
            let Some(x) = number.as_f64() else {
                return false;
            };
            let quotient = x / step;
            quotient.is_finite()
                && (quotient - quotient.round()).abs() <= quotient.abs() * f64::EPSILON * 4.0
        }
    }
}

/// Whether `text` contains a match of `pattern` (read as ECMA-262 reads it), each pattern
/// compiled once.
#[cfg(feature = "regex")]
fn pattern_matches(pattern: &'static str, text: &str) -> Result<bool, String> {
    use std::collections::HashMap;
    use std::sync::{OnceLock, RwLock};
    static COMPILED: OnceLock<RwLock<HashMap<&'static str, regex::Regex>>> = OnceLock::new();
    let cache = COMPILED.get_or_init(RwLock::default);
    if let Some(found) = cache
        .read()
        .ok()
        .and_then(|cache| cache.get(pattern).map(|re| re.is_match(text)))
    {
        return Ok(found);
    }
    // Run as ECMA-262 reads it (`\d` is `[0-9]`, ...); the macro translated and compiled it
    // the same way while compiling.
    let compiled = mcp_annotations_rules::pattern::translate(pattern)
        .and_then(|translated| regex::Regex::new(&translated).map_err(|error| error.to_string()))
        .map_err(|error| format!("the pattern `{pattern}` cannot be checked: {error}"))?;
    let found = compiled.is_match(text);
    if let Ok(mut cache) = cache.write() {
        cache.insert(pattern, compiled);
    }
    Ok(found)
}

/// Without the `regex` feature no pattern can be checked, and the macro refuses to write one;
/// a call that meets one anyway (a macro built with the feature, a runtime without) fails.
#[cfg(not(feature = "regex"))]
fn pattern_matches(pattern: &'static str, _: &str) -> Result<bool, String> {
    Err(format!(
        "the pattern `{pattern}` cannot be checked: the `regex` feature of `mcp-annotations` is off"
    ))
}

/// The first constraint `value` breaks, as a message (`expected at least 1 item, found 0`).
pub(crate) fn check(value: &Value, checks: &[Check]) -> Result<(), String> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let plural = |n: u64, one: &str, many: &str| {
        if n == 1 {
            format!("{n} {one}")
        } else {
            format!("{n} {many}")
        }
    };
    for check in checks {
        let broken = match (check, value) {
            (Check::Minimum(b), Value::Number(n)) => matches!(compare(n, *b), Some(Less))
                .then(|| format!("expected at least {b}, found {n}")),
            (Check::Maximum(b), Value::Number(n)) => matches!(compare(n, *b), Some(Greater))
                .then(|| format!("expected at most {b}, found {n}")),
            (Check::ExclusiveMinimum(b), Value::Number(n)) => {
                matches!(compare(n, *b), Some(Less | Equal))
                    .then(|| format!("expected more than {b}, found {n}"))
            }
            (Check::ExclusiveMaximum(b), Value::Number(n)) => {
                matches!(compare(n, *b), Some(Greater | Equal))
                    .then(|| format!("expected less than {b}, found {n}"))
            }
            (Check::MultipleOf(b), Value::Number(n)) => {
                (!multiple_of(n, *b)).then(|| format!("expected a multiple of {b}, found {n}"))
            }
            (Check::MinLength(min), Value::String(text)) => {
                let length = text.chars().count() as u64;
                (length < *min).then(|| {
                    format!(
                        "expected at least {}, found {length}",
                        plural(*min, "character", "characters")
                    )
                })
            }
            (Check::MaxLength(max), Value::String(text)) => {
                let length = text.chars().count() as u64;
                (length > *max).then(|| {
                    format!(
                        "expected at most {}, found {length}",
                        plural(*max, "character", "characters")
                    )
                })
            }
            (Check::MinItems(min), Value::Array(items)) => {
                let count = items.len() as u64;
                (count < *min).then(|| {
                    format!(
                        "expected at least {}, found {count}",
                        plural(*min, "item", "items")
                    )
                })
            }
            (Check::MaxItems(max), Value::Array(items)) => {
                let count = items.len() as u64;
                (count > *max).then(|| {
                    format!(
                        "expected at most {}, found {count}",
                        plural(*max, "item", "items")
                    )
                })
            }
            (Check::Pattern(pattern), Value::String(text)) => (!pattern_matches(pattern, text)?)
                .then(|| {
                    format!(
                        "expected a string matching `{pattern}`, found {}",
                        Value::String(text.clone())
                    )
                }),
            (Check::NotNull, Value::Null) => Some("expected a value, found null".to_owned()),
            // A value of another type is the type's to refuse, with its own message.
            _ => None,
        };
        if let Some(message) = broken {
            return Err(message);
        }
    }
    Ok(())
}

/// Where a value's schema says `uniqueItems`, down to the depth it does: reading into a set
/// would quietly drop a repeated item, so a call refuses repeats there instead, judged on
/// values (`1` and `1.0` are one number). Written by `#[tool]`, `#[derive(Tool)]` and
/// `#[derive(ToolSchema)]` for the types they know; a user type is asked to check its own
/// values ([`ToolSchema::check_value`](crate::ToolSchema::check_value)).
#[derive(Clone, Copy, Debug)]
pub enum Unique {
    /// No set here or below.
    None,
    /// A set: its items must all differ, and each is checked as the inner shape says.
    Set(&'static Unique),
    /// An array whose items are each checked as the inner shape says.
    Items(&'static Unique),
    /// An object whose values are each checked as the inner shape says.
    Values(&'static Unique),
    /// A value of a user type, which checks itself: its `ToolSchema::check_value`, given
    /// where the value sits, for its messages.
    Type(fn(&Value, &dyn std::fmt::Display) -> Result<(), String>),
    /// An `f32`: a number within its range. Read directly, the reader refuses one past it;
    /// read from what serde buffers (an untagged or internally tagged enum, a flattened
    /// field), an `f32` would take it as infinity, so the check refuses it first.
    F32,
}

impl Unique {
    /// Whether there is nothing to check here or below.
    #[must_use]
    pub const fn is_none(&self) -> bool {
        matches!(self, Unique::None)
    }
}

/// Checks the sets in the argument `name`'s `value` as `unique` places them.
///
/// # Errors
///
/// The message for the first set with a repeated item, saying where it is.
pub(crate) fn check_unique(value: &Value, unique: &Unique, name: &str) -> Result<(), String> {
    if matches!(unique, Unique::F32) {
        // An argument that is an `f32` is read by the call's own reader, which says it better.
        return Ok(());
    }
    walk_sets(value, unique, &Place::Argument(name))
}

/// Where a value sits in an argument, written out only for a message.
enum Place<'p> {
    Argument(&'p str),
    Item(&'p Place<'p>, usize),
    Value(&'p Place<'p>, &'p str),
    /// A field of a struct, itself where the caller says (a user type's own check).
    Field(&'p dyn std::fmt::Display, &'p str),
    /// Where the caller says.
    Outer(&'p dyn std::fmt::Display),
}

impl std::fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Argument(name) => f.write_str(name),
            Place::Item(parent, index) => write!(f, "{parent}[{index}]"),
            Place::Value(parent, key) => write!(f, "{parent}[{}]", Value::from(*key)),
            Place::Field(parent, name) => write!(f, "{parent}.{name}"),
            Place::Outer(place) => place.fmt(f),
        }
    }
}

fn walk_sets(value: &Value, unique: &Unique, place: &Place<'_>) -> Result<(), String> {
    match (unique, value) {
        (Unique::Set(inner), Value::Array(items)) => {
            let mut seen = std::collections::HashSet::new();
            if let Some(repeat) = items
                .iter()
                .find(|item| !seen.insert(canonical(item, inner)))
            {
                let which = match place {
                    Place::Argument(_) => "the items".to_owned(),
                    nested => format!("the items of `{nested}`"),
                };
                return Err(format!(
                    "{which} must all differ, and {} is repeated",
                    sample(repeat)
                ));
            }
            walk_items(items, inner, place)
        }
        (Unique::Items(inner), Value::Array(items)) => walk_items(items, inner, place),
        (Unique::Values(inner), Value::Object(object)) => object
            .iter()
            .try_for_each(|(key, item)| walk_sets(item, inner, &Place::Value(place, key))),
        (Unique::Type(check), value) => check(value, place),
        (Unique::F32, Value::Number(number))
            if number
                .as_f64()
                .is_some_and(|x| x.abs() > f64::from(f32::MAX)) =>
        {
            Err(format!(
                "`{place}`: expected a number within the range of a 32-bit float, found {number}"
            ))
        }
        _ => Ok(()),
    }
}

fn walk_items(items: &[Value], inner: &Unique, place: &Place<'_>) -> Result<(), String> {
    if inner.is_none() {
        return Ok(());
    }
    items
        .iter()
        .enumerate()
        .try_for_each(|(i, item)| walk_sets(item, inner, &Place::Item(place, i)))
}

/// What a value is, as text in which two values that are one value to the set reading them are
/// equal: numbers by their value (`1` and `1.0`, `0.0` and `-0.0` are one number, as the call
/// reads a whole float), at every depth; a set inside by its items in any order.
fn canonical(value: &Value, unique: &Unique) -> String {
    fn write(value: &Value, unique: &Unique, out: &mut String) {
        let inner = match unique {
            Unique::Set(inner) | Unique::Items(inner) | Unique::Values(inner) => inner,
            Unique::None | Unique::Type(_) | Unique::F32 => &Unique::None,
        };
        match value {
            Value::Array(items) if matches!(unique, Unique::Set(_)) => {
                let mut items: Vec<String> =
                    items.iter().map(|item| canonical(item, inner)).collect();
                items.sort_unstable();
                out.push('{');
                for item in items {
                    out.push_str(&item);
                    out.push(',');
                }
                out.push('}');
            }
            Value::Number(number) => match whole(number) {
                // Read by an integer type as that integer, so one with it.
                Some(whole) => out.push_str(&whole.to_string()),
                None if number.is_f64() => {
                    out.push_str(&format!("{:e}", number.as_f64().unwrap_or(f64::NAN)));
                }
                None => out.push_str(&number.to_string()),
            },
            Value::Array(items) => {
                out.push('[');
                for item in items {
                    write(item, inner, out);
                    out.push(',');
                }
                out.push(']');
            }
            Value::Object(object) => {
                out.push('(');
                for (key, item) in object {
                    out.push_str(&Value::from(key.as_str()).to_string());
                    out.push(':');
                    write(item, inner, out);
                    out.push(',');
                }
                out.push(')');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(value, unique, &mut out);
    out
}

/// A short rendering of a value received, for messages.
pub(crate) fn sample(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        return text;
    }
    let head: String = text.chars().take(57).collect();
    format!("{head}... ({} bytes)", text.len())
}

/// Checks the field `name` of a struct at `at` (its value `value`): the constraints of the
/// field's `#[schema(...)]`, then the sets and user types in it, each message saying where
/// (`` `entities[0].name`: expected at least 1 character, found 0 ``). What
/// `#[derive(ToolSchema)]` writes into [`ToolSchema::check_value`](crate::ToolSchema::check_value).
///
/// # Errors
///
/// The message for the first value that breaks a constraint.
pub fn check_field(
    value: &Value,
    checks: &[Check],
    unique: &Unique,
    at: &dyn std::fmt::Display,
    name: Option<&str>,
) -> Result<(), String> {
    let outer = Place::Outer(at);
    let place = match name {
        Some(name) => Place::Field(at, name),
        None => outer,
    };
    if !checks.is_empty() {
        check(value, checks).map_err(|message| format!("`{place}`: {message}"))?;
    }
    walk_sets(value, unique, &place)
}

/// The message for the field `name` of the struct at `at`, missing where its
/// `#[schema(required)]` says it must be given (`null` is taken).
#[must_use]
pub fn missing_field(at: &dyn std::fmt::Display, name: &str) -> String {
    format!("`{at}.{name}`: missing; it is required (it may be null)")
}
