//! JSON numbers as the integers they are: a whole-number float (`3.0`) is the integer an
//! integer type reads it as, wherever the crate compares or reads numbers.

use serde_json::Number;

/// 2^63 and 2^64: a whole float in `(-2^63, 2^64)` is read as the 64-bit integer it is. At
/// `-2^63` itself the float may stand for a number past `i64::MIN` (a JSON value holds such
/// integer text as the nearest float), so it is refused there.
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
pub(crate) const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

/// A whole-number float, as the integer it is.
pub(crate) enum Whole {
    Unsigned(u64),
    Signed(i64),
}

impl std::fmt::Display for Whole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Whole::Unsigned(n) => n.fmt(f),
            Whole::Signed(n) => n.fmt(f),
        }
    }
}

/// The number as the integer an integer type reads it as, if it is a whole-number float in
/// the range of one.
pub(crate) fn whole(number: &Number) -> Option<Whole> {
    let float = number.as_f64().filter(|_| number.is_f64())?;
    if float.fract() != 0.0 || !(-TWO_POW_63 < float && float < TWO_POW_64) {
        return None;
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some(if float >= 0.0 {
        Whole::Unsigned(float as u64)
    } else {
        Whole::Signed(float as i64)
    })
}

/// An integer number's text, exactly as sent when the value keeps it: serde_json keeps the
/// text of every number when its `arbitrary_precision` feature is on (in any crate of the
/// build), and otherwise holds an integer beyond 64 bits as the nearest float, whose text is
/// not an integer's (`None` then, and that float is read as before).
pub(crate) fn integer_text(number: &Number) -> Option<String> {
    let text = number.to_string();
    let digits = text.strip_prefix('-').unwrap_or(&text);
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(text)
}

/// Whether this build's JSON values keep an integer past 64 bits exactly: serde_json's
/// `arbitrary_precision` feature is on (in any crate of the build).
pub(crate) fn exact_wide() -> bool {
    static EXACT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *EXACT.get_or_init(|| {
        serde_json::from_str::<Number>("18446744073709551616")
            .ok()
            .and_then(|number| integer_text(&number))
            .is_some()
    })
}

/// A JSON number as a `u64`, if it is a whole number in range (`12`, `12.0`, and `-0` also
/// when serde_json keeps the number's text).
pub(crate) fn whole_u64(number: &Number) -> Option<u64> {
    number
        .as_u64()
        .or_else(|| u64::try_from(integer_text(number)?.parse::<i128>().ok()?).ok())
        .or_else(|| match whole(number)? {
            Whole::Unsigned(n) => Some(n),
            Whole::Signed(_) => None,
        })
}
