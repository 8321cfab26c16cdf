//! Plan steps that claim one of two things: "counter shows '0 items left' or the footer is
//! hidden". A check of either claim alone would pass on a page where the sentence is false
//! half the time, and a check of both would fail where it is true, so the built-in declines
//! such a sentence with what it read, instead of a shape reading one half and leaving the
//! other as an unread word. (Writing the disjunction as one check is left to the LLM or the
//! user: `expect(a.or(b))` fits only when both halves are visibility claims, and a claim of
//! hidden is none.)
//!
//! Main function: [`either`], listed in `plan_readers.rs`.

use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::plan_steps::{Reading, Said, sentence_of};
use crate::writer::builtin::tokens::Tok;

/// The verbs that make a side of `or` a clause of its own.
const VERBS: &[&str] = &[
    "is",
    "are",
    "shows",
    "show",
    "has",
    "have",
    "appears",
    "appear",
    "disappears",
    "disappear",
    "displays",
    "remains",
    "stays",
];

fn has_verb(toks: &[Tok]) -> bool {
    toks.iter().any(|t| VERBS.iter().any(|v| t.is(v)))
}

/// `A is X or B is Y`, `the footer is hidden or shows 'T'`: two claims joined by one `or`,
/// each side with a verb of its own; declined.
pub(crate) fn either(said: &Said) -> Reading {
    let toks = &said.raw;
    let ors: Vec<usize> = toks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.is("or"))
        .map(|(at, _)| at)
        .collect();
    let [or] = ors.as_slice() else {
        return None;
    };
    let (left, right) = (&toks[..*or], &toks[or + 1..]);
    if !has_verb(left) || !has_verb(right) {
        return None;
    }
    Some(Err(Decline::new(format!(
        "the sentence claims either that {} or that {}, and the built-in generator writes no \
         check that passes when either holds; write the claim that holds for this app as a \
         step of its own",
        sentence_of(left),
        sentence_of(right)
    ))))
}

#[cfg(test)]
mod tests {
    use crate::script::PageState;
    use crate::writer::builtin::discourse::Discourse;
    use crate::writer::builtin::plan_readers::read_as_text;

    fn read(sentence: &str) -> Vec<String> {
        read_as_text(&Discourse::default(), sentence, &PageState::default())
    }

    #[test]
    fn two_claims_joined_by_or_decline_naming_both() {
        let declined = read("Counter shows '0 items left' or the footer is hidden");
        assert!(
            declined[0].starts_with("DECLINE")
                && declined[0].contains("or that the footer is hidden"),
            "{declined:?}"
        );
        assert!(read("The footer is hidden or shows '0 items left'")[0].starts_with("DECLINE"));
    }

    #[test]
    fn an_or_inside_one_claim_is_left_to_the_shapes() {
        assert_eq!(
            read("the form asks 'Q' with the options Yes or No"),
            ["NONE"]
        );
        assert_eq!(
            read("click 'Go' and accept the alert or the prompt"),
            ["NONE"]
        );
    }
}
