//! The registry of the built-in generator's sentence shapes: one ordered [`SHAPES`] list, whose
//! order is the documented precedence (docs/builtin.md's table of shapes is checked against
//! it), and the one walk that reads a sentence with it. The readers of a sentence in its test
//! (the test's memory and the plan readers, `plan_readers.rs`) come first.
//!
//! Main items: [`SHAPES`], [`parse`] (a sentence's intent, without a page), [`write`] (its
//! code on a page) and [`write_in_test`] (what it means in its test, written by the caller).

use crate::writer::builtin::accounting::unaccounted;
use crate::writer::builtin::codegen::lines_for;
use crate::writer::builtin::intent::{Cause, Decline, Intent};
use crate::writer::builtin::loading::Loading;
use crate::writer::builtin::plan_accounting::{accounted, memory_reads};
use crate::writer::builtin::plan_readers::{self as readers, Memory};
use crate::writer::builtin::qualifiers::unread_qualifiers;
use crate::writer::builtin::said::Said;
use crate::writer::builtin::sentence_shapes::{
    CardCount, Cards, Choices, Clauses, ClickWithout, EitherOrHidden, Request,
    RequestCheckAfterColon, Summary, TwoChecks, Verb, Words,
};
use crate::writer::builtin::shape::{Sentence, Shape, ShapeKind};
use crate::writer::builtin::shape_examples as ex;
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::table_cells::{ColumnCells, TableColumns};
use crate::writer::builtin::tokens::{Tok, normalize, tokenize};
use crate::writer::builtin::waits::{TextAppears, Wait};
use crate::writer::builtin::{
    accessibility, assertions, forms, grammar, placement, tables, visual,
};

