//! Icons, as tools and resource links carry them (2025-11-25 on).

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::Value;

use crate::protocol::error::ContentError;
use crate::protocol::mime::MimeType;
use crate::protocol::read::{as_object, mismatch, optional_mime, present, required_string};

/// The colour scheme an [`Icon`] is drawn for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IconTheme {
    /// For a light background (`"light"`).
    Light,
    /// For a dark background (`"dark"`).
    Dark,
}

impl IconTheme {
    /// `"light"` or `"dark"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            IconTheme::Light => "light",
            IconTheme::Dark => "dark",
        }
    }
}

/// An icon a client may show beside a tool or a resource link (2025-11-25 on; left out for
/// older versions).
///
/// ```
/// use mcp_annotations::{descriptor::Icon, descriptor::IconTheme, content::MimeType};
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

/// The protocol's `Icon` object: `src`, and `mimeType`, `sizes` and `theme` where stated.
impl Serialize for Icon {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = 1
            + usize::from(self.mime_type.is_some())
            + usize::from(!self.sizes.is_empty())
            + usize::from(self.theme.is_some());
        let mut out = serializer.serialize_struct("Icon", fields)?;
        out.serialize_field("src", self.src.as_ref())?;
        match &self.mime_type {
            Some(mime_type) => out.serialize_field("mimeType", mime_type.as_str())?,
            None => out.skip_field("mimeType")?,
        }
        if self.sizes.is_empty() {
            out.skip_field("sizes")?;
        } else {
            out.serialize_field("sizes", self.sizes.as_ref())?;
        }
        match self.theme {
            Some(theme) => out.serialize_field("theme", theme.as_str())?,
            None => out.skip_field("theme")?,
        }
        out.end()
    }
}

crate::protocol::error::from_str!(IconTheme, "icon theme", [IconTheme::Light, IconTheme::Dark]);
