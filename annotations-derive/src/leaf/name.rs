//! The protocol's rule for tool names, checked while compiling. A leaf: it imports nothing of
//! the crate.

/// Checks `name` against the rule: 1 to 128 characters of `A-Z a-z 0-9 _ - .`. The error
/// says what is wrong, for the message.
pub(crate) fn check(name: &str) -> Result<(), String> {
    const RULE: &str = "a tool name is 1 to 128 characters of A-Z a-z 0-9 _ - .";
    if name.is_empty() {
        return Err(format!("it is empty; {RULE}"));
    }
    let length = name.chars().count();
    if length > 128 {
        return Err(format!("it is {length} characters long; {RULE}"));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Err(format!("{bad:?} is not allowed; {RULE}"));
    }
    Ok(())
}
