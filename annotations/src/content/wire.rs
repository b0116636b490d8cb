//! The one writer of content's wire form: a block written by reference, for a protocol
//! version, field by field into any serializer. `Serialize for Content` writes the newest
//! version through it, copying nothing; [`Content::into_json`] builds the JSON value through it
//! too, and moves the block's one large string (its text, its base64 data, an embedded
//! resource's text or blob) into that value instead of copying it.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::content::resource::Body;
use crate::content::{Content, ContentAnnotations, EmbeddedResource};
use crate::protocol::ProtocolVersion;

/// A block as `version` writes it.
pub(crate) struct Wire<'a>(pub(crate) &'a Content, pub(crate) ProtocolVersion);

impl Serialize for Wire<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Wire(content, version) = *self;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", content.kind())?;
        match content {
            Content::Text(block) => map.serialize_entry("text", block.text())?,
            Content::Image(block) => {
                map.serialize_entry("data", block.data())?;
                map.serialize_entry("mimeType", block.mime_type().as_str())?;
            }
            Content::Audio(block) => {
                map.serialize_entry("data", block.data())?;
                map.serialize_entry("mimeType", block.mime_type().as_str())?;
            }
            Content::ResourceLink(link) => {
                map.serialize_entry("uri", link.uri())?;
                map.serialize_entry("name", link.name())?;
                if let Some(title) = link.title() {
                    map.serialize_entry("title", title)?;
                }
                if let Some(description) = link.description() {
                    map.serialize_entry("description", description)?;
                }
                if let Some(mime_type) = link.mime_type() {
                    map.serialize_entry("mimeType", mime_type.as_str())?;
                }
                if let Some(size) = link.size() {
                    map.serialize_entry("size", &size)?;
                }
                // Icons came with 2025-11-25.
                if !link.icons().is_empty() && version.has_icons() {
                    map.serialize_entry("icons", link.icons())?;
                }
            }
            Content::EmbeddedResource(resource) => {
                map.serialize_entry("resource", &Contents(resource))?;
            }
        }
        if let Some(annotations) = content.annotations() {
            map.serialize_entry("annotations", annotations)?;
        }
        if let Some(meta) = content.meta() {
            map.serialize_entry("_meta", meta)?;
        }
        map.end()
    }
}

/// An embedded resource's `resource` object: its URI, MIME type, text or blob, and `_meta`.
struct Contents<'a>(&'a EmbeddedResource);

impl Serialize for Contents<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let resource = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("uri", resource.uri())?;
        if let Some(mime_type) = resource.mime_type() {
            map.serialize_entry("mimeType", mime_type.as_str())?;
        }
        match &resource.body {
            Body::Text(text) => map.serialize_entry("text", text)?,
            Body::Blob(blob) => map.serialize_entry("blob", blob)?,
        }
        if let Some(meta) = resource.contents_meta() {
            map.serialize_entry("_meta", meta)?;
        }
        map.end()
    }
}

/// The protocol's content annotations object: `audience`, `priority`, `lastModified`, where
/// stated.
impl Serialize for ContentAnnotations {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some(audience) = self.audience() {
            let roles: Vec<&str> = audience.iter().map(|role| role.as_str()).collect();
            map.serialize_entry("audience", &roles)?;
        }
        if let Some(priority) = self.priority() {
            map.serialize_entry("priority", &priority.get())?;
        }
        if let Some(timestamp) = self.last_modified() {
            map.serialize_entry("lastModified", timestamp)?;
        }
        map.end()
    }
}

impl Content {
    /// The block as the protocol's JSON for `version` (moved, not copied: an image's base64
    /// text becomes the JSON string itself).
    #[must_use]
    pub fn into_json(mut self, version: ProtocolVersion) -> Value {
        // The large string is taken out, the writer writes the block around an empty one, and
        // the string is moved into its place.
        let (path, large): (&[&str], String) = match &mut self {
            Content::Text(block) => (&["text"], std::mem::take(&mut block.text)),
            Content::Image(block) => (&["data"], std::mem::take(&mut block.data)),
            Content::Audio(block) => (&["data"], std::mem::take(&mut block.data)),
            Content::EmbeddedResource(resource) => match &mut resource.body {
                Body::Text(text) => (&["resource", "text"], std::mem::take(text)),
                Body::Blob(blob) => (&["resource", "blob"], std::mem::take(blob)),
            },
            Content::ResourceLink(_) => (&[], String::new()),
        };
        // Keys are strings and numbers finite, so writing a value cannot fail.
        let mut value = serde_json::to_value(Wire(&self, version)).unwrap_or_default();
        if let Some(slot) = path
            .iter()
            .try_fold(&mut value, |value, key| value.get_mut(*key))
            .filter(|_| !path.is_empty())
        {
            *slot = Value::String(large);
        }
        value
    }
}

/// Written as the newest protocol version writes it ([`into_json`](Content::into_json) takes
/// a version), by reference: nothing of the block is copied.
impl Serialize for Content {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Wire(self, ProtocolVersion::LATEST).serialize(serializer)
    }
}
