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
            texts: Vec::new(),
        }
    }

    fn expect(selector: &str, expression: &str) -> Read {
        read("expect", Some(selector), Some(expression))
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
}
