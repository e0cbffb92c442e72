//! The spread primitives against CPU references, on several devices of the adapter
//! `SHOAL_BACKEND` names (the same adapter opened four times).

mod faults;
mod primitives;
mod sort;

use std::sync::OnceLock;

use shoal_scale::Group;

/// Four devices of one adapter, shared by the tests (each takes the first 1 to 4).
pub(crate) fn group(n: usize) -> Group {
    static GROUP: OnceLock<Group> = OnceLock::new();
    GROUP
        .get_or_init(|| Group::same_adapter(4, Default::default()).expect("four devices"))
        .first(n)
        .expect("a group")
}

/// Deterministic pseudo-random words (xorshift), `seed` choosing the sequence.
pub(crate) fn words(n: usize, seed: u64) -> Vec<u32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 16) as u32
        })
        .collect()
}

/// Part lengths of `n` elements over `devices`: even, uneven (each part twice the last), or
/// with the second part empty.
pub(crate) fn splits(n: u64, devices: usize) -> Vec<Vec<u64>> {
    let even = shoal_scale::even(n, devices);
    let weights: Vec<u64> = (0..devices as u32).map(|i| 1 << i).collect();
    let sum: u64 = weights.iter().sum();
    let mut uneven: Vec<u64> = weights.iter().map(|w| n * w / sum).collect();
    uneven[0] += n - uneven.iter().sum::<u64>();
    let mut gap = even.clone();
    if devices > 1 {
        gap[0] += gap[1];
        gap[1] = 0;
    }
    vec![even, uneven, gap]
}
