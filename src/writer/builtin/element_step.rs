//! An act or a check on an element that a plan reader already resolved from the test's memory
//! or the page (the item the test added, that item's checkbox, the editor of the item being
//! edited, the field the last step used): a typed [`Subject`] and a typed [`Op`], which
//! `element_code.rs` alone writes as JavaScript. The readers say what to do; they never write
//! the code that does it.
//!
//! Main type: [`ElementStep`].

/// One statement's worth of meaning: what is acted on or checked, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ElementStep {
    pub subject: Subject,
    pub op: Op,
}

impl ElementStep {
    pub(crate) fn new(subject: Subject, op: Op) -> Self {
        Self { subject, op }
    }

    /// The check that `subject` is so (`not` false) or is not so (`not` true).
    pub(crate) fn claim(subject: Subject, check: Check, not: bool) -> Self {
        Self::new(subject, Op::Expect { check, not })
    }
}

/// What a step acts on or checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Subject {
    /// The page itself (its URL, a reload).
    Page,
    /// Every list item of the page.
    Items,
    /// The list item whose text is exactly this.
    Item(String),
    /// The text inside a list item that is exactly this.
    ItemText(String),
    /// The one visible textbox inside a list item: the editor of the item being edited,
    /// because an app that edits items in place shows that field only while it edits.
    Editor,
    /// The checkbox inside another subject (an item's toggle).
    Checkbox(Box<Subject>),
    /// The list item at a position of another subject (a list).
    NthItem { list: Box<Subject>, at: Position },
    /// The element of `role` whose whole accessible name is `name`, on the page or inside its
    /// footer element.
    Role {
        role: String,
        name: String,
        in_footer: bool,
    },
    /// The checkbox whose label's own text is exactly this (a label styled with generated
    /// content has a longer accessible name).
    CheckboxLabelled(String),
    /// A locator the page's structure or an earlier step's code gave, written as it came.
    Located(String),
}

impl Subject {
    /// The list item whose text is exactly `text`.
    pub(crate) fn item(text: &str) -> Self {
        Self::Item(text.to_owned())
    }

    /// The checkbox of the list item whose text is exactly `text`.
    pub(crate) fn item_checkbox(text: &str) -> Self {
        Self::Checkbox(Box::new(Self::item(text)))
    }
}

/// A position in a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Position {
    /// 0-based.
    At(usize),
    Last,
}

/// What is done to a subject, or checked of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Op {
    Click,
    Check,
    Uncheck,
    /// Fill with this text, replacing what the field held.
    Fill(String),
    Clear,
    /// Press this key (a Playwright key name: `Enter`, `Escape`).
    Press(&'static str),
    /// Take the focus away, as a click elsewhere does.
    Blur,
    /// Load the page again.
    Reload,
    /// A web-first check, negated when `not`.
    Expect {
        check: Check,
        not: bool,
    },
    /// The field is one the browser validates and it is valid (true), or it is invalid (false).
    Valid(bool),
}

/// What a check looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Check {
    Visible,
    Focused,
    Checked,
    /// How many elements the subject finds.
    Count(usize),
    /// A field's value, compared whole.
    Value(String),
    /// The element's text is exactly this, spaces included (a text matcher would collapse
    /// them).
    ExactText(String),
    /// The page's URL ends with this fragment (`#/active`).
    UrlEndsWith(String),
    /// The element's class list holds this class (letters, digits and `-` only).
    Class(String),
    /// The element's attribute has this value.
    Attribute {
        name: String,
        value: String,
    },
}
