//! The readers of a sentence in its test, which the registry (`shapes.rs`) lists before the
//! shapes of the sentence alone: the test's memory (`discourse.rs`), which reads a sentence that
//! refers back to earlier steps, and the readers of a planner's loose steps (`plan_steps.rs`,
//! `edit_mode.rs` and their peers), each a row with the words and kinds of meaning its pattern
//! reads. Their readings are parts (`part.rs`) that the test's writer (`in_test.rs`) writes.
//!
//! Main types: [`Memory`] and [`PlanReader`], whose rows are the statics below.

use crate::writer::builtin::edit_mode;
use crate::writer::builtin::field_reference::the_field_just_used;
use crate::writer::builtin::intent::{Decline, Intent};
use crate::writer::builtin::plan_counts;
use crate::writer::builtin::plan_states;
use crate::writer::builtin::plan_steps::{
    Reading, Said, add_and_mark, app_loads, click_checkbox_to, each_named_action, each_named_check,
    empty_list, gone, in_the_footer, press_to_submit, references, reload, the_checkbox,
    url_fragment,
};
use crate::writer::builtin::plan_typing;
use crate::writer::builtin::plan_unnamed;
use crate::writer::builtin::reader_examples as rx;
use crate::writer::builtin::shape::{Example, Sentence, Shape, ShapeKind};
use crate::writer::builtin::vocabulary::{Meaning, Reads};

/// A sentence that refers back to what the earlier steps of its test did: the test's memory
/// reads it (`discourse.rs`).
pub(crate) struct Memory;

impl Shape for Memory {
    fn name(&self) -> &'static str {
        "refers back"
    }
    fn examples(&self) -> &'static [Example] {
        rx::MEMORY
    }
    fn before(&self) -> &'static [(&'static str, &'static str)] {
        rx::ADDED
    }
    fn kind(&self) -> ShapeKind {
        ShapeKind::Memory
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        let said = s.test?;
        Some(said.discourse.read_words(&said.toks)?.map(Intent::Parts))
    }
}

/// One reader of plan steps: its name, what it makes of a sentence, and its examples.
pub(crate) struct PlanReader {
    name: &'static str,
    read: fn(&Said) -> Reading,
    /// The words its pattern reads and the kinds of meaning they say, which explain the
    /// sentence's words together with the parts of its reading (`plan_accounting.rs`).
    reads: &'static Reads,
    examples: &'static [Example],
    /// The earlier steps of the test its examples are written in.
    before: &'static [(&'static str, &'static str)],
}

impl Shape for PlanReader {
    fn name(&self) -> &'static str {
        self.name
    }
    fn examples(&self) -> &'static [Example] {
        self.examples
    }
    fn before(&self) -> &'static [(&'static str, &'static str)] {
        self.before
    }
    fn kind(&self) -> ShapeKind {
        ShapeKind::Plan(self.reads)
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        Some((self.read)(s.test?)?.map(Intent::Parts))
    }
}

/// The words of an item's state that the readers of states read.
const STATES: &[&str] = &[
    "completed",
    "complete",
    "done",
    "checked",
    "active",
    "incomplete",
    "uncompleted",
    "unchecked",
];

pub(crate) static RELOAD: PlanReader = PlanReader {
    name: "reload the page",
    read: reload,
    examples: rx::RELOAD,
    before: rx::ADDED,
    reads: &Reads {
        words: &["browser"],
        meanings: &[Meaning::Time],
    },
};

pub(crate) static THE_FIELD_JUST_USED: PlanReader = PlanReader {
    name: "the field shows 'x' / is valid / change it to 'x'",
    read: the_field_just_used,
    examples: rx::THE_FIELD_JUST_USED,
    before: rx::TYPED,
    reads: &Reads {
        words: &["term", "valid", "invalid", "textbox", "box", "shows"],
        meanings: &[Meaning::Reference],
    },
};

pub(crate) static APP_LOADS: PlanReader = PlanReader {
    name: "the application loads",
    read: app_loads,
    examples: rx::APP_LOADS,
    before: rx::ADDED,
    reads: &Reads {
        words: &["opens", "successfully", "correctly"],
        meanings: &[],
    },
};

