//! Where inside an argument a read failed (`people[1].name`), carried out of serde's reader
//! in the text of its error, the only thing serde's errors carry.

use serde::de;
use serde_json::{Error, Value};

/// What marks the place inside an argument where a read failed, in the message of the error
/// that climbs out of the reader (serde's errors carry only text): `MARK place MARK message`.
/// [`place_of`] takes it apart again.
const MARK: char = '\u{1}';

/// `error` as failing inside `segment` (`[2]`, `.name`) of where it was read. The marked text
/// is remembered (on this thread), so that only a mark the reader wrote is read as a place: a
/// type's own message that echoes the model's input cannot pass for one.
pub(crate) fn within(error: Error, segment: &dyn std::fmt::Display) -> Error {
    let text = error.to_string();
    let (place, message) = place_of(&text);
    let marked = format!("{MARK}{segment}{place}{MARK}{message}");
    LAST_MARKED.with(|last| last.replace(Some(marked.clone())));
    <Error as de::Error>::custom(marked)
}

thread_local! {
    /// The last message [`within`] wrote on this thread.
    static LAST_MARKED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Forgets the last marked message: called before each read, so that no earlier read's mark
/// is trusted.
pub(crate) fn forget_marks() {
    LAST_MARKED.with(|last| last.replace(None));
}

/// The segment of an object's key: `.key` for a name, `["key"]` for any other text.
pub(crate) fn key_segment(key: &str) -> String {
    let name = key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if name {
        format!(".{key}")
    } else {
        format!("[{}]", Value::from(key))
    }
}

/// A message from the reader as the place inside the argument where it failed (`[0].city`;
/// empty at the argument itself) and what failed there. Only the mark the reader itself wrote
/// last is read as a place; any other mark inside the text (a type's own message wrapping one
/// from deeper down, or text the model sent) is written out as `` `place`: `` or dropped, so
/// that no control character reaches the message.
pub(crate) fn place_of(message: &str) -> (String, String) {
    let trusted = LAST_MARKED.with(|last| last.borrow().as_deref() == Some(message));
    let split = message
        .strip_prefix(MARK)
        .and_then(|rest| rest.split_once(MARK))
        .filter(|_| trusted);
    match split {
        Some((place, rest)) => (place.to_owned(), unmarked(rest)),
        None => (String::new(), unmarked(message)),
    }
}

/// `text` with each marked place written out (`` `[1]`: ``) and any other mark dropped.
fn unmarked(text: &str) -> String {
    if !text.contains(MARK) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut parts = text.split(MARK);
    out.push_str(parts.next().unwrap_or(""));
    while let Some(place) = parts.next() {
        match parts.next() {
            Some(rest) => {
                out.push('`');
                out.push_str(place);
                out.push_str("`: ");
                out.push_str(rest);
            }
            None => out.push_str(place),
        }
    }
    out
}
