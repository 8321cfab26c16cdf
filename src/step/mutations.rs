//! Which mutations of the page contradict a check: a pure function from what the check read
//! (its [`Read`]s) and what its sentence claims to the mutations the proof tries, in a stable
//! order.
//!
//! Main types: [`Claims`] (what a sentence claims) and [`ReadOf`] (one read by what contradicts
//! it); main function: [`mutations`]. The rules are documented in `docs/engine.md` (The
//! mutation proof).

use crate::script::{Mutation, Read, ResponseEdit, TextEdit};

/// What a step's sentence claims, as far as mutations can contradict it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Claims {
    /// Texts the sentence quotes.
    pub quoted: Vec<String>,
    /// Numbers the sentence writes outside its quotes.
    pub numbers: Vec<String>,
    /// The sentence says something is absent ("no longer", "not", "hidden", ...): removing or
    /// renaming things would not contradict it.
    pub negative: bool,
    /// The sentence names a position among like elements ("the first todo"): moving the
    /// element the check reads among its siblings contradicts it.
    pub positional: bool,
    /// The sentence says these are the only ones ("only", "exactly"): something else beside
    /// them contradicts it.
    pub only: bool,
    /// The quoted texts are meant in their case: the same text in another case contradicts it.
    pub case_sensitive: bool,
    /// The quoted texts are meant whole: an element whose whole text was the quoted text and
    /// now has a word more contradicts it.
    pub whole: bool,
}

/// The near misses of a text: a longer number or word that still contains it, and one
/// character changed. Sides that do not start or end with a letter or digit get no prefix or
/// suffix (a character added there would not change a word).
pub(crate) fn near_misses(text: &str) -> Vec<TextEdit> {
    let mut edits = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let (Some(&first), Some(&last)) = (chars.first(), chars.last()) else {
        return edits;
    };
    if first.is_alphanumeric() {
        edits.push(TextEdit::Prefix(
            if first.is_numeric() { "1" } else { "x" }.to_owned(),
        ));
    }
    if last.is_alphanumeric() {
        edits.push(TextEdit::Suffix(
            if last.is_numeric() { "0" } else { "x" }.to_owned(),
        ));
    }
    let digit = chars.iter().position(|c| c.is_ascii_digit());
    let letter = chars.iter().rposition(|c| c.is_ascii_alphabetic());
    let other = chars.iter().rposition(|c| c.is_alphanumeric());
    let replace = match (digit, letter, other) {
        (Some(at), _, _) => {
            let d = chars[at].to_digit(10).unwrap_or(0);
            char::from_digit((d + 1) % 10, 10).map(|with| TextEdit::Replace { at, with })
        }
        (None, Some(at), _) => {
            let c = chars[at];
            let with = match c {
                'z' => 'y',
                'Z' => 'Y',
                _ => char::from_u32(c as u32 + 1).unwrap_or('x'),
            };
            Some(TextEdit::Replace { at, with })
        }
        (None, None, Some(at)) => Some(TextEdit::Replace {
            at,
            with: if chars[at] == 'x' { 'y' } else { 'x' },
        }),
        (None, None, None) => None,
    };
    edits.extend(replace);
    edits
}

/// The URL a URL check is proven on: another path of the same origin, with a query, so that a
/// check that the URL has no query fails on it too.
const PROOF_URL: &str = "/prettyplay-mutation-proof?prettyplay-mutation-proof";

/// The title a title check is proven on.
const PROOF_TITLE: &str = "prettyplay mutation proof";