pub(crate) static EMPTY_LIST: PlanReader = PlanReader {
    name: "the list is empty",
    read: empty_list,
    examples: rx::EMPTY_LIST,
    before: &[],
    reads: &Reads {
        words: &["start", "stays", "added"],
        meanings: &[Meaning::Negation],
    },
};

pub(crate) static URL_FRAGMENT: PlanReader = PlanReader {
    name: "the URL changes to #fragment",
    read: url_fragment,
    examples: rx::URL_FRAGMENT,
    before: rx::ADDED,
    reads: &Reads {
        words: &["changes", "becomes", "ends"],
        meanings: &[],
    },
};

pub(crate) static IN_THE_FOOTER: PlanReader = PlanReader {
    name: "the 'x' button appears in the footer",
    read: in_the_footer,
    examples: rx::IN_THE_FOOTER,
    before: rx::ADDED,
    reads: &Reads {
        words: &["footer"],
        meanings: &[],
    },
};

pub(crate) static THE_CHECKBOX: PlanReader = PlanReader {
    name: "the checkbox is checked",
    read: the_checkbox,
    examples: rx::THE_CHECKBOX,
    before: rx::ADDED,
    reads: &Reads {
        words: &["checked", "ticked", "unchecked", "unticked"],
        meanings: &[Meaning::Negation],
    },
};

pub(crate) static HIGHLIGHTED: PlanReader = PlanReader {
    name: "the 'x' filter link is highlighted",
    read: plan_states::highlighted,
    examples: rx::HIGHLIGHTED,
    before: rx::ADDED,
    reads: &Reads {
        words: &["highlighted", "selected", "current"],
        meanings: &[],
    },
};

pub(crate) static COUNTED_STATES: PlanReader = PlanReader {
    name: "one completed and two active",
    read: plan_counts::counted_states,
    examples: rx::COUNTED_STATES,
    before: rx::ADDED,
    reads: &Reads {
        words: STATES,
        meanings: &[Meaning::Number, Meaning::Sequence],
    },
};

pub(crate) static ONLY_IN_STATE: PlanReader = PlanReader {
    name: "only active todos are visible",
    read: plan_counts::only_in_state,
    examples: rx::ONLY_IN_STATE,
    before: rx::ADDED,
    reads: &Reads {
        words: STATES,
        meanings: &[Meaning::Limit],
    },
};

pub(crate) static POSITION_STATE: PlanReader = PlanReader {
    name: "the first todo is marked as complete",
    read: plan_states::position_state,
    examples: rx::POSITION_STATE,
    before: rx::ADDED,
    reads: &Reads {
        words: STATES,
        meanings: &[Meaning::Position, Meaning::Negation],
    },
};

pub(crate) static CLICK_NAMED_CONTROL: PlanReader = PlanReader {
    name: "click the 'x' checkbox",
    read: plan_states::click_named_control,
    examples: rx::CLICK_NAMED_CONTROL,
    before: rx::ADDED,
    reads: &Reads {
        words: &[],
        meanings: &[],
    },
};

pub(crate) static CLICK_CHECKBOX_TO: PlanReader = PlanReader {
    name: "click the checkbox to uncomplete it",
    read: click_checkbox_to,
    examples: rx::CLICK_CHECKBOX_TO,
    before: rx::ADDED,
    reads: &Reads {
        words: &["uncomplete", "reactivate"],
        meanings: &[Meaning::Reference],
    },
};

pub(crate) static PRESS_TO_SUBMIT: PlanReader = PlanReader {
    name: "press Enter to submit the todo",
    read: press_to_submit,
    examples: rx::PRESS_TO_SUBMIT,
    before: rx::TYPED,
    reads: &Reads {
        words: &[],
        meanings: &[Meaning::Reference],
    },
};

pub(crate) static ADD_UNNAMED: PlanReader = PlanReader {
    name: "add three todos and mark one as complete",
    read: plan_unnamed::add_unnamed,
    examples: rx::ADD_UNNAMED,
    before: &[],
    reads: &Reads {
        words: &["completed", "done", "via"],
        meanings: &[Meaning::Number, Meaning::Reference, Meaning::Sequence],
    },
};

pub(crate) static ADD_AND_MARK: PlanReader = PlanReader {
    name: "add 'a' and mark it as complete",
    read: add_and_mark,
    examples: rx::ADD_AND_MARK,
    before: &[],
    reads: &Reads {
        words: &["completed", "done"],
        meanings: &[Meaning::Number, Meaning::Reference, Meaning::Sequence],
    },
};

