//! The built-in generator's entry point: a sentence and a page's aria snapshot in, step code or
//! the reason it declines out.
//!
//! Main function: [`write_step`].

use crate::engine::builtin::codegen::code_for;
use crate::engine::builtin::grammar::{Decline, parse};
use crate::engine::builtin::snapshot::Snapshot;

/// The code of `sentence` on the page whose AI-mode aria snapshot is `snapshot`, or why the
/// built-in generator will not write it. `columns` are the examples table's columns (`<name>`
/// is a value only for these). Deterministic: the same sentence on the same page always gives
/// the same code.
pub(crate) fn write_step(
    sentence: &str,
    columns: &[String],
    snapshot: &str,
) -> Result<String, Decline> {
    let intent = parse(sentence, columns)?;
    code_for(&intent, &Snapshot::parse(snapshot))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::builtin::snapshot::fixtures::{LOGIN, TODOS};

    #[test]
    fn the_same_sentence_on_the_same_page_gives_the_same_code() {
        let a = write_step("click the \"Active\" link", &[], TODOS).unwrap();
        let b = write_step("click the \"Active\" link", &[], TODOS).unwrap();
        assert_eq!(a, b);
        assert_eq!(
            a,
            "async function step(page) {\n  await page.getByRole('link', { name: 'Active' }).click();\n}"
        );
    }

    #[test]
    fn a_declined_sentence_says_why() {
        let why = write_step("make the app faster", &[], TODOS).unwrap_err();
        assert!(why.0.contains("none of the built-in shapes"), "{why:?}");
        let why = write_step("click \"Sign up\"", &[], LOGIN).unwrap_err();
        assert!(why.0.contains("no element"), "{why:?}");
    }
}
