//! What every block may carry beside its own fields: content annotations and `_meta`.

use serde_json::{Map, Value};

use crate::content::annotations::ContentAnnotations;
use crate::protocol::error::ContentError;
use crate::protocol::meta::Meta;
use crate::protocol::read::{meta_of, present};

/// What every block may carry beside its own fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Extras {
    pub(crate) annotations: Option<ContentAnnotations>,
    pub(crate) meta: Option<Meta>,
}

impl Extras {
    pub(crate) fn read(object: &Map<String, Value>) -> Result<Self, ContentError> {
        let annotations = present(object, "annotations")
            .map(|value| ContentAnnotations::from_json(value).map_err(|e| e.within("annotations")))
            .transpose()?;
        Ok(Extras {
            annotations,
            meta: meta_of(object)?,
        })
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

pub(crate) use extras;
