//! The MCP wire form of [`Tool`](struct@Tool), by hand like the annotations': errors name the field, `null`
//! reads as unset, unknown keys are skipped, a key given twice is an error.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::hints::ToolAnnotations;
use crate::protocol::ProtocolVersion;
use crate::schema::Schema;
use crate::tool::{TaskSupport, Tool};

/// Written as the newest protocol version lists it, field for field what
/// [`Listing::render`](crate::listing::Listing::render) writes for
/// [`ProtocolVersion::LATEST`] (the annotations as stated) to a client that declared tool
/// resolution (a resolvable tool carries its marker).
impl Serialize for Tool {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let listed = self.listed(ProtocolVersion::LATEST, false, true);
        let fields = 2
            + usize::from(self.title.is_some())
            + usize::from(self.description.is_some())
            + usize::from(listed.output_schema.is_some())
            + usize::from(listed.annotations.is_some())
            + usize::from(!listed.icons.is_empty())
            + usize::from(listed.task_support.is_some())
            + usize::from(listed.meta.is_some());
        let mut out = serializer.serialize_struct("Tool", fields)?;
        out.serialize_field("name", self.name())?;
        match self.title() {
            Some(title) => out.serialize_field("title", title)?,
            None => out.skip_field("title")?,
        }
        match self.description() {
            Some(description) => out.serialize_field("description", description)?,
            None => out.skip_field("description")?,
        }
        out.serialize_field("inputSchema", &self.input_schema)?;
        match &listed.output_schema {
            Some(schema) => out.serialize_field("outputSchema", &json_text::<S>(schema)?)?,
            None => out.skip_field("outputSchema")?,
        }
        match &listed.annotations {
            Some(annotations) => out.serialize_field("annotations", annotations.as_ref())?,
            None => out.skip_field("annotations")?,
        }
        if listed.icons.is_empty() {
            out.skip_field("icons")?;
        } else {
            out.serialize_field("icons", listed.icons)?;
        }
        match listed.task_support {
            Some(support) => out.serialize_field("execution", &Execution(support))?,
            None => out.skip_field("execution")?,
        }
        match &listed.meta {
            Some(meta) => out.serialize_field("_meta", &json_text::<S>(meta)?)?,
            None => out.skip_field("_meta")?,
        }
        out.end()
    }
}

/// JSON text the crate wrote or checked, as a value any serializer takes.
fn json_text<S: Serializer>(text: &str) -> Result<Value, S::Error> {
    serde_json::from_str(text).map_err(serde::ser::Error::custom)
}

/// `{"taskSupport": "..."}`.
struct Execution(TaskSupport);

impl Serialize for Execution {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Execution", 1)?;
        out.serialize_field("taskSupport", self.0.as_str())?;
        out.end()
    }
}

/// The schema as its JSON value (any serializer, not only JSON).
impl Serialize for Schema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let value: Value =
            serde_json::from_str(self.as_str()).map_err(serde::ser::Error::custom)?;
        value.serialize(serializer)
    }
}

/// A JSON object; anything else is an error.
impl<'de> Deserialize<'de> for Schema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Schema::from_value(value).map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for Tool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ToolVisitor)
    }
}

struct ToolVisitor;

/// Stores a key's value the first time it is seen.
fn first<T, E: de::Error>(slot: &mut Option<T>, name: &'static str, value: T) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(name));
    }
    *slot = Some(value);
    Ok(())
}

/// An optional field: a value of `T`, or `null` for unset. The error names the field.
fn optional<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    name: &'static str,
) -> Result<Option<T>, A::Error> {
    map.next_value::<Option<T>>()
        .map_err(|error| de::Error::custom(format_args!("invalid `{name}`: {error}")))
}

impl<'de> Visitor<'de> for ToolVisitor {
    type Value = Tool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an MCP tool (an object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tool, A::Error> {
        let mut name: Option<Option<String>> = None;
        let mut title: Option<Option<String>> = None;
        let mut description: Option<Option<String>> = None;
        let mut input: Option<Option<Schema>> = None;
        let mut output: Option<Option<Schema>> = None;
        let mut annotations: Option<Option<ToolAnnotations>> = None;
        let mut icons: Option<Option<Vec<Value>>> = None;
        let mut execution: Option<Option<serde_json::Map<String, Value>>> = None;
        let mut meta: Option<Option<serde_json::Map<String, Value>>> = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match &*key {
                "name" => first(&mut name, "name", optional(&mut map, "name")?)?,
                "title" => first(&mut title, "title", optional(&mut map, "title")?)?,
                "description" => first(
                    &mut description,
                    "description",
                    optional(&mut map, "description")?,
                )?,
                "inputSchema" => first(
                    &mut input,
                    "inputSchema",
                    optional(&mut map, "inputSchema")?,
                )?,
                "outputSchema" => first(
                    &mut output,
                    "outputSchema",
                    optional(&mut map, "outputSchema")?,
                )?,
                "annotations" => first(
                    &mut annotations,
                    "annotations",
                    optional(&mut map, "annotations")?,
                )?,
                "icons" => first(&mut icons, "icons", optional(&mut map, "icons")?)?,
                "execution" => first(
                    &mut execution,
                    "execution",
                    optional(&mut map, "execution")?,
                )?,
                "_meta" => first(&mut meta, "_meta", optional(&mut map, "_meta")?)?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let name = name
            .flatten()
            .ok_or_else(|| de::Error::missing_field("name"))?;
        let input_schema = input
            .flatten()
            .ok_or_else(|| de::Error::missing_field("inputSchema"))?;
        let icons = icons
            .flatten()
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(i, icon)| {
                crate::protocol::Icon::read(icon).map_err(|error| {
                    de::Error::custom(format_args!("invalid `icons[{i}]`: {error}"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let task_support = match execution
            .flatten()
            .as_ref()
            .and_then(|e| e.get("taskSupport"))
        {
            None | Some(Value::Null) => None,
            Some(value) => Some(value.as_str().and_then(TaskSupport::parse).ok_or_else(|| {
                de::Error::custom(format_args!(
                    "invalid `execution.taskSupport`: expected \"forbidden\", \"optional\" or \"required\", found {value}"
                ))
            })?),
        };
        let mut meta: Option<serde_json::Map<String, Value>> = meta.flatten();
        // Marked by the peer: `_meta["io.modelcontextprotocol/tool-resolution"].resolvable`.
        // The field records it, and the marker leaves the `_meta` kept (it is written again
        // from the field), so that the two cannot disagree and a tool reads back equal.
        let marker = meta
            .as_mut()
            .and_then(|meta| meta.remove(crate::protocol::TOOL_RESOLUTION));
        let resolvable =
            marker.as_ref().and_then(|marker| marker.get("resolvable")) == Some(&Value::Bool(true));
        if meta.as_ref().is_some_and(serde_json::Map::is_empty) && marker.is_some() {
            meta = None;
        }
        Ok(Tool {
            name: Cow::Owned(name),
            title: title.flatten().map(Cow::Owned),
            description: description.flatten().map(Cow::Owned),
            input_schema,
            output_schema: output.flatten(),
            annotations: annotations.flatten().unwrap_or_default(),
            icons: Cow::Owned(icons),
            task_support,
            meta: meta.map(|meta| Cow::Owned(Value::Object(meta).to_string())),
            // What the server groups its tools by is not on the wire.
            toolsets: &[],
            scopes: &[],
            resolvable,
            __non_exhaustive: crate::tool::NonExhaustive,
        })
    }
}
