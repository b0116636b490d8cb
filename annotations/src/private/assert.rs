//! The `const` assertions of a listing, evaluated while compiling: no two tools share a name,
//! and, when asked, every tool is ready for a tool directory. Each fails with a message that
//! names the tool, since `const` evaluation reports only the panic's text.

use crate::Missing;
use crate::listing::index::fnv1a;
use crate::{Readiness, Tool};

/// A message built in `const` evaluation, where `format!` is not available.
struct Message {
    bytes: [u8; 512],
    len: usize,
}

impl Message {
    const fn new() -> Self {
        Message {
            bytes: [0; 512],
            len: 0,
        }
    }

    const fn push(mut self, text: &str) -> Self {
        let text = text.as_bytes();
        let mut i = 0;
        // Keep room for a closing part; a name is at most 128 bytes once checked, but a
        // hand-written one may be longer.
        while i < text.len() && self.len < self.bytes.len() - 64 {
            self.bytes[self.len] = text[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn number(mut self, mut n: usize) -> Self {
        let mut digits = [0u8; 20];
        let mut count = 0;
        loop {
            digits[count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while count > 0 && self.len < self.bytes.len() {
            count -= 1;
            self.bytes[self.len] = digits[count];
            self.len += 1;
        }
        self
    }

    const fn fail(&self) -> ! {
        // A truncated name may end inside a character: back off to a boundary.
        let mut len = self.len;
        loop {
            let (head, _) = self.bytes.split_at(len);
            if let Ok(text) = core::str::from_utf8(head) {
                panic!("{}", text);
            }
            len -= 1;
        }
    }
}

/// The name index of a `tools!` listing (see `listing/index.rs`), failing `const` evaluation if
/// two tools share a name, naming the name and both positions.
///
/// Linear in the number of tools, which matters because `const` evaluation is slow: each name
/// is hashed once (FNV-1a) into an open-addressing table of `SLOTS` entries (a power of two at
/// least twice `N`, chosen by `tools!`), and names are compared only when their hashes meet.
/// The table is what the listing finds its tools by.
#[must_use]
pub const fn name_index<const N: usize, const SLOTS: usize>(tools: &[Tool; N]) -> [u32; SLOTS] {
    assert!(N < u32::MAX as usize, "too many tools for one listing");
    // Each slot holds 1 + the index of the tool in it, or 0 when empty.
    let mut slots = [0u32; SLOTS];
    let mut hashes = [0u64; N];
    let mut i = 0;
    while i < N {
        let hash = fnv1a(tools[i].name().as_bytes());
        hashes[i] = hash;
        #[allow(clippy::cast_possible_truncation)]
        let mut slot = (hash as usize) & (SLOTS - 1);
        loop {
            let held = slots[slot] as usize;
            if held == 0 {
                #[allow(clippy::cast_possible_truncation)]
                {
                    slots[slot] = (i + 1) as u32;
                }
                break;
            }
            let earlier = held - 1;
            if hashes[earlier] == hash && str_eq(tools[earlier].name(), tools[i].name()) {
                Message::new()
                    .push("duplicate tool name `")
                    .push(tools[i].name())
                    .push("` in tools![...]: entries ")
                    .number(earlier + 1)
                    .push(" and ")
                    .number(i + 1)
                    .push(" both have it; give one of them another `name = \"...\"`")
                    .fail();
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
        i += 1;
    }
    slots
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Fails `const` evaluation at the first tool that is not ready for a directory at `level`,
/// naming the tool, what it lacks and the key that supplies it.
pub const fn assert_ready(tools: &[Tool], level: Readiness) {
    let mut i = 0;
    while i < tools.len() {
        if let Some(missing) = tools[i].missing_for(level) {
            let what = match level {
                Readiness::Directory => "` is not ready for a tool directory: it lacks ",
                Readiness::Strict => "` is not ready for a strict tool directory: it lacks ",
            };
            Message::new()
                .push("tool `")
                .push(tools[i].name())
                .push(what)
                .push(missing.as_str())
                .push("; add ")
                // `destructive` beside `read_only` is refused: a read-only tool destroys nothing.
                .push(
                    if matches!(missing, Missing::DestructiveHint)
                        && matches!(tools[i].annotations.read_only_hint, Some(true))
                    {
                        "#[tool(destructive = false)] (a read-only tool destroys nothing)"
                    } else {
                        missing.remedy()
                    },
                )
                .fail();
        }
        i += 1;
    }
}
