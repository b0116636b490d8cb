//! The argument reader: each parameter read out of the call's arguments object under the rules
//! its input schema states (required or not, integers written as `3.0`, sets without repeats,
//! no argument the tool does not take), with a message for the model that names the argument.
//!
//! Generated calls describe each parameter with a [`Spec`] and read them all at once through
//! [`ReadParams`], implemented for the tuples of their types, so that handlers with the same
//! parameter types share one compiled reader.

use serde::de::{DeserializeOwned, Visitor};
use serde_json::Value;

use crate::ToolResult;
use crate::call::arity::for_each_arity;
use crate::call::exact::Exact;

/// The arguments object of a call.
pub type Map = serde_json::Map<String, Value>;

/// How one parameter is read: its name, what its schema says, whether it may be left out, and
/// where it holds sets.
pub struct Spec {
    /// The argument's name.
    pub name: &'static str,
    /// What its schema says, for messages (`None`: serde's message).
    pub expected: Option<&'static str>,
    /// Whether it must be given (false for an `Option`, which may be absent or `null`).
    pub required: bool,
    /// Whether an explicit `null` is read (false for `#[schema(nullable = false)]`, and for a
    /// parameter with a `default` whose type is not an `Option`: its schema has no `null`).
    pub null: bool,
    /// Where it holds sets (`HashSet`, `BTreeSet`), whose items must all differ.
    pub unique: &'static Unique,
    /// The constraints of its `#[schema(...)]`, checked on the value before it is read.
    pub checks: &'static [Check],
    /// The JSON of its literal `#[schema(default = ...)]`, read in place of a missing
    /// argument.
    pub default: Option<&'static str>,
}

/// A bound of a `#[schema(...)]` constraint, exact for integers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// An integer bound.
    Int(i128),
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
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bound::Int(n) => write!(f, "{n}"),
            Bound::Float(x) => write!(f, "{x}"),
        }
    }
}

/// How `number` compares with `bound`: exactly for integers (see [`exact_integer`]), as
/// `f64` otherwise.
fn compare(number: &serde_json::Number, bound: Bound) -> Option<std::cmp::Ordering> {
    match (exact_integer(number), bound) {
        (Some(n), Bound::Int(b)) => Some(n.cmp(&b)),
        #[allow(clippy::cast_precision_loss)]
        (_, Bound::Int(b)) => number.as_f64()?.partial_cmp(&(b as f64)),
        (_, Bound::Float(b)) => number.as_f64()?.partial_cmp(&b),
    }
}

/// `number` as an exact integer: itself (past 64 bits too, when the value keeps the number's
/// text), or a whole float within `i128` (every such float is an integer exactly).
fn exact_integer(number: &serde_json::Number) -> Option<i128> {
    number
        .as_i64()
        .map(i128::from)
        .or_else(|| number.as_u64().map(i128::from))
        .or_else(|| crate::call::exact::integer_text(number)?.parse().ok())
        .or_else(|| {
            let x = number.as_f64()?;
            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
            (x.fract() == 0.0 && x.abs() < 1.7e38).then_some(x as i128)
        })
}

/// Whether `number` is a multiple of `step`: exactly for integers (a whole float included);
/// otherwise when the quotient is a whole number within the float's rounding of it, judged
/// relative to the quotient (so a tiny value is not taken for a multiple of everything).
fn multiple_of(number: &serde_json::Number, step: Bound) -> bool {
    match (exact_integer(number), step) {
        (Some(n), Bound::Int(step)) => step != 0 && n % step == 0,
        #[allow(clippy::cast_precision_loss)]
        (_, step) => {
            let step = match step {
                Bound::Int(n) => n as f64,
                Bound::Float(x) => x,
            };
            let Some(x) = number.as_f64() else {
                return false;
            };
            let quotient = x / step;
            quotient.is_finite()
                && (quotient - quotient.round()).abs() <= quotient.abs() * f64::EPSILON * 4.0
        }
    }
}

/// Whether `text` contains a match of `pattern`, each pattern compiled once.
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
    // The macro parsed it while compiling, with the same engine's parser.
    let compiled = regex::Regex::new(pattern)
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
        "the pattern `{pattern}` cannot be checked: the `regex` feature of `annotations` is off"
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

