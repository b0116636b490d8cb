//! A text block.

use crate::content::extras::Extras;

/// A text block (`"type": "text"`).
#[derive(Clone, Debug, PartialEq)]
pub struct TextContent {
    pub(crate) text: String,
    pub(crate) extras: Extras,
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
