//! What the mutation proof keeps of step code's HTTP requests: the answers of a proof run's
//! read requests, and the edit a mutated run applies to them.
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
            edit: None,
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
}
