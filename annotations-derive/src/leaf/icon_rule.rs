//! The rules for an icon's `mimeType` and `sizes`, as text, checked while compiling. The MIME
//! rule is the one the runtime's `MimeType` reads by (`mcp_annotations_rules::mime`); the sizes
//! rule is the macro's own, as the runtime holds sizes as written. A leaf: it imports nothing
//! of the crate.

/// `image/<subtype>` without parameters, as the runtime's `MimeType` reads a media type.
pub(crate) fn mime_ok(mime: &str) -> bool {
    mcp_annotations_rules::mime::is_icon_mime_type(mime)
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
