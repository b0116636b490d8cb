//! A check of JSON text written in an attribute (`#[tool(meta = r#"{...}"#)]`), so that what
//! the descriptor lists is JSON: RFC 8259's grammar, an object at the root, no key twice in
//! one object. The first problem is reported with where it is. A leaf: it imports nothing of the
//! crate.

/// Why `text` is not a JSON object, with the byte offset of the problem; when it is one, its
/// keys (as written between their quotes).
pub(crate) fn check_object(text: &str) -> Result<Vec<String>, String> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
        keys: Vec::new(),
    };
    reader.space();
    if reader.peek() != Some(b'{') {
        return Err("expected a JSON object, starting with `{`".to_owned());
    }
    reader.value()?;
    reader.space();
    match reader.peek() {
        None => Ok(reader.keys),
        Some(_) => Err(reader.problem("text after the object")),
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
    /// The root object's keys.
    keys: Vec<String>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn problem(&self, what: &str) -> String {
        format!("invalid JSON at byte {}: {what}", self.at)
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.problem(&format!("expected `{}`", byte as char)))
        }
    }

    fn value(&mut self) -> Result<(), String> {
        self.space();
        match self.peek() {
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::array),
            Some(b'"') => self.string().map(drop),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.word("true"),
            Some(b'f') => self.word("false"),
            Some(b'n') => self.word("null"),
            Some(_) => Err(self.problem("expected a JSON value")),
            None => Err(self.problem("the text ends where a value should be")),
        }
    }

    fn nested(&mut self, read: fn(&mut Self) -> Result<(), String>) -> Result<(), String> {
        self.depth += 1;
        if self.depth > 128 {
            return Err(self.problem("nested more than 128 deep"));
        }
        let read = read(self);
        self.depth -= 1;
        read
    }

    fn object(&mut self) -> Result<(), String> {
        self.expect(b'{')?;
        self.space();
        let mut keys = std::collections::HashSet::new();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.space();
            let start = self.at;
            let key = self.string()?;
            if !keys.insert(key.clone()) {
                self.at = start;
                return Err(self.problem(&format!("the key {key} is given twice")));
            }
            if self.depth == 1 {
                self.keys.push(key[1..key.len() - 1].to_owned());
            }
            self.space();
            self.expect(b':')?;
            self.value()?;
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.problem("expected `,` or `}`")),
            }
        }
    }

    fn array(&mut self) -> Result<(), String> {
        self.expect(b'[')?;
        self.space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.value()?;
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.problem("expected `,` or `]`")),
            }
        }
    }

    /// A string, returned as written (escapes kept), for telling keys apart.
    fn string(&mut self) -> Result<String, String> {
        if self.peek() != Some(b'"') {
            return Err(self.problem("expected a string in double quotes"));
        }
        let start = self.at;
        self.at += 1;
        loop {
            match self.peek() {
                None => return Err(self.problem("the string is not closed")),
                Some(b'"') => {
                    self.at += 1;
                    let text = &self.bytes[start..self.at];
                    return Ok(String::from_utf8_lossy(text).into_owned());
                }
                Some(b'\\') => {
                    self.at += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                            self.at += 1;
                        }
                        Some(b'u') => {
                            let unit = self.hex4()?;
                            if (0xDC00..0xE000).contains(&unit) {
                                return Err(self.problem("a low surrogate without a high one"));
                            }
                            if (0xD800..0xDC00).contains(&unit) {
                                // A high surrogate: a low one must follow, as `\\uDC00`.
                                let low = (self.bytes.get(self.at..self.at + 2) == Some(b"\\u"))
                                    .then(|| {
                                        self.at += 1;
                                        self.hex4()
                                    });
                                match low {
                                    Some(Ok(low)) if (0xDC00..0xE000).contains(&low) => {}
                                    _ => {
                                        return Err(self.problem(
                                            "a high surrogate without a low one after it",
                                        ));
                                    }
                                }
                            }
                        }
                        _ => return Err(self.problem("unknown escape")),
                    }
                }
                Some(byte) if byte < 0x20 => {
                    return Err(self.problem("a control character inside a string"));
                }
                Some(_) => self.at += 1,
            }
        }
    }

    /// A number, which must be finite as a double (serde_json refuses `1e400`).
    fn number(&mut self) -> Result<(), String> {
        let start = self.at;
        self.number_text()?;
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("");
        if text.parse::<f64>().map_or(true, |x| !x.is_finite()) {
            self.at = start;
            return Err(self.problem("a number too large for a JSON reader"));
        }
        Ok(())
    }

    fn number_text(&mut self) -> Result<(), String> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.problem("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.problem("expected a digit after `.`"));
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.problem("expected a digit in the exponent"));
            }
            self.digits();
        }
        Ok(())
    }

    /// `uXXXX` at the reader (the `u` included), as the code unit it names.
    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .bytes
            .get(self.at + 1..self.at + 5)
            .filter(|digits| digits.iter().all(u8::is_ascii_hexdigit))
            .ok_or_else(|| self.problem("`\\u` needs four hex digits"))?;
        let unit = u32::from_str_radix(std::str::from_utf8(digits).unwrap_or("0"), 16)
            .map_err(|_| self.problem("`\\u` needs four hex digits"))?;
        self.at += 5;
        Ok(unit)
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    fn word(&mut self, word: &str) -> Result<(), String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(())
        } else {
            Err(self.problem("expected a JSON value"))
        }
    }
}

