//! Reading a JSON value as exactly what its schema states, by reference: a whole number written
//! as a float (`3.0`) is an integer where an integer type reads it, and only there (`-0.0` for
//! an `f64` stays `-0.0`, `1.0` inside a `serde_json::Value` stays `1.0`), within the range of
//! a 64-bit integer; an `f32` refuses a number beyond its range instead of
//! reading infinity. Arrays, objects and enum payloads are read the same way at every depth.
//! What serde buffers before it knows the type (an untagged enum, a flattened struct) holds a
//! whole float as the integer it is (see `buffers`), so an integer type reads it there too; the
//! price, there alone, is that `-0.0` reaches an `f64` as `0.0` and `1.0` a `Value` as `1`.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Error, Map, Value};

use crate::call::place::{key_segment, within};
use crate::protocol::number::{Whole, integer_text, whole};

/// A value read exactly; see the module's docs.
#[derive(Clone, Copy)]
pub(crate) struct Exact<'a>(pub(crate) &'a Value);

impl Exact<'_> {
    /// The value as the integer an integer type reads it as, if it is a whole-number float in
    /// the range of one.
    pub(crate) fn whole(self) -> Option<Whole> {
        self.0.as_number().and_then(whole)
    }
}

/// The refusal of a whole float past 64 bits for a 128-bit type, in a build whose JSON values
/// hold such a number as a float: it may not be the number sent (`18446744073709551617`
/// arrives as `18446744073709551616.0`), and a 128-bit parameter exists to be exact. The
/// listed bounds end where this begins (see `wide_integer`), so the schema refuses it too.
fn rounded(value: &Value) -> Option<Error> {
    let float = value
        .as_f64()
        .filter(|f| value.is_f64() && f.fract() == 0.0)?;
    whole(value.as_number()?).is_none().then(|| {
        de::Error::invalid_value(
            de::Unexpected::Float(float),
            &"an integer from -2^63 to 2^64 - 1: past those a JSON value holds a number as the \
              nearest float, which may have rounded it (serde_json's `arbitrary_precision` \
              feature keeps every integer exact)",
        )
    })
}

/// Whether `visitor` is serde's buffer: what an internally, adjacently tagged or untagged
/// enum, or a struct with flattened fields, reads a value into before it knows the type that
/// reads it (serde's own derive expects "any value" there). A whole float goes into the buffer
/// as the integer it is, so that an integer type reads it from there as it reads it directly
/// (and as the schema, whose `integer` takes `3.0`, says); a float type reads the integer as
/// the same number. A `serde_json::Value` expects "any valid JSON value" and keeps `3.0`.
fn buffers<'a, V: Visitor<'a>>(visitor: &V) -> bool {
    struct Expecting<'v, V>(&'v V);
    impl<'a, V: Visitor<'a>> std::fmt::Display for Expecting<'_, V> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.0.expecting(f)
        }
    }
    /// Writes only as far as the text stays "any value".
    struct Is {
        rest: &'static str,
        same: bool,
    }
    impl std::fmt::Write for Is {
        fn write_str(&mut self, text: &str) -> std::fmt::Result {
            match self.rest.strip_prefix(text) {
                Some(rest) if self.same => {
                    self.rest = rest;
                    Ok(())
                }
                _ => {
                    self.same = false;
                    Err(std::fmt::Error)
                }
            }
        }
    }
    let mut is = Is {
        rest: "any value",
        same: true,
    };
    let written = std::fmt::write(&mut is, format_args!("{}", Expecting(visitor)));
    written.is_ok() && is.same && is.rest.is_empty()
}

/// The error for an integer outside the range of the type `ty`.
fn out_of_range(text: &str, ty: &str) -> Error {
    de::Error::invalid_value(
        de::Unexpected::Other(&format!("the integer {text}")),
        &format!("an integer within the range of `{ty}`").as_str(),
    )
}

fn visit_array<'a, V: Visitor<'a>>(items: &'a [Value], visitor: V) -> Result<V::Value, Error> {
    let mut seq = Items(items.iter().enumerate());
    let value = visitor.visit_seq(&mut seq)?;
    match seq.0.len() {
        0 => Ok(value),
        _ => Err(de::Error::invalid_length(
            items.len(),
            &"fewer elements in array",
        )),
    }
}

fn visit_object<'a, V: Visitor<'a>>(
    object: &'a Map<String, Value>,
    visitor: V,
) -> Result<V::Value, Error> {
    let mut map = Entries {
        entries: object.iter(),
        value: None,
    };
    let value = visitor.visit_map(&mut map)?;
    match map.entries.len() {
        0 => Ok(value),
        _ => Err(de::Error::invalid_length(
            object.len(),
            &"fewer elements in map",
        )),
    }
}

