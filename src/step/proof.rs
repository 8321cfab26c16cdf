//! The mutation proof: a check that passed on the live page is run again on the same page
//! changed so that its sentence no longer holds, and it must fail; then the page is restored
//! and the check must pass once more.
//!
//! Main type: [`Proof`] (the outcome); the live run is [`prove`]. Which mutations contradict
//! what the code read is `mutations.rs`. The rules are documented in `docs/engine.md` (The
//! mutation proof).

use crate::cache::{ProofRecord, Unproven};
use crate::script::{
    FailureKind, Mutation, Read, RefusedCall, ResponseEdit, StepFailure, TextEdit,
};
use crate::step::mutations::{Claims, mutations};

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
    /// The proof as a cache entry records it; `None` for an outcome that is never cached.
    pub(crate) fn record(&self) -> Option<ProofRecord> {
        match self {
            Proof::Proven(mutations) => {
                let mut kinds: Vec<_> = mutations.iter().map(Mutation::kind).collect();
                kinds.dedup();
                Some(ProofRecord::Proven(kinds))
            }
            Proof::Unproven(why) => Some(ProofRecord::None(why.clone())),
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

/// The matcher a read names as step code wrote it (`to.contain.text` → `toContainText`).
fn matcher_name(expression: &str) -> String {
    expression
        .split('.')
        .enumerate()
        .map(|(at, part)| {
            let mut chars = part.chars();
            match (at, chars.next()) {
                (0, Some(first)) => first.to_string() + chars.as_str(),
                (_, Some(first)) => first.to_uppercase().to_string() + chars.as_str(),
                (_, None) => String::new(),
            }
        })
        .collect()
}

/// Whether a Playwright selector finds its elements by a part of their text or name, without
/// regard to case (`getByText('x')`, `getByRole(.., { name: 'x' })` without `exact`, `hasText`).
fn matches_a_part(selector: &str) -> bool {
    selector.contains("\"i") || selector.contains("has-text=") || selector.contains("/i")
}

/// Why a check that passed under `mutation` is weaker than its sentence, in a few words that
/// name the matcher or locator the check used (from `reads`, what it read).
fn why_vacuous(mutation: &Mutation, reads: &[Read]) -> String {
    let assertion = reads
        .iter()
        .filter(|r| r.page == 0 && r.method == "expect")
        .find_map(|r| r.expression.as_deref())
        .map(matcher_name);
    let matcher = assertion.clone().unwrap_or_else(|| "its read".to_owned());
    let loose_locator = reads
        .iter()
        .filter_map(|r| r.selector.as_deref())
        .any(matches_a_part);
    let near_miss = |case: bool| -> String {
        let loose = reads.iter().any(|r| r.page == 0 && r.loose) || loose_locator;
        match (loose, case) {
            (true, false) => "a substring match".to_owned(),
            (true, true) => "a match in any case".to_owned(),
            (false, _) => format!("{matcher} still passed on the changed text"),
        }
    };
    match mutation {
        Mutation::Text {
            edit: TextEdit::Case,
            ..
        } => near_miss(true),
        Mutation::Text {
            edit: TextEdit::Prefix(_) | TextEdit::Suffix(_) | TextEdit::Words(_),
            ..
        } => near_miss(false),
        Mutation::Text { .. } => "it does not read this text".to_owned(),
        Mutation::Hide(_) => "it does not check that the element is visible".to_owned(),
        Mutation::Remove(_) => "it passes without the element".to_owned(),
        Mutation::AddOne(_) | Mutation::RemoveOne(_) => "it does not count exactly".to_owned(),
        Mutation::AddSibling(_) => "it does not check that nothing else is there".to_owned(),
        Mutation::Reorder(_) => "it does not read the position".to_owned(),
        Mutation::FlipChecked(_) => "it does not read the checked state".to_owned(),
        Mutation::FlipDisabled(_) => "it does not read the enabled state".to_owned(),
        Mutation::Title(_) => "it does not read the title".to_owned(),
        Mutation::Url(_) => "it does not read the URL".to_owned(),
        Mutation::Response(ResponseEdit::Status { .. }) => {
            "it does not check the status exactly".to_owned()
        }
        Mutation::Response(ResponseEdit::Text {
            edit: TextEdit::Prefix(_) | TextEdit::Suffix(_) | TextEdit::Words(_),
            ..
        }) => "a substring match".to_owned(),
        Mutation::Response(ResponseEdit::Text {
            edit: TextEdit::Case,
            ..
        }) => "it ignores case".to_owned(),
        Mutation::Response(ResponseEdit::Text { .. }) => "it does not read this value".to_owned(),
    }
}

/// What the proof needs from the page: runs of the step's code in a proof mode, and
/// mutations of the page.
pub(crate) trait ProofPage {
    /// Runs the code once, reads only: `mutated` cuts its timeouts (see
    /// [`ProofMode`](crate::script::ProofMode)). Answers the outcome and the reads it made.
    fn run(&self, code: &str, mutated: bool) -> (Result<(), StepFailure>, Vec<Read>);
    /// Applies a mutation; answers how many places it changed.
    fn mutate(&self, mutation: &Mutation) -> Result<u64, StepFailure>;
    /// How many of the changes made since the last restore the app has undone.
    fn undone(&self) -> Result<u64, StepFailure>;
    /// Whether `text` is anywhere in the page (its markup, values, title or URL).
    fn holds(&self, text: &str) -> Result<bool, StepFailure>;
    /// Undoes every mutation.
    fn restore(&self) -> Result<u64, StepFailure>;
}

/// Why code whose run a proof refused cannot be proven: it acts on the page, or it sends a
/// request that may write.
fn refused(call: RefusedCall) -> Unproven {
    match call {
        RefusedCall::Page(name) => Unproven::Acts(name.to_owned()),
        RefusedCall::Request(method) => Unproven::Sends(method.as_str().to_owned()),
    }
}

/// Proves `code`, which just passed on the page, against the sentence's `claims`.
pub(crate) fn prove(page: &dyn ProofPage, code: &str, claims: &Claims) -> Proof {
    let (first, reads) = page.run(code, false);
    if let Err(failure) = first {
        // Nothing was mutated yet, so the page is as the step left it.
        return Proof::Unproven(match failure.kind {
            FailureKind::Refused { call } => refused(call),
            _ => Unproven::NotRepeatable(
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
    let mut undone = None;
    // The quoted texts some tried mutation changed, and whether the check failed under a
    // change of the whole title or URL (which may be where a quoted text is).
    let mut reached: Vec<String> = Vec::new();
    let mut whole_read = false;
    for mutation in mutations(&reads, claims) {
        // A check that passed on a change the app had already undone was not tried: once more,
        // then the mutation is left untried.
        let mut tried = Tried::NotApplied;
        for _ in 0..2 {
            tried = match try_once(page, code, &mutation) {
                Ok(tried) => tried,
                Err(broken) => return broken,
            };
            if tried != Tried::Undone {
                break;
            }
        }
        if tried != Tried::NotApplied
            && let Some(needle) = mutation.needle()
            && !reached.iter().any(|r| r == needle)
        {
            reached.push(needle.to_owned());
        }
        if matches!(tried, Tried::Failed(_))
            && matches!(mutation, Mutation::Title(_) | Mutation::Url(_))
        {
            whole_read = true;
        }
        match tried {
            Tried::NotApplied => {}
            Tried::Undone => undone = undone.or(Some(mutation)),
            Tried::Passed => {
                survived = Some(mutation);
                break;
            }
            Tried::Failed(failure) => {
                if let FailureKind::Refused { call } = failure.kind {
                    return Proof::Unproven(refused(call));
                }
                if failure.kind.ends_the_page() {
                    return Proof::Broken(failure);
                }
                failed_under.push(mutation);
            }
        }
    }
    // The page must be as it was: the code passes on it again, with its own timeouts. A
    // refusal there means the page is: the refused call never ran.
    if let (Err(failure), _) = page.run(code, false) {
        if let FailureKind::Refused { call } = failure.kind {
            return Proof::Unproven(refused(call));
        }
        return Proof::Broken(StepFailure::new(
            failure.kind,
            format!(
                "the step no longer passed after the mutation proof restored the page: {}",
                failure.message
            ),
        ));
    }
    if let Some(mutation) = survived {
        let why = why_vacuous(&mutation, &reads);
        return Proof::Vacuous {
            mutation: Some(mutation),
            why,
        };
    }
    if !claims.negative && !whole_read {
        let unread = claims
            .quoted
            .iter()
            .filter(|q| q.chars().any(char::is_alphanumeric))
            .find(|q| !reached.contains(q));
        if let Some(quoted) = unread {
            return match page.holds(quoted) {
                Ok(false) => Proof::Vacuous {
                    mutation: None,
                    why: format!("it passes although {quoted:?} is nowhere on the page"),
                },
                Ok(true) => Proof::Unproven(Unproven::Unread(quoted.clone())),
                Err(failure) => Proof::Broken(failure),
            };
        }
    }
    match (failed_under.is_empty(), undone) {
        (false, _) => Proof::Proven(failed_under),
        (true, Some(mutation)) => {
            Proof::Unproven(Unproven::Undone(mutation.kind().as_str().to_owned()))
        }
        (true, None) => Proof::Unproven(Unproven::NoMutation),
    }
}

/// What one try of a mutation showed.
#[derive(Debug, PartialEq)]
enum Tried {
    /// The mutation changes nothing on this page.
    NotApplied,
    /// The check passed, but the app had undone the change by then.
    Undone,
    /// The check passed on the changed page.
    Passed,
    /// The check failed on the changed page.
    Failed(StepFailure),
}

/// Applies `mutation`, runs the code on the changed page, reads back whether the app undid the
/// change, and restores the page. `Err`: the page could not be restored or read.
fn try_once(page: &dyn ProofPage, code: &str, mutation: &Mutation) -> Result<Tried, Proof> {
    let tried = match page.mutate(mutation) {
        Ok(0) => Tried::NotApplied,
        Ok(_) => match page.run(code, true).0 {
            Err(failure) => Tried::Failed(failure),
            Ok(()) => match page.undone() {
                Ok(0) => Tried::Passed,
                Ok(_) => Tried::Undone,
                Err(failure) => {
                    // Restore first: the failure to read back must not leave the change.
                    let _ = page.restore();
                    return Err(Proof::Broken(failure));
                }
            },
        },
        Err(failure) => {
            tracing::debug!("mutation {} not applied: {}", mutation.kind(), failure);
            Tried::NotApplied
        }
    };
    page.restore().map_err(Proof::Broken)?;
    Ok(tried)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;
    use crate::script::FailureKind;
    use crate::step::mutations::tests::expect;

    /// One scripted run: its outcome and the reads it made.
    type Run = (Result<(), StepFailure>, Vec<Read>);

    /// A scripted page: each run answers the next outcome; mutations are recorded.
    struct Page {
        runs: RefCell<Vec<Run>>,
        applies: u64,
        /// What each read-back of the changes answers, in turn (0 when none is left).
        undone: RefCell<Vec<u64>>,
        /// Whether the page holds any text it is asked about.
        holds: bool,
        log: RefCell<Vec<String>>,
    }

    impl Page {
        fn new(runs: Vec<Result<(), StepFailure>>) -> Self {
            let visible = vec![expect("#x", "to.be.visible")];
            Page {
                runs: RefCell::new(runs.into_iter().map(|r| (r, visible.clone())).collect()),
                applies: 1,
                undone: RefCell::new(Vec::new()),
                holds: true,
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
        fn undone(&self) -> Result<u64, StepFailure> {
            self.log.borrow_mut().push("undone?".into());
            let mut undone = self.undone.borrow_mut();
            Ok(if undone.is_empty() {
                0
            } else {
                undone.remove(0)
            })
        }
        fn holds(&self, text: &str) -> Result<bool, StepFailure> {
            self.log.borrow_mut().push(format!("holds {text}"));
            Ok(self.holds)
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
        assert_eq!(
            proof.record().map(|r| r.to_string()).as_deref(),
            Some("proven: hidden")
        );
        assert_eq!(
            *page.log.borrow(),
            [
                "run mutated=false",
                "mutate hidden",
                "run mutated=true",
                "restore",
                "run mutated=false"
            ],
            "a check that failed on the change is not asked whether the app undid it"
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
        assert!(page.log.borrow().contains(&"undone?".to_owned()));
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
            FailureKind::Refused {
                call: RefusedCall::Page("click"),
            },
            "locator.click: click acts on the page",
        );
        let page = Page::new(vec![Err(refusal)]);
        let proof = prove(&page, "code", &Claims::default());
        assert_eq!(proof, Proof::Unproven(Unproven::Acts("click".into())));
        assert_eq!(
            proof.record().map(|r| r.to_string()).as_deref(),
            Some("none: the step acts on the page (click)")
        );
    }

    #[test]
    fn code_that_sends_a_request_that_writes_is_not_proven_and_says_which_method() {
        let post = crate::script::HttpMethod::new("POST").unwrap();
        let refusal = StepFailure::new(
            FailureKind::Refused {
                call: RefusedCall::Request(post),
            },
            "a POST request may change the app",
        );
        let page = Page::new(vec![Ok(()), Err(refusal)]);
        let proof = prove(&page, "code", &Claims::default());
        assert_eq!(proof, Proof::Unproven(Unproven::Sends("POST".into())));
        assert_eq!(
            proof.record().map(|r| r.to_string()).as_deref(),
            Some("none: the step sends a POST request")
        );
    }

    #[test]
    fn a_message_that_reads_like_a_refusal_is_not_one() {
        // Only the refusal's kind says the code acts: a thrown message that quotes one is a
        // failure like any other.
        let quoted = StepFailure::new(
            FailureKind::FailedCheck,
            "Error: [proof: refused] frame.click acts on the page",
        );
        let page = Page::new(vec![Err(quoted)]);
        let proof = prove(&page, "code", &Claims::default());
        assert!(
            matches!(proof, Proof::Unproven(Unproven::NotRepeatable(_))),
            "{proof:?}"
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
    fn a_pass_on_a_change_the_app_undid_is_tried_once_more_then_left_untried() {
        let page = Page::new(vec![Ok(()), Ok(()), Ok(()), Ok(())]);
        page.undone.borrow_mut().extend([1, 1]);
        let proof = prove(&page, "code", &Claims::default());
        assert_eq!(proof, Proof::Unproven(Unproven::Undone("hidden".into())));
        assert_eq!(
            *page.log.borrow(),
            [
                "run mutated=false",
                "mutate hidden",
                "run mutated=true",
                "undone?",
                "restore",
                "mutate hidden",
                "run mutated=true",
                "undone?",
                "restore",
                "run mutated=false"
            ]
        );
    }

    #[test]
    fn a_pass_on_a_change_the_app_undid_once_is_judged_on_the_second_try() {
        let page = Page::new(vec![Ok(()), Ok(()), failed(), Ok(())]);
        page.undone.borrow_mut().push(1);
        let proof = prove(&page, "code", &Claims::default());
        assert_eq!(proof, Proof::Proven(vec![Mutation::Hide("#x".into())]));
        let page = Page::new(vec![Ok(()), Ok(()), Ok(()), Ok(())]);
        page.undone.borrow_mut().push(1);
        let proof = prove(&page, "code", &Claims::default());
        assert!(matches!(proof, Proof::Vacuous { .. }), "{proof:?}");
    }

    fn quoting(text: &str) -> Claims {
        Claims {
            quoted: vec![text.to_owned()],
            ..Claims::default()
        }
    }

    #[test]
    fn a_quoted_text_no_change_reaches_is_unproven_or_vacuous_when_the_page_lacks_it() {
        // Only the hidden mutation applies: no change of the quoted text reaches the check.
        let runs = || vec![Ok(()), failed(), Ok(())];
        struct OnlyHides(Page);
        impl ProofPage for OnlyHides {
            fn run(&self, code: &str, mutated: bool) -> (Result<(), StepFailure>, Vec<Read>) {
                self.0.run(code, mutated)
            }
            fn mutate(&self, mutation: &Mutation) -> Result<u64, StepFailure> {
                Ok(u64::from(matches!(mutation, Mutation::Hide(_))))
            }
            fn undone(&self) -> Result<u64, StepFailure> {
                self.0.undone()
            }
            fn holds(&self, text: &str) -> Result<bool, StepFailure> {
                self.0.holds(text)
            }
            fn restore(&self) -> Result<u64, StepFailure> {
                self.0.restore()
            }
        }
        let absent = OnlyHides(Page {
            holds: false,
            ..Page::new(runs())
        });
        let proof = prove(&absent, "code", &quoting("buy milk"));
        assert_eq!(
            proof,
            Proof::Vacuous {
                mutation: None,
                why: "it passes although \"buy milk\" is nowhere on the page".into()
            }
        );
        let elsewhere = OnlyHides(Page::new(runs()));
        let proof = prove(&elsewhere, "code", &quoting("completed"));
        assert_eq!(proof, Proof::Unproven(Unproven::Unread("completed".into())));
        let negative = OnlyHides(Page::new(runs()));
        let claims = Claims {
            negative: true,
            ..quoting("buy milk")
        };
        assert_eq!(
            prove(&negative, "code", &claims),
            Proof::Proven(vec![Mutation::Hide("#x".into())]),
            "a negative sentence's quoted text need not be on the page"
        );
    }

    #[test]
    fn the_reason_names_the_matcher_the_check_used() {
        let prefix = Mutation::Text {
            needle: "2 items left".into(),
            edit: TextEdit::Prefix("1".into()),
            scope: None,
            whole: false,
        };
        let exact = [expect("#count", "to.have.text")];
        assert_eq!(
            why_vacuous(&prefix, &exact),
            "toHaveText still passed on the changed text"
        );
        let contains = [Read {
            loose: true,
            ..expect("#count", "to.have.text")
        }];
        assert_eq!(why_vacuous(&prefix, &contains), "a substring match");
        let loose = [expect("internal:text=\"2 items left\"i", "to.be.visible")];
        let case = Mutation::Text {
            needle: "2 items left".into(),
            edit: TextEdit::Case,
            scope: None,
            whole: false,
        };
        assert_eq!(why_vacuous(&case, &loose), "a match in any case");
        assert_eq!(matcher_name("to.have.text"), "toHaveText");
    }
}
