//! Where an observation holds a set: the JSON pointers of every value whose type is a
//! `HashSet` or a `BTreeSet` (behind references, `Box`, `Rc`, `Arc`, `Mutex`, `RwLock`,
//! `RefCell` or `Cow`), found by walking the value as serde serializes it and naming each
//! field's, element's and entry's type. serde writes a set as it writes a `Vec`; the type is
//! the only thing that tells them apart, and a `HashSet`'s order is its hasher's, which an
//! insert that changes nothing may still reshuffle (it makes room first).
//!
//! A set serialized through a type of the user's own that hands serde the set itself (a
//! `#[serde(transparent)]` newtype, an untagged enum's newtype variant) names that type, not
//! the set's: it is not found, and `Verify::unordered` names it.

use serde::Serialize;
use serde::ser;
use std::fmt;

/// The pointer of every set in `value`, `""` for `value` itself, each key escaped as a JSON
/// pointer's. A value that fails to serialize is walked as far as it goes (its JSON is what
/// reports the failure).
pub(crate) fn pointers<T: Serialize + ?Sized>(value: &T) -> Vec<String> {
    let mut found = Vec::new();
    let _ = enter(value, String::new(), &mut found);
    found
}

/// Whether a type's name, wrappers peeled off, is a set's.
fn is_set(mut name: &str) -> bool {
    loop {
        name = name.trim_start_matches('&').trim_start_matches("mut ");
        let Some(open) = name.find('<') else {
            return false;
        };
        // A path and its parameters: an array, a slice or a tuple of sets is not a set.
        let path = &name[..open];
        if !path
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
        {
            return false;
        }
        let outer = path.rsplit("::").next().unwrap_or_default();
        match outer {
            "HashSet" | "BTreeSet" => return true,
            "Box" | "Rc" | "Arc" | "Mutex" | "RwLock" | "RefCell" | "Cow" => {
                name = name[open + 1..].trim_end_matches('>');
            }
            _ => return false,
        }
    }
}

/// Walks `value` at `at`, noting `at` when its type is a set's.
fn enter<T: Serialize + ?Sized>(
    value: &T,
    at: String,
    found: &mut Vec<String>,
) -> Result<(), Stop> {
    if is_set(std::any::type_name::<T>()) && !found.contains(&at) {
        found.push(at.clone());
    }
    value.serialize(Walker { at, found })
}

/// `at` with one more step, escaped as a JSON pointer's segment.
fn step(at: &str, segment: &str) -> String {
    format!("{at}/{}", crate::compare::escape(segment))
}

/// The walk stopped: the value did not serialize.
#[derive(Debug)]
struct Stop(String);

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<M: fmt::Display>(message: M) -> Self {
        Stop(message.to_string())
    }
}

/// One value's place in the walk.
struct Walker<'f> {
    at: String,
    found: &'f mut Vec<String>,
}

/// A compound value's place, and its next index or the key of the entry being written.
struct Compound<'f> {
    at: String,
    found: &'f mut Vec<String>,
    index: usize,
    key: String,
}

impl<'f> Compound<'f> {
    fn new(at: String, found: &'f mut Vec<String>) -> Self {
        Compound {
            at,
            found,
            index: 0,
            key: String::new(),
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        let at = step(&self.at, &self.index.to_string());
        self.index += 1;
        enter(value, at, self.found)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Stop> {
        enter(value, step(&self.at, key), self.found)
    }
}

macro_rules! leaves {
    ($($method:ident($($ty:ty),*);)*) => {
        $(fn $method(self, $(_: $ty),*) -> Result<(), Stop> { Ok(()) })*
    };
}

impl<'f> ser::Serializer for Walker<'f> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Compound<'f>;
    type SerializeTuple = Compound<'f>;
    type SerializeTupleStruct = Compound<'f>;
    type SerializeTupleVariant = Compound<'f>;
    type SerializeMap = Compound<'f>;
    type SerializeStruct = Compound<'f>;
    type SerializeStructVariant = Compound<'f>;

    leaves! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_i128(i128);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_u128(u128);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Stop> {
        enter(value, self.at, self.found)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        enter(value, self.at, self.found)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        enter(value, step(&self.at, variant), self.found)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'f>, Stop> {
        Ok(Compound::new(self.at, self.found))
    }

    fn serialize_tuple(self, _: usize) -> Result<Compound<'f>, Stop> {
        Ok(Compound::new(self.at, self.found))
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'f>, Stop> {
        Ok(Compound::new(self.at, self.found))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'f>, Stop> {
        Ok(Compound::new(step(&self.at, variant), self.found))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'f>, Stop> {
        Ok(Compound::new(self.at, self.found))
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'f>, Stop> {
        Ok(Compound::new(self.at, self.found))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'f>, Stop> {
        Ok(Compound::new(step(&self.at, variant), self.found))
    }
}

