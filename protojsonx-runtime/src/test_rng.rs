//! A tiny deterministic PRNG for the randomised unit tests, so they need
//! no dependencies and every run tests the same inputs.

/// xorshift64: `Rng(seed)` with a non-zero seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// Returns the next pseudo-random value.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
