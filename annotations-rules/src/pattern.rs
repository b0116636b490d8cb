//! A JSON Schema `pattern` is an ECMA-262 regular expression, run without flags as JSON Schema
//! validators run it. The `regex` crate reads some of that syntax otherwise (`\d` takes every
//! Unicode digit there, `.` takes `\r`), so a pattern is run as [`translate`] writes it: the
//! macro translates and compiles it while compiling, to refuse what cannot run so, and the call
//! and `verify` run the same translation.
//!
//! ```
//! use mcp_annotations_rules::pattern::translate;
//!
//! assert_eq!(translate(r"^\d+$").unwrap(), "^[0-9]+$");
//! assert!(translate(r"(?=a)").is_err());
//! ```

/// ECMA-262's white space and line terminators (`\s`), as members of a `regex` class.
const SPACE: &str = r"\t\x{B}\x{C}\x{20}\x{A0}\x{FEFF}\p{Zs}\n\r\x{2028}\x{2029}";
/// ECMA-262's word characters (`\w` without the `u` and `i` flags), as members of a class.
const WORD: &str = "0-9A-Za-z_";
/// ECMA-262's digits (`\d`), as members of a class.
const DIGIT: &str = "0-9";

/// The pattern in the `regex` crate's syntax, matching what ECMA-262 matches without flags:
/// `\d`, `\w`, `\s` and their negations as ECMA-262's sets (no `\b` or `\B`: see below), `.`
/// anything but a line terminator, a class's members taken literally. What the `regex` crate
/// has no way to match, or would read otherwise, is refused with the reason: back-references,
/// lookaround, inline flags, word boundaries (validators read them apart past ASCII), `\p{...}`
/// (ECMA-262's only with the `u` flag), escapes of letters
/// ECMA-262 does not define (`\A`, `\z`). So is what ECMA-262 reads one way without the `u`
/// flag and refuses with it (a lone `{`, `\é`), as JSON Schema validators differ there: a
/// pattern that passes means one thing to every validator.
/// Errors the `regex` parser reports itself (an unclosed group) are left to it.
pub fn translate(pattern: &str) -> Result<String, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\\' => {
                let (piece, next) = escape(&chars, i, false)?;
                i = next;
                match piece {
                    Piece::Char(c) => literal(c, &mut out),
                    Piece::Set(members, false) => out.push_str(&format!("[{members}]")),
                    Piece::Set(members, true) => out.push_str(&format!("[^{members}]")),
                }
            }
            '.' => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            '[' => i = class(&chars, i, &mut out)?,
            '(' if chars.get(i) == Some(&'?') => {
                let rest: String = chars[i + 1..].iter().take(2).collect();
                if rest.starts_with(':') {
                    out.push_str("(?:");
                    i += 2;
                } else if rest.starts_with('=')
                    || rest.starts_with('!')
                    || rest == "<="
                    || rest == "<!"
                {
                    return Err(
                        "lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) has no match in the `regex` \
                         crate"
                            .to_owned(),
                    );
                } else if rest.starts_with('<') {
                    // A named group, which the `regex` crate writes alike.
                    out.push_str("(?<");
                    i += 2;
                } else {
                    return Err(
                        "inline flags such as `(?i)` are not ECMA-262 syntax, and JSON \
                         Schema patterns take no flags"
                            .to_owned(),
                    );
                }
            }
            '{' => match quantifier(&chars, i) {
                Some(end) => {
                    out.extend(&chars[i - 1..end]);
                    i = end;
                }
                // Not a quantifier (`{,3}` included, which the `regex` crate would read as
                // one): ECMA-262 reads the brace itself only without the `u` flag.
                None => return Err(alone('{')),
            },
            '}' | ']' => return Err(alone(c)),
            // `#`, whitespace, `&`, `~`, `-` mean nothing special outside a class to either.
            c => out.push(c),
        }
    }
    Ok(out)
}

