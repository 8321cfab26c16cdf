//! [`Breaker`]: the run's circuit breaker around an [`LlmProvider`]. After [`BREAKER_LIMIT`]
//! transport failures in a row ([`LlmError::Unavailable`], each already the end of the bounded
//! transport retry, or [`LlmError::NotAnLlm`], an endpoint that is no LLM), every later call of
//! the run fails at once, without touching the network: an LLM outage costs a few requests, not
//! a few per step of every test. A reply (even one in an unexpected format) resets the count;
//! once open, the breaker stays open for the run.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::{ClassificationRequest, GenerationRequest, LlmError, LlmProvider, LlmReply};

/// Transport failures in a row after which a run stops calling the LLM.
pub(crate) const BREAKER_LIMIT: usize = 3;

/// A provider that stops calling the one it wraps after [`BREAKER_LIMIT`] transport failures
/// in a row. Shared by every test of a run.
pub(crate) struct Breaker {
    inner: Arc<dyn LlmProvider>,
    /// Transport failures since the last reply.
    failures: AtomicUsize,
    open: AtomicBool,
    /// Provider and endpoint of the last transport failure, named in the breaker's own errors.
    last: Mutex<Option<(&'static str, String)>>,
}

impl Breaker {
    pub(crate) fn new(inner: Arc<dyn LlmProvider>) -> Self {
        Breaker {
            inner,
            failures: AtomicUsize::new(0),
            open: AtomicBool::new(false),
            last: Mutex::new(None),
        }
    }

    /// Whether the run has stopped calling the LLM.
    pub(crate) fn is_open(&self) -> bool {
        self.open.load(Ordering::SeqCst)
    }

    fn call(
        &self,
        call: impl FnOnce(&dyn LlmProvider) -> Result<LlmReply, LlmError>,
    ) -> Result<LlmReply, LlmError> {
        if self.is_open() {
            return Err(self.refusal());
        }
        let result = call(self.inner.as_ref());
        match &result {
            Ok(_) | Err(LlmError::BadResponse { .. }) => self.failures.store(0, Ordering::SeqCst),
            Err(
                LlmError::Unavailable {
                    provider, endpoint, ..
                }
                | LlmError::NotAnLlm {
                    provider, endpoint, ..
                },
            ) => {
                *self.last.lock().unwrap_or_else(PoisonError::into_inner) =
                    Some((provider, endpoint.clone()));
                if self.failures.fetch_add(1, Ordering::SeqCst) + 1 >= BREAKER_LIMIT {
                    self.open.store(true, Ordering::SeqCst);
                }
            }
            Err(LlmError::Config(_)) => {}
        }
        result
    }

    fn refusal(&self) -> LlmError {
        let (provider, endpoint) = self
            .last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .unwrap_or(("llm", String::new()));
        LlmError::Unavailable {
            provider,
            endpoint,
            reason: format!(
                "the LLM failed {BREAKER_LIMIT} times in a row; no more calls in this run"
            ),
        }
    }
}

impl LlmProvider for Breaker {
    fn generate_step_code(&self, request: &GenerationRequest) -> Result<LlmReply, LlmError> {
        self.call(|inner| inner.generate_step_code(request))
    }

    fn classify_failure(&self, request: &ClassificationRequest) -> Result<LlmReply, LlmError> {
        self.call(|inner| inner.classify_failure(request))
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::time::Duration;

    use super::*;
    use crate::llm::Usage;

    /// What the fake answers: a reply, a transport failure, or a reply in a bad format.
    #[derive(Debug, Clone, Copy)]
    enum Answer {
        Reply,
        Down,
        Garbled,
    }

    /// Answers from a script, in order; a call past the script panics.
    struct Scripted(Mutex<VecDeque<Answer>>);

    impl Scripted {
        fn new(answers: &[Answer]) -> Arc<Self> {
            Arc::new(Scripted(Mutex::new(answers.iter().copied().collect())))
        }

        fn left(&self) -> usize {
            self.0.lock().expect("not poisoned").len()
        }
    }

    impl LlmProvider for Scripted {
        fn generate_step_code(&self, _: &GenerationRequest) -> Result<LlmReply, LlmError> {
            let next = self.0.lock().expect("not poisoned").pop_front();
            match next.expect("an LLM call the breaker should have refused") {
                Answer::Reply => Ok(LlmReply {
                    text: "ok".into(),
                    usage: Usage::default(),
                    elapsed: Duration::ZERO,
                }),
                Answer::Down => Err(LlmError::Unavailable {
                    provider: "openai",
                    endpoint: "http://127.0.0.1:9/v1/chat/completions".into(),
                    reason: "cannot connect: connection refused".into(),
                }),
                Answer::Garbled => Err(LlmError::BadResponse {
                    provider: "openai",
                    reason: "not JSON".into(),
                }),
            }
        }

        fn classify_failure(&self, _: &ClassificationRequest) -> Result<LlmReply, LlmError> {
            panic!("not used")
        }

        fn describe(&self) -> String {
            "openai:fake".into()
        }
    }

    fn request() -> GenerationRequest {
        GenerationRequest {
            system_prompt: String::new(),
            page_api: String::new(),
            step: "x".into(),
            variables: Vec::new(),
            step_argument: None,
            previous_steps: Vec::new(),
            previous_code: Vec::new(),
            previous_code_left_out: 0,
            page: crate::llm::PageFacts::default(),
            page_snapshot: String::new(),
            screenshot: None,
            user_instructions: None,
            healing: None,
            builtin: None,
            failed: None,
            deadline: None,
        }
    }

    #[test]
    fn three_transport_failures_in_a_row_stop_every_later_call() {
        use Answer::*;
        let inner = Scripted::new(&[Down, Down, Down]);
        let breaker = Breaker::new(inner.clone());
        for _ in 0..BREAKER_LIMIT {
            assert!(!breaker.is_open());
            let err = breaker.generate_step_code(&request()).expect_err("down");
            assert!(err.to_string().contains("connection refused"), "{err}");
        }
        assert!(breaker.is_open());
        assert_eq!(inner.left(), 0);
        // The fake would panic if called again: the breaker answers by itself, every time.
        for _ in 0..5 {
            let err = breaker.generate_step_code(&request()).expect_err("open");
            assert_eq!(
                err.to_string(),
                "the LLM is unavailable (openai at http://127.0.0.1:9/v1/chat/completions): \
                 the LLM failed 3 times in a row; no more calls in this run"
            );
        }
    }

    #[test]
    fn a_reply_resets_the_count() {
        use Answer::*;
        let inner = Scripted::new(&[Down, Down, Reply, Down, Down, Garbled, Down, Down, Reply]);
        let breaker = Breaker::new(inner.clone());
        for _ in 0..9 {
            let _ = breaker.generate_step_code(&request());
        }
        assert!(!breaker.is_open(), "never three failures in a row");
        assert_eq!(inner.left(), 0);
        assert_eq!(breaker.describe(), "openai:fake");
    }
}
