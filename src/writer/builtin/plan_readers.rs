//! The ordered list of plan-step readers (`plan_steps.rs`, `edit_mode.rs`) and the one walk
//! over it, apart from the readers so that the readers' files can share their helpers without
//! importing each other.
//!
//! Main function: [`read_plan_step`]; [`PLAN_READERS`] is the ordered list of readers.

use crate::script::PageState;
use crate::writer::builtin::discourse::Discourse;
use crate::writer::builtin::edit_mode;
use crate::writer::builtin::field_reference::the_field_just_used;
use crate::writer::builtin::plan_accounting::accounted;
use crate::writer::builtin::plan_counts;
use crate::writer::builtin::plan_states;
use crate::writer::builtin::plan_steps::{
    Reading, Said, add_and_mark, app_loads, click_checkbox_to, each_named_action, each_named_check,
    empty_list, gone, in_the_footer, press_to_submit, references, reload, the_checkbox,
    url_fragment,
};
use crate::writer::builtin::plan_typing;
use crate::writer::builtin::plan_unnamed;
use crate::writer::builtin::tokens::{normalize, tokenize};
use crate::writer::builtin::vocabulary::{Meaning, Reads};

/// One reader of plan steps: its name and what it makes of a sentence.
pub(crate) struct PlanReader {
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "the name says which reader a row is; tests list them"
        )
    )]
    pub(crate) name: &'static str,
    pub(crate) read: fn(&Said) -> Reading,
    /// The words its pattern reads and the kinds of meaning they say, which explain the
    /// sentence's words together with the parts of its reading (`plan_accounting.rs`).
    pub(crate) reads: Reads,
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