/// One read of the test's page, by what a mutation must change to contradict it. Which variant
/// a read is depends on the read alone; the sentence is consulted once, in
/// [`ReadOf::holds_for_negative`].
#[derive(Debug, Clone, Copy, PartialEq)]
enum ReadOf<'r> {
    /// A request's response, with its status.
    Response { status: Option<u16> },
    /// A web-first assertion on elements (`expect(locator)`).
    ElementAssertion {
        selector: &'r str,
        expression: &'r str,
        positive: bool,
        number: Option<f64>,
    },
    /// A web-first assertion on the page itself (`toHaveTitle`, `toHaveURL`).
    PageAssertion {
        expression: Option<&'r str>,
        positive: bool,
    },
    /// A read of an element's checked state (`isChecked`).
    Checked { selector: &'r str },
    /// A read of an element's enabled state (`isEnabled`, `isDisabled`, `isEditable`).
    Enabled { selector: &'r str },
    /// A read of whether elements are visible (`isVisible`, `isHidden`).
    Visibility { selector: &'r str },
    /// A count of elements (`locator.count()`).
    Count { selector: &'r str },
    /// Any other read of elements (`textContent`, `inputValue`, ...).
    Element { selector: &'r str },
    /// The page's title.
    Title,
    /// The page's URL.
    Url,
    /// A read no mutation can contradict.
    Nothing,
}

impl<'r> ReadOf<'r> {
    fn of(read: &'r Read) -> ReadOf<'r> {
        let positive = !read.negated;
        let expression = read.expression.as_deref();
        match (read.method.as_str(), read.selector.as_deref()) {
            ("response", _) => ReadOf::Response {
                status: read.number.map(|n| n as u16),
            },
            ("expect" | "waitForSelector", Some(selector)) => ReadOf::ElementAssertion {
                selector,
                expression: expression.unwrap_or_default(),
                positive,
                number: read.number,
            },
            ("expect", None) => ReadOf::PageAssertion {
                expression,
                positive,
            },
            ("isChecked", Some(selector)) => ReadOf::Checked { selector },
            ("isEnabled" | "isDisabled" | "isEditable", Some(selector)) => {
                ReadOf::Enabled { selector }
            }
            ("isVisible" | "isHidden", Some(selector)) => ReadOf::Visibility { selector },
            ("queryCount", Some(selector)) => ReadOf::Count { selector },
            ("title", None) => ReadOf::Title,
            ("url", None) => ReadOf::Url,
            (_, Some(selector)) => ReadOf::Element { selector },
            (_, None) => ReadOf::Nothing,
        }
    }

    /// Whether the read gets its mutations for a sentence that says something is absent ("no
    /// longer listed", "not shown"). Assertions, responses and states are contradicted by their
    /// own mutations whatever the sentence says; a plain read of an element, a count, the title
    /// or the URL is not: hiding or removing what a negative sentence says is gone proves
    /// nothing.
    fn holds_for_negative(self) -> bool {
        match self {
            ReadOf::Response { .. }
            | ReadOf::ElementAssertion { .. }
            | ReadOf::PageAssertion { .. }
            | ReadOf::Checked { .. }
            | ReadOf::Enabled { .. }
            | ReadOf::Nothing => true,
            ReadOf::Visibility { .. }
            | ReadOf::Count { .. }
            | ReadOf::Element { .. }
            | ReadOf::Title
            | ReadOf::Url => false,
        }
    }

    /// The mutations that contradict this read for a sentence with `claims`, and the selector
    /// whose elements the check reads text from (where the sentence's numbers are changed).
    fn contradictions(self, claims: &Claims) -> (Vec<Mutation>, Option<&'r str>) {
        let owned = |selector: &str| selector.to_owned();
        match self {
            ReadOf::Response { status } => {
                let written = status.filter(|s| claims.numbers.contains(&s.to_string()));
                let mutations = match written {
                    Some(from) if !claims.negative => {
                        vec![Mutation::Response(ResponseEdit::Status {
                            from,
                            to: ResponseEdit::other_status(from),
                        })]
                    }
                    _ => Vec::new(),
                };
                (mutations, None)
            }
            ReadOf::ElementAssertion {
                selector,
                expression,
                positive,
                number,
            } => {
                let mutations = assertion_mutations(selector, expression, positive, number);
                let scope = (positive && !mutations.is_empty()).then_some(selector);
                (mutations, scope)
            }
            ReadOf::PageAssertion {
                expression,
                positive,
            } => {
                let mutations = match (expression, positive) {
                    (Some("to.have.title"), true) => vec![Mutation::Title(PROOF_TITLE.to_owned())],
                    (Some("to.have.url"), true) => vec![Mutation::Url(PROOF_URL.to_owned())],
                    // `the URL does not contain "fruit="`: the URL becomes one that holds each
                    // quoted text, which contradicts the sentence.
                    (Some("to.have.url"), false) => claims
                        .quoted
                        .iter()
                        .map(|quoted| Mutation::Url(format!("{PROOF_URL}&{quoted}")))
                        .collect(),
                    _ => Vec::new(),
                };
                (mutations, None)
            }
            ReadOf::Checked { selector } => (vec![Mutation::FlipChecked(owned(selector))], None),
            ReadOf::Enabled { selector } => (vec![Mutation::FlipDisabled(owned(selector))], None),
            ReadOf::Visibility { selector } => (vec![Mutation::Hide(owned(selector))], None),
            ReadOf::Count { selector } if claims.numbers.is_empty() => {
                (vec![Mutation::Remove(owned(selector))], None)
            }
            ReadOf::Count { selector } => (
                vec![
                    Mutation::AddOne(owned(selector)),
                    Mutation::RemoveOne(owned(selector)),
                ],
                None,
            ),
            ReadOf::Element { selector } => {
                (vec![Mutation::Remove(owned(selector))], Some(selector))
            }
            ReadOf::Title => (vec![Mutation::Title(PROOF_TITLE.to_owned())], None),
            ReadOf::Url => (vec![Mutation::Url(PROOF_URL.to_owned())], None),
            ReadOf::Nothing => (Vec::new(), None),
        }
    }
}

/// The mutations that contradict a web-first assertion on `selector`'s elements: a state
/// matcher gets its state flipped, a visibility matcher its elements hidden, a count of some
/// elements one more and one fewer, any other positive matcher its elements removed.
fn assertion_mutations(
    selector: &str,
    expression: &str,
    positive: bool,
    number: Option<f64>,
) -> Vec<Mutation> {
    let selector = selector.to_owned();
    match (expression, positive) {
        ("to.be.checked", _) => vec![Mutation::FlipChecked(selector)],
        ("to.be.enabled" | "to.be.disabled" | "to.be.editable", _) => {
            vec![Mutation::FlipDisabled(selector)]
        }
        ("to.be.visible" | "to.be.in.viewport", true) | ("to.be.hidden", false) => {
            vec![Mutation::Hide(selector)]
        }
        ("to.be.visible" | "to.be.in.viewport", false) | ("to.be.hidden", true) => Vec::new(),
        ("to.have.count", true) if number.is_some_and(|n| n > 0.0) => vec![
            Mutation::AddOne(selector.clone()),
            Mutation::RemoveOne(selector),
        ],
        ("to.have.count", _) => Vec::new(),
        (_, true) => vec![Mutation::Remove(selector)],
        (_, false) => Vec::new(),
    }
}

/// The near misses of a quoted text as the sentence means it: longer, one character changed,
/// and in the other case (when the case is meant).
fn quoted_misses(quoted: &str, claims: &Claims) -> Vec<TextEdit> {
    let mut edits = near_misses(quoted);
    if claims.case_sensitive && TextEdit::switched_case(quoted).is_some() {
        edits.push(TextEdit::Case);
    }
    edits
}

/// `text` with its runs of whitespace made one space, trimmed, as an element's text reads.
fn norm_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The word [`TextEdit::Words`] adds.
const WORD_ADDED: &str = "x";

/// The selectors of the elements a positive check reads (an assertion on elements, or a plain
/// read of one), each once: where a position or an "only" set is contradicted.
fn subjects<'r>(reads: &[ReadOf<'r>]) -> Vec<&'r str> {
    let mut out: Vec<&str> = Vec::new();
    for read in reads {
        let selector = match *read {
            ReadOf::ElementAssertion {
                selector,
                positive: true,
                ..
            }
            | ReadOf::Element { selector }
            | ReadOf::Count { selector } => selector,
            _ => continue,
        };
        if !out.contains(&selector) {
            out.push(selector);
        }
    }
    out
}

/// The selectors of the sets of elements a check reads as a whole: a count, or a list of texts
/// (`toHaveCount`, `toHaveText([...])`, `toContainText([...])`, `count()`).
fn sets<'r>(reads: &[ReadOf<'r>]) -> Vec<&'r str> {
    let mut out: Vec<&str> = Vec::new();
    for read in reads {
        let selector = match *read {
            ReadOf::ElementAssertion {
                selector,
                expression: "to.have.count" | "to.have.text.array" | "to.contain.text.array",
                positive: true,
                ..
            }
            | ReadOf::Count { selector } => selector,
            _ => continue,
        };
        if !out.contains(&selector) {
            out.push(selector);
        }
    }
    out
}

