//! The protocol's shared vocabulary, the floor every other folder stands on: the
//! [`ProtocolVersion`]s and what each one's messages carry, [`MimeType`], [`Icon`], `_meta`
//! ([`Meta`]), and the reading of protocol JSON by hand with errors that name the field
//! ([`ContentError`]). Nothing here imports the rest of the crate.

pub(crate) mod error;
pub(crate) mod icon;
pub(crate) mod meta;
pub(crate) mod mime;
pub(crate) mod number;
pub(crate) mod read;
pub(crate) mod version;

pub use self::error::{ContentError, ParseError};
pub use self::icon::{Icon, IconTheme};
pub use self::meta::Meta;
pub(crate) use self::meta::{RESOLVABLE_MARKER, TOOL_RESOLUTION};
pub use self::mime::MimeType;
pub use self::version::ProtocolVersion;
