//! Image and audio blocks: bytes as base64 text and their MIME type.

use serde_json::{Map, Value};

use crate::content::base64::{self, field as base64_field};
use crate::content::extras::Extras;
use crate::protocol::error::ContentError;
use crate::protocol::mime::MimeType;
use crate::protocol::read::required_string;

/// Image and audio: bytes as base64 text and their MIME type.
macro_rules! binary_block {
    ($(#[$doc:meta])* $block:ident, $kind:literal, $what:literal, $($ctor:ident = $mime:ident),*) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $block {
            pub(crate) data: String,
            mime_type: MimeType,
            pub(crate) extras: Extras,
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
                let data = base64::checked(data.into(), "data")?;
                Ok($block { data, mime_type, extras: Extras::default() })
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


            pub(crate) fn read(object: &Map<String, Value>) -> Result<Self, ContentError> {
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
    /// use mcp_annotations::{content::Image, content::MimeType};
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
    /// use mcp_annotations::content::Audio;
    ///
    /// let clip = Audio::wav(b"RIFF");
    /// assert_eq!(clip.mime_type().as_str(), "audio/wav");
    /// assert_eq!(clip.bytes(), b"RIFF");
    /// ```
    Audio, "audio", "audio block", wav = WAV, mp3 = MP3, ogg = OGG
);
