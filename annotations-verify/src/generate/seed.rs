//! The seeds of a run: the run's own, spread over proptest's 32 bytes, and each tool's,
//! mixed in from its name so that its cases depend on no other tool.

/// FNV-1a of a tool's name: stable across runs and platforms.
pub(crate) fn name_hash(name: &str) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in name.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

pub(crate) fn seed_bytes(seed: u64) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        #[allow(clippy::cast_possible_truncation)]
        let word =
            seed.rotate_left(i as u32 * 16) ^ 0x9E37_79B9_7F4A_7C15_u64.wrapping_mul(i as u64 + 1);
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    bytes
}

/// A seed from the clock, for a run given none.
pub(crate) fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |time| {
            #[allow(clippy::cast_possible_truncation)]
            let nanos = time.as_nanos() as u64;
            nanos
        })
}
