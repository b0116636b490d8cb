//! Serializing a `Json` result without losing a number: serde_json writes a NaN or an infinity
//! as `null`, which no schema of a number accepts. [`Finite`] serializes a value through a
//! serializer that refuses them instead, at every depth, so such a result is a failed result;
//! and an integer past 64 bits where the build's JSON values cannot hold it.

use serde::ser::{self, Serialize, Serializer};

use crate::protocol::number::exact_wide;

/// `value`, serialized with every non-finite float refused.
pub(crate) struct Finite<'a, T: ?Sized>(pub(crate) &'a T);

impl<T: Serialize + ?Sized> Serialize for Finite<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Checked(serializer))
    }
}

/// A serializer that passes everything to `S` but non-finite floats.
struct Checked<S>(S);

fn not_finite<E: ser::Error>(float: f64) -> E {
    E::custom(format_args!(
        "{float} is not a JSON number (serde_json would write it as null)"
    ))
}

/// An integer past 64 bits, in a build whose JSON values cannot hold it: the listed output
/// schema of a 128-bit type ends at 64 bits there (see `wide_integer`), so it is refused, not
/// written as a float.
fn not_held<E: ser::Error>(integer: impl std::fmt::Display) -> E {
    E::custom(format_args!(
        "{integer} is past 64 bits, which a JSON value holds only with serde_json's \
         `arbitrary_precision` feature"
    ))
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {$(
        fn $method(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> {
            self.0.$method($($arg),*)
        }
    )*};
}

impl<S: Serializer> Serializer for Checked<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Checked<S::SerializeSeq>;
    type SerializeTuple = Checked<S::SerializeTuple>;
    type SerializeTupleStruct = Checked<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Checked<S::SerializeTupleVariant>;
    type SerializeMap = Checked<S::SerializeMap>;
    type SerializeStruct = Checked<S::SerializeStruct>;
    type SerializeStructVariant = Checked<S::SerializeStructVariant>;

    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            self.0.serialize_f32(v)
        } else {
            Err(not_finite(f64::from(v)))
        }
    }

    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            self.0.serialize_f64(v)
        } else {
            Err(not_finite(v))
        }
    }

    forward! {
        serialize_bool(v: bool) serialize_i8(v: i8) serialize_i16(v: i16) serialize_i32(v: i32)
        serialize_i64(v: i64) serialize_u8(v: u8) serialize_u16(v: u16)
        serialize_u32(v: u32) serialize_u64(v: u64)
        serialize_char(v: char) serialize_str(v: &str) serialize_bytes(v: &[u8])
        serialize_none() serialize_unit() serialize_unit_struct(name: &'static str)
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str)
    }

    fn serialize_i128(self, v: i128) -> Result<S::Ok, S::Error> {
        match (i64::try_from(v), u64::try_from(v)) {
            (Ok(v), _) => self.0.serialize_i64(v),
            (_, Ok(v)) => self.0.serialize_u64(v),
            _ if exact_wide() => self.0.serialize_i128(v),
            _ => Err(not_held(v)),
        }
    }

    fn serialize_u128(self, v: u128) -> Result<S::Ok, S::Error> {
        match u64::try_from(v) {
            Ok(v) => self.0.serialize_u64(v),
            _ if exact_wide() => self.0.serialize_u128(v),
            _ => Err(not_held(v)),
        }
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Finite(value))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &Finite(value))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, &Finite(value))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(Checked)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(Checked)
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(Checked)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0
            .serialize_tuple_variant(name, index, variant, len)
            .map(Checked)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(Checked)
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(Checked)
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0
            .serialize_struct_variant(name, index, variant, len)
            .map(Checked)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! compound {
    ($($trait:ident { $($method:ident($($arg:ident: $ty:ty),*);)* })*) => {$(
        impl<S: ser::$trait> ser::$trait for Checked<S> {
            type Ok = S::Ok;
            type Error = S::Error;

            $(
                fn $method<T: Serialize + ?Sized>(&mut self, $($arg: $ty,)* value: &T) -> Result<(), S::Error> {
                    self.0.$method($($arg,)* &Finite(value))
                }
            )*

            fn end(self) -> Result<S::Ok, S::Error> {
                self.0.end()
            }
        }
    )*};
}

compound! {
    SerializeSeq { serialize_element(); }
    SerializeTuple { serialize_element(); }
    SerializeTupleStruct { serialize_field(); }
    SerializeTupleVariant { serialize_field(); }
    SerializeStruct { serialize_field(key: &'static str); }
    SerializeStructVariant { serialize_field(key: &'static str); }
}

impl<S: ser::SerializeMap> ser::SerializeMap for Checked<S> {
    type Ok = S::Ok;
    type Error = S::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), S::Error> {
        self.0.serialize_key(&Finite(key))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), S::Error> {
        self.0.serialize_value(&Finite(value))
    }

    fn end(self) -> Result<S::Ok, S::Error> {
        self.0.end()
    }
}
