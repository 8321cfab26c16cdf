//! The repository cache: proven step code, one TOML file per scenario under `cache_dir`.
//!
//! Main types: [`StepKey`] (a step's identity), [`CachedStep`] (with its [`ProofRecord`]),
//! [`CacheFile`] (one file's entries and its format), [`Cache`] (the store: load, atomic locked
//! writes, prune), [`CacheError`]. The format is documented in `docs/cache-format.md`.

mod baselines;
#[expect(
    clippy::module_inception,
    reason = "one main type per file, named after it"
)]
mod cache;
mod cache_document;
mod cache_error;
mod cache_file;
mod cache_lock;
mod cached_step;
mod identity;
mod proof_record;
mod prune;
mod toml_string;

pub(crate) use baselines::{BaselineName, Baselines, slug};
pub use cache::Cache;
pub(crate) use cache::MAX_STEP_CODE_BYTES;
pub(crate) use cache_error::CacheError;
pub(crate) use cache_file::CacheFile;
pub use cached_step::Author;
pub(crate) use cached_step::CachedStep;
pub use identity::StepKey;
pub use proof_record::{MutationKind, ProofRecord, Unproven};
pub(crate) use prune::{Removal, prune};
