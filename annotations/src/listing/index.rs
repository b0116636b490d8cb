//! The name index of a `tools!` listing: an open-addressing table of FNV-1a hashes, built
//! while compiling by the duplicate-name check (which needs it anyway), so that a call finds
//! its tool in constant time at any size of listing instead of comparing every name.

use crate::Tool;

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
