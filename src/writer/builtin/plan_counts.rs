//! Plan steps that count the test's items by state without a subject: "one completed and two
//! active", as planners write an expectation under "three todos exist". The counts must add up
//! to the items the test added and still has, and the two states must be opposite; the check
//! is then the discourse memory's own ("one todo is completed": that item's checkbox is
//! checked and every other item's is not), so it names each item exactly.
//!
//! Main function: [`counted_states`], listed in `plan_readers.rs`.

use crate::writer::builtin::discourse::{Part, quoted};
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::plan_steps::{Reading, Said, words};

/// The number words a count may use.
const COUNTS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// The states an item's checkbox says, by the words for them: `true` is completed.
fn state(word: &str) -> Option<bool> {
    match word {
        "completed" | "complete" | "done" | "checked" => Some(true),
        "active" | "incomplete" | "uncompleted" | "unchecked" => Some(false),
        _ => None,
    }
}

fn count(word: &str) -> Option<usize> {
    COUNTS
        .iter()
        .position(|c| *c == word)
        .or_else(|| word.parse().ok())
}

/// `one completed and two active`, `2 active and 1 completed`: the items in each state.
pub(crate) fn counted_states(said: &Said) -> Reading {
    let w = words(&said.toks);
    let [first, first_state, "and", second, second_state] = w.as_slice() else {
        return None;
    };
    let (first, first_state) = (count(first)?, state(first_state)?);
    let (second, second_state) = (count(second)?, state(second_state)?);
    if first_state == second_state {
        return None;
    }
    if let Err(unsure) = said.discourse.completed() {
        return Some(Err(unsure));
    }
    let items = said.discourse.items().len();
    if first + second != items {
        return Some(Err(Decline::new(format!(
            "the sentence counts {} items, and the earlier steps of this test leave {items}",
            first + second
        ))));
    }
    // The discourse checks every item: the counted ones in their state, the others in the
    // opposite one, which is the second count's state because the counts add up.
    let (noun, verb) = if first == 1 {
        ("todo", "is")
    } else {
        ("todos", "are")
    };
    let claim = if first_state { "completed" } else { "active" };
    // The state checks name only the items the test remembers; the list holding exactly them
    // is what makes the counts the page's own, not the memory's.
    let all: Vec<String> = said
        .discourse
        .items()
        .iter()
        .filter_map(|item| quoted(item))
        .collect();
    if all.len() != items {
        return Some(Err(Decline::new(
            "the sentence counts the test's items, and one of them has a name no check can \
             quote",
        )));
    }
    let states = match said
        .discourse
        .read(&format!("{first} {noun} {verb} {claim}"), &[])?
    {
        Ok(parts) => parts,
        Err(decline) => return Some(Err(decline)),
    };
    let mut parts = vec![Part::Sentence(format!(
        "the list is exactly {}",
        all.join(" and ")
    ))];
    parts.extend(states);
    Some(Ok(parts))
}

/// `only active todos are visible`, `only the completed items are shown`: the list holds
/// exactly the test's items in that state, in the order they were added.
pub(crate) fn only_in_state(said: &Said) -> Reading {
    let w = words(&said.toks);
    let (wanted, noun, predicate) = match w.as_slice() {
        ["only", "the", word, noun, rest @ ..] | ["only", word, noun, rest @ ..] => {
            (state(word)?, *noun, rest)
        }
        _ => return None,
    };
    let shown = matches!(
        predicate,
        ["is" | "are", "visible" | "displayed" | "shown" | "listed"]
            | ["remain" | "remains", "visible"]
    );
    if !shown || !matches!(noun, "todo" | "todos" | "item" | "items" | "task" | "tasks") {
        return None;
    }
    let completed = match said.discourse.completed() {
        Ok(completed) => completed,
        Err(unsure) => return Some(Err(unsure)),
    };
    let items: Vec<String> = said
        .discourse
        .items()
        .iter()
        .filter(|item| completed.contains(item) == wanted)
        .filter_map(|item| quoted(item))
        .collect();
    if items.is_empty() {
        return Some(Err(Decline::new(
            "the sentence says which items are shown, and no item this test added is in that \
             state; say the list is empty",
        )));
    }
    Some(Ok(vec![Part::Sentence(format!(
        "the list is exactly {}",
        items.join(" and ")
    ))]))
}

