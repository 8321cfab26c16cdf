//! The built-in generator's entry point: a sentence and a page's aria snapshot in, step code or
//! the reason it declines out.
//!
//! Main function: [`write_step`]; [`explain`] says also which lines of the snapshot it
//! matched (`prettyplay explain`).

use crate::engine::builtin::codegen::code_for;
use crate::engine::builtin::grammar::{Decline, parse};
use crate::engine::builtin::snapshot::Snapshot;

/// The code of `sentence` on the page whose AI-mode aria snapshot is `snapshot` and whose
/// structure beyond it `structure` lists (`structure.js`'s JSON, empty when unknown), or why the
/// built-in generator will not write it. `columns` are the examples table's columns (`<name>`
/// is a value only for these). Deterministic: the same sentence on the same page always gives
/// the same code.
pub(crate) fn write_step(
    sentence: &str,
    columns: &[String],
    snapshot: &str,
    structure: &str,
) -> Result<String, Decline> {
    let intent = parse(sentence, columns)?;
    code_for(&intent, &Snapshot::read(snapshot, structure))
}

/// What the built-in generator makes of a sentence on a page, for `prettyplay explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Explanation {
    /// The code [`write_step`] writes, or why it declines.
    pub code: Result<String, String>,
    /// The snapshot lines of the elements it found or weighed (the match, the row or list it
    /// is in, the candidates it could not tell apart), in page order.
    pub matched: Vec<String>,
}

/// [`write_step`], and the snapshot lines it matched against.
pub(crate) fn explain(
    sentence: &str,
    columns: &[String],
    snapshot: &str,
    structure: &str,
) -> Explanation {
    let snap = Snapshot::read(snapshot, structure);
    let code = parse(sentence, columns)
        .and_then(|intent| code_for(&intent, &snap))
        .map_err(|decline| decline.0);
    let lines: Vec<&str> = snapshot.lines().collect();
    let matched = snap
        .noticed_lines()
        .into_iter()
        .filter_map(|at| lines.get(at).map(|line| (*line).to_owned()))
        .collect();
    Explanation { code, matched }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::builtin::snapshot::fixtures::{LOGIN, TODOS};

    #[test]
    fn the_same_sentence_on_the_same_page_gives_the_same_code() {
        let a = write_step("click the \"Active\" link", &[], TODOS, "").unwrap();
        let b = write_step("click the \"Active\" link", &[], TODOS, "").unwrap();
        assert_eq!(a, b);
        assert_eq!(
            a,
            "async function step(page) {\n  await page.getByRole('link', { name: 'Active' }).click();\n}"
        );
    }

    #[test]
    fn explain_gives_the_code_and_the_lines_it_matched() {
        let explained = explain("click the \"Active\" link", &[], TODOS, "");
        assert_eq!(
            explained.code,
            write_step("click the \"Active\" link", &[], TODOS, "").map_err(|d| d.0)
        );
        assert_eq!(explained.matched.len(), 1, "{explained:?}");
        assert!(
            explained.matched[0].contains("link \"Active\""),
            "{explained:?}"
        );
    }

    #[test]
    fn explain_shows_the_candidates_it_could_not_tell_apart() {
        let page = "- list:\n  - listitem:\n    - button \"Delete\"\n  - listitem:\n    - button \"Delete\"\n- button \"Add\"\n";
        let explained = explain("click Delete", &[], page, "");
        let why = explained.code.unwrap_err();
        assert!(why.contains("2 elements"), "{why}");
        assert_eq!(
            explained.matched,
            ["    - button \"Delete\"", "    - button \"Delete\""]
        );
    }

    #[test]
    fn a_declined_sentence_says_why() {
        let why = write_step("make the app faster", &[], TODOS, "").unwrap_err();
        assert!(why.0.contains("none of the built-in shapes"), "{why:?}");
        let why = write_step("click \"Sign up\"", &[], LOGIN, "").unwrap_err();
        assert!(why.0.contains("no element"), "{why:?}");
    }
}
