//! What a sentence means to the built-in generator: an [`Intent`] (what to do or check) naming
//! its elements as [`Target`]s with [`Literal`] values, or a [`Decline`] saying why it is none.
//! The shapes of the registry (`shapes.rs`) read sentences into them; `codegen.rs` writes their
//! code.
//!
//! Main type: [`Intent`].

use crate::writer::builtin::http_request::Http;
use crate::writer::builtin::kinds::Kind;
use crate::writer::builtin::part::Part;
use crate::writer::builtin::tokens::Tok;

/// Why the built-in generator will not write a step: the reason, for people, and its cause, for
/// the callers that decide on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decline(pub String, pub Cause);

/// The cause of a [`Decline`], as far as a caller decides on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// Anything else: the reason says it.
    Other,
    /// The sentence was read and no element on the page is the one it names.
    NoElement,
    /// No list item or row on the page holds the text the sentence names.
    NoRow,
    /// The page has no field.
    NoField,
    /// The sentence names a list by its noun alone, and the page has several lists without an
    /// accessible name.
    UnnamedList,
    /// Words of the sentence that no part of the shape read (a count, a clause after `and`):
    /// writing the rest would do less than the sentence says.
    UnreadWords,
}

impl Decline {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        Self(reason.into(), Cause::Other)
    }

    /// The decline for `words` of a sentence that no part of its shape read.
    pub(crate) fn unread(words: &[&str]) -> Self {
        Self::of(
            Cause::UnreadWords,
            format!(
                "the built-in generator did not read \"{}\" in this sentence, so its code would \
                 do less than the sentence says; say it as a step of its own or leave it out",
                words.join(" ")
            ),
        )
    }

    /// The decline for `words` of a sentence that its reading does not explain
    /// (`accounting.rs`).
    pub(crate) fn unaccounted(words: &[&str]) -> Self {
        Self::of(
            Cause::UnreadWords,
            format!(
                "the built-in generator does not know what \"{}\" adds to this sentence, so its \
                 code could do less than the sentence says; say it as a step of its own or leave \
                 it out",
                words.join(" ")
            ),
        )
    }

    /// A decline for `cause`, which `reason` says in words.
    pub(crate) fn of(cause: Cause, reason: impl Into<String>) -> Self {
        Self(reason.into(), cause)
    }

    /// Whether the only reason is that what the sentence names is not on the page (an
    /// `[optional]` step is skipped for that reason alone: a name that fits several elements is
    /// no reason to skip).
    pub(crate) fn is_missing(&self) -> bool {
        matches!(self.1, Cause::NoElement | Cause::NoRow | Cause::NoField)
    }
}

/// A value written in the sentence: a quoted literal, a `${NAME}`, a `<column>`, or bare words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Literal(pub String);

/// An element as the sentence names it: a name (quoted or in words), a kind noun, and the text
/// of the row or item it is in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Target {
    pub name: Option<String>,
    /// Whether the name was quoted (else it is the sentence's words).
    pub quoted: bool,
    pub kind: Option<Kind>,
    /// `... in/of/for "TEXT"`: the row or list item holding the element.
    pub scope: Option<String>,
    /// The phrase's words as written, without articles, the kind noun included.
    pub phrase: String,
    /// `the first / second / last X`: which of the elements it could be (0-based; -1 is the
    /// last).
    pub nth: Option<isize>,
    /// `the first completed todo`, `2 active todos`: the items are only those whose checkbox
    /// is in this state, since a word of state in the sentence narrows what it names.
    pub narrow: Option<State>,
}

/// Where one element is drawn in relation to another, as a sentence places it. An element
/// beside another (right or left) shares some of its height, and one above or below another
/// some of its width (`place_code.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Relation {
    /// `on the right side of X`: the element's centre is right of X's.
    RightSide,
    /// `on the left side of X`.
    LeftSide,
    /// `to the right of X`: the element starts where X ends, or further right.
    RightOf,
    /// `to the left of X`.
    LeftOf,
    /// `above X`: the element ends where X starts, or higher.
    Above,
    /// `below X`.
    Below,
}