#[cfg(test)]
mod tests {
    use crate::script::PageState;
    use crate::writer::builtin::discourse::Discourse;
    use crate::writer::builtin::plan_readers::read_as_text;
    use crate::writer::builtin::plan_steps::tests::add_steps;

    /// The discourse after adding a, b and c and checking a.
    fn one_of_three_done() -> Discourse {
        let (_, mut code) = add_steps(&["a", "b", "c"]);
        code.push(
            "async function step(page) {\n  await page.getByRole('listitem').filter({ has: \
             page.getByText('a', { exact: true }) }).getByRole('checkbox').check();\n}"
                .to_owned(),
        );
        let sentences = ["add 'a'", "add 'b'", "add 'c'", "check 'a'"].map(str::to_owned);
        Discourse::of(&sentences, &code)
    }

    fn read(discourse: &Discourse, sentence: &str) -> Vec<String> {
        read_as_text(discourse, sentence, &PageState::default())
    }

    #[test]
    fn counts_by_state_check_every_item_in_its_state() {
        let done = one_of_three_done();
        let parts = read(&done, "one completed and two active");
        // The list is exactly the test's items first, so that an item the test does not
        // remember (added by code the memory could not read) fails the count.
        assert_eq!(parts[0], "the list is exactly \"a\" and \"b\" and \"c\"");
        assert_eq!(parts.len(), 4, "{parts:?}");
        assert!(
            parts[1].contains("\"a\"") && parts[1].contains("complete"),
            "{parts:?}"
        );
        assert_eq!(read(&done, "two active and one completed").len(), 4);
    }

    #[test]
    fn only_items_in_a_state_are_the_whole_list() {
        let done = one_of_three_done();
        assert_eq!(
            read(&done, "Only active todos are visible"),
            ["the list is exactly \"b\" and \"c\""]
        );
        assert_eq!(
            read(&done, "only the completed todos are displayed"),
            ["the list is exactly \"a\""]
        );
        assert_eq!(read(&done, "only active todos are big"), ["NONE"]);
    }

    #[test]
    fn a_checked_box_of_no_item_makes_the_states_unknown_and_the_reader_declines() {
        let field = "page.getByRole('textbox')";
        let code: Vec<String> = [
            format!("async function step(page) {{\n  await {field}.fill('a');\n  await {field}.press('Enter');\n}}"),
            "async function step(page) {\n  await page.getByLabel('Mark all as complete').check();\n}".to_owned(),
        ]
        .into();
        let sentences = ["add 'a'", "mark all as complete"].map(str::to_owned);
        let all = Discourse::of(&sentences, &code);
        assert!(read(&all, "Only active todos are visible")[0].starts_with("DECLINE"));
        assert!(read(&all, "one completed and zero active")[0].starts_with("DECLINE"));
    }

    #[test]
    fn a_clicked_checkbox_makes_the_states_unknown_and_the_reader_declines() {
        let field = "page.getByRole('textbox')";
        let code: Vec<String> = [
            format!("async function step(page) {{\n  await {field}.fill('a');\n  await {field}.press('Enter');\n}}"),
            "async function step(page) {\n  await page.locator('input.toggle-all').click();\n}".to_owned(),
        ]
        .into();
        let sentences = ["add 'a'", "click the toggle all checkbox"].map(str::to_owned);
        let toggled = Discourse::of(&sentences, &code);
        assert!(read(&toggled, "Only active todos are visible")[0].starts_with("DECLINE"));
        assert!(read(&toggled, "one completed and zero active")[0].starts_with("DECLINE"));
    }

    #[test]
    fn counts_that_do_not_fit_the_test_decline() {
        let done = one_of_three_done();
        assert!(read(&done, "two completed and one active")[0].starts_with("DECLINE"));
        assert!(read(&done, "one completed and one active")[0].starts_with("DECLINE"));
        assert_eq!(read(&done, "one completed and two completed"), ["NONE"]);
    }
}
