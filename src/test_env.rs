//! An environment for unit tests: the `env` functions prettyplay reads its variables through
//! (`&dyn Fn(&str) -> Option<String>`), made from name and value pairs.

use std::collections::HashMap;

/// An environment holding exactly `pairs`.
pub(crate) fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    move |name| map.get(name).cloned()
}