/// What a URL check says of its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UrlMatch {
    /// `the URL is V`: a path is the URL's whole path, a URL the whole URL.
    Is,
    /// `the URL ends with V`: a path ends the URL's path, before its query and fragment.
    EndsWith,
    /// `the URL contains V`: anywhere in the URL, on word boundaries.
    Contains,
}

/// How a dialog (an alert, a confirm or a prompt) is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// OK.
    Accept,
    /// Cancel.
    Dismiss,
    /// A prompt's OK with this text typed in.
    Reply(Literal),
}

/// The kind of dialog a sentence names (`the alert`, `the confirm`, `the prompt`), which the
/// dialog's `type()` is checked against; `it` and `the dialog` name any kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DialogKind {
    Any,
    Alert,
    Confirm,
    Prompt,
}

impl DialogKind {
    /// The dialog's `type()` in Playwright when the sentence names one kind.
    pub(crate) fn js_type(self) -> Option<&'static str> {
        match self {
            Self::Any => None,
            Self::Alert => Some("alert"),
            Self::Confirm => Some("confirm"),
            Self::Prompt => Some("prompt"),
        }
    }
}

/// A state an element can be checked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    Checked,
    Unchecked,
    Enabled,
    Disabled,
}

/// What a sentence asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Intent {
    /// What a sentence means in its test, as the test's memory or a plan reader read it: the
    /// sentences the shapes read again and the acts and checks on elements the reader
    /// resolved, whose code the test's writer (`in_test.rs`) writes part by part.
    Parts(Vec<Part>),
    /// `None`: the app (`/`).
    Open(Option<Literal>),
    Click {
        target: Target,
        double: bool,
    },
    Fill {
        value: Literal,
        target: Target,
        then_press: Option<String>,
        /// `type "a" in the field`: a value of one key typed key by key (the field is
        /// cleared, then the key pressed in it), so the page sees the key's events as it does
        /// when a person types it; else the value is filled at once.
        keys: bool,
    },
    Clear(Target),
    /// `right-click X`: a click with the right button, which opens a context menu.
    ContextClick(Target),
    /// `click "Add" three times`: the action, done `times` times in a row.
    Repeat {
        times: usize,
        action: Box<Intent>,
    },
    /// `click "JS Confirm" and dismiss it`, `click "Go" and the alert says "Hi"`: the action
    /// opens a dialog of the kind named, saying `message` when one is quoted, which is answered.
    Dialog {
        action: Box<Intent>,
        answer: Answer,
        kind: DialogKind,
        message: Option<Literal>,
    },
    Check {
        target: Target,
        on: bool,
    },
    Select {
        value: Literal,
        target: Target,
    },
    Press {
        key: String,
        target: Option<Target>,
    },
    Hover(Target),
    Visible {
        target: Target,
        shown: bool,
    },
    PageShows(Literal),
    /// `the page contains "T"` (`includes`): some element's text holds T as whole words.
    PageContains(Literal),
    ListShows {
        values: Vec<Literal>,
        only: bool,
    },
    HasValue {
        target: Target,
        value: Literal,
    },
    HasText {
        target: Target,
        value: Literal,
        exact: bool,
    },
    State {
        target: Target,
        state: State,
    },
    Count {
        count: usize,
        what: Target,
    },
    /// `table 1 has 4 rows`, `the second table has 3 rows`: the body rows (rows without column
    /// headers) of the table.
    TableRows {
        table: TableRef,
        count: usize,
    },
    /// `the first row of table 1 shows "Smith"`: a body row of the table (0-based; -1 is the
    /// last) has a cell whose whole text is the value.
    TableCell {
        table: TableRef,
        row: isize,
        value: Literal,
    },
    /// `the table's header has "Due"`: the table has a column header named each value.
    TableHeader {
        table: TableRef,
        values: Vec<Literal>,
    },
    /// `the "Last Name" column of table 1 is sorted ascending`: the body rows' cells under the
    /// column header named `column` are in order.
    TableSorted {
        table: TableRef,
        column: Literal,
        descending: bool,
    },
    /// `the first table has the columns Last Name, First Name and Email`: the table's column
    /// headers are exactly these, in this order.
    TableColumns {
        table: TableRef,
        values: Vec<Literal>,
    },
    /// `the email of Frank Bach is "fbach@yahoo.com"`, `Jason Doe owes $100.00`, `the first due
    /// amount in table 2 is $100.00`: the cell under a column header, in a row named by its
    /// cells or by its position, has the whole text `value`. `table` is `None` when the sentence
    /// names no table: every table of the page that shows the row is checked.
    ColumnCell {
        table: Option<TableRef>,
        row: RowRef,
        column: Column,
        value: Literal,
    },
    /// `click the "Last Name" header of table 2`.
    ClickHeader {
        table: TableRef,
        column: Literal,
    },
    /// `the loading bar appears` (`shown`), `the spinner is gone`: the page's own loading
    /// indicator.
    Loading {
        shown: bool,
    },
    /// `"Hello World!" appears after loading`: the text is shown and the page's loading
    /// indicator is gone.
    AfterLoading(Literal),
    /// `the URL is /secure`, `the URL ends with /secure`, `the URL contains "x"`.
    Url {
        value: Literal,
        how: UrlMatch,
    },
    /// `I am on the login page`: a segment of the URL's path is the page's words (`/login`,
    /// `/sign-in`).
    OnPage(Vec<String>),
    /// `go back`: the browser's back button, which must leave the page it is on.
    GoBack,
    Title {
        value: Literal,
        exact: bool,
    },
    SignIn {
        user: Literal,
        password: Literal,
    },
    Add(Vec<Literal>),
    Delete(Literal),
    /// `edit "buy milk" to "buy oat milk"`: the item's text is edited in place.
    Edit {
        from: Literal,
        to: Literal,
    },
    /// `all 3 todos are completed`, `no todo is checked`: every item of the list its noun
    /// names has its checkbox in the state (and there are `count` of them).
    AllItems {
        count: Option<usize>,
        noun: String,
        state: State,
    },
    /// `the new todo field has the placeholder "What needs to be done?"`.
    Placeholder {
        target: Target,
        value: Literal,
    },
    /// `show the active todos`: a filter link, tab or button.
    Show(Target),
    /// `the age field is invalid`: the field's validity as the browser computes it.
    Validity {
        target: Target,
        valid: bool,
    },
    /// `the fruit field suggests Banana and Cherry`: the options of the field's datalist.
    Suggests {
        target: Target,
        values: Vec<Literal>,
    },
    /// `clear the age field and type "12"`.
    Retype {
        value: Literal,
        target: Target,
    },
    /// `"No" is checked and "Yes" is unchecked`: several checks, in order.
    Both(Vec<Intent>),
    /// `the counter shows "0 items left" or the footer is hidden`: the element `hidden` is
    /// hidden, or else `otherwise` holds (`either.rs`).
    OrHidden {
        hidden: Target,
        otherwise: Box<Intent>,
    },
    /// `a delete button appears on the right side of "buy milk"`, `the logo is above the
    /// heading`: where `subject` is drawn in relation to `of` (`placement.rs`).
    Placed {
        subject: Target,
        relation: Relation,
        of: Target,
    },
    /// `the URL has no query string`.
    NoQuery,
    /// `the address has no "fruit=" in it`.
    UrlLacks(Literal),
    /// `the form asks "Q" with the options Yes and No`: the group named Q has exactly these
    /// radio buttons.
    Asks {
        question: Literal,
        options: Vec<Literal>,
    },
    /// `send POST /api/todos with {"title": "milk"}`, `GET /api/health answers 200`, `the API
    /// /api/todos lists "milk"`: a request through `page.request` (`http.rs`).
    Http(Http),
    /// `the page has no serious accessibility violations`, `the form has no accessibility
    /// violations`: axe-core on the region, with an impact floor (`accessibility.rs`).
    Accessible {
        scope: Region,
        impact: Option<&'static str>,
    },
    /// `the header looks as before, ignoring the clock`: a screenshot of the region compared
    /// with its baseline, the masks hidden (`visual.rs`).
    LooksAsBefore {
        subject: Region,
        masks: Vec<Region>,
    },
    /// `12 products are shown`, `Spam costs $2.85`: a check of the page's one collection of
    /// cards, named by their headings without quotes (`cards.rs`).
    Cards(CardCheck),
    /// `search for beans`, `set the category to Soup and apply the filter`: a dropdown's option
    /// or the search box, named without quotes (`choices.rs`).
    Choice(Choice),
    /// `double-click "a", clear it, type "b" and press Enter`: several clauses, each a shape of
    /// its own or an act on the element with the focus, done in order (`compound.rs`).
    Clauses(Vec<Clause>),
}

