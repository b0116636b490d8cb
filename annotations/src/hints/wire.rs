//! The MCP wire form of [`ToolAnnotations`], written by hand rather than derived: reading must
//! name the field in its errors, treat `null` as unset and skip unknown keys, which serde's
//! derive cannot all do, and leaving serde_derive out keeps it out of every user's build.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::hints::{Hint, ToolAnnotations};

const TITLE: &str = "title";

impl Serialize for ToolAnnotations {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let stated = usize::from(self.title.is_some())
            + Hint::ALL
                .into_iter()
                .filter(|hint| self.hint(*hint).is_some())
                .count();
        let mut out = serializer.serialize_struct("ToolAnnotations", stated)?;
        match &self.title {
            Some(title) => out.serialize_field(TITLE, title)?,
            None => out.skip_field(TITLE)?,
        }
        for hint in Hint::ALL {
            match self.hint(hint) {
                Some(value) => out.serialize_field(hint.wire_name(), &value)?,
                None => out.skip_field(hint.wire_name())?,
            }
        }
        out.end()
    }
}

impl<'de> Deserialize<'de> for ToolAnnotations {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(AnnotationsVisitor)
    }
}

struct AnnotationsVisitor;

impl<'de> Visitor<'de> for AnnotationsVisitor {
    type Value = ToolAnnotations;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MCP tool annotations (an object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // The outer `Option` says whether the key was present (even as `null`).
        let mut title = None;
        let mut hints: [Option<Option<bool>>; Hint::ALL.len()] = [None; Hint::ALL.len()];
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Title => first(&mut title, TITLE, map.next_value_seed(TitleSeed)?)?,
                Key::Hint(at) => {
                    let name = Hint::ALL[at].wire_name();
                    first(&mut hints[at], name, map.next_value_seed(HintSeed(name))?)?;
                }
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let mut annotations = ToolAnnotations::new();
        annotations.title = title.flatten();
        for (hint, value) in Hint::ALL.into_iter().zip(hints) {
            annotations.set_hint(hint, value.flatten());
        }
        Ok(annotations)
    }
}

/// Stores the value of a key seen for the first time; a key seen twice is an error, as the
/// second value would otherwise silently win.
fn first<T, E: de::Error>(slot: &mut Option<T>, name: &'static str, value: T) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(name));
    }
    *slot = Some(value);
    Ok(())
}

/// A key of the annotations object; every key not in the protocol is `Other`.
#[derive(Clone, Copy)]
enum Key {
    Title,
    /// The hint at this place of [`Hint::ALL`].
    Hint(usize),
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a key of MCP tool annotations, such as one of [{TITLE:?}"
        )?;
        for hint in Hint::ALL {
            write!(f, ", {:?}", hint.wire_name())?;
        }
        f.write_str("]")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        if key == TITLE {
            return Ok(Key::Title);
        }
        Ok(Hint::ALL
            .iter()
            .position(|hint| hint.wire_name() == key)
            .map_or(Key::Other, Key::Hint))
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<Key, E> {
        Ok(std::str::from_utf8(key).map_or(Key::Other, |key| {
            self.visit_str::<E>(key).unwrap_or(Key::Other)
        }))
    }

    // Formats whose maps have non-string keys: such a key is not one of ours, so skip it.
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Key, E> {
        Ok(Key::Other)
    }
}

/// Reads one hint: a boolean, or `null` for unset. Errors name the field.
struct HintSeed(&'static str);

impl<'de> DeserializeSeed<'de> for HintSeed {
    type Value = Option<bool>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for HintSeed {
    type Value = Option<bool>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a boolean or null for `{}`", self.0)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_bool(self)
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Self::Value, E> {
        Ok(Some(value))
    }
}

/// Reads the title: a string, or `null` for unset. Errors name the field.
struct TitleSeed;

impl<'de> DeserializeSeed<'de> for TitleSeed {
    type Value = Option<Cow<'static, str>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for TitleSeed {
    type Value = Option<Cow<'static, str>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a string or null for `{TITLE}`")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_string(self)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(value.to_owned())))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(value)))
    }
}
