//! The binding's side of step code's HTTP requests: runs a `request.fetch` call on the test's
//! context, in a proof run as a read (GET, HEAD) or not at all.
//!
//! Main function: [`StepHost::fetch`]. The request itself is `api_request.rs` (hops, limits)
//! and `context_requests.rs` (sending it as the context would); what a proof keeps of the
//! answers is `proof_responses.rs`.

use serde_json::Value;

use crate::script::FailureKind;
use crate::script::api_request::{self, Fetch};
use crate::script::binding::StepHost;
use crate::script::context_requests::ContextRequests;
use crate::script::driver_error::HostError;
use crate::script::failure::RefusedCall;
use crate::script::proof_mode::{self, ProofMode, Read};

impl StepHost {
    /// Runs step code's `request.fetch` with the prelude's `params`. A proof run sends only
    /// requests that read (GET, HEAD) and records them as reads; the proof's later runs are
    /// answered from what its first run recorded (edited in a mutated run), so the app sees a
    /// check's request once per proof.
    pub(super) fn fetch(&self, page_id: u32, params: &Value) -> Result<Value, HostError> {
        let fetch = Fetch::read(params, self.test_page.base_url())?;
        let mode = self.proof.get();
        if mode != ProofMode::Off && !fetch.method.reads() {
            return Err(proof_mode::refusal(RefusedCall::Request(fetch.method)));
        }
        if !fetch.method.reads() {
            self.sent_writes
                .borrow_mut()
                .push(fetch.method.as_str().to_owned());
        }
        let replayed = match mode {
            ProofMode::Off => None,
            _ => self
                .responses
                .borrow_mut()
                .replayed(fetch.method.as_str(), &fetch.url),
        };
        let fresh = replayed.is_none();
        let mut answer = match replayed {
            Some(answer) => answer,
            None => self.send(&fetch)?,
        };
        match mode {
            ProofMode::Off => {}
            ProofMode::Record => {
                self.reads
                    .borrow_mut()
                    .push(Read::of_response(page_id, answer.status));
                if fresh {
                    self.responses.borrow_mut().record(
                        fetch.method.as_str(),
                        &fetch.url,
                        answer.clone(),
                    );
                }
            }
            ProofMode::Mutated => {
                self.reads
                    .borrow_mut()
                    .push(Read::of_response(page_id, answer.status));
                if let Some(edit) = &self.responses.borrow().edit {
                    answer.edit(edit);
                }
            }
        }
        answer.to_value(params.get("failOnStatusCode").and_then(Value::as_bool) == Some(true))
    }

    /// Sends `fetch` on the test's context.
    fn send(&self, fetch: &Fetch) -> Result<api_request::Answer, HostError> {
        let page = self.test_page.page().clone();
        let guard = self.test_page.origins();
        self.run(async {
            let context = page
                .context()
                .map_err(|err| HostError::from_playwright(err, false))?;
            let requests = ContextRequests::of(context)
                .await
                .map_err(|err| HostError::script(err.to_string()))?;
            // The test's deadline closes its context, which a request sent from here does not
            // hear of: without this, a request with no timeout of its own would never end.
            let closed = async {
                while !self.test_page.is_closing() {
                    tokio::time::sleep(crate::script::events::ROUTE_INTERVAL).await;
                }
            };
            tokio::select! {
                answer = api_request::send(&requests, fetch, guard) => answer,
                () = closed => Err(HostError {
                    kind: FailureKind::Timeout,
                    message: format!(
                        "the test's context closed while waiting for the response of {} {}",
                        fetch.method, fetch.url
                    ),
                    log: Vec::new(),
                    received: None,
                }),
            }
        })?
    }
}