/// Where a value sits: `name` inside what `at` says (`` `shape.circle` ``), for the messages
/// of the checks `#[derive(ToolSchema)]` writes for an enum's variants.
pub struct At<'a>(pub &'a dyn std::fmt::Display, pub &'a str);

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// Whether serde reads a `T` from `value` as it reads an untagged enum's variant (from the
/// buffered value, whole floats as floats): how the check of an untagged enum finds the
/// variant serde picks, the first that reads.
#[must_use]
pub fn reads<T: serde::de::DeserializeOwned>(value: &Value) -> bool {
    T::deserialize(value).is_ok()
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

/// The arguments object of one call, read parameter by parameter.
pub struct Args {
    map: Map,
}

impl Args {
    /// The arguments as received (`None`: no arguments).
    #[must_use]
    pub fn new(arguments: Option<Map>) -> Self {
        Args {
            map: arguments.unwrap_or_default(),
        }
    }

    /// Reads the parameter `spec` describes. A set's schema says `uniqueItems`, and reading
    /// into a set would quietly drop a repeated item, so a repeat is refused.
    ///
    /// # Errors
    ///
    /// A message for the model that names the parameter and says what was expected.
    pub fn take<T: DeserializeOwned>(&mut self, spec: &Spec) -> Result<T, String> {
        let mut value = self.value(spec)?;
        crate::call::exact::forget_marks();
        T::deserialize(Taking(&mut value)).map_err(|error| match spec.expected {
            Some(expected) => format!(
                "invalid argument `{}`: expected {expected}, found {}",
                spec.name,
                sample(&value)
            ),
            None => {
                let message = error.to_string();
                let (place, message) = crate::call::exact::place_of(&message);
                invalid_argument(spec.name, &place, &message)
            }
        })
    }

    /// The argument's value, taken out (`null` when an optional one is absent), a set's items
    /// checked; the part of a read that does not depend on the type.
    fn value(&mut self, spec: &Spec) -> Result<Value, String> {
        let name = spec.name;
        // Taken out in place (a `null` is left behind), which is cheaper than removing the key.
        let value = match self.map.get_mut(name) {
            Some(value) => std::mem::take(value),
            // Written by the macro from a literal it checked against the type: always JSON.
            None if spec.default.is_some() => {
                return Ok(spec
                    .default
                    .and_then(|json| serde_json::from_str(json).ok())
                    .unwrap_or(Value::Null));
            }
            None if spec.required => {
                return Err(match spec.expected {
                    Some(expected) => format!("missing argument `{name}`: expected {expected}"),
                    None => format!("missing argument `{name}`"),
                });
            }
            None => Value::Null,
        };
        if value.is_null() && !spec.null && self.map.contains_key(name) {
            return Err(match spec.expected {
                Some(expected) => {
                    format!("invalid argument `{name}`: expected {expected}, found null")
                }
                None => format!("invalid argument `{name}`: expected a value, found null"),
            });
        }
        if !spec.checks.is_empty() {
            check(&value, spec.checks)
                .map_err(|message| format!("invalid argument `{name}`: {message}"))?;
        }
        if !spec.unique.is_none() {
            check_unique(&value, spec.unique, name)
                .map_err(|message| format!("invalid argument `{name}`: {message}"))?;
        }
        Ok(value)
    }

    /// Checks that every argument left was taken by one of the parameters `specs` describe.
    ///
    /// # Errors
    ///
    /// A message naming every unknown argument and the ones the tool takes.
    pub fn finish(&self, specs: &[Spec]) -> Result<(), String> {
        let names: Vec<&str> = specs.iter().map(|spec| spec.name).collect();
        unknown_arguments(&self.map, &names)
    }
}

/// The message for the argument `name` that serde refused at `place` inside it (`[1].name`;
/// empty at the argument itself).
pub(crate) fn invalid_argument(name: &str, place: &str, message: &str) -> String {
    if place.is_empty() {
        format!("invalid argument `{name}`: {message}")
    } else {
        format!("invalid argument `{name}`: `{name}{place}`: {message}")
    }
}

/// The message for the arguments whose names are not in `names` (the ones the tool takes), if
/// any: every one named (the first ten, and how many more), each cut to 64 characters.
pub(crate) fn unknown_arguments(arguments: &Map, names: &[&str]) -> Result<(), String> {
    const SHOWN: usize = 10;
    let unknown: Vec<&String> = arguments
        .keys()
        .filter(|key| !names.contains(&key.as_str()))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let mut listed: Vec<String> = unknown
        .iter()
        .take(SHOWN)
        .map(|key| format!("`{}`", key.chars().take(64).collect::<String>()))
        .collect();
    if unknown.len() > SHOWN {
        listed.push(format!("and {} more", unknown.len() - SHOWN));
    }
    let what = if unknown.len() == 1 {
        "unknown argument"
    } else {
        "unknown arguments"
    };
    let takes = if names.is_empty() {
        "this tool takes no arguments".to_owned()
    } else {
        let known: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
        format!("this tool takes {}", known.join(", "))
    };
    Err(format!("{what} {}: {takes}", listed.join(", ")))
}

/// The arguments a handler takes from the model, read together: a tuple of their types.
#[diagnostic::on_unimplemented(
    message = "a #[tool] handler takes at most 16 arguments from the model",
    label = "this handler takes more",
    note = "gather them in a struct that derives `Tool` and `serde::Deserialize`, and list that"
)]
pub trait ReadParams: Sized {
    /// Reads every parameter, each error pushed to `errors`; `None` if any failed.
    fn read(args: &mut Args, specs: &[Spec], errors: &mut Vec<String>) -> Option<Self>;
}

