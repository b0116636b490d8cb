//! Media types: `type/subtype`, as RFC 6838 names them, which content blocks and icons carry.

/// Whether `byte` may be in a type or subtype name (RFC 6838's `restricted-name`).
const fn name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'!' | b'#' | b'$' | b'&' | b'-' | b'^' | b'_' | b'.' | b'+'
        )
}

/// Whether `bytes[start..end]` is a type or subtype name: 1 to 127 name characters, the
/// first a letter or digit.
const fn is_name(bytes: &[u8], start: usize, end: usize) -> bool {
    if end <= start || end - start > 127 || !bytes[start].is_ascii_alphanumeric() {
        return false;
    }
    let mut i = start;
    while i < end {
        if !name_byte(bytes[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `text` is `type/subtype`, optionally followed by `;` and parameters (spaces may
/// come before the `;`; the parameters hold no control characters).
///
/// ```
/// use mcp_annotations_rules::mime::is_mime_type;
///
/// assert!(is_mime_type("text/plain; charset=utf-8"));
/// assert!(!is_mime_type("text"));
/// assert!(!is_mime_type("/plain"));
/// ```
#[must_use]
pub const fn is_mime_type(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut end = 0;
    while end < bytes.len() && bytes[end] != b';' {
        end += 1;
    }
    let mut i = end;
    while i < bytes.len() {
        if bytes[i] < 0x20 || bytes[i] == 0x7f {
            return false;
        }
        i += 1;
    }
    let mut head = end;
    if end < bytes.len() {
        while head > 0 && bytes[head - 1] == b' ' {
            head -= 1;
        }
    }
    let mut slash = 0;
    while slash < head && bytes[slash] != b'/' {
        slash += 1;
    }
    slash < head && is_name(bytes, 0, slash) && is_name(bytes, slash + 1, head)
}

/// Whether `text` is an icon's media type as `#[tool(icons)]` takes it: `image/<subtype>`, a
/// media type without parameters.
///
/// ```
/// use mcp_annotations_rules::mime::is_icon_mime_type;
///
/// assert!(is_icon_mime_type("image/png"));
/// assert!(!is_icon_mime_type("image/png; q=1"));
/// assert!(!is_icon_mime_type("text/plain"));
/// ```
#[must_use]
pub const fn is_icon_mime_type(text: &str) -> bool {
    let bytes = text.as_bytes();
    let prefix = b"image/";
    if bytes.len() <= prefix.len() {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        if (i < prefix.len() && bytes[i] != prefix[i]) || bytes[i] == b';' {
            return false;
        }
        i += 1;
    }
    is_mime_type(text)
}
