//! SplitMix64, the one seeded generator of the project: the inputs that tests, examples, scenes,
//! benchmarks and the soak compare with their CPU twins, the same on every platform and in the
//! browser, without a dependency. In the core because every crate that needs it (the
//! conformance suite, which depends on the core alone, the kernels, the benchmarks) depends on
//! the core.

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// small, seeded, and bit-identical everywhere, for reproducible inputs. Not for cryptography.
///
/// ```
/// let mut a = shoal::SplitMix64::new(7);
/// let mut b = shoal::SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64()); // one seed, one sequence
/// let x = a.range_f32(-1.0, 1.0);
/// assert!((-1.0..1.0).contains(&x));
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next 32 random bits (the high half of [`next_u64`](Self::next_u64)'s).
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in `[0, 1)`: 24 random bits, every value an `f32` represents exactly.
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[lo, hi)`.
    pub fn range_f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_f32()
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn matches_the_reference_sequence() {
        // The first outputs of seed 1234567, computed apart from this code (in Python, from the
        // published algorithm).
        let mut rng = SplitMix64::new(1_234_567);
        let expected: [u64; 5] = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for want in expected {
            assert_eq!(rng.next_u64(), want);
        }
    }

    #[test]
    fn the_narrower_draws_come_from_the_same_bits() {
        let mut wide = SplitMix64::new(42);
        let mut narrow = wide.clone();
        for _ in 0..1000 {
            let bits = wide.next_u64();
            let f = narrow.clone().next_f32();
            assert_eq!(narrow.clone().next_u32(), (bits >> 32) as u32);
            assert_eq!(f, (bits >> 40) as f32 / 16_777_216.0);
            assert!((0.0..1.0).contains(&f));
            let r = narrow.range_f32(-3.0, 5.0);
            assert_eq!(r, -3.0 + 8.0 * f);
            assert!((-3.0..5.0).contains(&r));
        }
    }
}