/// The mutations that contradict a check which made `reads` for a sentence with `claims`,
/// each once, in a stable order: element mutations first (by what each read checks), then a
/// move of the element read for a sentence that names a position and something else beside
/// it for an "only" set, then near misses of the quoted texts across the page, then near
/// misses of the sentence's numbers inside the elements the check reads.
pub(crate) fn mutations(reads: &[Read], claims: &Claims) -> Vec<Mutation> {
    let mut out: Vec<Mutation> = Vec::new();
    let mut push = |m: Mutation| {
        if !out.contains(&m) {
            out.push(m);
        }
    };
    let mut scopes: Vec<String> = Vec::new();
    let own: Vec<ReadOf<'_>> = reads
        .iter()
        .filter(|read| read.page == 0)
        .map(ReadOf::of)
        .collect();
    for read in own.iter().copied() {
        if claims.negative && !read.holds_for_negative() {
            continue;
        }
        let (mutations, scope) = read.contradictions(claims);
        mutations.into_iter().for_each(&mut push);
        if let Some(scope) = scope
            && !scopes.iter().any(|s| s == scope)
        {
            scopes.push(scope.to_owned());
        }
    }
    if !claims.negative {
        if claims.positional {
            for selector in subjects(&own) {
                push(Mutation::Reorder(selector.to_owned()));
            }
        }
        // Something else goes beside the set the check reads as a whole (a count, a list of
        // texts), or beside every element it reads when it reads no set.
        if claims.only {
            let sets = sets(&own);
            let beside = if sets.is_empty() {
                subjects(&own)
            } else {
                sets
            };
            for selector in beside {
                push(Mutation::AddSibling(selector.to_owned()));
            }
        }
    }
    let responses = own.iter().any(|r| matches!(r, ReadOf::Response { .. }));
    if !claims.negative && responses {
        for quoted in &claims.quoted {
            for edit in near_misses(quoted) {
                push(Mutation::Response(ResponseEdit::Text {
                    needle: quoted.clone(),
                    edit,
                }));
            }
        }
    }
    // The page's texts are mutated only for code that reads the page: code that reads only the
    // app's API would pass under them whatever it checks, and be refused as proving nothing.
    let reads_page = own.iter().any(|r| !matches!(r, ReadOf::Response { .. }));
    if !claims.negative && reads_page {
        for quoted in &claims.quoted {
            for edit in quoted_misses(quoted, claims) {
                push(Mutation::Text {
                    needle: quoted.clone(),
                    edit,
                    scope: None,
                    whole: false,
                });
            }
        }
        // A quoted text meant whole gets a word more in each element the check reads whose
        // whole text (or value) it is.
        if claims.whole {
            let meant: Vec<&String> = claims
                .quoted
                .iter()
                .filter(|q| q.chars().any(char::is_alphanumeric))
                .collect();
            for selector in subjects(&own) {
                for quoted in &meant {
                    push(Mutation::Text {
                        needle: norm_spaces(quoted),
                        edit: TextEdit::Words(WORD_ADDED.to_owned()),
                        scope: Some(selector.to_owned()),
                        whole: true,
                    });
                }
            }
        }
        for number in &claims.numbers {
            for scope in &scopes {
                for edit in near_misses(number) {
                    push(Mutation::Text {
                        needle: number.clone(),
                        edit,
                        scope: Some(scope.clone()),
                        whole: true,
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A read of the page as the binding records it, for the proof's tests too.
    pub(in crate::step) fn read(
        method: &str,
        selector: Option<&str>,
        expression: Option<&str>,
    ) -> Read {
        Read {
            method: method.to_owned(),
            selector: selector.map(str::to_owned),
            expression: expression.map(str::to_owned),
            negated: false,
            number: None,
            loose: false,
            page: 0,
            texts: Vec::new(),
        }
    }

    pub(in crate::step) fn expect(selector: &str, expression: &str) -> Read {
        read("expect", Some(selector), Some(expression))
    }

    fn claims(quoted: &[&str], numbers: &[&str]) -> Claims {
        Claims {
            quoted: quoted.iter().map(|s| s.to_string()).collect(),
            numbers: numbers.iter().map(|s| s.to_string()).collect(),
            ..Claims::default()
        }
    }

    fn kinds(mutations: &[Mutation]) -> Vec<&'static str> {
        mutations.iter().map(|m| m.kind().as_str()).collect()
    }

    #[test]
    fn near_misses_make_longer_numbers_and_words_and_change_one_character() {
        assert_eq!(
            near_misses("3 items left"),
            [
                TextEdit::Prefix("1".into()),
                TextEdit::Suffix("x".into()),
                TextEdit::Replace { at: 0, with: '4' }
            ]
        );
        assert_eq!(
            near_misses("Buy milk"),
            [
                TextEdit::Prefix("x".into()),
                TextEdit::Suffix("x".into()),
                TextEdit::Replace { at: 7, with: 'l' }
            ]
        );
        assert_eq!(
            near_misses("$9"),
            [
                TextEdit::Suffix("0".into()),
                TextEdit::Replace { at: 1, with: '0' }
            ]
        );
        assert_eq!(near_misses("..."), []);
        assert_eq!(near_misses(""), []);
        assert_eq!(
            near_misses("日本"),
            [
                TextEdit::Prefix("x".into()),
                TextEdit::Suffix("x".into()),
                TextEdit::Replace { at: 1, with: 'x' }
            ]
        );
    }

    #[test]
    fn a_wait_for_elements_is_contradicted_as_the_assertion_of_its_state() {
        let wait = |expression: &str, negated: bool| Read {
            negated,
            ..read("waitForSelector", Some("#count"), Some(expression))
        };
        let quoted = claims(&["2 items left"], &[]);
        let visible = kinds(&mutations(&[wait("to.be.visible", false)], &quoted));
        assert_eq!(visible[0], "hidden", "{visible:?}");
        assert!(visible.contains(&"text-prefixed"), "{visible:?}");
        let attached = kinds(&mutations(&[wait("to.be.attached", false)], &quoted));
        assert_eq!(attached[0], "removed", "{attached:?}");
        // A wait for elements to go away is contradicted by nothing a mutation can add.
        let hidden = kinds(&mutations(
            &[wait("to.be.visible", true)],
            &Claims {
                negative: true,
                ..quoted.clone()
            },
        ));
        assert!(hidden.is_empty(), "{hidden:?}");
        // The numbers of the sentence are changed inside the elements it waits for.
        let numbered = mutations(&[wait("to.be.visible", false)], &claims(&[], &["2"]));
        assert!(
            numbered.iter().any(|m| matches!(
                m,
                Mutation::Text { scope: Some(scope), .. } if scope == "#count"
            )),
            "{numbered:?}"
        );
    }

    #[test]
    fn code_that_reads_only_responses_gets_no_page_text_mutations() {
        let response = Read {
            number: Some(200.0),
            ..read("response", None, None)
        };
        let on_api = kinds(&mutations(
            std::slice::from_ref(&response),
            &claims(&["milk"], &[]),
        ));
        assert_eq!(
            on_api,
            ["response-prefixed", "response-suffixed", "response-changed"]
        );
        let both = kinds(&mutations(
            &[response, expect("getByRole('list')", "to.have.text")],
            &claims(&["milk"], &[]),
        ));
        assert!(both.contains(&"response-prefixed"), "{both:?}");
        assert!(both.contains(&"text-prefixed"), "{both:?}");
    }

    #[test]
    fn each_matcher_gets_the_mutation_that_contradicts_it() {
        let rows: &[(&str, bool, Option<f64>, &[&str])] = &[
            ("to.be.visible", false, None, &["hidden"]),
            ("to.be.visible", true, None, &[]),
            ("to.be.hidden", false, None, &[]),
            ("to.be.hidden", true, None, &["hidden"]),
            ("to.have.text", false, None, &["removed"]),
            ("to.contain.text", false, None, &["removed"]),
            ("to.have.text", true, None, &[]),
            ("to.have.value", false, None, &["removed"]),
            ("to.have.class", false, None, &["removed"]),
            (
                "to.have.count",
                false,
                Some(3.0),
                &["one-more", "one-fewer"],
            ),
            ("to.have.count", false, Some(0.0), &[]),
            ("to.have.count", true, Some(3.0), &[]),
            ("to.be.checked", false, None, &["checked-flipped"]),
            ("to.be.checked", true, None, &["checked-flipped"]),
            ("to.be.enabled", false, None, &["enabled-flipped"]),
            ("to.be.disabled", true, None, &["enabled-flipped"]),
            ("to.be.editable", false, None, &["enabled-flipped"]),
        ];
        for (expression, negated, number, expected) in rows {
            let mut r = expect("#x", expression);
            r.negated = *negated;
            r.number = *number;
            assert_eq!(
                kinds(&mutations(&[r], &Claims::default())),
                *expected,
                "{expression} negated={negated}"
            );
        }
    }

    #[test]
    fn page_assertions_change_the_title_or_the_url() {
        let title = read("expect", None, Some("to.have.title"));
        let url = read("expect", None, Some("to.have.url"));
        assert_eq!(
            kinds(&mutations(&[title, url], &Claims::default())),
            ["title-changed", "url-changed"]
        );
    }

    #[test]
    fn plain_reads_lose_their_element_unless_the_sentence_is_negative() {
        let reads = [
            read("textContent", Some("#a"), None),
            read("isVisible", Some("#b"), None),
            read("isChecked", Some("#c"), None),
            read("queryCount", Some("li"), None),
            read("title", None, None),
        ];
        assert_eq!(
            kinds(&mutations(&reads, &Claims::default())),
            [
                "removed",
                "hidden",
                "checked-flipped",
                "removed",
                "title-changed"
            ]
        );
        let negative = Claims {
            negative: true,
            ..Claims::default()
        };
        assert_eq!(kinds(&mutations(&reads, &negative)), ["checked-flipped"]);
    }

    #[test]
    fn a_count_read_for_a_sentence_with_a_number_gets_one_more_and_one_fewer() {
        let reads = [read("queryCount", Some("li"), None)];
        assert_eq!(
            kinds(&mutations(&reads, &claims(&[], &["3"]))),
            ["one-more", "one-fewer"]
        );
    }

    #[test]
    fn quoted_texts_get_near_misses_across_the_page_and_numbers_inside_what_is_read() {
        let reads = [expect("#count", "to.have.text")];
        let all = mutations(&reads, &claims(&["3 items left"], &["2"]));
        assert_eq!(
            kinds(&all),
            [
                "removed",
                "text-prefixed",
                "text-suffixed",
                "text-changed",
                "number-prefixed",
                "number-suffixed",
                "number-changed"
            ]
        );
        assert_eq!(
            all[4],
            Mutation::Text {
                needle: "2".into(),
                edit: TextEdit::Prefix("1".into()),
                scope: Some("#count".into()),
                whole: true,
            }
        );
        let negative = Claims {
            negative: true,
            ..claims(&["buy milk"], &["2"])
        };
        assert_eq!(kinds(&mutations(&reads, &negative)), ["removed"]);
    }

    #[test]
    fn reads_of_other_pages_are_not_mutated() {
        let mut r = expect("#x", "to.be.visible");
        r.page = 1;
        assert!(mutations(&[r], &Claims::default()).is_empty());
    }

    #[test]
    fn states_and_assertions_are_contradicted_for_a_negative_sentence_plain_reads_are_not() {
        // One read of each kind, in the order the precedence is written in
        // `holds_for_negative`: the first five get their mutations for any sentence.
        let mut url = read("expect", None, Some("to.have.url"));
        url.negated = true;
        let response = Read {
            number: Some(200.0),
            ..read("response", None, None)
        };
        let reads = [
            expect("#gone", "to.have.text"),
            url,
            read("isChecked", Some("#c"), None),
            read("isEnabled", Some("#e"), None),
            response,
            read("isVisible", Some("#v"), None),
            read("queryCount", Some("li"), None),
            read("textContent", Some("#t"), None),
            read("title", None, None),
            read("url", None, None),
        ];
        let negative = Claims {
            negative: true,
            ..claims(&["fruit="], &["200"])
        };
        assert_eq!(
            kinds(&mutations(&reads, &negative)),
            [
                "removed",
                "url-changed",
                "checked-flipped",
                "enabled-flipped"
            ]
        );
        let positive = Claims {
            negative: false,
            ..negative
        };
        assert_eq!(
            kinds(&mutations(&reads, &positive)),
            [
                "removed",
                "url-changed",
                "checked-flipped",
                "enabled-flipped",
                "status-changed",
                "hidden",
                "one-more",
                "one-fewer",
                "removed",
                "title-changed",
                "url-changed",
                "response-prefixed",
                "response-changed",
                "text-prefixed",
                "text-changed",
                // The sentence's number, inside each element whose text the check reads.
                "number-prefixed",
                "number-suffixed",
                "number-changed",
                "number-prefixed",
                "number-suffixed",
                "number-changed"
            ]
        );
    }

    #[test]
    fn a_quoted_text_meant_in_its_case_and_whole_gets_its_case_switched_and_a_word_added() {
        let reads = [expect("#msg", "to.have.text")];
        let meant = Claims {
            case_sensitive: true,
            whole: true,
            ..claims(&["Signed  out"], &[])
        };
        let all = mutations(&reads, &meant);
        assert_eq!(
            kinds(&all),
            [
                "removed",
                "text-prefixed",
                "text-suffixed",
                "text-changed",
                "case-changed",
                "word-added"
            ]
        );
        assert_eq!(
            all[5],
            Mutation::Text {
                needle: "Signed out".into(),
                edit: TextEdit::Words("x".into()),
                scope: Some("#msg".into()),
                whole: true,
            },
            "a word is added inside the element read, to its whole text"
        );
        let signed = Claims {
            quoted: vec!["Signed out".into()],
            ..meant
        };
        assert_eq!(kinds(&mutations(&reads, &signed))[4], "case-changed");
        assert_eq!(
            Mutation::near_miss("Signed out", &TextEdit::Case),
            "SIGNED OUT"
        );
        assert_eq!(
            Mutation::near_miss("SIGNED OUT", &TextEdit::Case),
            "signed out"
        );
        assert_eq!(
            Mutation::near_miss("buy milk", &TextEdit::Words("x".into())),
            "buy milk x"
        );
        // Digits have no case; a text that changes length in capitals is left alone.
        let digits = Claims {
            case_sensitive: true,
            ..claims(&["42"], &[])
        };
        assert!(!kinds(&mutations(&reads, &digits)).contains(&"case-changed"));
        assert_eq!(TextEdit::switched_case("straße"), None);
        // "contains", "ignoring case": the sentence says otherwise.
        let loose = claims(&["Signed out"], &[]);
        let kinds_loose = kinds(&mutations(&reads, &loose));
        assert!(!kinds_loose.contains(&"case-changed"));
        assert!(!kinds_loose.contains(&"word-added"));
    }

    #[test]
    fn a_position_moves_the_element_read_and_an_only_set_gets_something_else_beside_it() {
        let reads = [
            expect("internal:role=listitem >> nth=0", "to.have.text"),
            read("isVisible", Some("#v"), None),
        ];
        let positional = Claims {
            positional: true,
            ..claims(&[], &[])
        };
        assert_eq!(
            mutations(&reads, &positional),
            [
                Mutation::Remove("internal:role=listitem >> nth=0".into()),
                Mutation::Hide("#v".into()),
                Mutation::Reorder("internal:role=listitem >> nth=0".into()),
            ]
        );
        let only = Claims {
            only: true,
            ..claims(&[], &[])
        };
        assert_eq!(
            kinds(&mutations(&reads, &only)),
            ["removed", "hidden", "other-added"]
        );
        // Beside the set the check counts, not beside each item it finds in it.
        let mut count = expect("internal:role=listitem", "to.have.count");
        count.number = Some(2.0);
        let set = [
            count,
            expect(
                "internal:role=listitem >> internal:text=\"a\"s",
                "to.be.visible",
            ),
        ];
        assert_eq!(
            mutations(&set, &only)
                .into_iter()
                .filter(|m| matches!(m, Mutation::AddSibling(_)))
                .collect::<Vec<_>>(),
            [Mutation::AddSibling("internal:role=listitem".into())]
        );
        let negative = Claims {
            negative: true,
            ..positional
        };
        assert!(!kinds(&mutations(&reads, &negative)).contains(&"reordered"));
    }
}