macro_rules! integers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.whole() {
                Some(Whole::Unsigned(n)) => visitor.visit_u64(n),
                Some(Whole::Signed(n)) => visitor.visit_i64(n),
                None => self.0.$method(visitor),
            }
        }
    )*};
}

/// A 128-bit integer type's read: from the number's text when the value keeps it (exact, and
/// refused past the type's range), else as a 64-bit integer or a whole float within the range
/// of one (one past it may have been rounded, and is refused).
macro_rules! wide_integers {
    ($($method:ident $visit:ident $ty:ty)*) => {$(
        fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.0.as_number().and_then(integer_text) {
                Some(text) => match text.parse::<$ty>() {
                    Ok(n) => visitor.$visit(n),
                    Err(_) => Err(out_of_range(&text, stringify!($ty))),
                },
                None => match (rounded(self.0), self.whole()) {
                    (Some(error), _) => Err(error),
                    (None, Some(Whole::Unsigned(n))) => visitor.visit_u64(n),
                    (None, Some(Whole::Signed(n))) => visitor.visit_i64(n),
                    (None, None) => self.0.$method(visitor),
                },
            }
        }
    )*};
}

macro_rules! by_reference {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {$(
        fn $method<V: Visitor<'a>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Error> {
            self.0.$method($($arg,)* visitor)
        }
    )*};
}

impl<'a> de::Deserializer<'a> for Exact<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visit_array(items, visitor),
            Value::Object(object) => visit_object(object, visitor),
            Value::Number(_) if buffers(&visitor) => match self.whole() {
                Some(Whole::Unsigned(n)) => visitor.visit_u64(n),
                Some(Whole::Signed(n)) => visitor.visit_i64(n),
                None => self.0.deserialize_any(visitor),
            },
            other => other.deserialize_any(visitor),
        }
    }

    integers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
    }

    wide_integers! {
        deserialize_i128 visit_i128 i128
        deserialize_u128 visit_u128 u128
    }

    fn deserialize_f32<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        // The schema's bounds are `f32::MAX` exactly, so a number just past it is refused too,
        // not only one that would round to infinity.
        if let Some(float) = self.0.as_f64().filter(|f| f.abs() > f64::from(f32::MAX)) {
            return Err(de::Error::invalid_value(
                de::Unexpected::Float(float),
                &"a number within the range of a 32-bit float",
            ));
        }
        self.0.deserialize_f32(visitor)
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
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
    ) -> Result<V::Value, Error> {
        // serde_json's own newtypes (`RawValue`) are read as it reads them.
        if name.starts_with("$serde_json") {
            return self.0.deserialize_newtype_struct(name, visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    // Each shape below reads only its own JSON type; any other is refused with the visitor's
    // own expectation, as serde_json words it, without instantiating serde_json's reader of a
    // value for the visitor too (a type's reading is compiled once, for this reader).
    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visit_array(items, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(object) => visit_object(object, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    /// An object: serde would also read a struct from an array of its fields in order, which
    /// no schema written for a struct allows.
    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    /// `"Variant"` or `{"Variant": payload}`, the payload read exactly.
    fn deserialize_enum<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(object) if object.len() == 1 => {
                let (variant, payload) = object.iter().next().expect("one entry");
                visitor.visit_enum(Variant {
                    name: variant,
                    payload: Some(payload),
                })
            }
            Value::String(variant) => visitor.visit_enum(Variant {
                name: variant,
                payload: None,
            }),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    by_reference! {
        deserialize_bool() deserialize_f64() deserialize_char() deserialize_str()
        deserialize_string() deserialize_bytes() deserialize_byte_buf() deserialize_unit()
        deserialize_identifier() deserialize_ignored_any()
        deserialize_unit_struct(name: &'static str)
    }
}

/// An enum's variant and its payload, if any.
struct Variant<'a> {
    name: &'a str,
    payload: Option<&'a Value>,
}

impl<'a> de::EnumAccess<'a> for Variant<'a> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'a>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let variant = seed.deserialize(BorrowedStrDeserializer::<Error>::new(self.name))?;
        Ok((variant, self))
    }
}

impl<'a> de::VariantAccess<'a> for Variant<'a> {
    type Error = Error;

    /// Only as `"Variant"`, the schema's form: serde_json would also take `{"Variant": null}`.
    fn unit_variant(self) -> Result<(), Error> {
        match self.payload {
            None => Ok(()),
            Some(other) => Err(de::Error::invalid_type(unexpected(other), &"unit variant")),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'a>>(self, seed: T) -> Result<T::Value, Error> {
        match self.payload {
            Some(payload) => seed
                .deserialize(Exact(payload))
                .map_err(|error| within(error, &key_segment(self.name))),
            None => Err(de::Error::invalid_type(
                de::Unexpected::UnitVariant,
                &"newtype variant",
            )),
        }
    }

    fn tuple_variant<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        let name = self.name;
        match self.payload {
            Some(Value::Array(items)) => visit_array(items, visitor),
            Some(other) => Err(de::Error::invalid_type(unexpected(other), &"tuple variant")),
            None => Err(de::Error::invalid_type(
                de::Unexpected::UnitVariant,
                &"tuple variant",
            )),
        }
        .map_err(|error| within(error, &key_segment(name)))
    }

    fn struct_variant<V: Visitor<'a>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let name = self.name;
        match self.payload {
            Some(Value::Object(object)) => visit_object(object, visitor),
            Some(other) => Err(de::Error::invalid_type(
                unexpected(other),
                &"struct variant",
            )),
            None => Err(de::Error::invalid_type(
                de::Unexpected::UnitVariant,
                &"struct variant",
            )),
        }
        .map_err(|error| within(error, &key_segment(name)))
    }
}

