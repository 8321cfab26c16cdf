//! `the counter shows "0 items left" or the footer is hidden`: two claims joined by one `or`,
//! one of them that an element is hidden. The sentence holds when that element is hidden, and
//! otherwise exactly when the other claim holds, so the code asks the page whether the element
//! is shown and checks the other claim when it is, and that it is hidden when it is not, again
//! until the step's timeout: it passes exactly when the sentence comes to hold. Two claims of which neither is a hidden element are
//! declined, naming both, because a check of one of them fails where only the other holds and a
//! check of both fails where the sentence holds.
//!
//! This file only reads; `either_code.rs` writes the code.
//!
//! Main function: [`read`] (the shape, listed in `shapes.rs`).

use crate::writer::builtin::intent::{Decline, Intent, Reading};
use crate::writer::builtin::shape::ReadWords;
use crate::writer::builtin::tokens::Tok;

/// The verbs that make a side of `or` a claim of its own.
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
    "says",
    "contains",
];

fn verb_at(toks: &[Tok]) -> Option<usize> {
    toks.iter().position(|t| VERBS.iter().any(|v| t.is(v)))
}

/// The sentence's words as written, a literal in double quotes.
fn said(toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| match t {
            Tok::Word(_, written) => written.clone(),
            Tok::Lit(text) => format!("\"{text}\""),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `A or B`, each side a claim with a verb of its own (`the footer is hidden or shows "T"`:
/// a side that starts with its verb shares the other side's subject), one of them that an
/// element is hidden and the other a check the word shapes read.
pub(crate) fn read(toks: &[Tok], shape: ReadWords) -> Option<Result<Intent, Decline>> {
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
    let (left_verb, right_verb) = (verb_at(left)?, verb_at(right)?);
    // `the footer is hidden or shows "T"`: the right side's subject is the left side's.
    let right: Vec<Tok> = if right_verb == 0 && left_verb > 0 {
        left[..left_verb].iter().chain(right).cloned().collect()
    } else {
        right.to_vec()
    };
    let declined = || {
        Decline::new(format!(
            "the sentence claims either that {} or that {}; the built-in generator writes such \
             a claim only when one side says an element is hidden and the other is a check it \
             reads, so write the claim that holds for this app as a step of its own",
            said(left),
            said(&right)
        ))
    };
    let read_side = |side: &[Tok]| match shape(side) {
        Some(Ok(intent)) => Some(intent),
        _ => None,
    };
    let (Some(first), Some(second)) = (read_side(left), read_side(&right)) else {
        return Some(Err(declined()));
    };
    let hidden = |intent: &Intent| match intent {
        Intent::Visible {
            target,
            shown: false,
        } => Some(target.clone()),
        _ => None,
    };
    let (hidden, otherwise) = match (hidden(&first), hidden(&second)) {
        (Some(target), _) => (target, second),
        (None, Some(target)) => (target, first),
        (None, None) => return Some(Err(declined())),
    };
    if otherwise.reading() != Reading::Claim {
        return Some(Err(declined()));
    }
    Some(Ok(Intent::OrHidden {
        hidden,
        otherwise: Box::new(otherwise),
    }))
}

#[cfg(test)]
mod tests {
    use crate::writer::builtin::intent::Reading;
    use crate::writer::builtin::shapes::{parse, write};
    use crate::writer::builtin::snapshot::Snapshot;

    fn reading(sentence: &str) -> Reading {
        parse(sentence, &[])
            .unwrap_or_else(|why| panic!("{sentence}: {}", why.0))
            .reading()
    }

    /// The joining shapes take the checks by this one property: the claims an either-or
    /// takes are checks, two checks joined are a check but no claim, and actions are neither.
    #[test]
    fn each_sentence_reads_acts_or_claims_as_its_intent_says() {
        for (sentence, expected) in [
            (r#"the "Save" button is shown"#, Reading::Claim),
            (r#"the title is "Shop""#, Reading::Claim),
            (r#""Total" is to the left of "42""#, Reading::Check),
            (r#""No" is checked and "Yes" is unchecked"#, Reading::Check),
            (
                r#"the counter shows "0 items left" or the footer is hidden"#,
                Reading::Check,
            ),
            ("GET /api/health answers 200", Reading::Check),
            (
                r#"send POST /api/todos with {"title": "milk"}"#,
                Reading::Acts,
            ),
            (r#"click "Save""#, Reading::Acts),
            ("go back", Reading::Acts),
        ] {
            assert_eq!(reading(sentence), expected, "{sentence}");
            assert_eq!(expected.is_check(), expected != Reading::Acts, "{sentence}");
        }
    }

    /// An either-or whose other side is a check but no claim declines, as it did when the
    /// either-or kept its own list.
    #[test]
    fn an_either_or_takes_only_claims_as_its_other_side() {
        let declined = parse(
            r#""Total" is to the left of "42" or the footer is hidden"#,
            &[],
        );
        assert!(declined.is_err(), "{declined:?}");
    }

    /// A todo app whose footer (`footer.footer`, with the counter `span.todo-count`) is
    /// hidden: its structure as `structure.js` lists it.
    const HIDDEN_FOOTER: &str = r#"[
      {"role":"heading","tag":"h1","words":["todos"],"locator":null,"text":"todos","visible":true},
      {"role":"textbox","tag":"input","words":["new","todo"],"locator":"page.locator('input.new-todo')","text":"","visible":true,"placeholder":"What needs to be done?"},
      {"role":"generic","tag":"footer","words":["footer"],"locator":"page.locator('footer.footer')","text":"0 items left All Active Completed","visible":false,"hidden":true},
      {"role":"generic","tag":"span","words":["todo","count"],"locator":"page.locator('span.todo-count')","text":"0 items left","visible":false,"hidden":true}
    ]"#;

    const PAGE: &str = "- heading \"todos\" [level=1]\n- textbox \"What needs to be done?\"\n";

    fn lines(sentence: &str, structure: &str) -> Result<Vec<String>, String> {
        write(sentence, &[], &Snapshot::read(PAGE, structure))
            .map(|w| w.lines)
            .map_err(|d| d.0)
    }

    #[test]
    fn a_claim_or_a_hidden_element_checks_the_claim_only_while_the_element_is_shown() {
        let written = lines(
            "Counter shows '0 items left' or the footer is hidden",
            HIDDEN_FOOTER,
        )
        .unwrap();
        assert_eq!(
            written[..2],
            [
                "await expect(async () => {",
                "  if (await page.locator('footer.footer').isVisible()) {"
            ]
        );
        assert!(
            written[2].contains("page.locator('span.todo-count')")
                && written[2].contains("'0 items left', { timeout: 500 })"),
            "{written:?}"
        );
        assert_eq!(
            written[written.len() - 4..],
            [
                "  } else {",
                "    await expect(page.locator('footer.footer')).toBeHidden({ timeout: 500 });",
                "  }",
                "}).toPass();"
            ]
        );
        // The other order, the second side sharing the first side's subject.
        let written = lines(
            "The footer is hidden or shows '0 items left'",
            HIDDEN_FOOTER,
        )
        .unwrap();
        assert_eq!(
            written[1],
            "  if (await page.locator('footer.footer').isVisible()) {"
        );
        assert!(
            written[2].contains("page.locator('footer.footer')")
                && written[2].ends_with(", { timeout: 500 });"),
            "{written:?}"
        );
    }

    /// A todo app that removed its footer (`structure.js` lists it, and the counter in it, as
    /// elements shown earlier in the document and gone now).
    const REMOVED_FOOTER: &str = r#"[
      {"role":"textbox","tag":"input","words":["new","todo"],"locator":"page.locator('input.new-todo')","text":"","visible":true,"placeholder":"What needs to be done?"},
      {"role":"list","tag":"ul","words":["todo","list"],"locator":"page.locator('ul.todo-list')","text":"Temporary task","visible":false,"hidden":true},
      {"role":"generic","tag":"footer","words":["footer"],"locator":"page.locator('footer.footer')","text":"1 item left All Active Completed","visible":false,"hidden":true},
      {"role":"generic","tag":"span","words":["todo","count"],"locator":"page.locator('span.todo-count')","text":"1 item left","visible":false,"hidden":true}
    ]"#;

    #[test]
    fn a_footer_the_page_removed_is_checked_by_the_locator_it_had() {
        let page = "- heading \"todos\" [level=1]\n- textbox \"What needs to be done?\"\n- contentinfo:\n  - paragraph: Double-click to edit a todo\n";
        let written = write(
            "Counter shows '0 items left' or the footer is hidden",
            &[],
            &Snapshot::read(page, REMOVED_FOOTER),
        )
        .map(|w| w.lines)
        .map_err(|d| d.0);
        assert_eq!(
            written.unwrap(),
            [
                "await expect(async () => {",
                "  if (await page.locator('footer.footer').isVisible()) {",
                "    await expect(page.locator('span.todo-count')).toHaveText('0 items left', { timeout: 500 });",
                "  } else {",
                "    await expect(page.locator('footer.footer')).toBeHidden({ timeout: 500 });",
                "  }",
                "}).toPass();"
            ]
        );
    }

    #[test]
    fn two_claims_neither_of_a_hidden_element_decline_naming_both() {
        let declined = lines(
            "the heading says 'todos' or the field is empty",
            HIDDEN_FOOTER,
        )
        .unwrap_err();
        assert!(
            declined.contains("either that the heading says \"todos\" or that the field is empty"),
            "{declined}"
        );
    }

    #[test]
    fn an_or_inside_one_claim_is_left_to_the_other_shapes() {
        let form = Snapshot::read("- group \"Q\":\n  - radio \"Yes\"\n  - radio \"No\"\n", "");
        let written = write("the form asks 'Q' with the options Yes or No", &[], &form);
        assert!(
            written
                .as_ref()
                .map_or(true, |w| w.shape != "either or hidden"),
            "{written:?}"
        );
    }
}
