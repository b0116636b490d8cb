//! The values the command line's flags take, read and checked as `clap` parses them: sizes,
//! seconds, headers, places.

use std::path::PathBuf;
use std::time::Duration;

use mcp_annotations_verify::judge::classes::Place;

/// A number of seconds, more than zero.
pub(super) fn seconds(value: &str) -> Result<Duration, String> {
    match value.parse::<f64>().map(Duration::try_from_secs_f64) {
        Ok(Ok(seconds)) if !seconds.is_zero() => Ok(seconds),
        _ => Err(format!("expected a number of seconds, got {value:?}")),
    }
}

/// A size in bytes as a person writes it: `512M`, `2G`, `1GiB`, `1048576` (K, M, G and T are
/// powers of 1024).
///
/// # Errors
///
/// Not a whole number with one of those units, zero, or past `u64`.
pub(super) fn bytes(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size such as 512M or 2G"))?;
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("{text:?}: the unit is one of K, M, G, T")),
    };
    match number.checked_mul(1 << shift) {
        Some(0) => Err("a bound of nothing lets no server run".to_owned()),
        Some(size) => Ok(size),
        None => Err(format!("{text:?} is too large")),
    }
}

/// `KEY=VALUE`.
pub(super) fn key_value(value: &str) -> Result<(String, String), String> {
    let (key, value) = value
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, got {value:?}"))?;
    Ok((key.to_owned(), value.to_owned()))
}

/// `NAME: VALUE`. The value is not repeated in the error: it may be a secret.
pub(super) fn header(value: &str) -> Result<(String, String), String> {
    let (name, value) = value
        .split_once(':')
        .ok_or("expected 'NAME: VALUE', with a colon after the header's name")?;
    let name = name.trim();
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_graphic() && b != b':') {
        return Err(
            "the header's name is empty or holds a space or a control character".to_owned(),
        );
    }
    Ok((name.to_owned(), value.trim().to_owned()))
}

/// A place of the sandbox, or `PATH#POINTER`.
pub(super) fn place(value: &str) -> Result<Place, String> {
    Place::parse(value)
}

/// A folder that exists, as its canonical path (the mount namespace binds it by that path).
pub(super) fn writable(value: &str) -> Result<PathBuf, String> {
    let place = std::fs::canonicalize(value).map_err(|error| format!("{value}: {error}"))?;
    if place.to_string_lossy().contains(char::is_whitespace) {
        return Err(format!(
            "{}: a path with spaces is not supported",
            place.display()
        ));
    }
    Ok(place)
}

#[cfg(test)]
mod tests {
    use super::bytes;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(bytes("512M"), Ok(512 << 20));
        assert_eq!(bytes("2G"), Ok(2 << 30));
        assert_eq!(bytes("1GiB"), Ok(1 << 30));
        assert_eq!(bytes("1500"), Ok(1500));
        assert!(bytes("0").is_err());
        assert!(bytes("2X").is_err());
        assert!(bytes("-1G").is_err());
        assert!(bytes("99999999T").is_err());
    }
}
