//! The protocol's rule for tool names.

/// Whether `name` follows the protocol's rule for tool names: 1 to 128 characters, each an
/// ASCII letter, digit, `_`, `-` or `.`.
///
/// ```
/// use mcp_annotations::is_valid_tool_name;
///
/// assert!(is_valid_tool_name("getUser"));
/// assert!(is_valid_tool_name("admin.tools.list"));
/// assert!(!is_valid_tool_name("list notes"));
/// assert!(!is_valid_tool_name(""));
/// ```
#[must_use]
pub const fn is_valid_tool_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > 128 {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.') {
            return false;
        }
        i += 1;
    }
    true
}
