//! [`Sources`]: which source gave each setting of a run (a flag, an environment variable or the
//! settings file), so that an error about a value can tell the user where to change it: a bad
//! `--executable` is blamed on the flag, not on `[browser] executable` in `prettyplay.toml`.
//!
//! Keys are dotted (`browser.executable`, `llm.base_url`, `scenarios`).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::defaults::CONFIG_FILE;
use super::overrides::flag_of;

/// Where one setting came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A command-line flag, such as `--executable`.
    Flag(&'static str),
    /// A `PRETTYPLAY_*` environment variable.
    Env(String),
    /// The settings file at this path.
    File(PathBuf),
}

/// The source of every setting that a flag, the environment or the file gave; the others have
/// their default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    by_key: BTreeMap<String, Source>,
}

impl Sources {
    /// The sources of the keys each layer says, from the lowest (the file at `file`) to the
    /// highest (the flags): a higher source replaces a lower one, as the values do.
    pub(super) fn new(
        file: (Vec<String>, Option<&Path>),
        env: Vec<String>,
        flags: Vec<String>,
    ) -> Sources {
        let mut by_key = BTreeMap::new();
        if let (keys, Some(path)) = file {
            for key in keys {
                by_key.insert(key, Source::File(path.to_path_buf()));
            }
        }
        for key in env {
            let var = env_var_of(&key);
            by_key.insert(key, Source::Env(var));
        }
        for key in flags {
            // A layer of flags only says keys that have a flag; the lookup cannot miss for
            // them, and a key without one keeps its lower source.
            if let Some(flag) = flag_of(&key) {
                by_key.insert(key, Source::Flag(flag));
            }
        }
        Sources { by_key }
    }

    /// Where the value of `key` came from; `None` for a default.
    pub fn of(&self, key: &str) -> Option<&Source> {
        self.by_key.get(key)
    }

    /// Where to change `key`, as a hint says it: the flag, the variable or the file that gave
    /// its value, or for a default every place that could set it.
    pub fn place(&self, key: &str) -> Place<'_> {
        Place {
            key: key.to_owned(),
            source: self.of(key),
        }
    }
}

/// Where to change one setting, as [`Sources::place`] returns it. Displayed as
/// `` `--executable` ``, `` `PRETTYPLAY_BROWSER_EXECUTABLE` ``,
/// `` `[browser] executable` in /p/prettyplay.toml ``, or for a default
/// `` `[browser] executable` in prettyplay.toml, `PRETTYPLAY_BROWSER_EXECUTABLE` or `--executable` ``.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place<'a> {
    key: String,
    source: Option<&'a Source>,
}

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let in_file = file_key(&self.key);
        match self.source {
            Some(Source::Flag(flag)) => write!(f, "`{flag}`"),
            Some(Source::Env(var)) => write!(f, "`{var}`"),
            Some(Source::File(path)) => write!(f, "{in_file} in {}", path.display()),
            None => {
                let var = env_var_of(&self.key);
                match flag_of(&self.key) {
                    Some(flag) => write!(f, "{in_file} in {CONFIG_FILE}, `{var}` or `{flag}`"),
                    None => write!(f, "{in_file} in {CONFIG_FILE} or `{var}`"),
                }
            }
        }
    }
}

/// `` `[browser] executable` `` for `browser.executable`; `` `scenarios` `` for a top-level key.
fn file_key(key: &str) -> String {
    match key.split_once('.') {
        Some((section, name)) => format!("`[{section}] {name}`"),
        None => format!("`{key}`"),
    }
}

/// The environment variable of a key: `PRETTYPLAY_<SECTION>_<KEY>`, or `PRETTYPLAY_<KEY>` at the
/// top level.
fn env_var_of(key: &str) -> String {
    format!("PRETTYPLAY_{}", key.replace('.', "_").to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn the_highest_source_of_each_key_is_kept() {
        let file = Path::new("/p/prettyplay.toml");
        let sources = Sources::new(
            (
                keys(&["browser.executable", "llm.base_url", "scenarios"]),
                Some(file),
            ),
            keys(&["llm.base_url", "browser.timeout"]),
            keys(&["browser.executable"]),
        );
        assert_eq!(
            sources.of("browser.executable"),
            Some(&Source::Flag("--executable"))
        );
        assert_eq!(
            sources.of("llm.base_url"),
            Some(&Source::Env("PRETTYPLAY_LLM_BASE_URL".into()))
        );
        assert_eq!(
            sources.of("scenarios"),
            Some(&Source::File(file.to_path_buf()))
        );
        assert_eq!(sources.of("browser.screen"), None);
    }

    #[test]
    fn a_place_names_the_source_or_every_way_to_set_a_default() {
        let sources = Sources::new(
            (
                keys(&["llm.base_url", "scenarios"]),
                Some(Path::new("/p/pp.toml")),
            ),
            keys(&["browser.timeout"]),
            keys(&["browser.executable"]),
        );
        for (key, shown) in [
            ("browser.executable", "`--executable`"),
            ("browser.timeout", "`PRETTYPLAY_BROWSER_TIMEOUT`"),
            ("llm.base_url", "`[llm] base_url` in /p/pp.toml"),
            ("scenarios", "`scenarios` in /p/pp.toml"),
            (
                "browser.screen",
                "`[browser] screen` in prettyplay.toml, `PRETTYPLAY_BROWSER_SCREEN` or `--screen`",
            ),
            (
                "llm.api_key_env",
                "`[llm] api_key_env` in prettyplay.toml or `PRETTYPLAY_LLM_API_KEY_ENV`",
            ),
        ] {
            assert_eq!(sources.place(key).to_string(), shown, "{key}");
        }
    }
}
