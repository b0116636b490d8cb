//! The protocol's rules for an icon's `mimeType` and `sizes`, as text, checked while compiling.
//! A leaf: it imports nothing of the crate (the tests hold it to the runtime crate's
//! `MimeType`).

/// `image/<subtype>`, the subtype a name as RFC 6838 writes it (1 to 127 of its characters,
/// the first a letter or digit), as the runtime's `MimeType` reads a subtype.
pub(crate) fn mime_ok(mime: &str) -> bool {
    let Some(subtype) = mime.strip_prefix("image/") else {
        return false;
    };
    subtype.len() <= 127
        && subtype
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric())
        && subtype
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&b))
}

/// `WxH` in pixels (each a number without a leading zero) or `any`.
pub(crate) fn size_ok(size: &str) -> bool {
    let pixels = |part: &str| {
        !part.is_empty() && !part.starts_with('0') && part.bytes().all(|b| b.is_ascii_digit())
    };
    size == "any"
        || size
            .split_once('x')
            .is_some_and(|(width, height)| pixels(width) && pixels(height))
}
