//! The error of building or reading a protocol value by hand: the field, as a path from the
//! value read, and why. Content blocks, results, icons and MIME types share it.

use std::fmt;

/// What went wrong building or reading a content block or a result: the field, as a path
/// from the value read (`content[1].mimeType`), and why.
///
/// ```
/// use mcp_annotations::{content::Content, content::MimeType, content::Priority};
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

    pub(crate) fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
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
    pub(crate) fn within(mut self, outer: &str) -> Self {
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

/// A word of the protocol's vocabulary that is not one of the values it may take: what
/// [`FromStr`](std::str::FromStr) gives for [`ProtocolVersion`](crate::ProtocolVersion),
/// [`TaskSupport`](crate::descriptor::TaskSupport), [`Role`](crate::content::Role),
/// [`IconTheme`](crate::descriptor::IconTheme) and [`CacheScope`](crate::listing::CacheScope).
///
/// ```
/// use mcp_annotations::ProtocolVersion;
///
/// let error = "2024-11-05".parse::<ProtocolVersion>().unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "unknown protocol version `2024-11-05`: expected one of `2025-06-18`, `2025-11-25`, `2026-07-28`"
/// );
/// assert_eq!(error.found(), "2024-11-05");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    what: &'static str,
    found: String,
    expected: &'static [&'static str],
}

impl ParseError {
    pub(crate) fn new(what: &'static str, found: &str, expected: &'static [&'static str]) -> Self {
        ParseError {
            what,
            found: found.to_owned(),
            expected,
        }
    }

    /// The text that was read.
    #[must_use]
    pub fn found(&self) -> &str {
        &self.found
    }

    /// The values it may take, as the protocol writes them.
    #[must_use]
    pub fn expected(&self) -> &'static [&'static str] {
        self.expected
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} `{}`: expected one of ",
            self.what, self.found
        )?;
        for (i, value) in self.expected.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{value}`")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

/// `FromStr` for an enum of the protocol's words: each of `$all`'s values read from its
/// `as_str` text, and the words listed in the error taken from the same values.
macro_rules! from_str {
    ($ty:ty, $what:literal, $all:expr) => {
        impl ::std::str::FromStr for $ty {
            type Err = $crate::protocol::error::ParseError;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                const ALL: &[$ty] = &$all;
                const WORDS: [&str; ALL.len()] = {
                    let mut words = [""; ALL.len()];
                    let mut i = 0;
                    while i < ALL.len() {
                        words[i] = ALL[i].as_str();
                        i += 1;
                    }
                    words
                };
                ALL.iter()
                    .copied()
                    .find(|value| value.as_str() == text)
                    .ok_or_else(|| $crate::protocol::error::ParseError::new($what, text, &WORDS))
            }
        }
    };
}

pub(crate) use from_str;