/// Whether an intent only reads the page, and which of the shapes that join checks take it.
/// It is one property of [`Intent`] so that a new check is placed for every such shape at once:
/// two checks joined by `and` (`forms.rs`), a wait for a check (`waits.rs`), a check sentence
/// (`check_sentences.rs`) and a side of an either-or (`either.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// It acts on the page, or it is a check the shapes that join checks do not take yet (the
    /// cards' checks and a dropdown's chosen option, whose readers are tried on their own).
    Acts,
    /// It only reads the page; an either-or does not take it as its other side, because that
    /// side is written only where its code was checked to read the page alone, and joined
    /// checks (`Both`, `OrHidden`) are no side of another.
    Check,
    /// It only reads the page and may be the other side of an either-or.
    Claim,
}

impl Reading {
    /// Whether the intent only reads the page.
    pub(crate) fn is_check(self) -> bool {
        matches!(self, Self::Check | Self::Claim)
    }
}

impl Intent {
    /// What the intent does with the page. The match lists every variant, so that a new one
    /// must say whether it reads.
    pub(crate) fn reading(&self) -> Reading {
        match self {
            Intent::Visible { .. }
            | Intent::PageShows(_)
            | Intent::PageContains(_)
            | Intent::ListShows { .. }
            | Intent::HasValue { .. }
            | Intent::HasText { .. }
            | Intent::State { .. }
            | Intent::Count { .. }
            | Intent::Url { .. }
            | Intent::Title { .. }
            | Intent::AllItems { .. }
            | Intent::Placeholder { .. } => Reading::Claim,
            Intent::Placed { .. }
            | Intent::TableRows { .. }
            | Intent::TableCell { .. }
            | Intent::TableHeader { .. }
            | Intent::TableColumns { .. }
            | Intent::ColumnCell { .. }
            | Intent::TableSorted { .. }
            | Intent::Loading { .. }
            | Intent::AfterLoading(_)
            | Intent::OnPage(_)
            | Intent::Validity { .. }
            | Intent::Suggests { .. }
            | Intent::NoQuery
            | Intent::UrlLacks(_)
            | Intent::Asks { .. }
            | Intent::Both(_)
            | Intent::OrHidden { .. }
            | Intent::Accessible { .. }
            | Intent::LooksAsBefore { .. } => Reading::Check,
            Intent::Http(http) if http.is_check() => Reading::Check,
            Intent::Http(_)
            | Intent::Open(_)
            | Intent::Click { .. }
            | Intent::Fill { .. }
            | Intent::Clear(_)
            | Intent::ContextClick(_)
            | Intent::ClickHeader { .. }
            | Intent::Repeat { .. }
            | Intent::Dialog { .. }
            | Intent::Check { .. }
            | Intent::Select { .. }
            | Intent::Press { .. }
            | Intent::Hover(_)
            | Intent::GoBack
            | Intent::SignIn { .. }
            | Intent::Add(_)
            | Intent::Delete(_)
            | Intent::Edit { .. }
            | Intent::Show(_)
            | Intent::Retype { .. }
            | Intent::Cards(_)
            | Intent::Choice(_)
            | Intent::Clauses(_) => Reading::Acts,
            // A reading in a test may act as well as check, part by part.
            Intent::Parts(_) => Reading::Acts,
        }
    }
}

