//! A check of JSON text written in an attribute (`#[tool(meta = r#"{...}"#)]`), so that what
//! the descriptor lists is JSON: RFC 8259's grammar, an object at the root, no key twice in
//! one object. The first problem is reported with where it is.

/// Why `text` is not a JSON object, with the byte offset of the problem; `Ok` when it is one.
pub(crate) fn check_object(text: &str) -> Result<(), String> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    reader.space();
    if reader.peek() != Some(b'{') {
        return Err("expected a JSON object, starting with `{`".to_owned());
    }
    reader.value()?;
    reader.space();
    match reader.peek() {
        None => Ok(()),
        Some(_) => Err(reader.problem("text after the object")),
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
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
                            let digits = self.bytes.get(self.at + 1..self.at + 5);
                            if !digits.is_some_and(|d| d.iter().all(u8::is_ascii_hexdigit)) {
                                return Err(self.problem("`\\u` needs four hex digits"));
                            }
                            self.at += 5;
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

    fn number(&mut self) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::check_object;

    #[test]
    fn objects_are_json_and_everything_else_is_an_error_with_a_place() {
        for good in [
            "{}",
            r#" {"a": 1, "b": [true, false, null, -0.5e+3, "x\n\u00e9"], "c": {"a": 1}} "#,
        ] {
            assert_eq!(check_object(good), Ok(()), "{good}");
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
        ] {
            let error = check_object(bad).unwrap_err();
            assert!(error.contains(problem), "{bad}: {error}");
        }
    }
}