/// Every sentence shape, in the order they are tried: the first that reads a sentence decides
/// it (`press Enter` before `press the button`, `uncheck` before `check`, the form shapes
/// before the actions whose verbs they share). After one declines, only the shapes that rescue
/// a sentence are tried, and the most specific decline is the one shown.
///
/// The readers of a sentence in its test go first, because a sentence that refers back to
/// earlier steps means what they did: the test's memory, then the plan readers. A reading of
/// theirs that explains every word claims the sentence; one that declines leaves it to the
/// readers and shapes after it (a plan reader's own decline to the shapes only), and its
/// decline is shown when nothing after it writes the sentence, because it says what the
/// sentence could have meant in its test.
pub(crate) static SHAPES: &[&dyn Shape] = &[
    &Memory,
    &readers::RELOAD,
    &readers::THE_FIELD_JUST_USED,
    &readers::APP_LOADS,
    &readers::EMPTY_LIST,
    &readers::URL_FRAGMENT,
    &readers::IN_THE_FOOTER,
    &readers::THE_CHECKBOX,
    &readers::HIGHLIGHTED,
    &readers::COUNTED_STATES,
    &readers::ONLY_IN_STATE,
    &readers::POSITION_STATE,
    &readers::CLICK_NAMED_CONTROL,
    &readers::CLICK_CHECKBOX_TO,
    &readers::PRESS_TO_SUBMIT,
    &readers::ADD_UNNAMED,
    &readers::ADD_AND_MARK,
    &readers::EACH_NAMED_ACTION,
    &readers::EACH_NAMED_CHECK,
    &readers::GONE,
    &readers::TYPE_AND_PRESS,
    &readers::EDIT_AND_CHANGE,
    &readers::EDITOR_SHOWS,
    &readers::PRESS_TO_SAVE,
    &readers::KEPT_AS,
    &readers::TO_EDIT,
    &readers::IN_EDIT_MODE,
    &readers::CHANGE_TEXT,
    &readers::UPDATED,
    &readers::CHANGES_SAVED,
    &readers::REFERENCES,
    &Request,
    &CardCount,
    &RequestCheckAfterColon,
    &EitherOrHidden,
    &TwoChecks,
    &Words {
        name: "placed against",
        examples: ex::PLACED,
        read: placement::shape,
    },
    &Words {
        name: "no accessibility violations",
        examples: ex::ACCESSIBLE,
        read: accessibility::shape,
    },
    &Words {
        name: "looks as before",
        examples: ex::LOOKS_AS_BEFORE,
        read: visual::shape,
    },
    &Words {
        name: "clear and type",
        examples: ex::CLEAR_AND_TYPE,
        read: forms::clear_and_type,
    },
    &Words {
        name: "change to",
        examples: ex::CHANGE_TO,
        read: forms::change_to,
    },
    &ClickWithout,
    &Words {
        name: "URL lacks",
        examples: ex::URL_LACKS,
        read: forms::url_lacks,
    },
    &Words {
        name: "asks with the options",
        examples: ex::ASKS,
        read: forms::asks_with,
    },
    &Words {
        name: "suggests",
        examples: ex::SUGGESTS,
        read: forms::suggests_values,
    },
    &Words {
        name: "validity",
        examples: ex::VALIDITY,
        read: forms::validity,
    },
    &Wait,
    &Loading,
    &Verb {
        name: "go back",
        examples: ex::GO_BACK,
        verbs: &[&["go", "back"], &["navigate", "back"], &["browse", "back"]],
        read: grammar::go_back,
    },
    &Verb {
        name: "open",
        examples: ex::OPEN,
        verbs: &[
            &["open"],
            &["go", "to"],
            &["visit"],
            &["navigate", "to"],
            &["browse", "to"],
            &["load"],
        ],
        read: grammar::go_to,
    },
    &Verb {
        name: "double-click",
        examples: ex::DOUBLE_CLICK,
        verbs: &[
            &["double-click"],
            &["double", "click"],
            &["doubleclick"],
            &["dblclick"],
            &["double-tap"],
        ],
        read: grammar::double_click,
    },
    &Verb {
        name: "right-click",
        examples: ex::RIGHT_CLICK,
        verbs: &[
            &["right-click"],
            &["right", "click"],
            &["rightclick"],
            &["context-click"],
            &["right-tap"],
        ],
        read: grammar::context_click,
    },
    &Verb {
        name: "press a key",
        examples: ex::PRESS,
        verbs: &[&["press"], &["hit"]],
        read: grammar::press_key,
    },
    &Verb {
        name: "click a table header",
        examples: tables::CLICK_HEADER,
        verbs: &[&["click"], &["tap"]],
        read: tables::click_header,
    },
    &Verb {
        name: "click",
        examples: ex::CLICK,
        verbs: &[&["click"], &["tap"], &["press"], &["hit"]],
        read: grammar::single_click,
    },
    &Verb {
        name: "fill with",
        examples: ex::FILL_WITH,
        verbs: &[&["fill", "in"], &["fill", "out"], &["fill"]],
        read: grammar::fill_with,
    },
    &Verb {
        name: "type into",
        examples: ex::TYPE_INTO,
        verbs: &[
            &["type"],
            &["enter"],
            &["fill", "in"],
            &["fill"],
            &["input"],
            &["write"],
        ],
        read: grammar::type_into,
    },
    &Verb {
        name: "clear",
        examples: ex::CLEAR,
        verbs: &[&["clear"], &["empty"]],
        read: grammar::clear,
    },
    &Verb {
        name: "mark as done",
        examples: ex::MARK,
        verbs: &[
            &["mark"],
            &["complete"],
            &["finish"],
            &["tick", "off"],
            &["check", "off"],
            &["unmark"],
        ],
        read: grammar::mark_item,
    },
    &Verb {
        name: "edit",
        examples: ex::EDIT,
        verbs: &[
            &["edit"],
            &["rename"],
            &["change"],
            &["update"],
            &["modify"],
        ],
        read: grammar::edit,
    },
    &Verb {
        name: "uncheck",
        examples: ex::UNCHECK,
        verbs: &[&["uncheck"], &["untick"], &["deselect"]],
        read: grammar::uncheck,
    },
    &Verb {
        name: "check",
        examples: ex::CHECK,
        verbs: &[&["check"], &["tick"]],
        read: grammar::check,
    },
    &Verb {
        name: "select",
        examples: ex::SELECT,
        verbs: &[&["select"], &["choose"], &["pick"]],
        read: grammar::select_option,
    },
    &Verb {
        name: "hover",
        examples: ex::HOVER,
        verbs: &[
            &["hover", "over"],
            &["hover", "on"],
            &["hover"],
            &["mouse", "over"],
        ],
        read: grammar::hover,
    },
    &Verb {
        name: "sign in",
        examples: ex::SIGN_IN,
        verbs: &[&["sign", "in"], &["log", "in"], &["login"], &["signin"]],
        read: grammar::sign_in_as,
    },
    &Verb {
        name: "add",
        examples: ex::ADD,
        verbs: &[&["add"], &["create"]],
        read: grammar::add_items,
    },
    &Verb {
        name: "delete",
        examples: ex::DELETE,
        verbs: &[&["delete"], &["remove"]],
        read: grammar::delete,
    },
    &Verb {
        name: "show a view",
        examples: ex::SHOW,
        verbs: &[
            &["show"],
            &["filter", "by"],
            &["view"],
            &["switch", "to"],
            &["switch", "back", "to"],
            &["go", "back", "to"],
        ],
        read: grammar::show_view,
    },
    &Verb {
        name: "see",
        examples: ex::SEE,
        verbs: &[&["see"], &["sees"]],
        read: grammar::see,
    },
    &Words {
        name: "a table's row",
        examples: tables::ROW_SHOWS,
        read: tables::row_shows,
    },
    &TableColumns,
    &Words {
        name: "a table's header",
        examples: tables::HEADER_HAS,
        read: tables::header_has,
    },
    &Words {
        name: "a sorted column",
        examples: tables::COLUMN_SORTED,
        read: tables::column_sorted,
    },
    &Words {
        name: "there is",
        examples: ex::THERE_IS,
        read: assertions::there_is,
    },
    &Words {
        name: "the list's items",
        examples: ex::ITEMS,
        read: assertions::items,
    },
    &Words {
        name: "appears",
        examples: ex::APPEARS,
        read: assertions::appears,
    },
    &Words {
        name: "count and words",
        examples: ex::COUNT_WORDS,
        read: assertions::count_words,
    },
    &Words {
        name: "URL or title",
        examples: ex::PAGE_CHECK,
        read: assertions::page_check,
    },
    &Words {
        name: "on a page",
        examples: ex::ON_PAGE,
        read: assertions::on_page,
    },
    &Words {
        name: "shows",
        examples: ex::SHOWS,
        read: assertions::shows,
    },
    &Words {
        name: "is a state",
        examples: ex::IS_STATE,
        read: assertions::is_state,
    },
    &ColumnCells,
    &TextAppears,
    &Summary,
    &Cards,
    &Choices,
    &Clauses,
];

