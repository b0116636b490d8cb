//! The name index of a `tools!` listing: an open-addressing table of FNV-1a hashes, built
//! while compiling by the duplicate-name check (which needs it anyway), so that a call finds
//! its tool in constant time at any size of listing instead of comparing every name.

use crate::tool::Tool;

/// FNV-1a of `bytes`: cheap, and `const`.
pub(crate) const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

/// The position of the tool named `name` in `tools`, through `slots` (a power of two of
/// entries, each 1 + a position, or 0 when empty), or by comparing every name when there are
/// no slots (a listing made with `Listing::new`).
pub(crate) fn position(tools: &[Tool], slots: &[u32], name: &str) -> Option<usize> {
    if slots.is_empty() {
        return tools.iter().position(|tool| tool.name() == name);
    }
    let mask = slots.len() - 1;
    #[allow(clippy::cast_possible_truncation)]
    let mut slot = (fnv1a(name.as_bytes()) as usize) & mask;
    loop {
        let held = slots[slot] as usize;
        if held == 0 {
            return None;
        }
        if tools.get(held - 1).is_some_and(|tool| tool.name() == name) {
            return Some(held - 1);
        }
        slot = (slot + 1) & mask;
    }
}

/// A message built in `const` evaluation, where `format!` is not available.
pub struct Message {
    bytes: [u8; 512],
    len: usize,
}

impl Message {
    pub(crate) const fn new() -> Self {
        Message {
            bytes: [0; 512],
            len: 0,
        }
    }

    pub(crate) const fn push(mut self, text: &str) -> Self {
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

    pub(crate) const fn number(mut self, mut n: usize) -> Self {
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

    /// Whether nothing was written: no problem to report.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The text written, as a `str` (a truncated name may end inside a character: the text
    /// backs off to a boundary). The macros' generated code panics with it where the mistake
    /// is, so that the error points at the user's code, not at this crate's.
    #[must_use]
    pub const fn text(&self) -> &str {
        let mut len = self.len;
        loop {
            let (head, _) = self.bytes.split_at(len);
            if let Ok(text) = core::str::from_utf8(head) {
                return text;
            }
            len -= 1;
        }
    }
}

/// The name index of a `tools!` listing (see `listing/index.rs`), and for each tool the earlier
/// one that has its name, if any.
pub struct NameIndex<const N: usize, const SLOTS: usize> {
    /// The open-addressing table the listing finds its tools by.
    pub slots: [u32; SLOTS],
    /// For each tool, 1 + the position of the earlier tool with its name, or 0: what the
    /// generated code fails on, at that tool's entry.
    pub duplicates: [u32; N],
}

/// The name index of a `tools!` listing and its duplicates (see [`NameIndex`]).
///
/// Linear in the number of tools, which matters because `const` evaluation is slow: each name
/// is hashed once (FNV-1a) into an open-addressing table of `SLOTS` entries (a power of two at
/// least twice `N`, chosen by `tools!`), and names are compared only when their hashes meet.
#[must_use]
pub const fn name_index<const N: usize, const SLOTS: usize>(
    tools: &[Tool; N],
) -> NameIndex<N, SLOTS> {
    assert!(N < u32::MAX as usize, "too many tools for one listing");
    // Each slot holds 1 + the index of the tool in it, or 0 when empty.
    let mut slots = [0u32; SLOTS];
    let mut duplicates = [0u32; N];
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
                #[allow(clippy::cast_possible_truncation)]
                {
                    duplicates[i] = held as u32;
                }
                break;
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
        i += 1;
    }
    NameIndex { slots, duplicates }
}

/// What is wrong with the `later`-th tool of `tools` (from 0), whose name the `earlier`-th
/// has too: the message the generated code fails with at its entry.
#[must_use]
pub const fn duplicate_name(tools: &[Tool], earlier: usize, later: usize) -> Message {
    Message::new()
        .push("duplicate tool name `")
        .push(tools[later].name())
        .push("` in tools![...]: entries ")
        .number(earlier + 1)
        .push(" and ")
        .number(later + 1)
        .push(" both have it; give one of them another `name = \"...\"`")
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