pub(crate) static EACH_NAMED_ACTION: PlanReader = PlanReader {
    name: "mark 'a' and 'b' as complete",
    read: each_named_action,
    examples: rx::EACH_NAMED_ACTION,
    before: rx::ADDED,
    reads: &Reads {
        words: &[],
        meanings: &[Meaning::Sequence],
    },
};

pub(crate) static EACH_NAMED_CHECK: PlanReader = PlanReader {
    name: "'a' and 'b' remain visible",
    read: each_named_check,
    examples: rx::EACH_NAMED_CHECK,
    before: rx::ADDED,
    reads: &Reads {
        words: &["removed", "deleted", "remain", "listed"],
        meanings: &[Meaning::Limit, Meaning::Negation, Meaning::Sequence],
    },
};

pub(crate) static GONE: PlanReader = PlanReader {
    name: "'a' is removed from the list",
    read: gone,
    examples: rx::GONE,
    before: rx::ADDED,
    reads: &Reads {
        words: &["removed", "deleted", "added", "new", "item's"],
        meanings: &[
            Meaning::Negation,
            Meaning::Number,
            Meaning::Position,
            Meaning::Reference,
        ],
    },
};

pub(crate) static TYPE_AND_PRESS: PlanReader = PlanReader {
    name: "type 'x' and press Enter",
    read: plan_typing::type_and_press,
    examples: rx::TYPE_AND_PRESS,
    before: rx::ADDED,
    reads: &Reads {
        words: &[],
        meanings: &[Meaning::Sequence],
    },
};

pub(crate) static EDIT_AND_CHANGE: PlanReader = PlanReader {
    name: "double-click to edit and change text to 'x'",
    read: plan_typing::edit_and_change,
    examples: rx::EDIT_AND_CHANGE,
    before: rx::ADDED,
    reads: &Reads {
        words: &[],
        meanings: &[Meaning::Reference, Meaning::Sequence],
    },
};

pub(crate) static EDITOR_SHOWS: PlanReader = PlanReader {
    name: "the edit textbox shows the text with spaces",
    read: plan_typing::editor_shows,
    examples: rx::EDITOR_SHOWS,
    before: rx::EDITED,
    reads: &Reads {
        words: &["spaces", "whitespace", "leading", "trailing", "and"],
        meanings: &[Meaning::Sequence],
    },
};

pub(crate) static PRESS_TO_SAVE: PlanReader = PlanReader {
    name: "press Enter to save",
    read: plan_typing::press_to_save,
    examples: rx::PRESS_TO_SAVE,
    before: rx::EDITED,
    reads: &Reads {
        words: &["save", "changes"],
        meanings: &[Meaning::Reference],
    },
};

pub(crate) static KEPT_AS: PlanReader = PlanReader {
    name: "the todo is saved as 'x' without leading or trailing whitespace",
    read: plan_typing::kept_as,
    examples: rx::KEPT_AS,
    before: rx::ADDED,
    reads: &Reads {
        words: &[
            "added",
            "saved",
            "stored",
            "kept",
            "leading",
            "trailing",
            "whitespace",
            "spaces",
            "surrounding",
            "without",
            "or",
            "and",
        ],
        meanings: &[Meaning::Negation, Meaning::Sequence],
    },
};

pub(crate) static TO_EDIT: PlanReader = PlanReader {
    name: "double-click the todo to enter edit mode",
    read: edit_mode::to_edit,
    examples: rx::TO_EDIT,
    before: rx::ADDED,
    reads: &Reads {
        words: &["mode", "editing", "start"],
        meanings: &[Meaning::Reference],
    },
};

pub(crate) static IN_EDIT_MODE: PlanReader = PlanReader {
    name: "the todo enters edit mode",
    read: edit_mode::in_edit_mode,
    examples: rx::IN_EDIT_MODE,
    before: rx::ADDED,
    reads: &Reads {
        words: &[
            "mode",
            "focused",
            "exited",
            "cancelled",
            "canceled",
            "closed",
            "left",
            "current",
        ],
        meanings: &[],
    },
};

