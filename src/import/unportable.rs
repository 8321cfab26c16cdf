//! [`Unportable`]: what a source file holds that an imported `.steps` file cannot say, at its
//! line. The file is then not written, and the import goes on with the next one.
//!
//! Text that becomes a test name, a tag, a sentence, a cell or a doc string must not hold a
//! character a terminal would act on (`visible.rs`): a file for people to read never carries one
//! raw, and `.steps` has no escape that would read back as the same text.

use crate::visible::{is_unsafe, visible};

/// Why a source file has no `.steps` form.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Unportable {
    /// 1-based line in the source file.
    pub(super) line: usize,
    pub(super) reason: String,
}

/// `Ok` when `text`, the `what` of the source's line `line`, holds no control or invisible
/// character (see `visible.rs`).
pub(super) fn carried(text: &str, what: &str, line: usize) -> Result<(), Unportable> {
    let Some(c) = text.chars().find(|c| is_unsafe(*c)) else {
        return Ok(());
    };
    Err(Unportable {
        line,
        reason: format!(
            "{what} holds the control character `{}`, which a `.steps` file cannot hold as text \
             (it would act on the terminal of whoever reads the file): remove it from the source",
            visible(&c.to_string())
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_invisible_characters_are_not_carried() {
        assert_eq!(carried("open the app\tnow", "the step", 3), Ok(()));
        let error = carried("clear \u{1b}[2J", "the step `clear`", 3).expect_err("refused");
        assert_eq!(error.line, 3);
        assert!(error.reason.contains("`\\x1b`"), "{}", error.reason);
        assert!(!error.reason.contains('\u{1b}'), "{}", error.reason);
        assert!(carried("a\u{202e}b", "x", 1).is_err());
    }
}