/// Why `key` is not a valid `_meta` key, by the protocol's rule: an optional prefix of dotted
/// labels (each starting with a letter, ending with a letter or digit, hyphens inside) and a
/// `/`, then a name that, unless empty, starts and ends with a letter or digit, with `-`, `_`
/// and `.` inside.
pub(crate) fn meta_key_problem(key: &str) -> Option<String> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        let label_ok = |label: &str| {
            let bytes = label.as_bytes();
            bytes.first().is_some_and(u8::is_ascii_alphabetic)
                && bytes.last().is_some_and(u8::is_ascii_alphanumeric)
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        };
        if !prefix.split('.').all(label_ok) {
            return Some(format!(
                "the `_meta` key `{key}` has an invalid prefix: dotted labels of letters, digits \
                 and hyphens, each starting with a letter (reverse DNS, such as `com.example/`)"
            ));
        }
    }
    let bytes = name.as_bytes();
    let name_ok = bytes.is_empty()
        || (bytes[0].is_ascii_alphanumeric()
            && bytes[bytes.len() - 1].is_ascii_alphanumeric()
            && bytes
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')));
    (!name_ok).then(|| {
        format!(
            "the `_meta` key `{key}` has an invalid name: letters, digits, `-`, `_` and `.`, \
             starting and ending with a letter or digit"
        )
    })
}

#[cfg(test)]
mod tests {
    use crate::leaf::json_text::{check_object, meta_key_problem};

    #[test]
    fn meta_keys_follow_the_protocols_rule() {
        for good in [
            "tier",
            "com.example/tier",
            "com.example-2/a.b_c-d",
            "com.example/",
            "x",
        ] {
            assert_eq!(meta_key_problem(good), None, "{good}");
        }
        for bad in [
            "-tier",
            "tier-",
            "com..example/tier",
            "1com/tier",
            "com.example-/t",
            "a b",
            "com/x y",
        ] {
            assert!(meta_key_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn objects_are_json_and_everything_else_is_an_error_with_a_place() {
        for good in [
            "{}",
            r#" {"a": 1, "b": [true, false, null, -0.5e+3, "x\n\u00e9\ud83d\ude00"], "c": {"a": 1}} "#,
        ] {
            assert!(check_object(good).is_ok(), "{good}");
        }
        for (bad, problem) in [
            ("[]", "expected a JSON object"),
            (r#"{"a": 1,}"#, "byte 8: expected a string"),
            (r#"{"a": 01}"#, "byte 7: expected `,` or `}`"),
            (
                r#"{"a": 1, "a": 2}"#,
                "byte 9: the key \"a\" is given twice",
            ),
            (r#"{"a": tru}"#, "byte 6: expected a JSON value"),
            (r#"{"a": "x}"#, "the string is not closed"),
            (r#"{"a": 1} x"#, "text after the object"),
            (r#"{'a': 1}"#, "expected a string in double quotes"),
            (r#"{"a": 1e400}"#, "byte 6: a number too large"),
            (r#"{"a": "\ud800"}"#, "a high surrogate without a low one"),
            (r#"{"a": "\udc00"}"#, "a low surrogate without a high one"),
        ] {
            let error = check_object(bad).unwrap_err();
            assert!(error.contains(problem), "{bad}: {error}");
        }
    }
}
