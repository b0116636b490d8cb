//! The blocks of a tool result's content, as the protocol's `ContentBlock` has them: text,
//! image, audio, a link to a resource and an embedded resource, each with optional content
//! [annotations](ContentAnnotations) and `_meta`.
//!
//! What cannot be true is refused where it is built: a MIME type that is not `type/subtype`,
//! a priority outside 0 to 1, `data` that is not base64. Bytes are encoded once, when the
//! block is made; the encoded text is moved, never copied, on its way to the wire.

use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Value};

use crate::ProtocolVersion;
use crate::call::base64;

/// A block's `_meta`: a JSON object.
pub type Meta = Map<String, Value>;

/// What went wrong building or reading a content block or a result: the field, as a path
/// from the value read (`content[1].mimeType`), and why.
///
/// ```
/// use annotations::{Content, MimeType, Priority};
///
/// assert_eq!(Priority::new(2.0).unwrap_err().to_string(), "`priority`: 2 is outside 0 to 1");
/// assert!(MimeType::parse("png").is_err());
///
/// let read = serde_json::from_value::<Content>(serde_json::json!({"type": "image", "data": "%%", "mimeType": "image/png"}));
/// assert!(read.unwrap_err().to_string().contains("`data`: not base64"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentError {
    field: String,
    message: String,
}

impl ContentError {
    pub(crate) fn at(field: impl Into<String>, message: impl Into<String>) -> Self {
        ContentError::new(field, message)
    }

    fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ContentError {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The field that is wrong, as a path from the value read (`content[1].mimeType`).
    #[must_use]
    pub fn field(&self) -> &str {
        &self.field
    }

    /// Why it is wrong.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error, for a field inside `outer`.
    fn within(mut self, outer: &str) -> Self {
        self.field = if self.field.is_empty() {
            outer.to_owned()
        } else if self.field.starts_with('[') {
            format!("{outer}{}", self.field)
        } else {
            format!("{outer}.{}", self.field)
        };
        self
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "`{}`: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for ContentError {}

// ---------------------------------------------------------------------------------------------
// MIME types and priorities

/// A MIME type, checked where it is made: `type/subtype`, each a name of 1 to 127 letters,
/// digits and `!#$&-^_.+` (RFC 6838) starting with a letter or digit, then optionally `;` and
/// parameters, of which only the absence of control characters is checked. Spaces may come
/// before the `;`, nowhere else in `type/subtype`.
///
/// ```
/// use annotations::MimeType;
///
/// const CHART: MimeType = MimeType::from_static("image/svg+xml");
/// assert_eq!(CHART.as_str(), "image/svg+xml");
/// assert!(MimeType::parse("text/plain; charset=utf-8").is_ok());
/// assert!(MimeType::parse("image").is_err());
/// ```
///
/// In a `const`, a literal that is not a MIME type is a compile error:
///
/// ```compile_fail
/// const BAD: annotations::MimeType = annotations::MimeType::from_static("png");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MimeType(std::borrow::Cow<'static, str>);

/// Whether `byte` may be in a type or subtype name (RFC 6838's `restricted-name`).
const fn name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'!' | b'#' | b'$' | b'&' | b'-' | b'^' | b'_' | b'.' | b'+'
        )
}

/// Whether `bytes[start..end]` is a type or subtype name: 1 to 127 name characters, the
/// first a letter or digit.
const fn is_name(bytes: &[u8], start: usize, end: usize) -> bool {
    if end <= start || end - start > 127 || !bytes[start].is_ascii_alphanumeric() {
        return false;
    }
    let mut i = start;
    while i < end {
        if !name_byte(bytes[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `text` is `type/subtype`, optionally followed by `;` and parameters (spaces may
/// come before the `;`; the parameters hold no control characters).
const fn is_mime_type(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut end = 0;
    while end < bytes.len() && bytes[end] != b';' {
        end += 1;
    }
    let mut i = end;
    while i < bytes.len() {
        if bytes[i] < 0x20 || bytes[i] == 0x7f {
            return false;
        }
        i += 1;
    }
    let mut head = end;
    if end < bytes.len() {
        while head > 0 && bytes[head - 1] == b' ' {
            head -= 1;
        }
    }
    let mut slash = 0;
    while slash < head && bytes[slash] != b'/' {
        slash += 1;
    }
    slash < head && is_name(bytes, 0, slash) && is_name(bytes, slash + 1, head)
}

impl MimeType {
    /// `image/png`.
    pub const PNG: MimeType = MimeType::from_static("image/png");
    /// `image/jpeg`.
    pub const JPEG: MimeType = MimeType::from_static("image/jpeg");
    /// `image/gif`.
    pub const GIF: MimeType = MimeType::from_static("image/gif");
    /// `image/webp`.
    pub const WEBP: MimeType = MimeType::from_static("image/webp");
    /// `image/svg+xml`.
    pub const SVG: MimeType = MimeType::from_static("image/svg+xml");
    /// `audio/wav`.
    pub const WAV: MimeType = MimeType::from_static("audio/wav");
    /// `audio/mpeg` (MP3).
    pub const MP3: MimeType = MimeType::from_static("audio/mpeg");
    /// `audio/ogg`.
    pub const OGG: MimeType = MimeType::from_static("audio/ogg");
    /// `text/plain`.
    pub const TEXT: MimeType = MimeType::from_static("text/plain");
    /// `text/markdown`.
    pub const MARKDOWN: MimeType = MimeType::from_static("text/markdown");
    /// `application/json`.
    pub const JSON: MimeType = MimeType::from_static("application/json");
    /// `application/pdf`.
    pub const PDF: MimeType = MimeType::from_static("application/pdf");
    /// `application/octet-stream`.
    pub const OCTET_STREAM: MimeType = MimeType::from_static("application/octet-stream");

    /// A MIME type from a literal.
    ///
    /// # Panics
    ///
    /// If `text` is not `type/subtype` (with optional parameters); in a `const` item that is
    /// a compile error. For text from elsewhere, use [`parse`](Self::parse).
    #[must_use]
    pub const fn from_static(text: &'static str) -> MimeType {
        assert!(
            is_mime_type(text),
            "not a MIME type: expected `type/subtype`, such as `image/png`"
        );
        MimeType(std::borrow::Cow::Borrowed(text))
    }

    /// `text` as a MIME type, if it is `type/subtype` (with optional parameters).
    ///
    /// # Errors
    ///
    /// A [`ContentError`] for `mimeType` when it is not.
    pub fn parse(text: impl Into<String>) -> Result<MimeType, ContentError> {
        let text = text.into();
        if is_mime_type(&text) {
            Ok(MimeType(std::borrow::Cow::Owned(text)))
        } else {
            Err(ContentError::new(
                "mimeType",
                format!(
                    "`{text}` is not a MIME type (expected `type/subtype`, such as `image/png`)"
                ),
            ))
        }
    }

    /// The MIME type as written.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for MimeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<&str> for MimeType {
    type Error = ContentError;

    fn try_from(text: &str) -> Result<Self, ContentError> {
        MimeType::parse(text)
    }
}

impl TryFrom<String> for MimeType {
    type Error = ContentError;

    fn try_from(text: String) -> Result<Self, ContentError> {
        MimeType::parse(text)
    }
}

/// How important a block is, from 0 (least; entirely optional) to 1 (most; effectively
/// required), checked where it is made.
///
/// ```
/// use annotations::Priority;
///
/// const HIGH: Priority = Priority::of(0.9);
/// assert_eq!(HIGH.get(), 0.9);
/// assert!(Priority::new(1.5).is_err());
/// assert!(Priority::new(f64::NAN).is_err());
/// ```
///
/// ```compile_fail
/// const TOO_HIGH: annotations::Priority = annotations::Priority::of(1.5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Priority(f64);

impl Priority {
    /// The least important (0).
    pub const LOWEST: Priority = Priority(0.0);
    /// The most important (1).
    pub const HIGHEST: Priority = Priority(1.0);

    /// `value` as a priority, if it is from 0 to 1.
    ///
    /// # Errors
    ///
    /// A [`ContentError`] for `priority` when it is outside 0 to 1 or not a number.
    pub fn new(value: f64) -> Result<Priority, ContentError> {
        if (0.0..=1.0).contains(&value) {
            Ok(Priority(value))
        } else {
            Err(ContentError::new(
                "priority",
                format!("{value} is outside 0 to 1"),
            ))
        }
    }

    /// A priority from a literal.
    ///
    /// # Panics
    ///
    /// If `value` is outside 0 to 1; in a `const` item that is a compile error.
    #[must_use]
    #[allow(clippy::manual_range_contains)] // `contains` is not `const`.
    pub const fn of(value: f64) -> Priority {
        assert!(value >= 0.0 && value <= 1.0, "a priority is from 0 to 1");
        Priority(value)
    }

    /// The value, from 0 to 1.
    #[must_use]
    pub const fn get(self) -> f64 {
        self.0
    }
}

/// Who a block is meant for (`audience`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The user (`"user"`).
    User,
    /// The model (`"assistant"`).
    Assistant,
}

impl Role {
    /// The role as the protocol writes it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// The protocol's content annotations: who a block is for, how important it is, when what it
/// shows last changed. Hints for the client, like tool annotations.
///
/// ```
/// use annotations::{Content, ContentAnnotations, Priority, Role};
///
/// let note = Content::text("Saved.").with_annotations(
///     ContentAnnotations::new().with_audience([Role::User]).with_priority(Priority::of(0.2)),
/// );
/// assert_eq!(
///     serde_json::to_value(&note)?,
///     serde_json::json!({"type": "text", "text": "Saved.", "annotations": {"audience": ["user"], "priority": 0.2}})
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContentAnnotations {
    audience: Option<Vec<Role>>,
    priority: Option<Priority>,
    last_modified: Option<String>,
}

impl ContentAnnotations {
    /// No annotations.
    #[must_use]
    pub const fn new() -> Self {
        ContentAnnotations {
            audience: None,
            priority: None,
            last_modified: None,
        }
    }

    /// Sets who the block is for (`audience`).
    #[must_use]
    pub fn with_audience(mut self, audience: impl IntoIterator<Item = Role>) -> Self {
        self.audience = Some(audience.into_iter().collect());
        self
    }

    /// Sets how important the block is (`priority`).
    #[must_use]
    pub fn with_priority(mut self, priority: Priority) -> Self {
        self.priority = Some(priority);
        self
    }

    /// Sets when what the block shows last changed (`lastModified`, an ISO 8601 timestamp
    /// such as `"2025-01-12T15:00:58Z"`).
    #[must_use]
    pub fn with_last_modified(mut self, timestamp: impl Into<String>) -> Self {
        self.last_modified = Some(timestamp.into());
        self
    }

    /// Who the block is for, if stated.
    #[must_use]
    pub fn audience(&self) -> Option<&[Role]> {
        self.audience.as_deref()
    }

    /// How important the block is, if stated.
    #[must_use]
    pub fn priority(&self) -> Option<Priority> {
        self.priority
    }

    /// When what the block shows last changed, if stated.
    #[must_use]
    pub fn last_modified(&self) -> Option<&str> {
        self.last_modified.as_deref()
    }

    pub(crate) fn to_json(&self) -> Value {
        let mut object = Map::new();
        if let Some(audience) = &self.audience {
            object.insert(
                "audience".into(),
                audience
                    .iter()
                    .map(|role| Value::from(role.as_str()))
                    .collect(),
            );
        }
        if let Some(priority) = self.priority {
            object.insert("priority".into(), priority.0.into());
        }
        if let Some(timestamp) = &self.last_modified {
            object.insert("lastModified".into(), timestamp.clone().into());
        }
        Value::Object(object)
    }

    fn from_json(value: &Value) -> Result<Self, ContentError> {
        let object = as_object(value, "")?;
        let audience = match present(object, "audience") {
            None => None,
            Some(Value::Array(roles)) => Some(
                roles
                    .iter()
                    .enumerate()
                    .map(|(i, role)| match role.as_str() {
                        Some("user") => Ok(Role::User),
                        Some("assistant") => Ok(Role::Assistant),
                        _ => Err(ContentError::new(
                            format!("audience[{i}]"),
                            format!("expected `\"user\"` or `\"assistant\"`, found {role}"),
                        )),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Some(other) => return Err(mismatch("audience", "an array of roles", other)),
        };
        let priority = match present(object, "priority") {
            None => None,
            Some(Value::Number(number)) => {
                Some(Priority::new(number.as_f64().unwrap_or(f64::NAN))?)
            }
            Some(other) => return Err(mismatch("priority", "a number from 0 to 1", other)),
        };
        let last_modified = optional_string(object, "lastModified")?;
        Ok(ContentAnnotations {
            audience,
            priority,
            last_modified,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Reading JSON by hand: every error names its field.

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn mismatch(field: &str, expected: &str, found: &Value) -> ContentError {
    ContentError::new(field, format!("expected {expected}, found {}", kind(found)))
}

fn as_object<'a>(value: &'a Value, field: &str) -> Result<&'a Map<String, Value>, ContentError> {
    value
        .as_object()
        .ok_or_else(|| mismatch(field, "an object", value))
}

/// The value of `key`, `None` when it is absent or `null` (which the protocol's optional
/// fields treat as unset).
fn present<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    object.get(key).filter(|value| !value.is_null())
}

fn required_string(object: &Map<String, Value>, key: &str) -> Result<String, ContentError> {
    match present(object, key) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(mismatch(key, "a string", other)),
        None => Err(ContentError::new(key, "missing")),
    }
}

fn optional_string(object: &Map<String, Value>, key: &str) -> Result<Option<String>, ContentError> {
    match present(object, key) {
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(mismatch(key, "a string", other)),
        None => Ok(None),
    }
}

fn optional_mime(object: &Map<String, Value>) -> Result<Option<MimeType>, ContentError> {
    optional_string(object, "mimeType")?
        .map(MimeType::parse)
        .transpose()
}

/// A JSON number as a `u64`, if it is a whole number in range (`12` or `12.0`).
fn whole_u64(number: &serde_json::Number) -> Option<u64> {
    number.as_u64().or_else(|| {
        let float = number.as_f64()?;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (float.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&float))
            .then_some(float as u64)
    })
}

fn base64_field(object: &Map<String, Value>, key: &str) -> Result<String, ContentError> {
    let data = required_string(object, key)?;
    if base64::is_valid(&data) {
        Ok(data)
    } else {
        Err(ContentError::new(
            key,
            "not base64 (standard alphabet, padded)",
        ))
    }
}

pub(crate) fn meta_of(object: &Map<String, Value>) -> Result<Option<Meta>, ContentError> {
    match present(object, "_meta") {
        None => Ok(None),
        Some(Value::Object(meta)) => Ok(Some(meta.clone())),
        Some(other) => Err(mismatch("_meta", "an object", other)),
    }
}

// ---------------------------------------------------------------------------------------------
// The blocks

/// What every block may carry beside its own fields.
#[derive(Clone, Debug, Default, PartialEq)]
struct Extras {
    annotations: Option<ContentAnnotations>,
    meta: Option<Meta>,
}

impl Extras {
    fn read(object: &Map<String, Value>) -> Result<Self, ContentError> {
        let annotations = present(object, "annotations")
            .map(|value| ContentAnnotations::from_json(value).map_err(|e| e.within("annotations")))
            .transpose()?;
        Ok(Extras {
            annotations,
            meta: meta_of(object)?,
        })
    }

    fn write(self, object: &mut Map<String, Value>) {
        if let Some(annotations) = &self.annotations {
            object.insert("annotations".into(), annotations.to_json());
        }
        if let Some(meta) = self.meta {
            object.insert("_meta".into(), Value::Object(meta));
        }
    }
}

/// The `annotations` and `_meta` every block may carry.
macro_rules! extras {
    ($($block:ident => $variant:ident),*) => {$(
        impl $block {
            /// Sets the block's content annotations (who it is for, how important it is).
            #[must_use]
            pub fn with_annotations(mut self, annotations: ContentAnnotations) -> Self {
                self.extras.annotations = Some(annotations);
                self
            }

            /// Sets the block's `_meta`.
            #[must_use]
            pub fn with_meta(mut self, meta: Meta) -> Self {
                self.extras.meta = Some(meta);
                self
            }

            /// The block's content annotations, if any.
            #[must_use]
            pub fn annotations(&self) -> Option<&ContentAnnotations> {
                self.extras.annotations.as_ref()
            }

            /// The block's `_meta`, if any.
            #[must_use]
            pub fn meta(&self) -> Option<&Meta> {
                self.extras.meta.as_ref()
            }
        }

        impl From<$block> for Content {
            fn from(block: $block) -> Content {
                Content::$variant(block)
            }
        }
    )*};
}

/// A text block (`"type": "text"`).
#[derive(Clone, Debug, PartialEq)]
pub struct TextContent {
    text: String,
    extras: Extras,
}

impl TextContent {
    /// A text block.
    #[must_use]
    pub fn new(text: impl Into<String>) -> Self {
        TextContent {
            text: text.into(),
            extras: Extras::default(),
        }
    }

    /// The text.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text, moved out of the block.
    #[must_use]
    pub fn into_text(self) -> String {
        self.text
    }
}

/// Image and audio: bytes as base64 text and their MIME type.
macro_rules! binary_block {
    ($(#[$doc:meta])* $block:ident, $kind:literal, $what:literal, $($ctor:ident = $mime:ident),*) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $block {
            data: String,
            mime_type: MimeType,
            extras: Extras,
        }

        impl $block {
            #[doc = concat!("An ", $what, " of these bytes and this MIME type; the bytes are base64-encoded once, here.")]
            #[must_use]
            pub fn new(bytes: impl AsRef<[u8]>, mime_type: MimeType) -> Self {
                $block {
                    data: base64::encode(bytes.as_ref()),
                    mime_type,
                    extras: Extras::default(),
                }
            }

            #[doc = concat!("An ", $what, " of bytes already base64-encoded (standard alphabet, padded).")]
            ///
            /// # Errors
            ///
            /// A [`ContentError`] for `data` when it is not base64.
            pub fn from_base64(data: impl Into<String>, mime_type: MimeType) -> Result<Self, ContentError> {
                let data = data.into();
                if base64::is_valid(&data) {
                    Ok($block { data, mime_type, extras: Extras::default() })
                } else {
                    Err(ContentError::new("data", "not base64 (standard alphabet, padded)"))
                }
            }

            $(
                #[doc = concat!("An ", $what, " of these bytes, `", stringify!($mime), "` (see [`MimeType::", stringify!($mime), "`]).")]
                #[must_use]
                pub fn $ctor(bytes: impl AsRef<[u8]>) -> Self {
                    $block::new(bytes, MimeType::$mime)
                }
            )*

            /// The bytes as base64 text, as the protocol's `data` carries them.
            #[must_use]
            pub fn data(&self) -> &str {
                &self.data
            }

            /// The bytes, decoded.
            #[must_use]
            pub fn bytes(&self) -> Vec<u8> {
                // `data` is checked base64 wherever a block is made.
                base64::decode(&self.data).unwrap_or_default()
            }

            /// The MIME type.
            #[must_use]
            pub fn mime_type(&self) -> &MimeType {
                &self.mime_type
            }

            fn into_json(self) -> Value {
                let mut object = Map::new();
                object.insert("type".into(), $kind.into());
                object.insert("data".into(), Value::String(self.data));
                object.insert("mimeType".into(), self.mime_type.0.into_owned().into());
                self.extras.write(&mut object);
                Value::Object(object)
            }

            fn read(object: &Map<String, Value>) -> Result<Self, ContentError> {
                Ok($block {
                    data: base64_field(object, "data")?,
                    mime_type: MimeType::parse(required_string(object, "mimeType")?)?,
                    extras: Extras::read(object)?,
                })
            }
        }
    };
}

binary_block!(
    /// An image block (`"type": "image"`): the image's bytes, base64-encoded, and its MIME type.
    ///
    /// ```
    /// use annotations::{Image, MimeType};
    ///
    /// let pixel = Image::png([0x89, b'P', b'N', b'G']);
    /// assert_eq!(pixel.data(), "iVBORw==");
    /// assert_eq!(pixel.mime_type(), &MimeType::PNG);
    /// ```
    Image, "image", "image", png = PNG, jpeg = JPEG, gif = GIF, webp = WEBP, svg = SVG
);

binary_block!(
    /// An audio block (`"type": "audio"`): the recording's bytes, base64-encoded, and its MIME type.
    ///
    /// ```
    /// use annotations::Audio;
    ///
    /// let clip = Audio::wav(b"RIFF");
    /// assert_eq!(clip.mime_type().as_str(), "audio/wav");
    /// assert_eq!(clip.bytes(), b"RIFF");
    /// ```
    Audio, "audio", "audio block", wav = WAV, mp3 = MP3, ogg = OGG
);

/// The colour scheme an [`Icon`] is drawn for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IconTheme {
    /// For a light background (`"light"`).
    Light,
    /// For a dark background (`"dark"`).
    Dark,
}

/// An icon a client may show beside a tool or a resource link (2025-11-25 on; left out for
/// older versions).
///
/// ```
/// use annotations::{Icon, IconTheme, MimeType};
///
/// const LOGO: Icon = Icon::from_static("https://example.com/logo.svg");
/// let dark = Icon::new("https://example.com/logo-dark.png")
///     .with_mime_type(MimeType::PNG)
///     .with_sizes(["48x48", "96x96"])
///     .with_theme(IconTheme::Dark);
/// assert_eq!(LOGO.src(), "https://example.com/logo.svg");
/// assert_eq!(dark.sizes(), ["48x48", "96x96"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Icon {
    src: Cow<'static, str>,
    mime_type: Option<MimeType>,
    sizes: Cow<'static, [Cow<'static, str>]>,
    theme: Option<IconTheme>,
}

impl Icon {
    /// An icon at this URI (`https:` or a `data:` URI).
    #[must_use]
    pub fn new(src: impl Into<Cow<'static, str>>) -> Self {
        Icon {
            src: src.into(),
            mime_type: None,
            sizes: Cow::Borrowed(&[]),
            theme: None,
        }
    }

    /// An icon at this URI, in `const`.
    #[must_use]
    pub const fn from_static(src: &'static str) -> Self {
        Icon {
            src: Cow::Borrowed(src),
            mime_type: None,
            sizes: Cow::Borrowed(&[]),
            theme: None,
        }
    }

    /// Every field at once, in `const`: what `#[tool(icons = [...])]` writes, after checking
    /// each. Not public API.
    #[doc(hidden)]
    #[must_use]
    pub const fn __from_parts(
        src: &'static str,
        mime_type: Option<MimeType>,
        sizes: &'static [Cow<'static, str>],
        theme: Option<IconTheme>,
    ) -> Self {
        Icon {
            src: Cow::Borrowed(src),
            mime_type,
            sizes: Cow::Borrowed(sizes),
            theme,
        }
    }

    /// Sets its MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: MimeType) -> Self {
        self.mime_type = Some(mime_type);
        self
    }

    /// Sets the sizes it is drawn for (`"48x48"`, `"any"`).
    #[must_use]
    pub fn with_sizes(
        mut self,
        sizes: impl IntoIterator<Item = impl Into<Cow<'static, str>>>,
    ) -> Self {
        self.sizes = sizes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the theme it is drawn for.
    #[must_use]
    pub fn with_theme(mut self, theme: IconTheme) -> Self {
        self.theme = Some(theme);
        self
    }

    /// Its URI.
    #[must_use]
    pub fn src(&self) -> &str {
        &self.src
    }

    /// Its MIME type, if stated.
    #[must_use]
    pub fn mime_type(&self) -> Option<&MimeType> {
        self.mime_type.as_ref()
    }

    /// The sizes it is drawn for (empty if not stated).
    #[must_use]
    pub fn sizes(&self) -> &[Cow<'static, str>] {
        &self.sizes
    }

    /// The theme it is drawn for, if stated.
    #[must_use]
    pub fn theme(&self) -> Option<IconTheme> {
        self.theme
    }

    pub(crate) fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("src".into(), self.src.as_ref().into());
        if let Some(mime_type) = &self.mime_type {
            object.insert("mimeType".into(), mime_type.0.as_ref().into());
        }
        if !self.sizes.is_empty() {
            let sizes: Vec<Value> = self
                .sizes
                .iter()
                .map(|size| Value::from(size.as_ref()))
                .collect();
            object.insert("sizes".into(), sizes.into());
        }
        if let Some(theme) = self.theme {
            let theme = match theme {
                IconTheme::Light => "light",
                IconTheme::Dark => "dark",
            };
            object.insert("theme".into(), theme.into());
        }
        Value::Object(object)
    }

    pub(crate) fn read(value: &Value) -> Result<Self, ContentError> {
        let object = as_object(value, "")?;
        let sizes: Cow<'static, [Cow<'static, str>]> = match present(object, "sizes") {
            None => Cow::Borrowed(&[]),
            Some(Value::Array(sizes)) => sizes
                .iter()
                .enumerate()
                .map(|(i, size)| {
                    size.as_str()
                        .map(|size| Cow::Owned(size.to_owned()))
                        .ok_or_else(|| mismatch(&format!("sizes[{i}]"), "a string", size))
                })
                .collect::<Result<_, _>>()?,
            Some(other) => return Err(mismatch("sizes", "an array of strings", other)),
        };
        let theme = match present(object, "theme") {
            None => None,
            Some(Value::String(theme)) if theme == "light" => Some(IconTheme::Light),
            Some(Value::String(theme)) if theme == "dark" => Some(IconTheme::Dark),
            Some(other) => {
                return Err(ContentError::new(
                    "theme",
                    format!("expected `\"light\"` or `\"dark\"`, found {other}"),
                ));
            }
        };
        Ok(Icon {
            src: Cow::Owned(required_string(object, "src")?),
            mime_type: optional_mime(object)?,
            sizes,
            theme,
        })
    }
}

/// A link to a resource the client may read (`"type": "resource_link"`), rather than the
/// resource itself.
///
/// ```
/// use annotations::{MimeType, ResourceLink};
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
    extras: Extras,
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

    fn into_json(self, version: ProtocolVersion) -> Value {
        let mut object = Map::new();
        object.insert("type".into(), "resource_link".into());
        object.insert("uri".into(), self.uri.into());
        object.insert("name".into(), self.name.into());
        if let Some(title) = self.title {
            object.insert("title".into(), title.into());
        }
        if let Some(description) = self.description {
            object.insert("description".into(), description.into());
        }
        if let Some(mime_type) = self.mime_type {
            object.insert("mimeType".into(), mime_type.0.into_owned().into());
        }
        if let Some(size) = self.size {
            object.insert("size".into(), size.into());
        }
        // Icons came with 2025-11-25.
        if !self.icons.is_empty() && version.has_icons() {
            let icons = self.icons.iter().map(Icon::to_json).collect();
            object.insert("icons".into(), Value::Array(icons));
        }
        self.extras.write(&mut object);
        Value::Object(object)
    }

    fn read(object: &Map<String, Value>) -> Result<Self, ContentError> {
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
enum Body {
    Text(String),
    Blob(String),
}

/// A resource embedded in the result (`"type": "resource"`): its URI, its MIME type and its
/// contents, text or bytes.
///
/// ```
/// use annotations::{EmbeddedResource, MimeType};
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
    body: Body,
    contents_meta: Option<Meta>,
    extras: Extras,
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

    fn into_json(self) -> Value {
        let mut resource = Map::new();
        resource.insert("uri".into(), self.uri.into());
        if let Some(mime_type) = self.mime_type {
            resource.insert("mimeType".into(), mime_type.0.into_owned().into());
        }
        match self.body {
            Body::Text(text) => resource.insert("text".into(), text.into()),
            Body::Blob(blob) => resource.insert("blob".into(), blob.into()),
        };
        if let Some(meta) = self.contents_meta {
            resource.insert("_meta".into(), Value::Object(meta));
        }
        let mut object = Map::new();
        object.insert("type".into(), "resource".into());
        object.insert("resource".into(), Value::Object(resource));
        self.extras.write(&mut object);
        Value::Object(object)
    }

    fn read(object: &Map<String, Value>) -> Result<Self, ContentError> {
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
/// use annotations::{Content, EmbeddedResource, Image, MimeType};
///
/// let blocks = vec![
///     Content::text("Here is the chart:"),
///     Image::png(b"...png bytes...").into(),
///     EmbeddedResource::text("file:///chart.csv", "x,y\n1,2\n").with_mime_type(MimeType::parse("text/csv")?).into(),
/// ];
/// assert_eq!(blocks[0].as_text(), Some("Here is the chart:"));
/// # Ok::<(), annotations::ContentError>(())
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

    /// The block as the protocol's JSON for `version` (moved, not copied: an image's base64
    /// text becomes the JSON string itself).
    #[must_use]
    pub fn into_json(self, version: ProtocolVersion) -> Value {
        match self {
            Content::Text(block) => {
                let mut object = Map::new();
                object.insert("type".into(), "text".into());
                object.insert("text".into(), Value::String(block.text));
                block.extras.write(&mut object);
                Value::Object(object)
            }
            Content::Image(block) => block.into_json(),
            Content::Audio(block) => block.into_json(),
            Content::ResourceLink(block) => block.into_json(version),
            Content::EmbeddedResource(block) => block.into_json(),
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

/// Written as the newest protocol version writes it ([`into_json`](Content::into_json) takes
/// a version).
impl serde::Serialize for Content {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.clone()
            .into_json(ProtocolVersion::LATEST)
            .serialize(serializer)
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

#[cfg(test)]
mod tests {
    use super::{MimeType, is_mime_type};

    #[test]
    fn mime_types_are_type_slash_subtype() {
        for good in [
            "image/png",
            "image/svg+xml",
            "application/vnd.api+json",
            "text/plain; charset=utf-8",
            "text/plain;charset=utf-8",
            "audio/wav",
            "x-custom/x.y-z_1",
        ] {
            assert!(is_mime_type(good), "{good}");
        }
        for bad in [
            "",
            "png",
            "image/",
            "/png",
            "image//png",
            "image/png/x",
            " image/png",
            "image /png",
            "image/ png",
            "ima ge/png",
            "image/png x",
            "text/plain; a=\n",
            "-image/png",
            "image/.png",
        ] {
            assert!(!is_mime_type(bad), "{bad:?}");
            assert!(MimeType::parse(bad).is_err(), "{bad:?}");
        }
    }
}
