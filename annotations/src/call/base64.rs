//! Standard base64 (RFC 4648, with `=` padding), as the protocol's `data` and `blob` fields
//! carry bytes. Written here rather than taken from a crate: the protocol needs only the
//! standard alphabet, one encoder and one checker, and a result's bytes are encoded once.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` as base64 text, written in one pass into a buffer of the exact size.
pub(crate) fn encode(bytes: &[u8]) -> String {
    let mut out = vec![b'='; bytes.len().div_ceil(3) * 4];
    let digit = |n: u32, shift: u32| ALPHABET[(n >> shift) as usize & 63];
    let mut chunks = bytes.chunks_exact(3);
    for (chunk, quad) in (&mut chunks).zip(out.chunks_exact_mut(4)) {
        let n = (u32::from(chunk[0]) << 16) | (u32::from(chunk[1]) << 8) | u32::from(chunk[2]);
        quad.copy_from_slice(&[digit(n, 18), digit(n, 12), digit(n, 6), digit(n, 0)]);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let n = (u32::from(rest[0]) << 16) | (u32::from(rest.get(1).copied().unwrap_or(0)) << 8);
        let tail = out.len() - 4;
        out[tail] = digit(n, 18);
        out[tail + 1] = digit(n, 12);
        if rest.len() == 2 {
            out[tail + 2] = digit(n, 6);
        }
    }
    // Every byte is from the ASCII alphabet or `=`.
    String::from_utf8(out).unwrap_or_default()
}

/// The value of one base64 digit, or `None` for any other byte.
const fn digit(byte: u8) -> Option<u32> {
    match byte {
        b'A'..=b'Z' => Some((byte - b'A') as u32),
        b'a'..=b'z' => Some((byte - b'a') as u32 + 26),
        b'0'..=b'9' => Some((byte - b'0') as u32 + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// The bytes `text` encodes, or `None` if it is not standard padded base64: a length that is
/// not a multiple of four, a byte outside the alphabet, padding anywhere but the end, or
/// bits left over in the last digit (so every byte string has one encoding).
pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let last = bytes.len() / 4;
    for (index, quad) in bytes.chunks_exact(4).enumerate() {
        let padding = if index + 1 == last {
            quad.iter().rev().take_while(|&&byte| byte == b'=').count()
        } else {
            0
        };
        if padding > 2 {
            return None;
        }
        let mut n = 0u32;
        for &byte in &quad[..4 - padding] {
            n = (n << 6) | digit(byte)?;
        }
        n <<= 6 * padding as u32;
        let [_, a, b, c] = n.to_be_bytes();
        match padding {
            0 => out.extend_from_slice(&[a, b, c]),
            1 if c == 0 => out.extend_from_slice(&[a, b]),
            2 if b == 0 && c == 0 => out.push(a),
            _ => return None,
        }
    }
    Some(out)
}

/// Whether `text` is standard padded base64 (what [`decode`] accepts), without keeping the
/// bytes.
pub(crate) fn is_valid(text: &str) -> bool {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return false;
    }
    let body = bytes.len().saturating_sub(4);
    if !bytes[..body].iter().all(|&byte| digit(byte).is_some()) {
        return false;
    }
    bytes.len() < 4 || decode(&text[body..]).is_some()
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
    fn every_byte_round_trips() {
        let bytes: Vec<u8> = (0..=255).chain((0..=255).rev()).collect();
        for len in 0..bytes.len() {
            let text = encode(&bytes[..len]);
            assert_eq!(decode(&text).as_deref(), Some(&bytes[..len]));
            assert!(is_valid(&text));
        }
    }

    #[test]
    fn what_is_not_standard_padded_base64_is_refused() {
        for text in [
            "Zg", "Zg=", "Zm9", "Z===", "Zg==Zg==", "Zm9v!A==", "Zm-v", "Zm_v", "Zh==", "Zm9=",
            " Zm9v", "Zm9v\n", "====",
        ] {
            assert_eq!(decode(text), None, "{text:?}");
            assert!(!is_valid(text), "{text:?}");
        }
    }
}