/// The compound serializers whose items are numbered (`/0`, `/1`, ...), each by `$method`.
macro_rules! positional {
    ($($trait:ident :: $method:ident;)*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Stop;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
                self.element(value)
            }

            fn end(self) -> Result<(), Stop> {
                Ok(())
            }
        }
    )*};
}

positional! {
    SerializeSeq::serialize_element;
    SerializeTuple::serialize_element;
    SerializeTupleStruct::serialize_field;
    SerializeTupleVariant::serialize_field;
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Stop;

    /// The key as serde_json writes it: a string as itself, anything else as its JSON text.
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Stop> {
        self.key = match serde_json::to_value(key) {
            Ok(serde_json::Value::String(text)) => text,
            Ok(other) => other.to_string(),
            Err(error) => return Err(Stop(error.to_string())),
        };
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        let key = std::mem::take(&mut self.key);
        self.field(&key, value)
    }

    fn end(self) -> Result<(), Stop> {
        Ok(())
    }
}

/// The compound serializers whose items are named fields.
macro_rules! named {
    ($($trait:ident;)*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Stop;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Stop> {
                self.field(key, value)
            }

            fn end(self) -> Result<(), Stop> {
                Ok(())
            }
        }
    )*};
}

named! {
    SerializeStruct;
    SerializeStructVariant;
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
    use std::sync::{Arc, Mutex};

    use serde::Serialize;

    use super::{is_set, pointers};

    #[derive(Serialize)]
    struct Store {
        tags: HashSet<String>,
        list: Vec<String>,
        shared: Arc<Mutex<BTreeSet<u8>>>,
        maybe: Option<HashSet<u8>>,
        by_user: HashMap<String, HashSet<u8>>,
        #[serde(rename = "a/b")]
        odd: Vec<HashSet<u8>>,
    }

    #[test]
    fn every_set_is_found_where_serde_writes_it_and_nothing_else() {
        let store = Store {
            tags: HashSet::from(["x".to_owned()]),
            list: vec!["y".to_owned()],
            shared: Arc::new(Mutex::new(BTreeSet::from([1]))),
            maybe: Some(HashSet::from([2])),
            by_user: HashMap::from([("ann".to_owned(), HashSet::from([3]))]),
            odd: vec![HashSet::new(), HashSet::from([4])],
        };
        let mut found = pointers(&store);
        found.sort();
        assert_eq!(
            found,
            [
                "/a~1b/0",
                "/a~1b/1",
                "/by_user/ann",
                "/maybe",
                "/shared",
                "/tags"
            ]
        );
        assert_eq!(pointers(&HashSet::from([1u8])), [""]);
        assert!(pointers(&vec![1u8]).is_empty());
    }

    #[test]
    fn a_set_under_an_empty_key_is_put_in_order_where_it_is() {
        let inner = BTreeMap::from([("tags", HashSet::from([2u8, 1]))]);
        let value = BTreeMap::from([("", inner)]);
        let found = pointers(&value);
        assert_eq!(found, ["//tags"]);
        let mut json = serde_json::json!({"": {"tags": [2, 1]}, "tags": [9, 8]});
        crate::observe::as_sets(&mut json, &found);
        assert_eq!(
            json,
            serde_json::json!({"": {"tags": [1, 2]}, "tags": [9, 8]})
        );
    }

    #[test]
    fn a_set_is_told_by_its_type_behind_its_wrappers() {
        assert!(is_set(
            "&std::collections::hash::set::HashSet<alloc::string::String>"
        ));
        assert!(is_set(
            "alloc::sync::Arc<std::sync::poison::mutex::Mutex<alloc::collections::btree::set::BTreeSet<u8>>>"
        ));
        assert!(!is_set(
            "alloc::vec::Vec<std::collections::hash::set::HashSet<u8>>"
        ));
        assert!(!is_set("std::collections::hash::map::HashMap<u8, u8>"));
        assert!(!is_set("u8"));
        // Positions matter in an array, a slice and a tuple, whatever they hold.
        assert!(!is_set("[alloc::collections::btree::set::BTreeSet<u8>; 3]"));
        assert!(!is_set(
            "alloc::boxed::Box<[std::collections::hash::set::HashSet<u8>]>"
        ));
        assert!(!is_set(
            "(alloc::collections::btree::set::BTreeSet<u8>, alloc::vec::Vec<u8>)"
        ));
    }
}
