//! The mutation proof: a check that passed on the live page is run again on the same page
//! changed so that its sentence no longer holds, and it must fail; then the page is restored
//! and the check must pass once more.
//!
//! Main types: [`Claims`] (what the sentence claims), [`Proof`] (the outcome) and
//! [`mutations`], the pure function from what the code read to the mutations that contradict
//! it. The live run is [`prove`]. The rules are documented in `docs/engine.md` (The mutation
//! proof).

use std::fmt;

use crate::script::{Mutation, REFUSED_MARKER, Read, ResponseEdit, StepFailure, TextEdit};

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
}

/// Why a check could not be proven either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unproven {
    /// The code acts on the page (the named call); running it again would change the app.
    Acts(String),
    /// No mutation derived from what the code reads and the sentence claims applies to the page.
    NoMutation,
    /// The code reads only other pages than the test's own.
    OtherPage,
    /// The code, which passed once, failed when it ran again on the same page (before any
    /// mutation): what it reads does not hold still.
    NotRepeatable(String),
}

impl fmt::Display for Unproven {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // A request is named by its HTTP method, in capitals.
            Unproven::Acts(method) if method.bytes().all(|b| b.is_ascii_uppercase()) => {
                write!(f, "the step sends a {method} request")
            }
            Unproven::Acts(call) => write!(f, "the step acts on the page ({call})"),
            Unproven::NoMutation => f.write_str("no mutation contradicts what it checks"),
            Unproven::OtherPage => f.write_str("it reads only another page"),
            Unproven::NotRepeatable(why) => {
                write!(f, "it did not pass a second time on the same page ({why})")
            }
        }
    }
}

/// The outcome of a proof.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Proof {
    /// The check failed under every mutation tried (at least one), in order.
    Proven(Vec<Mutation>),
    /// The check still passed under `mutation` (`None`: it reads nothing from the page).
    Vacuous {
        mutation: Option<Mutation>,
        why: String,
    },
    /// Nothing could be tried.
    Unproven(Unproven),
    /// The proof could not finish: the page could not be mutated or restored, or the code no
    /// longer passed on the restored page.
    Broken(StepFailure),
}

impl Proof {
    /// The proof as a cache entry records it: `proven: hidden, text-prefixed` or `none: ...`.
    /// `None` for an outcome that is never cached.
    pub(crate) fn record(&self) -> Option<String> {
        match self {
            Proof::Proven(mutations) => {
                let mut kinds: Vec<&str> = mutations.iter().map(Mutation::kind).collect();
                kinds.dedup();
                Some(format!("proven: {}", kinds.join(", ")))
            }
            Proof::Unproven(why) => Some(format!("none: {why}")),
            Proof::Vacuous { .. } | Proof::Broken(_) => None,
        }
    }

    /// The message for a writer whose check is vacuous: what still passes and why.
    pub(crate) fn vacuous_message(&self) -> Option<String> {
        let Proof::Vacuous { mutation, why } = self else {
            return None;
        };
        Some(match mutation {
            Some(m) => format!(
                "the check cannot fail: it still passes when {} ({why}). Write a check that \
                 fails when the sentence does not hold",
                m.describe()
            ),
            None => format!(
                "the check cannot fail: {why}. Write a check that reads what the sentence says \
                 from the page"
            ),
        })
    }
}

