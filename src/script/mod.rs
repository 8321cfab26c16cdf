//! Step code: JavaScript in Playwright Test syntax, run in an embedded QuickJS sandbox whose
//! `page`, locators and `expect` are a binding over the real browser.
//!
//! Main types: [`Sandbox`] (one QuickJS runtime per test thread: limits, running a step against
//! a [`Host`]),
//! [`StepFailure`] / [`FailureKind`] (how a step failed, for settle polling and healing).
//! The JavaScript half of the binding is `prelude.js`; the Rust half, with the table of allowed
//! browser calls, is `binding.rs`.

mod accessibility;
mod accessibility_settings;
mod api_methods;
mod api_request;
mod binding;
mod call_reach;
mod call_waits;
mod capped_body;
mod console_log;
mod context_requests;
mod cut_text;
mod driver_error;
mod event_waits;
mod events;
mod failure;
mod frame_calls;
mod guard_settle;
mod host;
mod host_calls;
mod host_requests;
mod http_method;
mod input_files;
mod late_calls;
mod methods;
mod mutation;
mod navigation;
mod observe;
mod op_params;
mod optional_target;
mod page_look;
mod page_reads;
mod page_slot;
mod page_state;
mod prelude_code;
mod proof_mode;
mod proof_responses;
mod sandbox;
mod sandbox_surface;
mod screenshots;
mod set_cookie;
mod snapshot_settings;
mod subject;
mod visual_diff;

pub(crate) use accessibility_settings::Accessibility;
pub(crate) use api_methods::{changes_the_page, refused_in_proof, waits_for_the_page};
pub(crate) use binding::StepHost;
pub(crate) use call_waits::TimedCall;
pub(crate) use failure::{FailureKind, RefusedCall, StepFailure};
pub(crate) use host::Host;
#[cfg(test)]
pub(crate) use http_method::HttpMethod;
pub(crate) use methods::Kind;
pub(crate) use mutation::{Mutation, ResponseEdit, TextEdit};
pub(crate) use observe::{Observation, ObservedCall, ValueCheck};
pub(crate) use page_reads::{READING_SCRIPTS, only_reads};
pub(crate) use page_state::PageState;
pub(crate) use proof_mode::{ProofMode, Read};
pub(crate) use sandbox::{Limits, Sandbox, api_listing};
pub(crate) use sandbox_surface::{SandboxSurface, sandbox_surface};
pub(crate) use snapshot_settings::{Screenshots, SnapshotMode};
pub(crate) use subject::{Container, Place, SubjectRead};
pub(crate) use visual_diff::VisualDiff;
