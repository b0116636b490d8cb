//! The leaves: what every stage uses, importing nothing of the crate, so every import points
//! down to them. Token helpers (`tokens`), the error accumulator (`errors`), spelling
//! suggestions and the unknown-key message (`spelling`), serde's case rules (`case`), the four
//! hints (`hint`), integers of `i128` and `u128` exactly (`integer`), the icon rules
//! (`icon_rule`), the JSON check of `_meta` (`json_text`), JSON text written by hand
//! (`json_write`), doc comments joined as rustdoc reads them (`docs`), and the name the package
//! being compiled knows the runtime by, read from its `Cargo.toml` (`manifest`: the default
//! crate path of `expand/krate.rs`, and the attribute paths `model/handler.rs` recognizes).
//! The rules the runtime checks too (tool names, MIME types, HTTP presets, patterns) are
//! `mcp-annotations-rules`'s, written once.

pub(crate) mod case;
pub(crate) mod docs;
pub(crate) mod errors;
pub(crate) mod hint;
pub(crate) mod icon_rule;
pub(crate) mod integer;
pub(crate) mod json_text;
pub(crate) mod json_write;
pub(crate) mod manifest;
pub(crate) mod spelling;
pub(crate) mod tokens;
