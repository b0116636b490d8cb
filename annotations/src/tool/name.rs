//! The protocol's rule for tool names.

/// Whether `name` follows the protocol's rule for tool names: 1 to 128 characters, each an
/// ASCII letter, digit, `_`, `-` or `.`.
///
/// ```
/// use mcp_annotations::descriptor::is_valid_tool_name;
///
/// assert!(is_valid_tool_name("getUser"));
/// assert!(is_valid_tool_name("admin.tools.list"));
/// assert!(!is_valid_tool_name("list notes"));
/// assert!(!is_valid_tool_name(""));
/// ```
#[must_use]
pub const fn is_valid_tool_name(name: &str) -> bool {
    mcp_annotations_rules::name::is_valid_tool_name(name)
}
