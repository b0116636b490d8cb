//! The argument reader: each parameter read out of the call's arguments object under the rules
//! its input schema states (required or not, integers written as `3.0`, sets without repeats,
//! no argument the tool does not take), with a message for the model that names the argument.
//!
//! Generated calls describe each parameter with a [`Spec`] and read them all at once through
//! [`ReadParams`], implemented for the tuples of their types, so that handlers with the same
//! parameter types share one compiled reader.

use serde::de::{DeserializeOwned, Visitor};
use serde_json::Value;

use crate::call::arity::for_each_arity;
use crate::call::exact::Exact;
use crate::protocol::number::{Whole, whole};
use crate::result::ToolResult;
use crate::schema::constraints::{Check, Unique, check, check_unique, sample};

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

/// Where a value sits: `name` inside what `at` says (`` `shape.circle` ``), for the messages
/// of the checks `#[derive(ToolSchema)]` writes for an enum's variants.
pub struct At<'a>(pub &'a dyn std::fmt::Display, pub &'a str);

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// Whether serde reads a `T` from `value` as it reads an untagged enum's variant, from what it
/// buffers (where a whole float is the integer it is: see `call/exact.rs`): how the check of an
/// untagged enum finds the variant serde picks, the first that reads.
#[must_use]
pub fn reads<T: serde::de::DeserializeOwned>(value: &Value) -> bool {
    match as_buffered(value) {
        Some(buffered) => T::deserialize(&buffered).is_ok(),
        None => T::deserialize(value).is_ok(),
    }
}

/// `value` as serde's buffer holds it when read through the call's reader: each whole float
/// within 64 bits as that integer. `None` when it holds no such float (nothing to copy).
fn as_buffered(value: &Value) -> Option<Value> {
    fn has_whole(value: &Value) -> bool {
        match value {
            Value::Number(number) => number.is_f64() && whole(number).is_some(),
            Value::Array(items) => items.iter().any(has_whole),
            Value::Object(object) => object.values().any(has_whole),
            _ => false,
        }
    }
    fn convert(value: &Value) -> Value {
        match value {
            Value::Number(number) => match whole(number).filter(|_| number.is_f64()) {
                Some(Whole::Unsigned(n)) => Value::from(n),
                Some(Whole::Signed(n)) => Value::from(n),
                None => value.clone(),
            },
            Value::Array(items) => Value::Array(items.iter().map(convert).collect()),
            Value::Object(object) => Value::Object(
                object
                    .iter()
                    .map(|(key, item)| (key.clone(), convert(item)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    has_whole(value).then(|| convert(value))
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
        crate::call::place::forget_marks();
        T::deserialize(Taking(&mut value)).map_err(|error| read_error(spec, &value, &error))
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
        not_too_deep(name, &value)?;
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
        // The common case, every argument one the tool takes, costs no allocation.
        let known = |key: &String| specs.iter().any(|spec| spec.name == key.as_str());
        if self.map.keys().all(known) {
            return Ok(());
        }
        let names: Vec<&str> = specs.iter().map(|spec| spec.name).collect();
        unknown_arguments(&self.map, &names)
    }
}

/// The message of a read that failed: what the schema says was expected, or where inside the
/// argument serde failed and why. Not generic, so that it is compiled once, not for each type
/// read.
fn read_error(spec: &Spec, value: &Value, error: &serde_json::Error) -> String {
    match spec.expected {
        Some(expected) => format!(
            "invalid argument `{}`: expected {expected}, found {}",
            spec.name,
            sample(value)
        ),
        None => {
            let message = error.to_string();
            let (place, message) = crate::call::place::place_of(&message);
            invalid_argument(spec.name, &place, &message)
        }
    }
}

/// How deep an argument may nest arrays and objects: as deep as serde_json's own parser reads
/// (128). A host that builds or forwards `Value`s is not held to that parser's limit, and
/// reading a value nested thousands deep would overflow the stack; past this depth the
/// argument is refused instead, before anything reads it.
pub const MAX_ARGUMENT_DEPTH: usize = 128;

/// The argument `name`, refused when it nests deeper than [`MAX_ARGUMENT_DEPTH`].
pub(crate) fn not_too_deep(name: &str, value: &Value) -> Result<(), String> {
    if too_deep(value) {
        return Err(format!(
            "invalid argument `{name}`: nested deeper than {MAX_ARGUMENT_DEPTH} arrays and objects"
        ));
    }
    Ok(())
}

/// Whether `value` nests arrays and objects deeper than [`MAX_ARGUMENT_DEPTH`] (the value itself, if
/// one, at depth 1), found without recursing: one walk, stopped at the first level too deep.
fn too_deep(value: &Value) -> bool {
    /// The children of one container not walked yet.
    enum Level<'a> {
        Items(std::slice::Iter<'a, Value>),
        Values(serde_json::map::Values<'a>),
    }
    fn level(value: &Value) -> Option<Level<'_>> {
        match value {
            Value::Array(items) => Some(Level::Items(items.iter())),
            Value::Object(object) => Some(Level::Values(object.values())),
            _ => None,
        }
    }
    let Some(root) = level(value) else {
        return false;
    };
    // The open containers, the deepest last: `stack.len()` is the depth of its children's
    // parent.
    let mut stack = vec![root];
    while let Some(open) = stack.last_mut() {
        let child = match open {
            Level::Items(items) => items.next(),
            Level::Values(values) => values.next(),
        };
        match child.map(level) {
            Some(Some(_)) if stack.len() >= MAX_ARGUMENT_DEPTH => return true,
            Some(Some(next)) => stack.push(next),
            Some(None) => {}
            None => {
                stack.pop();
            }
        }
    }
    false
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

/// A type a handler's parameter may have: one serde can read from JSON. Only a bound: its
/// message names the parameter's type and what to do, where serde's would name the private
/// tuple the parameters are read as.
#[diagnostic::on_unimplemented(
    message = "a #[tool] parameter of type `{Self}` cannot be read from the model's arguments",
    label = "serde cannot read this type",
    note = "derive `serde::Deserialize` for it, or take a type serde reads (`serde_json::Value` holds any JSON)",
    note = "if it is a parameter the model does not supply, mark it `#[context]`"
)]
pub trait Param: DeserializeOwned {}

#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned> Param for T {}

macro_rules! read_params {
    ($($index:tt $ty:ident $value:ident),*) => {
        impl<$($ty: Param),*> ReadParams for ($($ty,)*) {
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