/// What a sentence about the page's cards checks; the cards' names are the sentence's words,
/// split into the headings the page shows when the code is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CardCheck {
    /// `N products are shown`: exactly N cards.
    Count(usize, String),
    /// `the products are A, B and C`, `only A is shown`: exactly these cards (any order);
    /// without `only`, these among others.
    /// `noun` holds the words that name the collection (`the products are ...`, `... are
    /// among them`), which say nothing more than that they are the page's cards.
    Names {
        names: Vec<Tok>,
        only: bool,
        noun: Vec<Tok>,
    },
    /// `exactly three products appear: A, B and C`.
    CountedNames {
        count: usize,
        noun: String,
        names: Vec<Tok>,
    },
    /// `A is no longer shown`.
    Absent(Vec<Tok>),
    /// `A costs $1.49`: the card of A shows the price; `None` is the one card shown.
    Price {
        name: Option<Vec<Tok>>,
        price: String,
    },
}

/// A choice in a dropdown or the search box, named by the sentence's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Choice {
    /// `search for beans`: the search box is filled and Enter pressed in it.
    Search(String),
    /// `type "beans" into the search box [and click X]`: the search box is filled, then the
    /// action after `and`, if any.
    SearchField { value: String, then: Option<Then> },
    /// `set the category to Soup`: the option whose text is `value`, in the one dropdown whose
    /// name holds the noun's words, then the action after `and`, if any.
    Pick {
        noun: Vec<Tok>,
        value: String,
        then: Option<Then>,
    },
    /// `the category is set to Soup`: the dropdown's chosen option is the one whose text is
    /// `value`.
    Chosen { noun: Vec<Tok>, value: String },
}

