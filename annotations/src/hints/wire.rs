//! The MCP wire form of [`ToolAnnotations`], written by hand rather than derived: reading must
//! name the field in its errors, treat `null` as unset and skip unknown keys, which serde's
//! derive cannot all do, and leaving serde_derive out keeps it out of every user's build.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::hints::ToolAnnotations;

const TITLE: &str = "title";
const READ_ONLY: &str = "readOnlyHint";
const DESTRUCTIVE: &str = "destructiveHint";
const IDEMPOTENT: &str = "idempotentHint";
const OPEN_WORLD: &str = "openWorldHint";
const FIELDS: &[&str] = &[TITLE, READ_ONLY, DESTRUCTIVE, IDEMPOTENT, OPEN_WORLD];

impl Serialize for ToolAnnotations {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let stated = usize::from(self.title.is_some())
            + usize::from(self.read_only_hint.is_some())
            + usize::from(self.destructive_hint.is_some())
            + usize::from(self.idempotent_hint.is_some())
            + usize::from(self.open_world_hint.is_some());
        let mut out = serializer.serialize_struct("ToolAnnotations", stated)?;
        match &self.title {
            Some(title) => out.serialize_field(TITLE, title)?,
            None => out.skip_field(TITLE)?,
        }
        for (name, hint) in [
            (READ_ONLY, self.read_only_hint),
            (DESTRUCTIVE, self.destructive_hint),
            (IDEMPOTENT, self.idempotent_hint),
            (OPEN_WORLD, self.open_world_hint),
        ] {
            match hint {
                Some(value) => out.serialize_field(name, &value)?,
                None => out.skip_field(name)?,
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
        let mut read_only = None;
        let mut destructive = None;
        let mut idempotent = None;
        let mut open_world = None;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Title => first(&mut title, TITLE, map.next_value_seed(TitleSeed)?)?,
                Key::ReadOnly => read_hint(&mut map, &mut read_only, READ_ONLY)?,
                Key::Destructive => read_hint(&mut map, &mut destructive, DESTRUCTIVE)?,
                Key::Idempotent => read_hint(&mut map, &mut idempotent, IDEMPOTENT)?,
                Key::OpenWorld => read_hint(&mut map, &mut open_world, OPEN_WORLD)?,
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(ToolAnnotations {
            title: title.flatten(),
            read_only_hint: read_only.flatten(),
            destructive_hint: destructive.flatten(),
            idempotent_hint: idempotent.flatten(),
            open_world_hint: open_world.flatten(),
        })
    }
}

/// Reads the value of hint `name` into its slot.
fn read_hint<'de, A: MapAccess<'de>>(
    map: &mut A,
    slot: &mut Option<Option<bool>>,
    name: &'static str,
) -> Result<(), A::Error> {
    first(slot, name, map.next_value_seed(HintSeed(name))?)
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
    ReadOnly,
    Destructive,
    Idempotent,
    OpenWorld,
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
            "a key of MCP tool annotations, such as one of {FIELDS:?}"
        )
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        Ok(match key {
            TITLE => Key::Title,
            READ_ONLY => Key::ReadOnly,
            DESTRUCTIVE => Key::Destructive,
            IDEMPOTENT => Key::Idempotent,
            OPEN_WORLD => Key::OpenWorld,
            _ => Key::Other,
        })
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
