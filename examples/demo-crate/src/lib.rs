//! A tiny crate for the benchhist demo: its history contains one planted slowdown.

/// How many passes `checksum` makes over its input. The demo's history raises this at one
/// commit, which makes the checksum benchmarks several times slower.
pub const PASSES: u32 = 1;

/// Counts whitespace-separated words.
pub fn count_words(text: &str) -> usize {
    text.split_whitespace().count()
}

/// A simple rolling checksum, computed `PASSES` times.
pub fn checksum(data: &[u8]) -> u64 {
    let mut acc = 0u64;
    for pass in 0..PASSES {
        for &b in data {
            acc = acc.rotate_left(5) ^ (b as u64).wrapping_add(pass as u64);
        }
    }
    acc
}
