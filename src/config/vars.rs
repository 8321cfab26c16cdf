//! Scenario variables: `[vars]` of `prettyplay.toml` (public values, and `secret = [...]`), a
//! `.env` file beside it, and the process environment, in rising precedence.
//!
//! Main types: [`VarSettings`] (what `[vars]` says, part of the settings) and [`Vars`] (the
//! values of one run, each marked secret or public). Every value from `.env` or the environment
//! is a secret; so is every `[vars]` name listed in `secret`. Documented in
//! `docs/configuration.md` (`[vars]`) and `docs/steps-format.md` (`${NAME}`).

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::Path;

use toml::Spanned;

use super::ConfigError;
use super::file_context::FileContext;
use crate::scenario::is_var_name;
use crate::secrets::{MIN_SECRET_CHARS, Secrets};

/// The name of the dotenv file read beside `prettyplay.toml`.
pub(crate) const DOTENV_FILE: &str = ".env";

/// The key of `[vars]` that lists secret names; it cannot be a variable.
const SECRET_KEY: &str = "secret";

/// `[vars]` as written: `NAME = "value"`, and `secret = ["NAME", ...]`.
pub(super) type RawVars = BTreeMap<String, Spanned<toml::Value>>;

/// What `[vars]` says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VarSettings {
    /// `NAME = "value"`: public values, committed with the project.
    pub values: BTreeMap<String, String>,
    /// `secret = [...]`: names whose values are masked like those of `.env` and the environment.
    pub secret: BTreeSet<String>,
}

impl VarSettings {
    /// `[vars]` of the settings file, checked: string values under variable names, and `secret`
    /// a list of such names.
    pub(super) fn from_file(raw: RawVars, file: &FileContext<'_>) -> Result<Self, ConfigError> {
        let mut settings = VarSettings::default();
        for (name, value) in raw {
            let span = value.span();
            if name == SECRET_KEY {
                let names = value
                    .get_ref()
                    .as_array()
                    .map(|items| {
                        items
                            .iter()
                            .map(|item| item.as_str().filter(|n| is_var_name(n)))
                            .collect::<Option<Vec<_>>>()
                    })
                    .unwrap_or(None);
                let Some(names) = names else {
                    return Err(file.error(
                        Some(span),
                        "`vars.secret` must be a list of variable names".to_owned(),
                        Some("e.g. `secret = [\"API_TOKEN\"]`".to_owned()),
                    ));
                };
                settings.secret.extend(names.into_iter().map(str::to_owned));
                continue;
            }
            if !is_var_name(&name) {
                return Err(file.error(
                    Some(span),
                    format!("`{name}` cannot be a variable name"),
                    Some("names are ASCII letters, digits and `_`, e.g. `USER_NAME`".to_owned()),
                ));
            }
            let Some(text) = value.get_ref().as_str() else {
                return Err(file.error(
                    Some(span),
                    format!("`vars.{name}` must be a string"),
                    Some(format!("quote it: `{name} = \"...\"`")),
                ));
            };
            settings.values.insert(name, text.to_owned());
        }
        Ok(settings)
    }
}

/// One variable's value and whether it is a secret.
#[derive(Clone, PartialEq, Eq)]
struct Var {
    value: String,
    secret: bool,
}

/// The variable values of a run.
#[derive(Clone, Default, PartialEq, Eq)]
pub(crate) struct Vars {
    values: BTreeMap<String, Var>,
}

impl Vars {
    /// Resolves `names` (and every `[vars]` name) from the environment (`env`; an empty value
    /// counts as unset), then `<project_root>/.env` (optional), then `[vars]`. A name found
    /// nowhere is left out: the caller reports it where it is used. A secret shorter than
    /// [`MIN_SECRET_CHARS`] characters is an error.
    pub(crate) fn resolve<'n>(
        settings: &VarSettings,
        project_root: &Path,
        env: &dyn Fn(&str) -> Option<String>,
        names: impl IntoIterator<Item = &'n str>,
    ) -> Result<Vars, ConfigError> {
        let dotenv = read_dotenv(&project_root.join(DOTENV_FILE))?;
        let mut wanted: BTreeSet<String> = names.into_iter().map(str::to_owned).collect();
        wanted.extend(settings.values.keys().cloned());
        wanted.extend(settings.secret.iter().cloned());
        let mut values = BTreeMap::new();
        for name in &wanted {
            let name = name.as_str();
            let var = if let Some(value) = env(name).filter(|v| !v.is_empty()) {
                Var {
                    value,
                    secret: true,
                }
            } else if let Some(value) = dotenv.get(name).filter(|v| !v.is_empty()) {
                Var {
                    value: value.clone(),
                    secret: true,
                }
            } else if let Some(value) = settings.values.get(name) {
                Var {
                    value: value.clone(),
                    secret: settings.secret.contains(name),
                }
            } else {
                continue;
            };
            let chars = var.value.chars().count();
            if var.secret && chars < MIN_SECRET_CHARS {
                return Err(ConfigError::Vars {
                    message: format!(
                        "the secret ${{{name}}} has {chars} character(s): a secret shorter than \
                         {MIN_SECRET_CHARS} characters cannot be masked in reports"
                    ),
                    hint: "use a longer value; values from .env and the environment are always \
                           secrets, so a short public value belongs in [vars] under a name the \
                           environment does not set"
                        .to_owned(),
                });
            }
            values.insert(name.to_owned(), var);
        }
        Ok(Vars { values })
    }

    /// Whether `name` has a value.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// Whether `name` is a secret (false for an unknown name).
    #[cfg(test)]
    pub(crate) fn is_secret(&self, name: &str) -> bool {
        self.values.get(name).is_some_and(|var| var.secret)
    }

    /// Every value by name, for step code's `vars`.
    pub(crate) fn values(&self) -> BTreeMap<String, String> {
        self.values
            .iter()
            .map(|(name, var)| (name.clone(), var.value.clone()))
            .collect()
    }

    /// The secret values, for the sinks.
    pub(crate) fn secrets(&self) -> Secrets {
        Secrets::new(
            self.values
                .iter()
                .filter(|(_, var)| var.secret)
                .map(|(name, var)| (name.clone(), var.value.clone())),
        )
    }
}

