//! Standard base64 (RFC 4648, with `=` padding), as the protocol's `data` and `blob` fields
//! carry bytes, through the `base64` crate's standard engine, which refuses what is not the
//! canonical encoding (missing or extra padding, bits left over in the last digit), so every
//! byte string has one encoding.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value};

use crate::protocol::ContentError;
use crate::protocol::read::required_string;

/// `bytes` as base64 text.
pub(crate) fn encode(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// The bytes `text` encodes, or `None` if it is not standard padded base64.
pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
    STANDARD.decode(text).ok()
}

/// Whether `text` is standard padded base64 (what [`decode`] accepts). Checked in pieces on
/// the stack, so a peer's megabytes of `data` are not copied to be checked.
pub(crate) fn is_valid(text: &str) -> bool {
    // A multiple of four digits decodes on its own; only the last piece may carry padding.
    const PIECE: usize = 4 * 256;
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return false;
    }
    let mut out = [0u8; PIECE / 4 * 3];
    let last = bytes.len().saturating_sub(1) / PIECE;
    bytes.chunks(PIECE).enumerate().all(|(i, piece)| {
        // A piece before the last is whole, so padding in it (fewer bytes out) is refused.
        STANDARD
            .decode_slice(piece, &mut out)
            .is_ok_and(|written| i == last || written == out.len())
    })
}

/// `data`, the value of the field `key`, if it is base64; else the error naming the field.
pub(crate) fn checked(data: String, key: &str) -> Result<String, ContentError> {
    if is_valid(&data) {
        Ok(data)
    } else {
        Err(ContentError::new(
            key,
            "not base64 (standard alphabet, padded)",
        ))
    }
}

/// The base64 text of `key`, refused with the field named when it is not base64.
pub(crate) fn field(object: &Map<String, Value>, key: &str) -> Result<String, ContentError> {
    checked(required_string(object, key)?, key)
}

#[cfg(test)]
mod tests {
    use super::{decode, encode, is_valid};

    #[test]
    fn the_rfc_4648_vectors_encode_and_decode() {
        for (bytes, text) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(bytes.as_bytes()), text);
            assert_eq!(decode(text).as_deref(), Some(bytes.as_bytes()));
            assert!(is_valid(text));
        }
    }

    #[test]
    fn every_byte_round_trips_at_every_length() {
        let bytes: Vec<u8> = (0..=255)
            .chain((0..=255).rev())
            .cycle()
            .take(2100)
            .collect();
        for len in 0..bytes.len() {
            let text = encode(&bytes[..len]);
            assert_eq!(decode(&text).as_deref(), Some(&bytes[..len]));
            assert!(is_valid(&text), "{len}");
        }
    }

    #[test]
    fn what_is_not_standard_padded_base64_is_refused() {
        let long = "QUJD".repeat(300);
        for text in [
            "Zg", "Zg=", "Zm9", "Z===", "Zg==Zg==", "Zm9v!A==", "Zm-v", "Zm_v", "Zh==", "Zm9=",
            " Zm9v", "Zm9v\n", "====",
        ]
        .into_iter()
        .map(str::to_owned)
        // The same mistakes past the first piece `is_valid` checks, and padding inside it.
        .chain(["Zh==", "Zg=", "Zm9v!A=="].map(|bad| format!("{long}{bad}")))
        .chain([format!("{}Zg=={long}", "QUJD".repeat(255))])
        {
            assert_eq!(decode(&text), None, "{text:?}");
            assert!(!is_valid(&text), "{text:?}");
        }
    }
}
