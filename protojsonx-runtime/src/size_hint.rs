//! Output size hints: how [`EncodeOptions::to_vec`](crate::EncodeOptions::to_vec)
//! allocates its vector once, at about the right size, without copying.
//!
//! Each generated message type has its own [`SizeHint`], a static holding
//! the capacity to allocate next: the size of the type's last JSON plus an
//! eighth. Payloads of one type tend to have similar sizes, so the guess is
//! usually right; when the output outgrows it the vector grows as usual
//! (one more allocation) and the hint follows. A steady size never writes
//! the hint, so threads encoding the same type do not contend on it.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The first capacity of a type with no history.
const INITIAL: usize = 128;

/// Slack over which a returned vector is shrunk to its length.
const SHRINK_SLACK: usize = 4096;

/// The capacity `to_vec` allocates for one message type. Part of the
/// contract with generated code, which gives every message a static one.
pub struct SizeHint(AtomicUsize);

impl SizeHint {
    /// A hint with no history.
    #[allow(clippy::new_without_default)] // a const constructor for statics
    pub const fn new() -> Self {
        SizeHint(AtomicUsize::new(0))
    }

    /// The capacity to allocate for the next output.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        match self.0.load(Relaxed) {
            0 => INITIAL,
            n => n,
        }
    }

    /// Learns from an output of `len` bytes written into a vector allocated
    /// with `capacity`: re-estimates when the output outgrew it or used well
    /// under half of it.
    #[inline]
    pub(crate) fn record(&self, len: usize, capacity: usize) {
        if len > capacity || capacity > 2 * len + 64 {
            self.0.store(len + len / 8 + 16, Relaxed);
        }
    }

    /// Whether a vector of `len` bytes allocated with `capacity` holds so
    /// much unused space (after an outsized message, say) that it should be
    /// shrunk before it is handed out.
    #[inline]
    pub(crate) fn too_roomy(len: usize, capacity: usize) -> bool {
        capacity > 2 * len + SHRINK_SLACK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_sizes_keep_the_hint_and_changes_move_it() {
        let hint = SizeHint::new();
        assert_eq!(hint.capacity(), INITIAL);
        hint.record(1000, INITIAL); // outgrew the first guess
        assert_eq!(hint.capacity(), 1141);
        for len in [1000, 1100, 900, 600] {
            hint.record(len, 1141); // close enough: no write
            assert_eq!(hint.capacity(), 1141);
        }
        hint.record(100, 1141); // much smaller now
        assert_eq!(hint.capacity(), 128);
        hint.record(2, 128);
        assert_eq!(hint.capacity(), 18);
        hint.record(2, 18);
        assert_eq!(hint.capacity(), 18, "tiny outputs settle");
    }

    #[test]
    fn only_large_slack_is_given_back() {
        assert!(!SizeHint::too_roomy(10, 128));
        assert!(!SizeHint::too_roomy(1000, 1141));
        assert!(SizeHint::too_roomy(100, 1 << 20));
    }
}