/// The readers in the order they are tried; the first that reads the sentence wins.
pub(crate) const PLAN_READERS: &[PlanReader] = &[
    PlanReader {
        name: "reload the page",
        read: reload,
        reads: Reads {
            words: &["browser"],
            meanings: &[Meaning::Time],
        },
    },
    PlanReader {
        name: "the field shows 'x' / is valid / change it to 'x'",
        read: the_field_just_used,
        reads: Reads {
            words: &["term", "valid", "invalid", "textbox", "box", "shows"],
            meanings: &[Meaning::Reference],
        },
    },
    PlanReader {
        name: "the application loads",
        read: app_loads,
        reads: Reads {
            words: &["opens", "successfully", "correctly"],
            meanings: &[],
        },
    },
    PlanReader {
        name: "the list is empty",
        read: empty_list,
        reads: Reads {
            words: &["start", "stays", "added"],
            meanings: &[Meaning::Negation],
        },
    },
    PlanReader {
        name: "the URL changes to #fragment",
        read: url_fragment,
        reads: Reads {
            words: &["changes", "becomes", "ends"],
            meanings: &[],
        },
    },
    PlanReader {
        name: "the 'x' button appears in the footer",
        read: in_the_footer,
        reads: Reads {
            words: &[],
            meanings: &[],
        },
    },
    PlanReader {
        name: "the checkbox is checked",
        read: the_checkbox,
        reads: Reads {
            words: &["checked", "ticked", "unchecked", "unticked"],
            meanings: &[Meaning::Negation],
        },
    },
    PlanReader {
        name: "the 'x' filter link is highlighted",
        read: plan_states::highlighted,
        reads: Reads {
            words: &["highlighted", "selected", "current"],
            meanings: &[],
        },
    },
    PlanReader {
        name: "one completed and two active",
        read: plan_counts::counted_states,
        reads: Reads {
            words: STATES,
            meanings: &[Meaning::Number, Meaning::Sequence],
        },
    },
    PlanReader {
        name: "only active todos are visible",
        read: plan_counts::only_in_state,
        reads: Reads {
            words: STATES,
            meanings: &[Meaning::Limit],
        },
    },
    PlanReader {
        name: "the first todo is marked as complete",
        read: plan_states::position_state,
        reads: Reads {
            words: STATES,
            meanings: &[Meaning::Position, Meaning::Negation],
        },
    },
    PlanReader {
        name: "click the 'x' checkbox",
        read: plan_states::click_named_control,
        reads: Reads {
            words: &[],
            meanings: &[],
        },
    },
    PlanReader {
        name: "click the checkbox to uncomplete it",
        read: click_checkbox_to,
        reads: Reads {
            words: &["uncomplete", "reactivate"],
            meanings: &[Meaning::Reference],
        },
    },
    PlanReader {
        name: "press Enter to submit the todo",
        read: press_to_submit,
        reads: Reads {
            words: &[],
            meanings: &[Meaning::Reference],
        },
    },
    PlanReader {
        name: "add three todos and mark one as complete",
        read: plan_unnamed::add_unnamed,
        reads: Reads {
            words: &["completed", "done", "via"],
            meanings: &[Meaning::Number, Meaning::Reference, Meaning::Sequence],
        },
    },
    PlanReader {
        name: "add 'a' and mark it as complete",
        read: add_and_mark,
        reads: Reads {
            words: &["completed", "done"],
            meanings: &[Meaning::Number, Meaning::Reference, Meaning::Sequence],
        },
    },
    PlanReader {
        name: "mark 'a' and 'b' as complete",
        read: each_named_action,
        reads: Reads {
            words: &[],
            meanings: &[Meaning::Sequence],
        },
    },
    PlanReader {
        name: "'a' and 'b' remain visible",
        read: each_named_check,
        reads: Reads {
            words: &["removed", "deleted", "remain", "listed"],
            meanings: &[Meaning::Limit, Meaning::Negation, Meaning::Sequence],
        },
    },
    PlanReader {
        name: "'a' is removed from the list",
        read: gone,
        reads: Reads {
            words: &["removed", "deleted", "added", "new", "item's"],
            meanings: &[
                Meaning::Negation,
                Meaning::Number,
                Meaning::Position,
                Meaning::Reference,
            ],
        },
    },
    PlanReader {
        name: "type 'x' and press Enter",
        read: plan_typing::type_and_press,
        reads: Reads {
            words: &[],
            meanings: &[Meaning::Sequence],
        },
    },
    PlanReader {
        name: "double-click to edit and change text to 'x'",
        read: plan_typing::edit_and_change,
        reads: Reads {
            words: &[],
            meanings: &[Meaning::Reference, Meaning::Sequence],
        },
    },
    PlanReader {
        name: "the edit textbox shows the text with spaces",
        read: plan_typing::editor_shows,
        reads: Reads {
            words: &["spaces", "whitespace", "leading", "trailing", "and"],
            meanings: &[Meaning::Sequence],
        },
    },
    PlanReader {
        name: "press Enter to save",
        read: plan_typing::press_to_save,
        reads: Reads {
            words: &["save", "changes"],
            meanings: &[Meaning::Reference],
        },
    },
    PlanReader {
        name: "the todo is saved as 'x' without leading or trailing whitespace",
        read: plan_typing::kept_as,
        reads: Reads {
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
    },
    PlanReader {
        name: "double-click the todo to enter edit mode",
        read: edit_mode::to_edit,
        reads: Reads {
            words: &["mode", "editing", "start"],
            meanings: &[Meaning::Reference],
        },
    },
    PlanReader {
        name: "the todo enters edit mode",
        read: edit_mode::in_edit_mode,
        reads: Reads {
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
    },
    PlanReader {
        name: "change the text to 'x' and press Enter",
        read: edit_mode::change_text,
        reads: Reads {
            words: &["elsewhere", "blur", "escape", "instead", "all"],
            meanings: &[Meaning::Number, Meaning::Sequence],
        },
    },
    PlanReader {
        name: "the todo is updated to 'x'",
        read: edit_mode::updated,
        reads: Reads {
            words: &["updated", "reverts"],
            meanings: &[],
        },
    },
    PlanReader {
        name: "the changes are saved",
        read: edit_mode::changes_saved,
        reads: Reads {
            words: &["changes", "edits", "saved", "kept"],
            meanings: &[Meaning::Negation],
        },
    },
    PlanReader {
        name: "click the checkbox next to the todo",
        read: references,
        reads: Reads {
            words: &["new", "added", "item's"],
            meanings: &[Meaning::Number, Meaning::Position, Meaning::Reference],
        },
    },
];

/// What `sentence` means as a plan step in a test with `discourse`, on the page of `state`;
/// `None` when no reader reads it. A reading that leaves a word of the sentence unexplained
/// declines naming it, unless a later reader reads the sentence whole.
pub(crate) fn read_plan_step(
    discourse: &Discourse,
    sentence: &str,
    columns: &[String],
    state: &PageState,
) -> Reading {
    let raw = tokenize(sentence, columns);
    let said = Said {
        toks: normalize(raw.clone()),
        raw,
        discourse,
        state,
    };
    let mut unexplained = None;
    for reader in PLAN_READERS {
        match (reader.read)(&said) {
            None => {}
            Some(Ok(parts)) => match accounted(&said.toks, &reader.reads, parts, columns, &[]) {
                Ok(parts) => return Some(Ok(parts)),
                Err(decline) => {
                    unexplained.get_or_insert(decline);
                }
            },
            Some(Err(decline)) => return Some(Err(unexplained.unwrap_or(decline))),
        }
    }
    unexplained.map(Err)
}

/// What the plan readers make of `sentence` as text, for their unit tests: each part's text, a
/// decline's text after `DECLINE: `, or `NONE` when no reader reads it.
#[cfg(test)]
pub(crate) fn read_as_text(
    discourse: &Discourse,
    sentence: &str,
    state: &PageState,
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
    use crate::writer::builtin::intent::Decline;
    use crate::writer::builtin::tokens::Tok;
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
            PLAN_READERS.iter().map(|r| r.name).collect::<Vec<_>>(),
            "one example per reader, in order"
        );
        let state = page();
        let mut failures = Vec::new();
        for (reader, (_, discourse, sentence)) in PLAN_READERS.iter().zip(&examples) {
            let raw = tokenize(sentence, &[]);
            let said = Said {
                toks: normalize(raw.clone()),
                raw,
                discourse,
                state: &state,
            };
            let parts = match (reader.read)(&said) {
                Some(Ok(parts)) => parts,
                other => {
                    failures.push(format!("{}: {sentence:?} read as {other:?}", reader.name));
                    continue;
                }
            };
            if let Err(decline) = accounted(&said.toks, &reader.reads, parts.clone(), &[], &[]) {
                failures.push(format!("{}: {sentence:?}: {}", reader.name, decline.0));
            }
            for word in EXTRA {
                let kind = meaning(word).unwrap_or_else(|| panic!("{word} has a meaning"));
                if reader.reads.meanings.contains(&kind) {
                    continue;
                }
                let mut toks = said.toks.clone();
                toks.push(Tok::Word((*word).to_owned(), (*word).to_owned()));
                let got = accounted(&toks, &reader.reads, parts.clone(), &[], &[]);
                if got != Err(Decline::unaccounted(&[word])) {
                    failures.push(format!("{}: {sentence:?} + {word}: {got:?}", reader.name));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// A word of meaning a reader lists among its frame words is one its pattern reads inside
    /// a fixed phrase; no reader lists a word of place or limit, which no pattern reads so.
    #[test]
    fn no_reader_lists_a_word_of_place_or_limit_as_its_own() {
        for reader in PLAN_READERS {
            for word in reader.reads.words {
                assert!(
                    !matches!(meaning(word), Some(Meaning::Place | Meaning::Limit)),
                    "{}: {word}",
                    reader.name
                );
            }
        }
    }
}
