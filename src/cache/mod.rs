//! The repository cache: proven step code, one TOML file per scenario under `cache_dir`.
//!
//! Main types: [`StepKey`] (a step's identity), [`CachedStep`], [`Cache`] (the store: load,
//! atomic locked writes, prune). The format is documented in `docs/cache-format.md`.

mod identity;
mod prune;
mod store;

pub use identity::StepKey;
pub use prune::{Removal, prune};
pub use store::{Cache, CacheError, CacheFile, CachedStep};
