//! Per-thread buffers lent to one call at a time, so that the entry points
//! that need a buffer of their own (writing to an `io::Write`, reading from
//! an `io::Read`, re-laying out encoded JSON) allocate only while a buffer
//! grows, not on every call.

use std::cell::RefCell;
use std::thread::LocalKey;

thread_local! {
    /// The buffer of `io::Read` and `io::Write` entry points.
    static IO: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The compact JSON that `indent` and `ensure_ascii` lay out again.
    static COMPACT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The largest buffer kept for the thread's next call; a larger one (from
/// an outsized message) is freed after use, so it does not stay allocated.
pub(crate) const KEEP: usize = 1 << 20;

/// Calls `f` with the thread's empty I/O buffer.
pub(crate) fn io<T>(f: impl FnMut(&mut Vec<u8>) -> T) -> T {
    lend(&IO, f)
}

/// Calls `f` with the thread's empty buffer for compact JSON.
pub(crate) fn compact<T>(f: impl FnMut(&mut Vec<u8>) -> T) -> T {
    lend(&COMPACT, f)
}

/// Calls `f` with the empty buffer of `key`, or with a new one if that is
/// in use (a call inside a call) or gone (during thread exit).
fn lend<T>(key: &'static LocalKey<RefCell<Vec<u8>>>, mut f: impl FnMut(&mut Vec<u8>) -> T) -> T {
    let pooled = key.try_with(|cell| {
        let mut buf = cell.try_borrow_mut().ok()?;
        buf.clear();
        let result = f(&mut buf);
        if buf.capacity() > KEEP {
            *buf = Vec::new();
        }
        Some(result)
    });
    match pooled {
        Ok(Some(result)) => result,
        _ => f(&mut Vec::new()),
    }
}

#[cfg(test)]
pub(crate) fn io_capacity() -> usize {
    IO.with(|cell| cell.borrow().capacity())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_inside_a_call_gets_a_buffer_of_its_own() {
        let inner = io(|outer| {
            outer.push(1);
            io(|inner| {
                inner.push(2);
                inner.clone()
            })
        });
        assert_eq!(inner, [2]);
        assert_eq!(compact(|buf| buf.len()), 0);
    }
}