/// What a value is, for serde's messages.
fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(n), _, _) => de::Unexpected::Unsigned(n),
            (_, Some(n), _) => de::Unexpected::Signed(n),
            (_, _, Some(x)) => de::Unexpected::Float(x),
            _ => de::Unexpected::Other("number"),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

/// The items of an array, each read exactly.
struct Items<'a>(std::iter::Enumerate<std::slice::Iter<'a, Value>>);

impl<'a> SeqAccess<'a> for Items<'a> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'a>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0
            .next()
            .map(|(i, item)| {
                seed.deserialize(Exact(item))
                    .map_err(|error| within(error, &format_args!("[{i}]")))
            })
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// The entries of an object, each value read exactly, each key as serde_json reads one.
struct Entries<'a> {
    entries: serde_json::map::Iter<'a>,
    value: Option<(&'a str, &'a Value)>,
}

impl<'a> MapAccess<'a> for Entries<'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some((key, value));
        seed.deserialize(Key(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (key, value) = self
            .value
            .take()
            .ok_or_else(|| <Error as de::Error>::custom("a map's value was read before its key"))?;
        seed.deserialize(Exact(value))
            .map_err(|error| within(error, &key_segment(key)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// An object's key: a string, or the number or `true`/`false` it spells where the key's type
/// is one (as serde_json reads keys).
struct Key<'a>(&'a str);

/// Whether `key` is a JSON number's text (what serde_json reads a number key from): no sign
/// but `-`, no leading zero, no blank.
fn json_number(key: &str) -> bool {
    let digits = key.strip_prefix('-').unwrap_or(key);
    let (int, rest) = digits.split_at(
        digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len()),
    );
    let int_ok = int == "0" || (!int.is_empty() && !int.starts_with('0'));
    let rest_ok = rest.is_empty()
        || rest.strip_prefix('.').is_some_and(|fraction| {
            !fraction.is_empty() && fraction.bytes().all(|b| b.is_ascii_digit())
        })
        || ['e', 'E'].iter().any(|e| {
            rest.strip_prefix(*e).is_some_and(|exp| {
                let exp = exp.strip_prefix(['+', '-']).unwrap_or(exp);
                !exp.is_empty() && exp.bytes().all(|b| b.is_ascii_digit())
            })
        });
    int_ok && rest_ok
}

macro_rules! parsed_keys {
    ($($method:ident $visit:ident $ty:ty)*) => {$(
        fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.0.parse::<$ty>() {
                Ok(parsed) if json_number(self.0) => visitor.$visit(parsed),
                _ => Err(de::Error::invalid_value(de::Unexpected::Str(self.0), &visitor)),
            }
        }
    )*};
}

impl<'a> de::Deserializer<'a> for Key<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.0)
    }

    fn deserialize_bool<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(de::Error::invalid_value(
                de::Unexpected::Str(self.0),
                &visitor,
            )),
        }
    }

    parsed_keys! {
        deserialize_i8 visit_i8 i8 deserialize_i16 visit_i16 i16 deserialize_i32 visit_i32 i32
        deserialize_i64 visit_i64 i64 deserialize_i128 visit_i128 i128
        deserialize_u8 visit_u8 u8 deserialize_u16 visit_u16 u16 deserialize_u32 visit_u32 u32
        deserialize_u64 visit_u64 u64 deserialize_u128 visit_u128 u128
        deserialize_f32 visit_f32 f32 deserialize_f64 visit_f64 f64
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let key: BorrowedStrDeserializer<'a, Error> = BorrowedStrDeserializer::new(self.0);
        de::Deserializer::deserialize_enum(key, name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        <W: Visitor<'a>>
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}
