//! Subject continuity: when a cached check fails while its subject (the elements its locator
//! resolved to at the failure) is still on the page, the failure is about the subject's value
//! or state, not about the locator. No heal (an LLM's, the built-in generator's or another
//! test's code) may then point the check at other elements: every check of the healed code that
//! carries the failed check's claim must resolve to the very nodes the evidence marked. Only a
//! subject that resolves to nothing may be found anew, and then a model's check may not find
//! its element by the value it checks (`getByText('buy milk')` for a text of 'buy milk'), which
//! any element showing that value would pass, nor read another position among its like
//! siblings than the sentence's `first` ... `last`. Whoever wrote it, a check of a subject found
//! anew must read an element inside the sentence's scope (`scope.rs`).
//!
//! Main function: [`moved_subject`]; the page marks and compares nodes in `script/subject.rs`.

use crate::cache::Author;
use crate::engine::evidence::selector_texts;
use crate::engine::scope::Scope;
use crate::script::{FailureKind, Kind, ObservedCall, Place, Read, StepFailure, SubjectRead};
use crate::writer::quoted_literals;

/// The `Received:` line of a check whose subject was not found.
const NOT_FOUND: &str = "<element(s) not found>";

/// What the failed call's subject was when the evidence read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Subject {
    /// The failure was not a check that read a value or a state of elements.
    NotACheck,
    /// Its locator still resolved to elements, and the page marked them.
    Marked,
    /// Its locator still resolved to elements, but the page could not mark them.
    Unmarked,
    /// Its locator resolved to nothing: the subject may be found anew.
    Vanished,
}

/// What the failed call was, from the failure and the evidence.
fn subject(failure: &StepFailure, failed: Option<&ObservedCall>) -> Subject {
    let Some(call) = failed else {
        return Subject::NotACheck;
    };
    // An assertion on elements, or the plain read (`textContent`, `count`, ...) a value
    // assertion checked: both read the subject's value or state.
    let check = call.kind == Some(Kind::Reads);
    // A strict-mode violation or a script error never read the subject's value.
    let read_a_value = matches!(
        failure.kind,
        FailureKind::FailedCheck | FailureKind::Timeout
    );
    if !check || !read_a_value || call.selector.is_none() {
        return Subject::NotACheck;
    }
    if call.matches == Some(0) || call.received.as_deref() == Some(NOT_FOUND) {
        return Subject::Vanished;
    }
    match (call.matches, call.subject_marked) {
        (_, true) => Subject::Marked,
        (Some(_), false) => Subject::Unmarked,
        // The page did not answer: nothing is known of the subject.
        (None, false) => Subject::NotACheck,
    }
}