/// Names and whether each is secret: values never reach a debug print.
impl std::fmt::Debug for Vars {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.values.iter().map(|(name, var)| {
                (
                    name,
                    if var.secret {
                        "*** (secret)"
                    } else {
                        "(public)"
                    },
                )
            }))
            .finish()
    }
}

/// The `NAME=value` pairs of a dotenv file; none when it does not exist. The process
/// environment is left alone. A line that does not parse is an error that names its position
/// only: the line may hold a secret.
fn read_dotenv(path: &Path) -> Result<BTreeMap<String, String>, ConfigError> {
    let read_error = |path: &Path, source: io::Error| ConfigError::Read {
        path: path.to_owned(),
        source,
    };
    let iter = match dotenvy::from_path_iter(path) {
        Ok(iter) => iter,
        Err(dotenvy::Error::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(BTreeMap::new());
        }
        Err(dotenvy::Error::Io(e)) => return Err(read_error(path, e)),
        Err(other) => return Err(read_error(path, io::Error::other(describe(&other)))),
    };
    let mut values = BTreeMap::new();
    for item in iter {
        match item {
            Ok((name, value)) => {
                values.insert(name, value);
            }
            Err(dotenvy::Error::Io(e)) => return Err(read_error(path, e)),
            Err(other) => {
                return Err(read_error(path, io::Error::other(describe(&other))));
            }
        }
    }
    Ok(values)
}

/// A dotenv error without the text of the line (it may hold a secret).
fn describe(error: &dotenvy::Error) -> String {
    match error {
        dotenvy::Error::LineParse(_, index) => {
            format!("a line does not parse as NAME=value (at character {index} of it)")
        }
        dotenvy::Error::EnvVar(_) => "a variable it names cannot be read".to_owned(),
        _ => "it does not parse as NAME=value lines".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn settings() -> VarSettings {
        VarSettings {
            values: BTreeMap::from([
                ("USER".to_owned(), "alice".to_owned()),
                ("TOKEN".to_owned(), "tok-public-but-marked".to_owned()),
            ]),
            secret: BTreeSet::from(["TOKEN".to_owned()]),
        }
    }

    #[test]
    fn environment_beats_dotenv_beats_vars_and_only_vars_values_are_public() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join(".env"),
            "PASSWORD=from-dotenv-1\nUSER=bob-dotenv\n",
        )
        .unwrap();
        let env = |name: &str| (name == "PASSWORD").then(|| "from-env-22".to_owned());
        let vars = Vars::resolve(&settings(), dir.path(), &env, ["PASSWORD", "MISSING"]).unwrap();
        assert_eq!(
            vars.values(),
            BTreeMap::from([
                ("PASSWORD".to_owned(), "from-env-22".to_owned()),
                ("TOKEN".to_owned(), "tok-public-but-marked".to_owned()),
                ("USER".to_owned(), "bob-dotenv".to_owned()),
            ])
        );
        assert!(!vars.has("MISSING"));
        assert!(vars.is_secret("PASSWORD") && vars.is_secret("USER") && vars.is_secret("TOKEN"));
        let public = Vars::resolve(&settings(), Path::new("/nonexistent"), &|_| None, []).unwrap();
        assert!(!public.is_secret("USER"));
        assert_eq!(
            public.secrets().found_in("tok-public-but-marked"),
            Some("TOKEN")
        );
        assert!(!format!("{public:?}").contains("tok-public"));
    }

    #[test]
    fn a_short_secret_is_refused_and_a_bad_dotenv_line_is_not_echoed() {
        let env = |name: &str| (name == "PIN").then(|| "123".to_owned());
        let error = Vars::resolve(&VarSettings::default(), Path::new("/x"), &env, ["PIN"])
            .unwrap_err()
            .to_string();
        assert!(error.contains("${PIN} has 3 character(s)"), "{error}");
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join(".env"),
            "GOOD=1\nthis is hunter22 not a pair\n",
        )
        .unwrap();
        let error = Vars::resolve(&VarSettings::default(), dir.path(), &|_| None, []).unwrap_err();
        let shown = format!("{error} {:?}", std::error::Error::source(&error));
        assert!(!shown.contains("hunter22"), "{shown}");
    }
}
