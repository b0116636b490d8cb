//! Resources in a result: a link to one the client may read, or the resource itself.

use serde_json::{Map, Value};

use crate::content::base64::{self, field as base64_field};
use crate::content::extras::Extras;
use crate::protocol::error::ContentError;
use crate::protocol::icon::Icon;
use crate::protocol::meta::Meta;
use crate::protocol::mime::MimeType;
use crate::protocol::number::whole_u64;
use crate::protocol::read::{
    as_object, meta_of, mismatch, optional_mime, optional_string, present, required_string,
};

/// A link to a resource the client may read (`"type": "resource_link"`), rather than the
/// resource itself.
///
/// ```
/// use mcp_annotations::{content::MimeType, content::ResourceLink};
///
/// let report = ResourceLink::new("file:///reports/q3.pdf", "q3.pdf")
///     .with_title("Q3 report")
///     .with_mime_type(MimeType::PDF)
///     .with_size(48_213);
/// assert_eq!(report.uri(), "file:///reports/q3.pdf");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceLink {
    uri: String,
    name: String,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<MimeType>,
    size: Option<u64>,
    icons: Vec<Icon>,
    pub(crate) extras: Extras,
}

impl ResourceLink {
    /// A link to the resource at `uri`, called `name`.
    #[must_use]
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            icons: Vec::new(),
            extras: Extras::default(),
        }
    }

    /// Sets its display title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets its description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets its MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: MimeType) -> Self {
        self.mime_type = Some(mime_type);
        self
    }

    /// Sets its size in bytes.
    #[must_use]
    pub fn with_size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }

    /// Sets its icons.
    #[must_use]
    pub fn with_icons(mut self, icons: impl IntoIterator<Item = Icon>) -> Self {
        self.icons = icons.into_iter().collect();
        self
    }

    /// Its URI.
    #[must_use]
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its display title, if stated.
    #[must_use]
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// Its description, if stated.
    #[must_use]
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// Its MIME type, if stated.
    #[must_use]
    pub fn mime_type(&self) -> Option<&MimeType> {
        self.mime_type.as_ref()
    }

    /// Its size in bytes, if stated.
    #[must_use]
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// Its icons (empty if none).
    #[must_use]
    pub fn icons(&self) -> &[Icon] {
        &self.icons
    }

    pub(crate) fn read(object: &Map<String, Value>) -> Result<Self, ContentError> {
        let size = match present(object, "size") {
            None => None,
            // JSON Schema's integers include `1.0`.
            Some(Value::Number(number)) => Some(whole_u64(number).ok_or_else(|| {
                ContentError::new(
                    "size",
                    format!("expected a whole number of bytes, found {number}"),
                )
            })?),
            Some(other) => return Err(mismatch("size", "a whole number of bytes", other)),
        };
        let icons = match present(object, "icons") {
            None => Vec::new(),
            Some(Value::Array(icons)) => icons
                .iter()
                .enumerate()
                .map(|(i, icon)| Icon::read(icon).map_err(|e| e.within(&format!("icons[{i}]"))))
                .collect::<Result<_, _>>()?,
            Some(other) => return Err(mismatch("icons", "an array of icons", other)),
        };
        Ok(ResourceLink {
            uri: required_string(object, "uri")?,
            name: required_string(object, "name")?,
            title: optional_string(object, "title")?,
            description: optional_string(object, "description")?,
            mime_type: optional_mime(object)?,
            size,
            icons,
            extras: Extras::read(object)?,
        })
    }
}

/// What an embedded resource holds: text, or bytes as base64.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Body {
    Text(String),
    Blob(String),
}

/// A resource embedded in the result (`"type": "resource"`): its URI, its MIME type and its
/// contents, text or bytes.
///
/// ```
/// use mcp_annotations::{content::EmbeddedResource, content::MimeType};
///
/// let config = EmbeddedResource::text("file:///app/config.json", r#"{"debug":true}"#)
///     .with_mime_type(MimeType::JSON);
/// assert_eq!(config.text_contents(), Some(r#"{"debug":true}"#));
///
/// let logo = EmbeddedResource::blob("file:///app/logo.png", [0x89, b'P', b'N', b'G'])
///     .with_mime_type(MimeType::PNG);
/// assert_eq!(logo.blob_contents(), Some("iVBORw=="));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct EmbeddedResource {
    uri: String,
    mime_type: Option<MimeType>,
    pub(crate) body: Body,
    contents_meta: Option<Meta>,
    pub(crate) extras: Extras,
}

impl EmbeddedResource {
    /// A text resource at `uri`.
    #[must_use]
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        EmbeddedResource {
            uri: uri.into(),
            mime_type: None,
            body: Body::Text(text.into()),
            contents_meta: None,
            extras: Extras::default(),
        }
    }

    /// A binary resource at `uri`; the bytes are base64-encoded once, here.
    #[must_use]
    pub fn blob(uri: impl Into<String>, bytes: impl AsRef<[u8]>) -> Self {
        EmbeddedResource {
            uri: uri.into(),
            mime_type: None,
            body: Body::Blob(base64::encode(bytes.as_ref())),
            contents_meta: None,
            extras: Extras::default(),
        }
    }

    /// Sets its MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: MimeType) -> Self {
        self.mime_type = Some(mime_type);
        self
    }

    /// Sets the `_meta` of its contents (the `resource` object), as opposed to the block's
    /// own [`with_meta`](Self::with_meta).
    #[must_use]
    pub fn with_contents_meta(mut self, meta: Meta) -> Self {
        self.contents_meta = Some(meta);
        self
    }

    /// Its URI.
    #[must_use]
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Its MIME type, if stated.
    #[must_use]
    pub fn mime_type(&self) -> Option<&MimeType> {
        self.mime_type.as_ref()
    }

    /// Its text, for a text resource.
    #[must_use]
    pub fn text_contents(&self) -> Option<&str> {
        match &self.body {
            Body::Text(text) => Some(text),
            Body::Blob(_) => None,
        }
    }

    /// Its bytes as base64 text, for a binary resource.
    #[must_use]
    pub fn blob_contents(&self) -> Option<&str> {
        match &self.body {
            Body::Blob(blob) => Some(blob),
            Body::Text(_) => None,
        }
    }

    /// The `_meta` of its contents, if any.
    #[must_use]
    pub fn contents_meta(&self) -> Option<&Meta> {
        self.contents_meta.as_ref()
    }

    pub(crate) fn read(object: &Map<String, Value>) -> Result<Self, ContentError> {
        let resource = match present(object, "resource") {
            Some(value) => as_object(value, "resource")?,
            None => return Err(ContentError::new("resource", "missing")),
        };
        let contents = || -> Result<_, ContentError> {
            let body = match (present(resource, "text"), present(resource, "blob")) {
                (Some(_), Some(_)) => {
                    return Err(ContentError::new("", "has both `text` and `blob`"));
                }
                (Some(_), None) => Body::Text(required_string(resource, "text")?),
                (None, Some(_)) => Body::Blob(base64_field(resource, "blob")?),
                (None, None) => return Err(ContentError::new("", "has neither `text` nor `blob`")),
            };
            Ok((
                required_string(resource, "uri")?,
                optional_mime(resource)?,
                body,
                meta_of(resource)?,
            ))
        };
        let (uri, mime_type, body, contents_meta) =
            contents().map_err(|error| error.within("resource"))?;
        Ok(EmbeddedResource {
            uri,
            mime_type,
            body,
            contents_meta,
            extras: Extras::read(object)?,
        })
    }
}