/// The action after a choice (`... and apply the filter`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Then {
    /// `apply the filter`, `submit`: the one button whose name holds `words` (each maybe
    /// plural), or the verb when no word follows it. `said` is the action as written.
    Button {
        verb: String,
        words: Vec<String>,
        said: String,
    },
    /// Any other action, read as a sentence of its own.
    Act(Box<Intent>),
}

/// One clause of a sentence of several (`compound.rs`), with its text as written for a
/// decline that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Clause {
    pub said: String,
    pub act: ClauseAct,
}

/// What a clause does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ClauseAct {
    /// A shape of its own, its pronouns resolved to the clause before.
    Intent(Intent),
    /// `clear it`: the element with the focus is cleared.
    ClearFocused,
    /// `type "x"`, `change it to "x"`: the element with the focus is filled.
    FillFocused(Literal),
    /// `press Escape in it`: the key is pressed in the element with the focus.
    PressFocused(String),
}

/// Which table a sentence names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TableRef {
    /// `the table`: the page's one table.
    Only,
    /// `table 2`, `the second table` (0-based).
    Nth(usize),
    /// `the "Example 1" table`: the table whose caption (accessible name) is this, or which
    /// follows the heading of this name.
    Named(String),
}

/// Which body row of a table a sentence names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RowRef {
    /// `Frank Bach`: the row with a cell whose whole text is this, or, for a name of several
    /// words, with a cell whose whole text is each word (`Bach` and `Frank`).
    Named(String),
    /// `the first row`, `the last due amount` (0-based; -1 is the last).
    Nth(isize),
}

/// Which column a sentence about a cell names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Column {
    /// `the email of ...`, `the first due amount`: the column header whose name is these words
    /// (in any case), or these words without a last word such as `amount` or `value`.
    Noun(String),
    /// `X owes V`: the one column header that says what is owed (`Due`, `Owed`, `Balance`).
    Owed,
}

/// The column headers that say what a row owes.
const OWED: &[&str] = &[
    "due",
    "owed",
    "owes",
    "amount due",
    "amount owed",
    "balance",
    "balance due",
];

/// The last words a column's noun may add to its header's name (`the first due amount` is in
/// the column `Due`).
const COLUMN_NOUNS: &[&str] = &["amount", "value", "entry", "cell", "column", "field"];

impl Column {
    /// Whether the column header named `header` is the one the sentence names, in any case
    /// and spacing.
    pub(crate) fn matches(&self, header: &str) -> bool {
        let header = header.split_whitespace().collect::<Vec<_>>().join(" ");
        let header = header.to_lowercase();
        match self {
            Column::Owed => OWED.contains(&header.as_str()),
            Column::Noun(noun) => {
                let noun = noun.to_lowercase();
                let words: Vec<&str> = noun.split_whitespace().collect();
                if words.join(" ") == header {
                    return true;
                }
                match words.split_last() {
                    Some((last, before)) if !before.is_empty() => {
                        COLUMN_NOUNS.contains(last) && before.join(" ") == header
                    }
                    _ => false,
                }
            }
        }
    }
}

/// What a page-wide check looks at: the page, a landmark by its noun (with its CSS), or an
/// element as the sentence names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Region {
    Page,
    Landmark(&'static str),
    Element(Target),
}