/// What an escape stands for.
enum Piece {
    Char(char),
    /// A class's members (without brackets), and whether it is negated.
    Set(&'static str, bool),
}

/// The escape whose letter is at `chars[i]` (after the `\`), and where reading goes on.
fn escape(chars: &[char], i: usize, in_class: bool) -> Result<(Piece, usize), String> {
    let Some(&c) = chars.get(i) else {
        return Err("the pattern ends with a lone `\\`".to_owned());
    };
    let hex = |from: usize, len: usize| -> Option<u32> {
        let digits: String = chars.get(from..from + len)?.iter().collect();
        if digits.chars().all(|d| d.is_ascii_hexdigit()) {
            u32::from_str_radix(&digits, 16).ok()
        } else {
            None
        }
    };
    let piece = match c {
        'd' => Piece::Set(DIGIT, false),
        'D' => Piece::Set(DIGIT, true),
        'w' => Piece::Set(WORD, false),
        'W' => Piece::Set(WORD, true),
        's' => Piece::Set(SPACE, false),
        'S' => Piece::Set(SPACE, true),
        // In a class `\b` is a backspace.
        'b' if in_class => Piece::Char('\u{8}'),
        // ECMA-262 reads a word boundary by ASCII word characters, other validators (the
        // `regex` crate's, Rust's `jsonschema`) by every letter: `aé` has one to some and
        // not to others, so a boundary means no one thing.
        'b' | 'B' => {
            return Err(format!(
                "`\\{c}` is a word boundary, which JSON Schema validators read apart (by ASCII \
                 letters, or by every letter); write the characters on either side instead"
            ));
        }
        't' => Piece::Char('\t'),
        'n' => Piece::Char('\n'),
        'v' => Piece::Char('\u{B}'),
        'f' => Piece::Char('\u{C}'),
        'r' => Piece::Char('\r'),
        '0' if !chars.get(i + 1).is_some_and(char::is_ascii_digit) => Piece::Char('\0'),
        'c' if chars.get(i + 1).is_some_and(char::is_ascii_alphabetic) => {
            let letter = chars[i + 1] as u32;
            return Ok((
                Piece::Char(char::from_u32(letter % 32).unwrap_or('\0')),
                i + 2,
            ));
        }
        'x' => {
            let code = hex(i + 1, 2).ok_or("`\\x` takes two hex digits (`\\x41`)")?;
            return Ok((Piece::Char(char::from_u32(code).unwrap_or('\0')), i + 3));
        }
        'u' => {
            let code = hex(i + 1, 4).ok_or(
                "`\\u` takes four hex digits (`\\u00e9`); `\\u{...}` is ECMA-262's only with the \
                 `u` flag",
            )?;
            let c = char::from_u32(code).ok_or(
                "`\\u` names a surrogate: write the character itself instead of a pair of escapes",
            )?;
            return Ok((Piece::Char(c), i + 5));
        }
        '1'..='9' => {
            return Err(
                "back-references (`\\1`) cannot be checked: the `regex` crate has none".to_owned(),
            );
        }
        'p' | 'P' => {
            return Err(format!(
                "`\\{c}{{...}}` is a Unicode property with ECMA-262's `u` flag and the letter \
                 `{c}` without it, and JSON Schema validators differ on the flag: write the \
                 characters as a class"
            ));
        }
        'k' => {
            return Err(
                "back-references (`\\k<name>`) cannot be checked: the `regex` crate has \
                        none"
                    .to_owned(),
            );
        }
        c if c.is_ascii_alphanumeric() => {
            return Err(format!(
                "`\\{c}` is not an ECMA-262 escape (ECMA-262 reads it as `{c}`, other engines \
                 otherwise): write `{c}` itself"
            ));
        }
        // A character of the syntax escaped is itself.
        c if "^$\\.*+?()[]{}|/".contains(c) || (in_class && c == '-') => Piece::Char(c),
        c => {
            return Err(format!(
                "`\\{c}` is an escape ECMA-262 takes only without the `u` flag, which some \
                 JSON Schema validators run patterns with: write `{c}` itself"
            ));
        }
    };
    Ok((piece, i + 1))
}

/// Why a `{`, `}` or `]` of its own is refused.
fn alone(c: char) -> String {
    format!(
        "a `{c}` that is not part of a quantifier or class is ECMA-262's only without the `u` \
         flag, which some JSON Schema validators run patterns with: write `\\{c}`"
    )
}

/// `c` as a literal the `regex` crate reads as that character, in or out of a class.
fn literal(c: char, out: &mut String) {
    if c.is_ascii_alphanumeric() || c == '_' || (!c.is_ascii() && !c.is_whitespace()) {
        out.push(c);
    } else {
        out.push_str(&format!("\\x{{{:X}}}", c as u32));
    }
}

/// The end of a quantifier `{n}`, `{n,}` or `{n,m}` whose `{` is just before `chars[i]`.
fn quantifier(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    let digits = |j: &mut usize| {
        let start = *j;
        while chars.get(*j).is_some_and(char::is_ascii_digit) {
            *j += 1;
        }
        *j > start
    };
    if !digits(&mut j) {
        return None;
    }
    if chars.get(j) == Some(&',') {
        j += 1;
        digits(&mut j);
    }
    (chars.get(j) == Some(&'}')).then_some(j + 1)
}

/// One member of a class: a character (which may end a range), a `-` as written (which makes
/// a range between two characters; `\-` is a character), or a set.
enum Member {
    Char(char),
    Dash,
    Set(&'static str, bool),
}

impl Member {
    /// The character it is, if it may be the end of a range.
    fn end(&self) -> Option<char> {
        match self {
            Member::Char(c) => Some(*c),
            Member::Dash => Some('-'),
            Member::Set(..) => None,
        }
    }
}

/// The class whose `[` is just before `chars[i]`, written to `out`; where reading goes on.
fn class(chars: &[char], mut i: usize, out: &mut String) -> Result<usize, String> {
    let negated = chars.get(i) == Some(&'^');
    if negated {
        i += 1;
    }
    let mut members = Vec::new();
    loop {
        let Some(&c) = chars.get(i) else {
            return Err("a class `[` is not closed".to_owned());
        };
        i += 1;
        let member = match c {
            ']' => break,
            '-' => Member::Dash,
            '\\' => {
                let (piece, next) = escape(chars, i, true)?;
                i = next;
                match piece {
                    Piece::Char(c) => Member::Char(c),
                    Piece::Set(set, negated) => Member::Set(set, negated),
                }
            }
            c => Member::Char(c),
        };
        members.push(member);
    }
    let mut body = String::new();
    let mut k = 0;
    while k < members.len() {
        if let (Some(Member::Dash), Some(high)) = (members.get(k + 1), members.get(k + 2)) {
            match (members[k].end(), high.end()) {
                (Some(low), Some(high)) if low > high => {
                    return Err(format!(
                        "the range `{low}-{high}` in a class is out of order"
                    ));
                }
                (Some(low), Some(high)) => {
                    literal(low, &mut body);
                    body.push('-');
                    literal(high, &mut body);
                    k += 3;
                    continue;
                }
                _ => {
                    return Err(
                        "a range in a class cannot start or end at `\\d`, `\\w` or `\\s`"
                            .to_owned(),
                    );
                }
            }
        }
        match &members[k] {
            Member::Char(c) => literal(*c, &mut body),
            Member::Dash => literal('-', &mut body),
            Member::Set(set, false) => body.push_str(set),
            Member::Set(set, true) => body.push_str(&format!("[^{set}]")),
        }
        k += 1;
    }
    // ECMA-262's `[]` matches nothing and `[^]` anything; the `regex` crate has neither.
    match (negated, body.is_empty()) {
        (false, true) => out.push_str(r"[^\x{0}-\x{10FFFF}]"),
        (true, true) => out.push_str(r"[\x{0}-\x{10FFFF}]"),
        (false, false) => out.push_str(&format!("[{body}]")),
        (true, false) => out.push_str(&format!("[^{body}]")),
    }
    Ok(i)
}
