//! [`Unportable`]: what a source file holds that an imported `.steps` file cannot say, at its
//! line. The file is then not written, and the import goes on with the next one.

/// Why a source file has no `.steps` form.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Unportable {
    /// 1-based line in the source file.
    pub(super) line: usize,
    pub(super) reason: String,
}
