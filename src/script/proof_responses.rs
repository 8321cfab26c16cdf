//! What the mutation proof keeps of step code's HTTP requests: the answers of a proof run's
//! read requests, and the edit a mutated run applies to them. The first run of a proof sends
//! its read requests; the later runs (mutated, and the one on the restored page) are answered
//! from what it recorded, so a check's GET reaches the app once per proof.
//!
//! Main type: [`ProofResponses`].

use crate::script::api_request::Answer;
use crate::script::mutation::ResponseEdit;

/// What a proof run's read requests answered, and the edit the mutated runs apply.
#[derive(Default)]
pub(crate) struct ProofResponses {
    /// The answers of the last run that recorded reads, so a mutation can tell whether it
    /// applies before the code runs again.
    pub(crate) recorded: Vec<Answer>,
    /// The edit of the mutation being tried, if it is a response mutation.
    pub(crate) edit: Option<ResponseEdit>,
    /// The method and URL of each recorded answer, in the order they were sent.
    sent: Vec<(String, String)>,
    /// Whether runs are answered from the recorded answers, and the next one to answer with.
    replay: Option<usize>,
}

impl ProofResponses {
    /// Sets `edit` for the mutated runs; answers how many places of the recorded answers it
    /// changes (0: the mutation does not apply).
    pub(crate) fn set(&mut self, edit: &ResponseEdit) -> u64 {
        let changed = self
            .recorded
            .iter()
            .map(|answer| answer.clone().edit(edit))
            .sum();
        self.edit = (changed > 0).then(|| edit.clone());
        changed
    }

    /// Forgets the answers recorded so far: a run that records starts.
    pub(crate) fn start_recording(&mut self) {
        self.recorded.clear();
        self.sent.clear();
        self.replay = None;
    }

    /// Keeps `answer`, which a recording run's request `method` `url` got.
    pub(crate) fn record(&mut self, method: &str, url: &str, answer: Answer) {
        self.sent.push((method.to_owned(), url.to_owned()));
        self.recorded.push(answer);
    }

    /// From now on, runs are answered from the recorded answers; the next run's first request
    /// gets the first one.
    pub(crate) fn start_replay(&mut self) {
        self.replay = Some(0);
    }

    /// The recorded answer for a run's next request `method` `url`, when runs are replayed
    /// and the request is the one the recording run sent at this place; `None` sends it.
    pub(crate) fn replayed(&mut self, method: &str, url: &str) -> Option<Answer> {
        let next = self.replay?;
        let (m, u) = self.sent.get(next)?;
        if m != method || u != url {
            return None;
        }
        self.replay = Some(next + 1);
        self.recorded.get(next).cloned()
    }

    /// Runs send their requests again (the proof is over).
    pub(crate) fn stop_replay(&mut self) {
        self.replay = None;
    }

    /// Forgets the edit: the responses are as the app sends them again.
    pub(crate) fn restore(&mut self) -> u64 {
        u64::from(self.edit.take().is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::TextEdit;

    fn answer(body: &str) -> Answer {
        Answer {
            url: "http://127.0.0.1/api".into(),
            status: 200,
            status_text: "OK".into(),
            headers: vec![],
            body: Some(body.as_bytes().to_vec()),
        }
    }

    #[test]
    fn an_edit_applies_only_when_a_recorded_answer_holds_what_it_changes() {
        let mut responses = ProofResponses {
            recorded: vec![answer(r#"["milk"]"#)],
            ..ProofResponses::default()
        };
        let milk = ResponseEdit::Text {
            needle: "milk".into(),
            edit: TextEdit::Suffix("x".into()),
        };
        let eggs = ResponseEdit::Text {
            needle: "eggs".into(),
            edit: TextEdit::Suffix("x".into()),
        };
        assert_eq!(responses.set(&eggs), 0);
        assert_eq!(responses.edit, None);
        assert_eq!(responses.set(&milk), 1);
        assert_eq!(responses.edit, Some(milk));
        assert_eq!(responses.restore(), 1);
        assert_eq!(responses.restore(), 0);
        // The recorded answer itself is never edited.
        assert_eq!(
            responses.recorded[0].body.as_deref(),
            Some(&b"[\"milk\"]"[..])
        );
    }

    #[test]
    fn later_runs_of_a_proof_are_answered_from_the_first_one() {
        let mut responses = ProofResponses::default();
        responses.start_recording();
        assert_eq!(responses.replayed("GET", "http://a/health"), None);
        responses.record("GET", "http://a/health", answer("ok"));
        responses.start_replay();
        for _ in 0..2 {
            responses.start_replay();
            let again = responses.replayed("GET", "http://a/health").unwrap();
            assert_eq!(again.body.as_deref(), Some(&b"ok"[..]));
            // A second request the first run did not send goes to the app.
            assert_eq!(responses.replayed("GET", "http://a/health"), None);
        }
        assert_eq!(responses.replayed("HEAD", "http://a/health"), None);
        responses.stop_replay();
        assert_eq!(responses.replayed("GET", "http://a/health"), None);
    }
}