/// The reason given when no shape reads a sentence.
fn no_shape() -> Decline {
    Decline::new(
        "the sentence is none of the built-in shapes (open, click, type into, check, select, \
         press, hover, is shown, shows, has value, is checked, there are N, the URL, the title, \
         METHOD /path)",
    )
}

/// How far a shape got with a sentence it declined: the further, the more specific the
/// reason, because it says more about this sentence on this page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Reach {
    /// A shape read the sentence's words and found them wanting (a value not quoted).
    Words,
    /// A shape read the sentence and the page cannot satisfy it (no such element, two of them).
    Page,
    /// A shape read the sentence but for some of its words: no reading about the page says
    /// more, since a page without the element says nothing of the words it would drop.
    Unread,
}

/// A sentence written by the registry: the shape that wrote it and its statements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Written {
    pub shape: &'static str,
    pub lines: Vec<String>,
}

/// How a walk over [`SHAPES`] ends when nothing writes the sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Declined {
    /// A reader of the test's context declined it, or a part of its reading could not be
    /// written: the reason is shown as it is.
    Test(Decline),
    /// The shapes of the sentence declined it: the most specific of their reasons.
    Shapes(Decline),
}

impl Declined {
    fn into_decline(self) -> Decline {
        match self {
            Declined::Test(decline) | Declined::Shapes(decline) => decline,
        }
    }
}