/// The mutation kinds a recorded proof names (`proven: hidden, text-prefixed`); empty for any
/// other record.
pub(crate) fn recorded_kinds(record: &str) -> Vec<String> {
    record
        .strip_prefix("proven:")
        .map(|kinds| {
            kinds
                .split(',')
                .map(|k| k.trim().to_owned())
                .filter(|k| !k.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// Why a check that passed under `mutation` is weaker than its sentence, in a few words.
fn why_vacuous(mutation: &Mutation) -> &'static str {
    match mutation {
        Mutation::Text {
            edit: TextEdit::Prefix(_) | TextEdit::Suffix(_),
            ..
        } => "a substring match",
        Mutation::Text { .. } => "it does not read this text",
        Mutation::Hide(_) => "it does not check that the element is visible",
        Mutation::Remove(_) => "it passes without the element",
        Mutation::AddOne(_) | Mutation::RemoveOne(_) => "it does not count exactly",
        Mutation::FlipChecked(_) => "it does not read the checked state",
        Mutation::FlipDisabled(_) => "it does not read the enabled state",
        Mutation::Title(_) => "it does not read the title",
        Mutation::Url(_) => "it does not read the URL",
        Mutation::Response(ResponseEdit::Status { .. }) => "it does not check the status exactly",
        Mutation::Response(ResponseEdit::Text {
            edit: TextEdit::Prefix(_) | TextEdit::Suffix(_),
            ..
        }) => "a substring match",
        Mutation::Response(ResponseEdit::Text { .. }) => "it does not read this value",
    }
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

/// The mutations that contradict a check which made `reads` for a sentence with `claims`,
/// each once, in a stable order: element mutations first (by what each read checks), then
/// near misses of the quoted texts across the page, then near misses of the sentence's numbers
/// inside the elements the check reads.
pub(crate) fn mutations(reads: &[Read], claims: &Claims) -> Vec<Mutation> {
    let mut out: Vec<Mutation> = Vec::new();
    let mut push = |m: Mutation| {
        if !out.contains(&m) {
            out.push(m);
        }
    };
    let mut scopes: Vec<String> = Vec::new();
    let mut responses = false;
    for read in reads.iter().filter(|r| r.page == 0) {
        let positive = !read.negated;
        let selector = read.selector.clone();
        match (read.method.as_str(), selector) {
            // A request's response: its status when the sentence writes it, and (below) the
            // quoted texts in its body.
            ("response", _) => {
                responses = true;
                let status = read.number.map(|n| n as u16);
                if let Some(from) = status.filter(|s| claims.numbers.contains(&s.to_string()))
                    && !claims.negative
                {
                    push(Mutation::Response(ResponseEdit::Status {
                        from,
                        to: ResponseEdit::other_status(from),
                    }));
                }
            }
            ("expect", Some(s)) => {
                let expression = read.expression.as_deref().unwrap_or_default();
                let by_matcher = match expression {
                    "to.be.checked" => Some(Mutation::FlipChecked(s.clone())),
                    "to.be.enabled" | "to.be.disabled" | "to.be.editable" => {
                        Some(Mutation::FlipDisabled(s.clone()))
                    }
                    "to.be.visible" | "to.be.in.viewport" if positive => {
                        Some(Mutation::Hide(s.clone()))
                    }
                    "to.be.hidden" if !positive => Some(Mutation::Hide(s.clone())),
                    "to.have.count" => {
                        if positive && read.number.is_some_and(|n| n > 0.0) {
                            push(Mutation::AddOne(s.clone()));
                            Some(Mutation::RemoveOne(s.clone()))
                        } else {
                            None
                        }
                    }
                    "to.be.visible" | "to.be.in.viewport" | "to.be.hidden" => None,
                    _ if positive => Some(Mutation::Remove(s.clone())),
                    _ => None,
                };
                if let Some(m) = by_matcher {
                    push(m);
                    if positive && !scopes.contains(&s) {
                        scopes.push(s);
                    }
                }
            }
            ("expect", None) if positive => match read.expression.as_deref() {
                Some("to.have.title") => {
                    push(Mutation::Title("prettyplay mutation proof".to_owned()))
                }
                Some("to.have.url") => push(Mutation::Url(PROOF_URL.to_owned())),
                _ => {}
            },
            // `the URL does not contain "fruit="`: the URL becomes one that holds each quoted
            // text, which contradicts the sentence.
            ("expect", None) if read.expression.as_deref() == Some("to.have.url") => {
                for quoted in &claims.quoted {
                    push(Mutation::Url(format!("{PROOF_URL}&{quoted}")));
                }
            }
            ("isChecked", Some(s)) => push(Mutation::FlipChecked(s)),
            ("isEnabled" | "isDisabled" | "isEditable", Some(s)) => push(Mutation::FlipDisabled(s)),
            (_, _) if claims.negative => {}
            ("isVisible" | "isHidden", Some(s)) => push(Mutation::Hide(s)),
            ("queryCount", Some(s)) => {
                if claims.numbers.is_empty() {
                    push(Mutation::Remove(s));
                } else {
                    push(Mutation::AddOne(s.clone()));
                    push(Mutation::RemoveOne(s));
                }
            }
            ("title", None) => push(Mutation::Title("prettyplay mutation proof".to_owned())),
            ("url", None) => push(Mutation::Url(PROOF_URL.to_owned())),
            (_, Some(s)) => {
                push(Mutation::Remove(s.clone()));
                if !scopes.contains(&s) {
                    scopes.push(s);
                }
            }
            (_, None) => {}
        }
    }
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
    let reads_page = reads
        .iter()
        .any(|read| read.page == 0 && read.method != "response");
    if !claims.negative && reads_page {
        for quoted in &claims.quoted {
            for edit in near_misses(quoted) {
                push(Mutation::Text {
                    needle: quoted.clone(),
                    edit,
                    scope: None,
                    whole: false,
                });
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

/// What the proof needs from the page: runs of the step's code in a proof mode, and
/// mutations of the page.
pub(crate) trait ProofPage {
    /// Runs the code once, reads only: `mutated` cuts its timeouts (see
    /// [`ProofMode`](crate::script::ProofMode)). Answers the outcome and the reads it made.
    fn run(&self, code: &str, mutated: bool) -> (Result<(), StepFailure>, Vec<Read>);
    /// Applies a mutation; answers how many places it changed.
    fn mutate(&self, mutation: &Mutation) -> Result<u64, StepFailure>;
    /// Undoes every mutation.
    fn restore(&self) -> Result<u64, StepFailure>;
}

/// Whether a failure is the refusal of a call that acts; the call, if so.
fn refused(failure: &StepFailure) -> Option<String> {
    let at = failure.message.find(REFUSED_MARKER)?;
    let rest = failure.message[at + REFUSED_MARKER.len()..].trim_start();
    let call = rest.split_whitespace().next().unwrap_or("a call");
    // `frame.click` is the binding's name; users know the API's (`click`).
    Some(call.rsplit('.').next().unwrap_or(call).to_owned())
}

/// Proves `code`, which just passed on the page, against the sentence's `claims`.
pub(crate) fn prove(page: &dyn ProofPage, code: &str, claims: &Claims) -> Proof {
    let (first, reads) = page.run(code, false);
    if let Err(failure) = first {
        // Nothing was mutated yet, so the page is as the step left it.
        return Proof::Unproven(match refused(&failure) {
            Some(call) => Unproven::Acts(call),
            None => Unproven::NotRepeatable(
                failure
                    .message
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            ),
        });
    }
    if reads.is_empty() {
        return Proof::Vacuous {
            mutation: None,
            why: "it reads nothing from the page".to_owned(),
        };
    }
    if reads.iter().all(|r| r.page != 0) {
        return Proof::Unproven(Unproven::OtherPage);
    }
    let mut failed_under = Vec::new();
    let mut survived = None;
    for mutation in mutations(&reads, claims) {
        let applied = page.mutate(&mutation);
        let outcome = match applied {
            Ok(0) => None,
            Ok(_) => Some(page.run(code, true).0),
            Err(failure) => {
                tracing::debug!("mutation {} not applied: {}", mutation.kind(), failure);
                None
            }
        };
        if let Err(failure) = page.restore() {
            return Proof::Broken(failure);
        }
        match outcome {
            None => {}
            Some(Ok(())) => {
                survived = Some(mutation);
                break;
            }
            Some(Err(failure)) => {
                if let Some(call) = refused(&failure) {
                    return Proof::Unproven(Unproven::Acts(call));
                }
                if failure.kind.ends_the_page() {
                    return Proof::Broken(failure);
                }
                failed_under.push(mutation);
            }
        }
    }
    // The page must be as it was: the code passes on it again, with its own timeouts.
    if let (Err(failure), _) = page.run(code, false) {
        return Proof::Broken(StepFailure::new(
            failure.kind,
            format!(
                "the step no longer passed after the mutation proof restored the page: {}",
                failure.message
            ),
        ));
    }
    if let Some(mutation) = survived {
        let why = why_vacuous(&mutation).to_owned();
        return Proof::Vacuous {
            mutation: Some(mutation),
            why,
        };
    }
    if failed_under.is_empty() {
        return Proof::Unproven(Unproven::NoMutation);
    }
    Proof::Proven(failed_under)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;
    use crate::script::FailureKind;

    fn read(method: &str, selector: Option<&str>, expression: Option<&str>) -> Read {
        Read {
            method: method.to_owned(),
            selector: selector.map(str::to_owned),
            expression: expression.map(str::to_owned),
            negated: false,
            number: None,
            page: 0,
        }
    }

    fn expect(selector: &str, expression: &str) -> Read {
        read("expect", Some(selector), Some(expression))
    }

    fn claims(quoted: &[&str], numbers: &[&str]) -> Claims {
        Claims {
            quoted: quoted.iter().map(|s| s.to_string()).collect(),
            numbers: numbers.iter().map(|s| s.to_string()).collect(),
            negative: false,
        }
    }

    fn kinds(mutations: &[Mutation]) -> Vec<&'static str> {
        mutations.iter().map(Mutation::kind).collect()
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

    /// One scripted run: its outcome and the reads it made.
    type Run = (Result<(), StepFailure>, Vec<Read>);

    /// A scripted page: each run answers the next outcome; mutations are recorded.
    struct Page {
        runs: RefCell<Vec<Run>>,
        applies: u64,
        log: RefCell<Vec<String>>,
    }

    impl Page {
        fn new(runs: Vec<Result<(), StepFailure>>) -> Self {
            let visible = vec![expect("#x", "to.be.visible")];
            Page {
                runs: RefCell::new(runs.into_iter().map(|r| (r, visible.clone())).collect()),
                applies: 1,
                log: RefCell::new(Vec::new()),
            }
        }
    }

    impl ProofPage for Page {
        fn run(&self, _code: &str, mutated: bool) -> (Result<(), StepFailure>, Vec<Read>) {
            self.log.borrow_mut().push(format!("run mutated={mutated}"));
            let mut runs = self.runs.borrow_mut();
            assert!(!runs.is_empty(), "an unexpected run");
            runs.remove(0)
        }
        fn mutate(&self, mutation: &Mutation) -> Result<u64, StepFailure> {
            self.log
                .borrow_mut()
                .push(format!("mutate {}", mutation.kind()));
            Ok(self.applies)
        }
        fn restore(&self) -> Result<u64, StepFailure> {
            self.log.borrow_mut().push("restore".into());
            Ok(self.applies)
        }
    }

    fn failed() -> Result<(), StepFailure> {
        Err(StepFailure::new(FailureKind::FailedCheck, "expect failed"))
    }

    #[test]
    fn a_check_that_fails_under_its_mutation_and_passes_again_is_proven() {
        let page = Page::new(vec![Ok(()), failed(), Ok(())]);
        let proof = prove(&page, "code", &Claims::default());
        assert_eq!(proof, Proof::Proven(vec![Mutation::Hide("#x".into())]));
        assert_eq!(proof.record().as_deref(), Some("proven: hidden"));
        assert_eq!(
            *page.log.borrow(),
            [
                "run mutated=false",
                "mutate hidden",
                "run mutated=true",
                "restore",
                "run mutated=false"
            ]
        );
    }

    #[test]
    fn a_check_that_passes_under_a_mutation_is_vacuous() {
        let page = Page::new(vec![Ok(()), Ok(()), Ok(())]);
        let proof = prove(&page, "code", &Claims::default());
        assert!(
            matches!(
                proof,
                Proof::Vacuous {
                    mutation: Some(Mutation::Hide(_)),
                    ..
                }
            ),
            "{proof:?}"
        );
        let message = proof.vacuous_message().unwrap();
        assert!(
            message.contains("still passes when the element it reads is hidden"),
            "{message}"
        );
        assert_eq!(
            proof.record(),
            None,
            "a vacuous check is never recorded as proven"
        );
    }

    #[test]
    fn a_check_that_reads_nothing_is_vacuous_without_a_mutation() {
        let page = Page::new(vec![]);
        page.runs.borrow_mut().push((Ok(()), Vec::new()));
        let proof = prove(&page, "code", &Claims::default());
        assert_eq!(
            proof,
            Proof::Vacuous {
                mutation: None,
                why: "it reads nothing from the page".into()
            }
        );
    }

    #[test]
    fn code_that_acts_is_not_proven_and_says_which_call_acted() {
        let refusal = StepFailure::new(
            FailureKind::Script,
            format!("locator.click: {REFUSED_MARKER} frame.click acts on the page"),
        );
        let page = Page::new(vec![Err(refusal)]);
        let proof = prove(&page, "code", &Claims::default());
        assert_eq!(proof, Proof::Unproven(Unproven::Acts("click".into())));
        assert_eq!(
            proof.record().as_deref(),
            Some("none: the step acts on the page (click)")
        );
    }

    #[test]
    fn a_mutation_that_changes_nothing_is_skipped_and_nothing_left_is_unproven() {
        let mut page = Page::new(vec![Ok(()), Ok(())]);
        page.applies = 0;
        let proof = prove(&page, "code", &Claims::default());
        assert_eq!(proof, Proof::Unproven(Unproven::NoMutation));
        assert!(!page.log.borrow().contains(&"run mutated=true".to_owned()));
    }

    #[test]
    fn code_that_does_not_pass_again_before_any_mutation_is_unproven() {
        let page = Page::new(vec![failed()]);
        let proof = prove(&page, "code", &Claims::default());
        assert_eq!(
            proof,
            Proof::Unproven(Unproven::NotRepeatable("expect failed".into()))
        );
        assert!(!page.log.borrow().iter().any(|l| l.starts_with("mutate")));
    }

    #[test]
    fn a_page_that_does_not_come_back_breaks_the_proof() {
        let page = Page::new(vec![Ok(()), failed(), failed()]);
        let proof = prove(&page, "code", &Claims::default());
        let Proof::Broken(failure) = proof else {
            panic!("{proof:?}")
        };
        assert!(
            failure
                .message
                .contains("no longer passed after the mutation proof")
        );
    }

    #[test]
    fn recorded_kinds_are_read_back() {
        assert_eq!(
            recorded_kinds("proven: hidden, text-prefixed"),
            ["hidden", "text-prefixed"]
        );
        assert!(recorded_kinds("none: the step acts on the page (frame.click)").is_empty());
    }
}