pub(crate) static CHANGE_TEXT: PlanReader = PlanReader {
    name: "change the text to 'x' and press Enter",
    read: edit_mode::change_text,
    examples: rx::CHANGE_TEXT,
    before: rx::EDITED,
    reads: &Reads {
        words: &["elsewhere", "blur", "escape", "instead", "all"],
        meanings: &[Meaning::Number, Meaning::Sequence],
    },
};

pub(crate) static UPDATED: PlanReader = PlanReader {
    name: "the todo is updated to 'x'",
    read: edit_mode::updated,
    examples: rx::UPDATED,
    before: rx::EDITED,
    reads: &Reads {
        words: &["updated", "reverts"],
        meanings: &[],
    },
};

pub(crate) static CHANGES_SAVED: PlanReader = PlanReader {
    name: "the changes are saved",
    read: edit_mode::changes_saved,
    examples: rx::CHANGES_SAVED,
    before: rx::EDITED,
    reads: &Reads {
        words: &["changes", "edits", "saved", "kept"],
        meanings: &[Meaning::Negation],
    },
};

pub(crate) static REFERENCES: PlanReader = PlanReader {
    name: "click the checkbox next to the todo",
    read: references,
    examples: rx::REFERENCES,
    before: rx::ADDED,
    reads: &Reads {
        words: &["new", "added", "item's"],
        meanings: &[Meaning::Number, Meaning::Position, Meaning::Reference],
    },
};

/// The plan readers of the registry, in its order, with what their patterns read.
#[cfg(test)]
pub(crate) fn plan_readers() -> Vec<(&'static dyn Shape, &'static Reads)> {
    crate::writer::builtin::shapes::SHAPES
        .iter()
        .filter_map(|shape| match shape.kind() {
            ShapeKind::Plan(reads) => Some((*shape, reads)),
            _ => None,
        })
        .collect()
}

/// What the plan readers alone make of `sentence` in a test with `discourse`, on the page of
/// `state`, as the registry's walk weighs them, for the readers' unit tests: the first
/// reading that explains every word, else the first reading's decline.
#[cfg(test)]
pub(crate) fn read_plan_step(
    discourse: &crate::writer::builtin::discourse::Discourse,
    sentence: &str,
    columns: &[String],
    state: &crate::script::PageState,
) -> Reading {
    use crate::writer::builtin::plan_accounting::accounted;
    use crate::writer::builtin::tokens::{normalize, tokenize};
    let raw = tokenize(sentence, columns);
    let said = Said {
        toks: normalize(raw.clone()),
        raw,
        discourse,
        state,
    };
    let read = Sentence {
        text: Some(sentence),
        columns,
        toks: &said.toks,
        page: None,
        parse: crate::writer::builtin::shapes::parse,
        words: |_| None,
        test: Some(&said),
    };
    let mut unexplained = None;
    for (reader, reads) in plan_readers() {
        match reader.read(&read) {
            None => {}
            Some(Ok(Intent::Parts(parts))) => {
                match accounted(&said.toks, reads, parts, columns, &[]) {
                    Ok(parts) => return Some(Ok(parts)),
                    Err(decline) => {
                        unexplained.get_or_insert(decline);
                    }
                }
            }
            Some(Ok(other)) => panic!("{} read {other:?}", reader.name()),
            Some(Err(decline)) => return Some(Err(unexplained.unwrap_or(decline))),
        }
    }
    unexplained.map(Err)
}

