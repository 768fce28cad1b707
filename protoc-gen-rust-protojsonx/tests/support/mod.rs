//! What the tests that keep checked-in generated files fresh share.

use std::path::Path;

/// Checks that `path` holds `made`, or writes `made` there when
/// `PROTOJSONX_BLESS` is set (a change made on purpose, to review in git).
pub fn fresh_or_blessed(path: &Path, made: &[u8]) {
    if std::env::var_os("PROTOJSONX_BLESS").is_some() {
        std::fs::write(path, made).unwrap();
        return;
    }
    let checked_in = std::fs::read(path).unwrap_or_default();
    assert!(
        checked_in == made,
        "{} is stale; review and bless with PROTOJSONX_BLESS=1",
        path.display()
    );
}