/// Walks [`SHAPES`] over `sentence`, with the page when one is given and the test's context
/// when one is given, and renders the first reading that is written with `render`. A reader
/// of the test's context claims the sentence with a reading that explains every word, and its
/// rendering is final; its decline is kept, the first one, and shown when nothing after it
/// writes the sentence. The first shape of the sentence that reads it claims it: when it
/// declines, only the shapes that rescue a sentence are tried after it, and the decline that
/// reached furthest (the earliest among equals) is returned.
fn walk<T>(
    sentence: &Sentence<'_>,
    render: impl Fn(&'static str, Intent) -> Result<T, Decline>,
) -> Result<T, Declined> {
    let mut best: Option<(Reach, Decline)> = None;
    let mut held: Option<Decline> = None;
    let mut plans_closed = false;
    let held_or = |held: Option<Decline>, decline: Decline| {
        held.map_or(Declined::Shapes(decline), Declined::Test)
    };
    for shape in SHAPES {
        let kind = shape.kind();
        if kind != ShapeKind::Sentence {
            let Some(said) = sentence.test else {
                continue;
            };
            if plans_closed && matches!(kind, ShapeKind::Plan(_)) {
                continue;
            }
            let Some(read) = shape.read(sentence) else {
                continue;
            };
            let decline = match read {
                Ok(intent) => match explained(kind, said, sentence.columns, intent) {
                    Ok(intent) => return render(shape.name(), intent).map_err(Declined::Test),
                    Err(unexplained) => unexplained,
                },
                Err(own) => {
                    // A plan reader that read the sentence as its own and declined it knows
                    // the plan readers after it cannot read it either.
                    plans_closed |= matches!(kind, ShapeKind::Plan(_));
                    own
                }
            };
            held.get_or_insert(decline);
            continue;
        }
        if sentence.text.is_some() && sentence.toks.is_empty() {
            return Err(held_or(held, Decline::new("the sentence is empty")));
        }
        if (shape.needs_page() && sentence.page.is_none()) || (best.is_some() && !shape.rescues()) {
            continue;
        }
        let Some(read) = shape.read(sentence) else {
            continue;
        };
        // Every reading accounts for the sentence's words, whichever shape read it: its
        // qualifiers, and every other word but the shape's own frame.
        let read = read.and_then(|intent| {
            unread_qualifiers(sentence.toks, &intent)?;
            unaccounted(shape.accountable(sentence.toks), &intent)?;
            Ok(intent)
        });
        let declined = match read {
            Ok(reading) => match render(shape.name(), reading) {
                Ok(done) => return Ok(done),
                Err(decline) if decline.1 == Cause::UnreadWords => (Reach::Unread, decline),
                Err(decline) => (Reach::Page, decline),
            },
            Err(decline) if decline.1 == Cause::UnreadWords => (Reach::Unread, decline),
            Err(decline) if shape.needs_page() => (Reach::Page, decline),
            Err(decline) => (Reach::Words, decline),
        };
        if best.as_ref().is_none_or(|(reach, _)| declined.0 > *reach) {
            best = Some(declined);
        }
    }
    Err(held_or(
        held,
        best.map_or_else(no_shape, |(_, decline)| decline),
    ))
}

/// A reading of the test's context with every word of the sentence explained by its parts and
/// by what its reader reads (`plan_accounting.rs`), or the decline naming a word it leaves
/// unexplained, which leaves the sentence to the readers after it.
fn explained(
    kind: ShapeKind,
    said: &Said<'_>,
    columns: &[String],
    intent: Intent,
) -> Result<Intent, Decline> {
    let Intent::Parts(parts) = intent else {
        return Ok(intent);
    };
    let (reads, context) = match kind {
        ShapeKind::Plan(reads) => (reads, &[][..]),
        ShapeKind::Memory | ShapeKind::Sentence => memory_reads(said.discourse),
    };
    accounted(&said.toks, reads, parts, columns, context).map(Intent::Parts)
}

/// The first of the word shapes that reads `toks`, without a page: what the halves of two
/// checks are read with.
fn words(toks: &[Tok]) -> Option<Result<Intent, Decline>> {
    let sentence = Sentence {
        text: None,
        columns: &[],
        toks,
        page: None,
        parse,
        words,
        test: None,
    };
    SHAPES
        .iter()
        .filter(|shape| !shape.needs_page() && !shape.rescues())
        .find_map(|shape| shape.read(&sentence))
}

/// What `sentence` asks for, read without a page. `columns` are the examples table's columns:
/// `<name>` is a value only for these. The shapes that read the page are not tried.
pub(crate) fn parse(sentence: &str, columns: &[String]) -> Result<Intent, Decline> {
    let toks = normalize(tokenize(sentence, columns));
    let read = Sentence {
        text: Some(sentence),
        columns,
        toks: &toks,
        page: None,
        parse,
        words,
        test: None,
    };
    walk(&read, |_, intent| Ok(intent)).map_err(Declined::into_decline)
}

/// The statements of `sentence` on the page `snap` shows, and the shape that wrote them, or
/// the most specific reason no shape could.
pub(crate) fn write(
    sentence: &str,
    columns: &[String],
    snap: &Snapshot,
) -> Result<Written, Decline> {
    write_in_test(sentence, columns, snap, None, |shape, intent| {
        Ok(Written {
            shape,
            lines: lines_for(&intent, snap)?,
        })
    })
    .map_err(Declined::into_decline)
}

/// What `sentence` means on the page `snap` shows and, when `test` is given, in its test (the
/// earlier steps' memory and the page's state), rendered by `render`, which writes the parts a
/// reader of the test's context reads as well as the shapes' intents; or why nothing wrote it.
pub(crate) fn write_in_test<T>(
    sentence: &str,
    columns: &[String],
    snap: &Snapshot,
    test: Option<&Said<'_>>,
    render: impl Fn(&'static str, Intent) -> Result<T, Decline>,
) -> Result<T, Declined> {
    let toks = normalize(tokenize(sentence, columns));
    let read = Sentence {
        text: Some(sentence),
        columns,
        toks: &toks,
        page: Some(snap),
        parse,
        words,
        test,
    };
    walk(&read, render)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::choices;
    use crate::writer::builtin::shape::Example;

    /// Every shape's documented examples, each written on its page by the shape it documents.
    #[test]
    fn every_shape_writes_its_examples_on_their_pages() {
        let mut failures = Vec::new();
        for shape in SHAPES {
            if shape.examples().is_empty() {
                failures.push(format!("{}: no example", shape.name()));
            }
            for example in shape.examples() {
                if shape.kind() != ShapeKind::Sentence {
                    failures.extend(written_in_its_test(*shape, example));
                    continue;
                }
                let page = Snapshot::read(example.page, "");
                match write(example.sentence, &[], &page) {
                    Ok(written) => {
                        let expected: Vec<&str> = example.code.lines().collect();
                        if written.shape != shape.name() || written.lines != expected {
                            failures.push(format!(
                                "{}: {:?} was written by {} as\n{}",
                                shape.name(),
                                example.sentence,
                                written.shape,
                                written.lines.join("\n")
                            ));
                        }
                    }
                    Err(why) => failures.push(format!(
                        "{}: {:?} declined: {}",
                        shape.name(),
                        example.sentence,
                        why.0
                    )),
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }

    /// The failure of a reader of the test's context to write its `example` after the earlier
    /// steps it lists, on the readers' page, as its documented code: another shape claims the
    /// sentence, or its code differs.
    fn written_in_its_test(shape: &dyn Shape, example: &Example) -> Option<String> {
        use crate::script::PageState;
        use crate::writer::builtin::codegen::statements;
        use crate::writer::builtin::discourse::Discourse;
        use crate::writer::builtin::in_test::write_step_in_test;
        use crate::writer::builtin::reader_examples::STRUCTURE;
        let (sentences, code): (Vec<String>, Vec<String>) = shape
            .before()
            .iter()
            .map(|(sentence, code)| ((*sentence).to_owned(), (*code).to_owned()))
            .unzip();
        let state = PageState {
            url: "http://127.0.0.1:8080/".to_owned(),
            base_url: Some("http://127.0.0.1:8080/".to_owned()),
            snapshot: example.page.to_owned(),
            structure: STRUCTURE.to_owned(),
            ..PageState::default()
        };
        let discourse = Discourse::of(&sentences, &code);
        let raw = tokenize(example.sentence, &[]);
        let said = Said {
            toks: normalize(raw.clone()),
            raw,
            discourse: &discourse,
            state: &state,
        };
        let snap = Snapshot::read(&state.snapshot, &state.structure);
        let claimed = write_in_test(example.sentence, &[], &snap, Some(&said), |name, _| {
            Ok(name)
        });
        if claimed != Ok(shape.name()) {
            return Some(format!(
                "{}: {:?} was claimed as {claimed:?}",
                shape.name(),
                example.sentence
            ));
        }
        let written =
            write_step_in_test(example.sentence, &[], &state, &|_| true, &sentences, &code);
        let expected: Vec<&str> = example.code.lines().collect();
        match written {
            Ok(code) if statements(&code) == expected => None,
            Ok(code) => Some(format!(
                "{}: {:?} was written as\n{}",
                shape.name(),
                example.sentence,
                statements(&code).join("\n")
            )),
            Err(why) => Some(format!(
                "{}: {:?} declined: {}",
                shape.name(),
                example.sentence,
                why.0
            )),
        }
    }

    /// The reason shown is the most specific one: a rescuing shape's reason about the page goes
    /// before "none of the built-in shapes", and a shape's reason about the words stands when no
    /// other shape reads the sentence.
    #[test]
    fn the_most_specific_decline_is_shown() {
        let login = Snapshot::read("- textbox \"Username\"\n- button \"Sign in\"\n", "");
        let toks = normalize(tokenize("search for beans", &[]));
        let Some(Ok(search)) = choices::read(&toks, parse) else {
            panic!("\"search for beans\" is no search");
        };
        let Err(own) = lines_for(&search, &login) else {
            panic!("the search shape does not decline on a page without a search box");
        };
        assert_eq!(write("search for beans", &[], &login), Err(own));
        let why = write("click \"${BUTTON}\"", &[], &login).unwrap_err();
        assert!(why.0.contains("a variable names the element"), "{why:?}");
        let why = write("please", &[], &login).unwrap_err();
        assert_eq!(why.0, "the sentence is empty");
        let why = write("make the app faster", &[], &login).unwrap_err();
        assert_eq!(why, no_shape());
    }

    /// The shapes that read the page (a search box, a dropdown, cards, clauses) end in an
    /// intent like the others, so the registry accounts for their qualifiers too: a word of
    /// manner is not typed into the search box as part of the value.
    #[test]
    fn the_page_reading_shapes_account_for_their_qualifiers() {
        let page = Snapshot::read(
            "- searchbox \"Search\"\n- combobox \"Category\":\n  - option \"Soup\"\n  - option \"Bread\"\n",
            "",
        );
        for (sentence, word) in [
            ("search for peas quickly", "quickly"),
            ("type \"peas\" into the search box slowly", "slowly"),
            ("set the category to Soup quickly", "quickly"),
            (
                "choose Soup in the category dropdown and click \"Go\" quickly",
                "quickly",
            ),
        ] {
            let why = write(sentence, &[], &page).unwrap_err();
            assert_eq!(why.1, Cause::UnreadWords, "{sentence:?}: {}", why.0);
            assert!(why.0.contains(word), "{sentence:?}: {}", why.0);
        }
        // The same sentences without the word are written.
        for sentence in ["search for peas", "set the category to Soup"] {
            assert!(write(sentence, &[], &page).is_ok(), "{sentence:?}");
        }
    }

    #[test]
    fn without_a_page_only_the_word_shapes_are_read() {
        assert!(matches!(
            parse("click the \"Add\" button", &[]),
            Ok(Intent::Click { .. })
        ));
        // Cards and dropdowns named without quotes need the page to tell where a name ends.
        assert_eq!(parse("search for beans", &[]), Err(no_shape()));
    }

    #[test]
    fn shape_names_are_unique() {
        let mut names: Vec<&str> = SHAPES.iter().map(|shape| shape.name()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "{names:?}");
    }

    /// The table of docs/builtin.md between its markers, as the registry gives it.
    fn shapes_table() -> String {
        let mut table = String::from("| # | shape | example |\n|---|---|---|\n");
        for (at, shape) in SHAPES.iter().enumerate() {
            let mut example = shape
                .examples()
                .first()
                .map_or(String::new(), |example| format!("`{}`", example.sentence));
            let before: Vec<String> = shape
                .before()
                .iter()
                .map(|(sentence, _)| format!("`{sentence}`"))
                .collect();
            if !before.is_empty() {
                example.push_str(&format!(" after {}", before.join(", ")));
            }
            table.push_str(&format!("| {} | {} | {example} |\n", at + 1, shape.name()));
        }
        table
    }

    /// The names in the table's second column.
    fn names_in(table: &str) -> Vec<String> {
        table
            .lines()
            .skip(2)
            .filter_map(|line| line.split('|').nth(2))
            .map(|name| name.trim().to_owned())
            .collect()
    }

    /// docs/builtin.md lists the shapes in the registry's order, as the registry names them;
    /// regenerate with `UPDATE_SHAPES_DOC=1 cargo test --lib shapes_doc`.
    #[test]
    fn shapes_doc_lists_the_registry() {
        const START: &str = "<!-- shapes: generated from src/writer/builtin/shapes.rs -->\n";
        const END: &str = "<!-- shapes: end -->";
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/builtin.md");
        let doc = std::fs::read_to_string(&path).unwrap();
        let (before, rest) = doc
            .split_once(START)
            .expect("docs/builtin.md has the start marker");
        let (table, after) = rest
            .split_once(END)
            .expect("docs/builtin.md has the end marker");
        let expected = shapes_table();
        if std::env::var_os("UPDATE_SHAPES_DOC").is_some() {
            std::fs::write(&path, format!("{before}{START}{expected}{END}{after}")).unwrap();
            return;
        }
        let listed = names_in(table);
        let registered: Vec<String> = SHAPES.iter().map(|s| s.name().to_owned()).collect();
        let missing: Vec<&String> = registered.iter().filter(|n| !listed.contains(n)).collect();
        let unknown: Vec<&String> = listed.iter().filter(|n| !registered.contains(n)).collect();
        assert!(
            missing.is_empty() && unknown.is_empty(),
            "docs/builtin.md's table of shapes lacks {missing:?} and names {unknown:?}, which \
             the registry does not have: run `UPDATE_SHAPES_DOC=1 cargo test --lib shapes_doc`"
        );
        assert_eq!(
            table, expected,
            "docs/builtin.md's table of shapes is out of date: run `UPDATE_SHAPES_DOC=1 cargo \
             test --lib shapes_doc`"
        );
    }

    #[test]
    fn the_table_check_sees_a_missing_and_an_unknown_shape() {
        let table = shapes_table();
        let names = names_in(&table);
        assert_eq!(names.len(), SHAPES.len());
        assert_eq!(names[0], SHAPES[0].name());
        let edited = table.replace("| click |", "| klick |");
        let edited = names_in(&edited);
        assert!(!edited.contains(&"click".to_owned()));
        assert!(edited.contains(&"klick".to_owned()));
    }
}