macro_rules! read_params {
    ($($index:tt $ty:ident $value:ident),*) => {
        impl<$($ty: DeserializeOwned),*> ReadParams for ($($ty,)*) {
            #[allow(unused_variables, clippy::unused_unit)]
            fn read(args: &mut Args, specs: &[Spec], errors: &mut Vec<String>) -> Option<Self> {
                $(let $value = collect(args.take::<$ty>(&specs[$index]), errors);)*
                Some(($($value?,)*))
            }
        }
    };
}

for_each_arity!(read_params);

/// Reads of the most common parameter types, compiled once here: in builds without
/// optimization, where compiled generic code is shared between crates, a server's crate then
/// reuses these instead of compiling them again.
pub fn common_reads(args: &mut Args, spec: &Spec) {
    let _ = args.take::<String>(spec);
    let _ = args.take::<u64>(spec);
    let _ = args.take::<i64>(spec);
    let _ = args.take::<u32>(spec);
    let _ = args.take::<usize>(spec);
    let _ = args.take::<bool>(spec);
    let _ = args.take::<f64>(spec);
    let _ = args.take::<Option<String>>(spec);
    let _ = args.take::<Option<u64>>(spec);
    let _ = args.take::<Vec<String>>(spec);
}

/// The value, or its error pushed to `errors`.
pub fn collect<T>(result: Result<T, String>, errors: &mut Vec<String>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(error) => {
            errors.push(error);
            None
        }
    }
}

/// A failed result with every error of the call, one a line.
#[must_use]
pub fn failed(errors: Vec<String>) -> ToolResult {
    ToolResult::error(errors.join("\n"))
}

/// Reads a value in place, as [`Exact`] does, except that the argument itself, when it is read
/// as a string (`String`, `Option<String>`, a newtype around one), is moved out instead of
/// copied. Strings inside an array or object are copied. Only a read that succeeds takes the
/// string, so a failed read still has the value to quote in its message.
struct Taking<'a>(&'a mut Value);

macro_rules! by_reference {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {
        $(
            fn $method<V: Visitor<'a>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, serde_json::Error> {
                let value: &'a Value = self.0;
                Exact(value).$method($($arg,)* visitor)
            }
        )*
    };
}

impl<'a> serde::Deserializer<'a> for Taking<'a> {
    type Error = serde_json::Error;

    fn deserialize_string<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, serde_json::Error> {
        match self.0 {
            // A string's visitor takes any string: nothing is lost to a failed read.
            Value::String(text) => visitor.visit_string(std::mem::take(text)),
            other => {
                let value: &'a Value = other;
                Exact(value).deserialize_string(visitor)
            }
        }
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, serde_json::Error> {
        if self.0.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, serde_json::Error> {
        // serde_json's own newtypes (`RawValue`) are read as it reads them.
        if name.starts_with("$serde_json") {
            let value: &'a Value = self.0;
            return Exact(value).deserialize_newtype_struct(name, visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    by_reference! {
        deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16()
        deserialize_i32() deserialize_i64() deserialize_i128() deserialize_u8()
        deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64() deserialize_char() deserialize_str()
        deserialize_bytes() deserialize_byte_buf() deserialize_unit() deserialize_seq()
        deserialize_map() deserialize_identifier() deserialize_ignored_any()
        deserialize_unit_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    }
}

/// What a value is, as text in which two values that are one value to the set reading them are
/// equal: numbers by their value (`1` and `1.0`, `0.0` and `-0.0` are one number, as `Exact`
/// reads a whole float), at every depth; a set inside by its items in any order.
fn canonical(value: &Value, unique: &Unique) -> String {
    fn write(value: &Value, unique: &Unique, out: &mut String) {
        let inner = match unique {
            Unique::Set(inner) | Unique::Items(inner) | Unique::Values(inner) => inner,
            Unique::None | Unique::Type(_) => &Unique::None,
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
            Value::Number(number) => match Exact(value).whole() {
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
fn sample(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        return text;
    }
    let head: String = text.chars().take(57).collect();
    format!("{head}... ({} bytes)", text.len())
}
