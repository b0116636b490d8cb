//! MIME types, checked where they are made.

use std::fmt;

use crate::protocol::error::ContentError;

/// A MIME type, checked where it is made: `type/subtype`, each a name of 1 to 127 letters,
/// digits and `!#$&-^_.+` (RFC 6838) starting with a letter or digit, then optionally `;` and
/// parameters, of which only the absence of control characters is checked. Spaces may come
/// before the `;`, nowhere else in `type/subtype`.
///
/// ```
/// use mcp_annotations::content::MimeType;
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
/// const BAD: mcp_annotations::content::MimeType = mcp_annotations::content::MimeType::from_static("png");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MimeType(std::borrow::Cow<'static, str>);

/// Whether `text` is `type/subtype`, optionally with parameters: the rule's one statement is
/// `mcp_annotations_rules::mime`, which the macro checks icons by too.
const fn is_mime_type(text: &str) -> bool {
    mcp_annotations_rules::mime::is_mime_type(text)
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

/// As [`MimeType::parse`].
impl std::str::FromStr for MimeType {
    type Err = ContentError;

    fn from_str(text: &str) -> Result<Self, ContentError> {
        MimeType::parse(text)
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
