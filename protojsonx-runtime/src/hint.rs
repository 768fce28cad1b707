//! Branch hints the crate's minimum Rust (1.85) lacks.

/// Marks the path that calls it as rare, as `core::hint::cold_path` (Rust
/// 1.95) does: LLVM then keeps a branch where it would compute both arms
/// and select (see `text::num::past_optional` for why that matters).
#[cold]
#[inline]
pub(crate) fn cold_path() {}
