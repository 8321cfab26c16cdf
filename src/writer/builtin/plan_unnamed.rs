//! Plan steps that add items without naming them: "add three todos and mark one as complete".
//! A tester writing such a test picks the names, and so does the built-in: plainly invented
//! texts ("Todo 1", "Todo 2", "Todo 3", from the sentence's own noun), never guessed from the
//! app. The add's code types them, so the discourse memory (`discourse.rs`) remembers them
//! like any named item, and later references ("all three todos", "the completed one") resolve
//! to them exactly. "mark one as complete" marks the first of them.
//!
//! Main function: [`add_unnamed`], listed in `plan_readers.rs`.

use crate::writer::builtin::discourse::{Part, quoted};
use crate::writer::builtin::element_step::{Check, ElementStep, Op, Subject};
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::plan_steps::{Reading, Said, sentence_of, words};

/// The number words an unnamed add may count with.
const COUNTS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// The plural item nouns and the name each invented item takes from it.
const NOUNS: &[(&str, &str)] = &[
    ("todos", "Todo"),
    ("items", "Item"),
    ("tasks", "Task"),
    ("entries", "Entry"),
];

/// `add three todos`, `add three todos and mark one as complete`, `add three todos and mark
/// all as complete using the toggle all checkbox`: the add with invented names, then the marks.
pub(crate) fn add_unnamed(said: &Said) -> Reading {
    let toks = &said.toks;
    let w = words(toks);
    let (count, name) = match w.as_slice() {
        ["add", count, noun, ..] => (
            COUNTS.iter().position(|c| c == count).map(|at| at + 1)?,
            NOUNS.iter().find(|(n, _)| n == noun)?.1,
        ),
        _ => return None,
    };
    let mark = match &w[3..] {
        [] => None,
        ["and", mark @ ..] => Some(mark),
        _ => return None,
    };
    let invented: Vec<String> = (1..=count).map(|n| format!("{name} {n}")).collect();
    if let Some(taken) = invented.iter().find(|i| said.discourse.items().contains(i)) {
        return Some(Err(Decline::new(format!(
            "the sentence adds items it does not name, and the name the built-in would give \
             one ({}) is already an item of this test; write what to add in quotes",
            quoted(taken).unwrap_or_default()
        ))));
    }
    let listed: Vec<String> = invented.iter().filter_map(|i| quoted(i)).collect();
    let mut parts = vec![Part::Sentence(format!(
        "{}: {}",
        sentence_of(&toks[..3]),
        listed.join(", ")
    ))];
    let Some(mark) = mark else {
        return Some(Ok(parts));
    };
    let (whom, using) = match mark {
        [
            "mark" | "check" | "complete",
            whom,
            "as",
            "complete" | "completed" | "done",
            rest @ ..,
        ]
        | ["mark" | "check" | "complete", whom, rest @ ..]
            if rest.first().is_none_or(|r| *r != "as") =>
        {
            (*whom, rest)
        }
        _ => return None,
    };
    let marked: &[String] = match whom {
        "one" => &invented[..1],
        "all" | "them" | "each" => &invented,
        "both" if count == 2 => &invented,
        _ => {
            return Some(Err(Decline::new(format!(
                "\"mark {whom}\": the sentence adds {count} items it does not name, and \
                 \"{whom}\" is not one, all or both of them"
            ))));
        }
    };
    match using {
        [] => {
            // The page the shapes see is from before the add, so the marks are written here.
            for item in marked {
                parts.push(Part::Step(ElementStep::new(
                    Subject::item_checkbox(item),
                    Op::Check,
                )));
            }
        }
        ["using" | "with" | "via", "the", control @ ..] if !control.is_empty() => {
            if marked.len() != invented.len() {
                return Some(Err(Decline::new(format!(
                    "\"mark {whom} ... using\" a control: one control marks all the items or \
                     none, so the built-in cannot tell which it means"
                ))));
            }
            // The control is named by the words after `using`, and the click must leave every
            // item marked: that is what the sentence says it does. The page the shapes see is
            // from before the add, and a page may show such a control only once it has items,
            // so the control is looked for among the elements it hides too.
            let at = toks.len() - control.len();
            parts.push(Part::Revealed(format!(
                "click the {}",
                sentence_of(&toks[at..])
            )));
            for item in marked {
                parts.push(Part::Step(ElementStep::claim(
                    Subject::item_checkbox(item),
                    Check::Checked,
                    false,
                )));
            }
        }
        _ => return None,
    }
    Some(Ok(parts))
}

#[cfg(test)]
mod tests {
    use crate::script::PageState;
    use crate::writer::builtin::discourse::Discourse;
    use crate::writer::builtin::plan_readers::read_as_text;

    fn read(discourse: &Discourse, sentence: &str) -> Vec<String> {
        read_as_text(discourse, sentence, &PageState::default())
    }

    #[test]
    fn an_unnamed_add_invents_plain_names_from_its_noun() {
        let none = Discourse::default();
        assert_eq!(
            read(&none, "Add three todos"),
            ["Add three todos: \"Todo 1\", \"Todo 2\", \"Todo 3\""]
        );
        assert_eq!(
            read(&none, "add two tasks and mark one as complete"),
            [
                "add two tasks: \"Task 1\", \"Task 2\"",
                "await page.getByRole('listitem').filter({ has: page.getByText('Task 1', { \
                 exact: true }) }).getByRole('checkbox').check();",
            ]
        );
        let all = read(&none, "Add two todos and mark all as complete");
        assert_eq!(all.len(), 3, "{all:?}");
        assert!(all[2].contains("'Todo 2'") && all[2].ends_with(".check();"));
    }

    #[test]
    fn a_control_named_after_using_marks_all_and_the_marks_are_checked() {
        let parts = read(
            &Discourse::default(),
            "Add three todos and mark all as complete using the toggle all checkbox",
        );
        assert_eq!(parts[1], "click the toggle all checkbox");
        assert_eq!(parts.len(), 5, "{parts:?}");
        assert!(
            parts[2..]
                .iter()
                .all(|p| p.ends_with(".getByRole('checkbox')).toBeChecked();")),
            "{parts:?}"
        );
        let one = read(
            &Discourse::default(),
            "Add three todos and mark one as complete using the toggle all checkbox",
        );
        assert!(one[0].starts_with("DECLINE"), "{one:?}");
    }

    #[test]
    fn unnamed_adds_decline_what_they_cannot_name_or_mark() {
        let none = Discourse::default();
        assert!(
            read(&none, "Add three todos and mark the blue one as complete")[0]
                .starts_with("DECLINE")
        );
        let taken = Discourse::of(
            &["add 'Todo 1'".to_owned()],
            &["async function step(page) {\n  await page.getByRole('textbox').fill('Todo 1');\n  \
               await page.getByRole('textbox').press('Enter');\n}"
                .to_owned()],
        );
        assert!(read(&taken, "Add two todos")[0].starts_with("DECLINE"));
        // Words the reader does not know leave the sentence to the others.
        assert_ne!(
            read(&none, "Add three todos quickly"),
            ["Add three todos: \"Todo 1\", \"Todo 2\", \"Todo 3\""]
        );
    }
}