/// What the plan readers make of `sentence` as text, for their unit tests: each part's text, a
/// decline's text after `DECLINE: `, or `NONE` when no reader reads it.
#[cfg(test)]
pub(crate) fn read_as_text(
    discourse: &crate::writer::builtin::discourse::Discourse,
    sentence: &str,
    state: &crate::script::PageState,
) -> Vec<String> {
    match read_plan_step(discourse, sentence, &[], state) {
        Some(Ok(parts)) => crate::writer::builtin::discourse::texts(parts),
        Some(Err(decline)) => vec![format!("DECLINE: {}", decline.0)],
        None => vec!["NONE".to_owned()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::PageState;
    use crate::writer::builtin::discourse::Discourse;
    use crate::writer::builtin::plan_accounting::accounted;
    use crate::writer::builtin::tokens::Tok;
    use crate::writer::builtin::tokens::{normalize, tokenize};
    use crate::writer::builtin::vocabulary::meaning;

    const FIELD: &str = "page.getByRole('textbox', { name: 'What needs to be done?' })";

    /// A step's code, one line of it per action.
    fn code(lines: &[String]) -> String {
        format!("async function step(page) {{\n  {}\n}}", lines.join("\n  "))
    }

    /// The test's memory after adding "a" and "b" through the new-item field.
    fn added() -> Discourse {
        let add = |item: &str| {
            code(&[
                format!("await {FIELD}.fill('{item}');"),
                format!("await {FIELD}.press('Enter');"),
            ])
        };
        Discourse::of(
            &["add 'a'".to_owned(), "add 'b'".to_owned()],
            &[add("a"), add("b")],
        )
    }

    /// The memory after adding "a", typing "c" without submitting it.
    fn typed() -> Discourse {
        Discourse::of(
            &["add 'a'".to_owned(), "type 'c'".to_owned()],
            &[
                code(&[
                    format!("await {FIELD}.fill('a');"),
                    format!("await {FIELD}.press('Enter');"),
                ]),
                code(&[format!("await {FIELD}.fill('c');")]),
            ],
        )
    }

    /// The memory after adding "a" and typing "x" into its editor.
    fn edited() -> Discourse {
        let item = "page.getByRole('listitem').filter({ hasText: 'a' })";
        Discourse::of(
            &["add 'a'".to_owned(), "edit 'a'".to_owned()],
            &[
                code(&[
                    format!("await {FIELD}.fill('a');"),
                    format!("await {FIELD}.press('Enter');"),
                ]),
                code(&[
                    format!("await {item}.dblclick();"),
                    "await page.getByRole('listitem').getByRole('textbox').fill('x');".to_owned(),
                ]),
            ],
        )
    }

    /// A page that shows what the readers of the page read: a main heading, the list of "a"
    /// and "b", a named checkbox and a footer's filter links, "All" marked.
    fn page() -> PageState {
        let structure = serde_json::json!([
            {
                "role": "list",
                "tag": "ul",
                "locator": "page.locator('ul.todo-list')",
                "items": ["a", "b"],
                "visible": true,
            },
            {
                "role": "link",
                "tag": "a",
                "text": "All",
                "visible": true,
                "marks": [{ "class": "selected" }],
                "peers": [{ "text": "Active", "marks": [] }],
            },
        ]);
        PageState {
            snapshot: "- heading \"todos\" [level=1]\n- checkbox \"Mark all as complete\"\n- \
                       list:\n  - listitem:\n    - checkbox\n    - text: a\n  - listitem:\n    \
                       - checkbox\n    - text: b\n"
                .to_owned(),
            structure: structure.to_string(),
            ..PageState::default()
        }
    }

    /// One sentence each reader reads, after the earlier steps of its memory.
    fn examples() -> Vec<(&'static str, Discourse, &'static str)> {
        vec![
            ("reload the page", added(), "reload the page"),
            (
                "the field shows 'x' / is valid / change it to 'x'",
                typed(),
                "the field shows 'c'",
            ),
            ("the application loads", added(), "the application loads"),
            (
                "the list is empty",
                Discourse::default(),
                "the list is empty",
            ),
            (
                "the URL changes to #fragment",
                added(),
                "the URL changes to #/active",
            ),
            (
                "the 'x' button appears in the footer",
                added(),
                "the 'Clear completed' button appears in the footer",
            ),
            (
                "the checkbox is checked",
                added(),
                "the checkbox is checked",
            ),
            (
                "the 'x' filter link is highlighted",
                added(),
                "the 'All' filter link is highlighted",
            ),
            (
                "one completed and two active",
                added(),
                "two active and zero completed",
            ),
            (
                "only active todos are visible",
                added(),
                "only active todos are visible",
            ),
            (
                "the first todo is marked as complete",
                added(),
                "the first todo is marked as complete",
            ),
            (
                "click the 'x' checkbox",
                added(),
                "click the 'Mark all as complete' checkbox",
            ),
            (
                "click the checkbox to uncomplete it",
                added(),
                "click the checkbox to uncomplete it",
            ),
            (
                "press Enter to submit the todo",
                typed(),
                "press Enter to submit the todo",
            ),
            (
                "add three todos and mark one as complete",
                Discourse::default(),
                "add three todos and mark one as complete",
            ),
            (
                "add 'a' and mark it as complete",
                Discourse::default(),
                "add 'q' and mark it as complete",
            ),
            (
                "mark 'a' and 'b' as complete",
                added(),
                "mark 'a' and 'b' as complete",
            ),
            (
                "'a' and 'b' remain visible",
                added(),
                "'a' and 'b' remain visible",
            ),
            (
                "'a' is removed from the list",
                added(),
                "'a' is removed from the list",
            ),
            (
                "type 'x' and press Enter",
                added(),
                "type 'x' and press Enter",
            ),
            (
                "double-click to edit and change text to 'x'",
                added(),
                "double-click to edit and change the text to 'y'",
            ),
            (
                "the edit textbox shows the text with spaces",
                edited(),
                "the edit textbox shows the text",
            ),
            ("press Enter to save", edited(), "press Enter to save"),
            (
                "the todo is saved as 'x' without leading or trailing whitespace",
                added(),
                "the todo is saved as 'x' without leading or trailing whitespace",
            ),
            (
                "double-click the todo to enter edit mode",
                added(),
                "double-click the todo to enter edit mode",
            ),
            (
                "the todo enters edit mode",
                added(),
                "the todo enters edit mode",
            ),
            (
                "change the text to 'x' and press Enter",
                edited(),
                "change the text to 'y' and press Enter",
            ),
            (
                "the todo is updated to 'x'",
                edited(),
                "the todo is updated to 'x'",
            ),
            ("the changes are saved", edited(), "the changes are saved"),
            (
                "click the checkbox next to the todo",
                added(),
                "click the checkbox next to the todo",
            ),
        ]
    }

    /// One word of each kind of meaning.
    const EXTRA: &[&str] = &[
        "nowhere", "twice", "previous", "beneath", "unless", "them", "solely", "later",
    ];

    /// Each reader reads its example, and the same example with one more word of a kind of
    /// meaning its pattern does not read declines naming the word: the reading explains it by
    /// nothing, whatever its parts are.
    #[test]
    fn each_reader_declines_a_word_of_meaning_it_does_not_read_naming_it() {
        let examples = examples();
        assert_eq!(
            examples.iter().map(|(name, ..)| *name).collect::<Vec<_>>(),
            plan_readers()
                .iter()
                .map(|(r, _)| r.name())
                .collect::<Vec<_>>(),
            "one example per reader, in order"
        );
        let state = page();
        let mut failures = Vec::new();
        for ((reader, reads), (_, discourse, sentence)) in plan_readers().into_iter().zip(&examples)
        {
            let raw = tokenize(sentence, &[]);
            let said = Said {
                toks: normalize(raw.clone()),
                raw,
                discourse,
                state: &state,
            };
            let read = Sentence {
                text: Some(sentence),
                columns: &[],
                toks: &said.toks,
                page: None,
                parse: crate::writer::builtin::shapes::parse,
                words: |_| None,
                test: Some(&said),
            };
            let parts = match reader.read(&read) {
                Some(Ok(Intent::Parts(parts))) => parts,
                other => {
                    failures.push(format!("{}: {sentence:?} read as {other:?}", reader.name()));
                    continue;
                }
            };
            if let Err(decline) = accounted(&said.toks, reads, parts.clone(), &[], &[]) {
                failures.push(format!("{}: {sentence:?}: {}", reader.name(), decline.0));
            }
            for word in EXTRA {
                let kind = meaning(word).unwrap_or_else(|| panic!("{word} has a meaning"));
                if reads.meanings.contains(&kind) {
                    continue;
                }
                let mut toks = said.toks.clone();
                toks.push(Tok::Word((*word).to_owned(), (*word).to_owned()));
                let got = accounted(&toks, reads, parts.clone(), &[], &[]);
                if got != Err(Decline::unaccounted(&[word])) {
                    failures.push(format!("{}: {sentence:?} + {word}: {got:?}", reader.name()));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// A word of meaning a reader lists among its frame words is one its pattern reads inside
    /// a fixed phrase; no reader lists a word of place or limit, which no pattern reads so.
    #[test]
    fn no_reader_lists_a_word_of_place_or_limit_as_its_own() {
        for (reader, reads) in plan_readers() {
            for word in reads.words {
                assert!(
                    !matches!(meaning(word), Some(Meaning::Place | Meaning::Limit)),
                    "{}: {word}",
                    reader.name()
                );
            }
        }
    }
}