/// Why healed code `by` the given author moved the check that failed (`failed`, what the
/// evidence read of it) away from its subject, if it did. `reads` are the element reads the
/// healed code made on the page, each placed against the marked subject (`None`: nothing was
/// marked).
pub(crate) fn moved_subject(
    sentence: &str,
    failure: &StepFailure,
    failed: Option<&ObservedCall>,
    reads: Option<&[SubjectRead]>,
    by: Author,
) -> Option<String> {
    let state = subject(failure, failed);
    let call = failed?;
    let claims = claims(call, sentence);
    let selector = call.selector.as_deref().unwrap_or_default();
    let carriers: Vec<&SubjectRead> = reads
        .unwrap_or_default()
        .iter()
        .filter(|r| carries(&r.read, call, &claims))
        .collect();
    match state {
        Subject::NotACheck => None,
        Subject::Unmarked => Some(format!(
            "the failed check's subject (`{selector}`) is still on the page, but it could not be \
             marked there, so the healed check could not be shown to read the same elements"
        )),
        Subject::Marked if reads.is_none() => Some(format!(
            "the failed check's subject (`{selector}`) is still on the page, but the healed \
             code's reads could not be compared with it"
        )),
        Subject::Marked => {
            if carriers.is_empty() {
                return Some(format!(
                    "the failed check's subject (`{selector}`) is still on the page, and no check \
                     of the healed code reads it: the failure is about its value or state, not \
                     its locator"
                ));
            }
            carriers.iter().find(|r| r.place != Place::Same).map(|r| {
                let moved = r.read.selector.as_deref().unwrap_or_default();
                let place = match r.place {
                    Place::Nothing => "nothing",
                    Place::Unknown => "elements the page could not compare with it",
                    Place::Same | Place::Other => "other elements",
                };
                format!(
                    "the healed check reads {place} (`{moved}`) where the failed check read \
                         its subject (`{selector}`), which is still on the page: the failure is \
                         about its value or state, not its locator, and a heal may not move the \
                         check to other elements"
                )
            })
        }
        // Whoever wrote the heal, the subject found anew must be inside the sentence's scope
        // ("in the "Work" row"): an element elsewhere that shows the value would pass.
        Subject::Vanished if let Some(outside) = outside_scope(sentence, &carriers) => {
            Some(outside)
        }
        // The built-in generator's grammar reads the sentence's position words itself; a
        // model's locator may find its element by the value it then checks.
        Subject::Vanished if by == Author::Builtin => None,
        Subject::Vanished => carriers.iter().find_map(|r| {
            let selector = r.read.selector.as_deref().unwrap_or_default();
            if let Some(found_by) = found_by_its_value(&r.read) {
                return Some(format!(
                    "the healed check finds its element by the value it checks (`{selector}` for \
                     \"{found_by}\"): any element that shows the value would pass it"
                ));
            }
            let (word, wanted) = ordinal(sentence)?;
            let (index, of) = r.position?;
            let wanted = if wanted < 0 {
                of.checked_sub(1)?
            } else {
                u32::try_from(wanted).ok()?
            };
            // One element among its like siblings says nothing of its place in a list.
            (of > 1 && index != wanted).then(|| {
                format!(
                    "the healed check reads element {} of {of} like it (`{selector}`) where the \
                     sentence says \"{word}\"",
                    index + 1
                )
            })
        }),
    }
}

/// Why a read of the healed code that carries the claim is not inside every scope the sentence
/// puts its subject in, if one is not.
fn outside_scope(sentence: &str, carriers: &[&SubjectRead]) -> Option<String> {
    let scopes = Scope::of(sentence);
    carriers.iter().find_map(|r| {
        let selector = r.read.selector.as_deref().unwrap_or_default();
        let scope = scopes.iter().find(|scope| !scope.holds(&r.containers))?;
        Some(if r.containers.is_empty() {
            format!(
                "the sentence puts its subject {scope}, and the page could not say where the \
                 healed check's element (`{selector}`) is"
            )
        } else {
            format!(
                "the healed check reads an element outside the sentence's scope (`{selector}` is \
                 not {scope}): another element that shows the value would pass it"
            )
        })
    })
}

/// The position word of the sentence outside its quotes, and the index it means (from 0; -1
/// is the last).
fn ordinal(sentence: &str) -> Option<(String, i64)> {
    const ORDINALS: &[(&str, i64)] = &[
        ("first", 0),
        ("1st", 0),
        ("second", 1),
        ("2nd", 1),
        ("third", 2),
        ("3rd", 2),
        ("fourth", 3),
        ("4th", 3),
        ("fifth", 4),
        ("5th", 4),
        ("last", -1),
    ];
    let mut unquoted = sentence.to_owned();
    for literal in quoted_literals(sentence) {
        unquoted = unquoted.replace(&literal, " ");
    }
    unquoted
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .find_map(|word| {
            ORDINALS
                .iter()
                .find(|(w, _)| *w == word)
                .map(|&(w, index)| (w.to_owned(), index))
        })
}

/// The texts the failed check claims: its expected strings and the sentence's quotes.
fn claims(call: &ObservedCall, sentence: &str) -> Vec<String> {
    let mut claims = call.expected_texts.clone();
    claims.extend(quoted_literals(sentence));
    claims.retain(|c| !c.trim().is_empty());
    claims
}

