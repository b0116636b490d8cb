//! The names a server gives: the protocol's rule for tool names, and the rule of toolset names
//! (the groups a server offers its tools by).

/// What the tool-name rule says, for messages.
pub const TOOL_NAME_RULE: &str = "a tool name is 1 to 128 characters of A-Z a-z 0-9 _ - .";

/// Whether `name` follows the protocol's rule for tool names: 1 to 128 characters, each an
/// ASCII letter, digit, `_`, `-` or `.`.
///
/// ```
/// use mcp_annotations_rules::name::is_valid_tool_name;
///
/// assert!(is_valid_tool_name("getUser"));
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
        if !tool_name_byte(bytes[i]) {
            return false;
        }
        i += 1;
    }
    true
}

const fn tool_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.'
}

/// What is wrong with `name` as a tool name, ending with the rule; `None` when
/// [`is_valid_tool_name`] holds.
///
/// ```
/// use mcp_annotations_rules::name::tool_name_problem;
///
/// assert_eq!(tool_name_problem("list_notes"), None);
/// assert!(tool_name_problem("").unwrap().starts_with("it is empty"));
/// ```
#[must_use]
pub fn tool_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some(format!("it is empty; {TOOL_NAME_RULE}"));
    }
    let length = name.chars().count();
    if length > 128 {
        return Some(format!("it is {length} characters long; {TOOL_NAME_RULE}"));
    }
    name.chars()
        .find(|c| !(c.is_ascii() && tool_name_byte(*c as u8)))
        .map(|bad| format!("{bad:?} is not allowed; {TOOL_NAME_RULE}"))
}

/// Whether `name` is a toolset's name: 1 to 64 of `a-z 0-9 _ -`.
///
/// ```
/// use mcp_annotations_rules::name::is_valid_toolset_name;
///
/// assert!(is_valid_toolset_name("pull_requests"));
/// assert!(!is_valid_toolset_name("Pull Requests"));
/// ```
#[must_use]
pub const fn is_valid_toolset_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > 64 {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-') {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `scope` is an OAuth scope token (RFC 6749, section 3.3: `scope-token`): one or more
/// printable ASCII characters other than space, `"` and `\`.
///
/// ```
/// use mcp_annotations_rules::name::is_valid_scope;
///
/// assert!(is_valid_scope("read:org"));
/// assert!(!is_valid_scope("read org"));
/// assert!(!is_valid_scope("rëpo"));
/// assert!(!is_valid_scope(""));
/// ```
#[must_use]
pub const fn is_valid_scope(scope: &str) -> bool {
    let bytes = scope.as_bytes();
    if bytes.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b == 0x21 || (b >= 0x23 && b <= 0x5B) || (b >= 0x5D && b <= 0x7E)) {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_problem_and_the_predicate_are_one_rule() {
        let long = "a".repeat(128);
        let longer = "a".repeat(129);
        let non_ascii_long = "é".repeat(70);
        for name in [
            "list_notes",
            "A-Z.0_9",
            "",
            " ",
            "list/notes",
            "é",
            "a\n",
            long.as_str(),
            longer.as_str(),
            non_ascii_long.as_str(),
            "tool:name",
        ] {
            assert_eq!(
                tool_name_problem(name).is_none(),
                is_valid_tool_name(name),
                "{name:?}"
            );
        }
        assert_eq!(
            tool_name_problem(&longer).unwrap(),
            format!("it is 129 characters long; {TOOL_NAME_RULE}")
        );
    }
}
