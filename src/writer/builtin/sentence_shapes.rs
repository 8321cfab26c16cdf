//! The shapes of the registry (`shapes.rs`) that are read by a rule of their own rather than
//! by one reader function of another file: a shape of the sentence's words ([`Words`]), an
//! action that starts with one of its verbs ([`Verb`]), and the shapes that read the
//! sentence's text, its page or its parts as sentences.
//!
//! Main types: [`Words`] and [`Verb`].

use crate::writer::builtin::forms::is_check;
use crate::writer::builtin::intent::{Decline, Intent};
use crate::writer::builtin::shape::{Example, Sentence, Shape};
use crate::writer::builtin::shape_examples as ex;
use crate::writer::builtin::tokens::{Tok, verb};
use crate::writer::builtin::{cards, choices, compound, either, forms, grammar, http};

/// A shape read from the sentence's words alone.
pub(crate) struct Words {
    pub(crate) name: &'static str,
    pub(crate) examples: &'static [Example],
    pub(crate) read: fn(&[Tok]) -> Option<Result<Intent, Decline>>,
}

impl Shape for Words {
    fn name(&self) -> &'static str {
        self.name
    }
    fn examples(&self) -> &'static [Example] {
        self.examples
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        (self.read)(s.toks)
    }
}

/// An action shape: one of its verbs starts the sentence, and its reader reads the words
/// after it.
pub(crate) struct Verb {
    pub(crate) name: &'static str,
    pub(crate) examples: &'static [Example],
    pub(crate) verbs: &'static [&'static [&'static str]],
    pub(crate) read: fn(&[Tok], &[Tok]) -> grammar::Read,
}

impl Shape for Verb {
    fn name(&self) -> &'static str {
        self.name
    }
    fn examples(&self) -> &'static [Example] {
        self.examples
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        let rest = verb(s.toks, self.verbs)?;
        (self.read)(s.toks, rest)
    }
    fn accountable<'t>(&self, toks: &'t [Tok]) -> &'t [Tok] {
        verb(toks, self.verbs).unwrap_or(toks)
    }
}

/// `click Submit without filling anything in`: a click, and what the user leaves undone,
/// which the step does not do.
pub(crate) struct ClickWithout;

impl Shape for ClickWithout {
    fn name(&self) -> &'static str {
        "click without"
    }
    fn examples(&self) -> &'static [Example] {
        ex::CLICK_WITHOUT
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        forms::click_without(s.toks)
    }
    fn accountable<'t>(&self, toks: &'t [Tok]) -> &'t [Tok] {
        toks.iter()
            .position(|t| t.is("without"))
            .map_or(toks, |at| &toks[..at])
    }
}

/// `GET /api/health answers 200`, `send POST /api/todos with {...}`: read from the sentence's
/// text, since a JSON body has quotes, commas and colons of its own.
pub(crate) struct Request;

impl Shape for Request {
    fn name(&self) -> &'static str {
        "request"
    }
    fn examples(&self) -> &'static [Example] {
        ex::REQUEST
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        http::parse(s.text?, s.columns)
    }
}

/// `the todo is saved: the API /api/todos lists "milk"`: the words before the colon would read
/// as an element, so a request's check after it goes first.
pub(crate) struct RequestCheckAfterColon;

impl Shape for RequestCheckAfterColon {
    fn name(&self) -> &'static str {
        "request check after a colon"
    }
    fn examples(&self) -> &'static [Example] {
        ex::REQUEST_AFTER_COLON
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        let (_, check) = s.text?.split_once(": ")?;
        match http::parse(check, s.columns)? {
            Ok(Intent::Http(request)) if request.is_check() => Some(Ok(Intent::Http(request))),
            _ => None,
        }
    }
}

/// A count of the page's cards goes before the other shapes, which would count another list
/// (the footer's links for `there are 6 products`).
pub(crate) struct CardCount;

impl Shape for CardCount {
    fn name(&self) -> &'static str {
        "count of cards"
    }
    fn examples(&self) -> &'static [Example] {
        ex::CARD_COUNT
    }
    fn needs_page(&self) -> bool {
        true
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        if !cards::counts_cards(s.toks, s.page?) {
            return None;
        }
        cards::read(s.toks).map(|check| Ok(Intent::Cards(check)))
    }
}

/// `"No" is checked and "Yes" is unchecked`: two checks, each read as the word shapes read it.
pub(crate) struct TwoChecks;

impl Shape for TwoChecks {
    fn name(&self) -> &'static str {
        "two checks"
    }
    fn examples(&self) -> &'static [Example] {
        ex::TWO_CHECKS
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        forms::two_checks(s.toks, s.words).map(Ok)
    }
}

/// `the counter shows "0 items left" or the footer is hidden`: a claim, or an element hidden.
/// It goes before the other shapes, which would read one side and leave `or` and the other
/// side unread.
pub(crate) struct EitherOrHidden;

impl Shape for EitherOrHidden {
    fn name(&self) -> &'static str {
        "either or hidden"
    }
    fn examples(&self) -> &'static [Example] {
        ex::EITHER_OR_HIDDEN
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        either::read(s.toks, s.words)
    }
}

/// `the form is not sent: the address has no "x" in it`: a summary, then the check that says
/// what it means, which is the step's check. Tried when the whole sentence is no other shape.
pub(crate) struct Summary;

impl Shape for Summary {
    fn name(&self) -> &'static str {
        "summary: check"
    }
    fn examples(&self) -> &'static [Example] {
        ex::SUMMARY
    }
    fn rescues(&self) -> bool {
        true
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        let (_, check) = s.text?.split_once(": ")?;
        let intent = (s.parse)(check, s.columns).ok()?;
        is_check(&intent).then_some(Ok(intent))
    }
    /// The check after the colon was read as a sentence by the registry, which accounted for
    /// its words; the summary before it says what the check means.
    fn accountable<'t>(&self, _toks: &'t [Tok]) -> &'t [Tok] {
        &[]
    }
}

/// The page's cards named by their headings without quotes (`only Spam and Soup are shown`).
pub(crate) struct Cards;

impl Shape for Cards {
    fn name(&self) -> &'static str {
        "cards"
    }
    fn examples(&self) -> &'static [Example] {
        ex::CARDS
    }
    fn needs_page(&self) -> bool {
        true
    }
    fn rescues(&self) -> bool {
        true
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        cards::read(s.toks).map(|check| Ok(Intent::Cards(check)))
    }
}

/// A dropdown's option or the search box, named without quotes (`choose Soup in the category
/// dropdown`, `search for beans`).
pub(crate) struct Choices;

impl Shape for Choices {
    fn name(&self) -> &'static str {
        "dropdown or search"
    }
    fn examples(&self) -> &'static [Example] {
        ex::CHOICES
    }
    fn needs_page(&self) -> bool {
        true
    }
    fn rescues(&self) -> bool {
        true
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        choices::read(s.toks, s.parse)
    }
}

/// Several shapes in one sentence, cut at `,` `;` `and` `then` outside quotes.
pub(crate) struct Clauses;

impl Shape for Clauses {
    fn name(&self) -> &'static str {
        "clauses"
    }
    fn examples(&self) -> &'static [Example] {
        ex::CLAUSES
    }
    fn needs_page(&self) -> bool {
        true
    }
    fn rescues(&self) -> bool {
        true
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        compound::read(s.text?, s.columns, s.parse)
    }
}
