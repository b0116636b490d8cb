//! The blocks of a tool result's content, as the protocol's `ContentBlock` has them: text,
//! image, audio, a link to a resource and an embedded resource, each with optional content
//! [annotations](ContentAnnotations) and `_meta`.
//!
//! What cannot be true is refused where it is built: a MIME type that is not `type/subtype`,
//! a priority outside 0 to 1, `data` that is not base64. Bytes are encoded once, when the
//! block is made; the encoded text is moved, never copied, on its way to the wire.

pub(crate) mod annotations;
pub(crate) mod base64;
pub(crate) mod binary;
pub(crate) mod extras;
pub(crate) mod resource;
pub(crate) mod text;
pub(crate) mod wire;

use serde_json::Value;

use crate::content::extras::{Extras, extras};
use crate::protocol::read::{as_object, required_string};

pub use self::annotations::{ContentAnnotations, Priority, Role};
pub use self::binary::{Audio, Image};
pub use self::resource::{EmbeddedResource, ResourceLink};
pub use self::text::TextContent;
pub use crate::protocol::{ContentError, Meta, MimeType};

extras!(
    TextContent => Text,
    Image => Image,
    Audio => Audio,
    ResourceLink => ResourceLink,
    EmbeddedResource => EmbeddedResource
);

/// One block of a tool result's content: what the model (or the user) reads or sees.
///
/// ```
/// use mcp_annotations::{content::Content, content::EmbeddedResource, content::Image, content::MimeType};
///
/// let blocks = vec![
///     Content::text("Here is the chart:"),
///     Image::png(b"...png bytes...").into(),
///     EmbeddedResource::text("file:///chart.csv", "x,y\n1,2\n").with_mime_type(MimeType::parse("text/csv")?).into(),
/// ];
/// assert_eq!(blocks[0].as_text(), Some("Here is the chart:"));
/// # Ok::<(), mcp_annotations::content::ContentError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Content {
    /// Text (`"type": "text"`).
    Text(TextContent),
    /// An image (`"type": "image"`).
    Image(Image),
    /// Audio (`"type": "audio"`).
    Audio(Audio),
    /// A link to a resource (`"type": "resource_link"`).
    ResourceLink(ResourceLink),
    /// An embedded resource (`"type": "resource"`).
    EmbeddedResource(EmbeddedResource),
}

impl Content {
    /// A text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text(TextContent::new(text))
    }

    /// The text of a text block.
    #[must_use]
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(&text.text),
            _ => None,
        }
    }

    /// The protocol's name of the block's type (`"text"`, `"image"`, `"audio"`,
    /// `"resource_link"`, `"resource"`).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Content::Text(_) => "text",
            Content::Image(_) => "image",
            Content::Audio(_) => "audio",
            Content::ResourceLink(_) => "resource_link",
            Content::EmbeddedResource(_) => "resource",
        }
    }

    /// Sets the block's content annotations.
    #[must_use]
    pub fn with_annotations(self, annotations: ContentAnnotations) -> Self {
        match self {
            Content::Text(block) => block.with_annotations(annotations).into(),
            Content::Image(block) => block.with_annotations(annotations).into(),
            Content::Audio(block) => block.with_annotations(annotations).into(),
            Content::ResourceLink(block) => block.with_annotations(annotations).into(),
            Content::EmbeddedResource(block) => block.with_annotations(annotations).into(),
        }
    }

    /// Sets the block's `_meta`.
    #[must_use]
    pub fn with_meta(self, meta: Meta) -> Self {
        match self {
            Content::Text(block) => block.with_meta(meta).into(),
            Content::Image(block) => block.with_meta(meta).into(),
            Content::Audio(block) => block.with_meta(meta).into(),
            Content::ResourceLink(block) => block.with_meta(meta).into(),
            Content::EmbeddedResource(block) => block.with_meta(meta).into(),
        }
    }

    /// The block's content annotations, if any.
    #[must_use]
    pub fn annotations(&self) -> Option<&ContentAnnotations> {
        self.extras().annotations.as_ref()
    }

    /// The block's `_meta`, if any.
    #[must_use]
    pub fn meta(&self) -> Option<&Meta> {
        self.extras().meta.as_ref()
    }

    fn extras(&self) -> &Extras {
        match self {
            Content::Text(block) => &block.extras,
            Content::Image(block) => &block.extras,
            Content::Audio(block) => &block.extras,
            Content::ResourceLink(block) => &block.extras,
            Content::EmbeddedResource(block) => &block.extras,
        }
    }

    /// Reads a block from a peer's JSON (any of the protocol versions; unknown keys are
    /// skipped, `null` is unset).
    ///
    /// # Errors
    ///
    /// A [`ContentError`] naming the field: a missing or unknown `type`, a field of the wrong
    /// type, `data` that is not base64, a MIME type that is not `type/subtype`, a priority
    /// outside 0 to 1, an `audience` other than `user` and `assistant`.
    pub fn from_json(value: &Value) -> Result<Self, ContentError> {
        let object = as_object(value, "")?;
        let kind = required_string(object, "type")?;
        match kind.as_str() {
            "text" => Ok(Content::Text(TextContent {
                text: required_string(object, "text")?,
                extras: Extras::read(object)?,
            })),
            "image" => Image::read(object).map(Content::Image),
            "audio" => Audio::read(object).map(Content::Audio),
            "resource_link" => ResourceLink::read(object).map(Content::ResourceLink),
            "resource" => EmbeddedResource::read(object).map(Content::EmbeddedResource),
            other => Err(ContentError::new(
                "type",
                format!(
                    "unknown content type `{other}` (expected `text`, `image`, `audio`, `resource_link` or `resource`)"
                ),
            )),
        }
    }

    pub(crate) fn read_at(value: &Value, place: &str) -> Result<Self, ContentError> {
        Content::from_json(value).map_err(|error| error.within(place))
    }
}

/// Read as [`Content::from_json`] reads it, with its errors.
impl<'de> serde::Deserialize<'de> for Content {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Content::from_json(&value).map_err(serde::de::Error::custom)
    }
}

impl From<String> for Content {
    fn from(text: String) -> Content {
        Content::text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Content {
        Content::text(text)
    }
}