/// A text as two texts are compared: whitespace collapsed, in lowercase.
fn norm(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether `read` carries the failed check's claim: a plain read of elements (its value may
/// feed any assertion), an assertion that expects or finds by a claimed text, or, for a check
/// that claims no text, an assertion with the same matcher.
fn carries(read: &Read, failed: &ObservedCall, claims: &[String]) -> bool {
    let Some(selector) = read.selector.as_deref() else {
        return false;
    };
    if read.page != 0 {
        return false;
    }
    if read.method != "expect" {
        return true;
    }
    let claimed = |texts: &[String]| {
        texts
            .iter()
            .any(|t| claims.iter().any(|c| norm(t) == norm(c)))
    };
    claimed(&read.texts)
        || claimed(&selector_texts(selector))
        || (failed.expected_texts.is_empty() && read.expression == failed.expression)
}

/// The value a check both finds its element by and expects of it, if it does.
fn found_by_its_value(read: &Read) -> Option<String> {
    let selector = read.selector.as_deref()?;
    let found_by = selector_texts(selector);
    read.texts.iter().find_map(|expected| {
        let expected_norm = norm(expected);
        found_by
            .iter()
            .any(|by| {
                let by = norm(by);
                !by.is_empty() && (expected_norm.contains(&by) || by.contains(&expected_norm))
            })
            .then(|| expected.clone())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: &str = ".todo-list li >> nth=0";

    fn failed_check() -> StepFailure {
        StepFailure::new(
            FailureKind::FailedCheck,
            "expect(locator).toHaveText failed",
        )
    }

    /// The failed `toHaveText('buy milk')` of the first todo, as the evidence read it.
    fn first_todo(matches: u64, marked: bool) -> ObservedCall {
        ObservedCall {
            method: "expect".into(),
            selector: Some(FIRST.into()),
            expression: Some("to.have.text".into()),
            expected_texts: vec!["buy milk".into()],
            matches: Some(matches),
            received: Some(if matches == 0 {
                NOT_FOUND.into()
            } else {
                "\"walk the dog\"".into()
            }),
            kind: Some(Kind::Reads),
            subject_marked: marked,
            ..ObservedCall::default()
        }
    }

    fn at(mut read: SubjectRead, index: u32, of: u32) -> SubjectRead {
        read.position = Some((index, of));
        read
    }

    #[test]
    fn a_vanished_subject_found_anew_keeps_the_sentences_position() {
        let item = |i: u32| {
            at(
                read(
                    ".todo-item label",
                    "to.have.text",
                    &["buy milk"],
                    Place::Unknown,
                ),
                i,
                2,
            )
        };
        assert_eq!(moved(&first_todo(0, false), &[item(0)], Author::Llm), None);
        let why = moved(&first_todo(0, false), &[item(1)], Author::Llm).expect("refused");
        assert!(why.contains("element 2 of 2"), "{why}");
        assert!(why.contains("\"first\""), "{why}");
        // An element alone among its siblings says nothing of its place.
        let alone = at(
            read(".x", "to.have.text", &["buy milk"], Place::Unknown),
            0,
            1,
        );
        assert_eq!(moved(&first_todo(0, false), &[alone], Author::Llm), None);
        assert_eq!(
            ordinal("the last todo is \"first prize\""),
            Some(("last".into(), -1))
        );
        assert_eq!(ordinal("the todo \"first\" is done"), None);
    }

    fn read(selector: &str, expression: &str, texts: &[&str], place: Place) -> SubjectRead {
        SubjectRead {
            read: Read {
                method: "expect".into(),
                selector: Some(selector.into()),
                expression: Some(expression.into()),
                negated: false,
                number: None,
                page: 0,
                loose: false,
                texts: texts.iter().map(|t| (*t).to_owned()).collect(),
            },
            place,
            position: None,
            containers: Vec::new(),
        }
    }

    const SENTENCE: &str = "the first todo is \"buy milk\"";

    fn moved(call: &ObservedCall, reads: &[SubjectRead], by: Author) -> Option<String> {
        moved_subject(SENTENCE, &failed_check(), Some(call), Some(reads), by)
    }

    #[test]
    fn a_heal_that_reads_the_marked_subject_keeps_it() {
        let reads = [read(FIRST, "to.have.text", &["buy milk"], Place::Same)];
        assert_eq!(moved(&first_todo(1, true), &reads, Author::Llm), None);
    }

    #[test]
    fn a_heal_whose_check_reads_other_nodes_moved_it_whatever_its_locator_says() {
        for selector in [
            ".todo-list li >> nth=-1",
            ".todo-list li >> nth=1",
            ".todo-list li >> internal:text=\"buy milk\"s",
        ] {
            let reads = [read(selector, "to.have.text", &["buy milk"], Place::Other)];
            for by in [Author::Llm, Author::Builtin, Author::Reused] {
                let why = moved(&first_todo(1, true), &reads, by).expect("moved");
                assert!(why.contains("other elements"), "{why}");
                assert!(why.contains(selector), "{why}");
            }
        }
    }

    #[test]
    fn identity_decides_not_locator_text() {
        // Another locator that resolves to the same node keeps the subject ...
        let reads = [read(
            "#first-todo",
            "to.have.text",
            &["buy milk"],
            Place::Same,
        )];
        assert_eq!(moved(&first_todo(1, true), &reads, Author::Llm), None);
        // ... and the same locator text resolving elsewhere (the page changed) does not.
        let reads = [read(FIRST, "to.have.text", &["buy milk"], Place::Other)];
        assert!(moved(&first_todo(1, true), &reads, Author::Llm).is_some());
    }

    #[test]
    fn a_presence_check_found_by_the_claimed_text_carries_the_claim() {
        let reads = [
            read(FIRST, "to.be.visible", &[], Place::Same),
            read(
                "internal:text=\"buy milk\"s",
                "to.be.visible",
                &[],
                Place::Other,
            ),
        ];
        assert!(moved(&first_todo(1, true), &reads, Author::Llm).is_some());
    }

    #[test]
    fn a_check_of_another_claim_may_read_other_elements() {
        let reads = [
            read(FIRST, "to.have.text", &["buy milk"], Place::Same),
            read(
                ".todo-count",
                "to.have.text",
                &["2 items left"],
                Place::Other,
            ),
        ];
        assert_eq!(moved(&first_todo(1, true), &reads, Author::Llm), None);
    }

    #[test]
    fn a_heal_that_reads_nothing_of_a_subject_on_the_page_moved_it() {
        let reads = [read(
            ".todo-count",
            "to.have.text",
            &["2 items left"],
            Place::Other,
        )];
        assert!(moved(&first_todo(1, true), &reads, Author::Llm).is_some());
        assert!(moved(&first_todo(1, true), &[], Author::Reused).is_some());
    }

    #[test]
    fn a_subject_on_the_page_that_could_not_be_marked_or_compared_refuses_the_heal() {
        let reads = [read(FIRST, "to.have.text", &["buy milk"], Place::Unknown)];
        assert!(moved(&first_todo(1, true), &reads, Author::Llm).is_some());
        assert!(moved(&first_todo(1, false), &[], Author::Llm).is_some());
        let none = moved_subject(
            SENTENCE,
            &failed_check(),
            Some(&first_todo(1, true)),
            None,
            Author::Llm,
        );
        assert!(none.is_some());
    }

    #[test]
    fn a_vanished_subject_may_be_found_anew_but_not_by_the_value_it_checks() {
        let by_class = [read(
            ".todo-item >> nth=0",
            "to.have.text",
            &["buy milk"],
            Place::Unknown,
        )];
        assert_eq!(moved(&first_todo(0, false), &by_class, Author::Llm), None);
        let by_value = [read(
            "internal:text=\"buy milk\"s",
            "to.have.text",
            &["buy milk"],
            Place::Unknown,
        )];
        let why = moved(&first_todo(0, false), &by_value, Author::Llm).expect("refused");
        assert!(why.contains("by the value it checks"), "{why}");
        assert!(moved(&first_todo(0, false), &by_value, Author::Reused).is_some());
        // The built-in generator reads the sentence's position words itself.
        assert_eq!(
            moved(&first_todo(0, false), &by_value, Author::Builtin),
            None
        );
    }

    #[test]
    fn a_vanished_subject_found_anew_must_be_inside_the_sentences_scope() {
        use crate::script::Container;
        let sentence = "the open count in the \"Work\" row is \"3\"";
        let failed = ObservedCall {
            selector: Some("#work-open".into()),
            expected_texts: vec!["3".into()],
            ..first_todo(0, false)
        };
        let cell_in = |row: &str| {
            let mut read = read(".open >> nth=1", "to.have.text", &["3"], Place::Unknown);
            read.containers = vec![
                Container {
                    tag: "td".into(),
                    text: "3".into(),
                    ..Container::default()
                },
                Container {
                    tag: "tr".into(),
                    text: format!("{row} 3"),
                    ..Container::default()
                },
                Container {
                    tag: "table".into(),
                    text: "Work 2 Home 3".into(),
                    table: Some(1),
                    ..Container::default()
                },
            ];
            read
        };
        // The same scope, said with a scope word and as the sentence's subject.
        let phrasings = [
            sentence,
            "the \"Work\" row shows \"3\"",
            "the row \"Work\" shows 3",
            "the \"Work\" row's open count is 3",
        ];
        for said in phrasings {
            let heal = |reads: &[SubjectRead], by| {
                moved_subject(said, &failed_check(), Some(&failed), Some(reads), by)
            };
            for by in [Author::Llm, Author::Builtin, Author::Reused] {
                assert_eq!(heal(&[cell_in("Work")], by), None, "{said}");
                let why = heal(&[cell_in("Home")], by).expect("outside the row");
                assert!(why.contains("outside the sentence's scope"), "{why}");
                assert!(why.contains("in the \"Work\" row"), "{why}");
                // A read the page placed nowhere is not shown inside the scope.
                let nowhere = read(".open", "to.have.text", &["3"], Place::Unknown);
                assert!(heal(&[nowhere], by).is_some(), "{said}");
            }
        }
        // A subject still on the page is held to its nodes, whatever the scope says.
        let marked = ObservedCall {
            selector: Some("#work-open".into()),
            expected_texts: vec!["3".into()],
            ..first_todo(1, true)
        };
        let mut same = cell_in("Home");
        same.place = Place::Same;
        let kept = moved_subject(
            sentence,
            &failed_check(),
            Some(&marked),
            Some(&[same]),
            Author::Llm,
        );
        assert_eq!(kept, None);
    }

    /// A plain read of `selector` (`textContent`, `count`, ...), placed against the subject.
    fn plain(method: &str, selector: &str, place: Place) -> SubjectRead {
        let mut read = read(selector, "", &[], place);
        read.read.method = method.into();
        read.read.expression = None;
        read
    }

    #[test]
    fn the_plain_read_a_value_assertion_checked_is_held_to_its_nodes() {
        // `expect(await items.first().textContent()).toBe('buy milk')` failed: the evidence
        // observed its read, marked its element and gave it the value the assertion expected.
        let failed = ObservedCall {
            method: "textContent".into(),
            expression: None,
            received: None,
            ..first_todo(1, true)
        };
        for method in [
            "textContent",
            "innerText",
            "inputValue",
            "getAttribute",
            "isChecked",
        ] {
            let same = [plain(method, FIRST, Place::Same)];
            assert_eq!(moved(&failed, &same, Author::Llm), None, "{method}");
            for by in [Author::Llm, Author::Builtin, Author::Reused] {
                let last = [plain(method, ".todo-list li >> nth=-1", Place::Other)];
                let why = moved(&failed, &last, by).expect("moved");
                assert!(why.contains("other elements"), "{why}");
            }
        }
        // An assertion that moved to the element showing the claimed value moved it too.
        let by_text = [read(
            ".todo-list li >> nth=1",
            "to.have.text",
            &["buy milk"],
            Place::Other,
        )];
        assert!(moved(&failed, &by_text, Author::Llm).is_some());
        // A count checked by `expect(n).toBe(2)`: the same set of elements, or another.
        let count = ObservedCall {
            method: "queryCount".into(),
            selector: Some(".todo-list li".into()),
            expected_texts: vec!["2".into()],
            ..failed.clone()
        };
        let same = [plain("queryCount", ".todo-list li", Place::Same)];
        assert_eq!(moved(&count, &same, Author::Llm), None);
        let other = [plain("queryCount", ".todo-list li.completed", Place::Other)];
        assert!(moved(&count, &other, Author::Llm).is_some());
    }

    #[test]
    fn failures_that_read_no_value_decide_nothing() {
        let reads = [read(".x", "to.have.text", &["buy milk"], Place::Other)];
        let strict = StepFailure::new(FailureKind::StrictMode, "strict mode violation");
        let call = first_todo(2, true);
        assert_eq!(
            moved_subject(SENTENCE, &strict, Some(&call), Some(&reads), Author::Llm),
            None
        );
        let click = ObservedCall {
            method: "click".into(),
            selector: Some("#delete".into()),
            kind: Some(Kind::Interacts),
            matches: Some(1),
            ..ObservedCall::default()
        };
        assert_eq!(moved(&click, &reads, Author::Llm), None);
        assert_eq!(
            moved_subject(SENTENCE, &failed_check(), None, Some(&reads), Author::Llm),
            None
        );
    }
}
