//! `prettyplay import FILE...`: Playwright plans (`*.plan.md`) and Gherkin files (`*.feature`)
//! written as `.steps` files into a directory, never over an existing file. Every file written
//! is parsed back as `.steps` first, so an import never leaves a file that does not load. One
//! file that cannot be imported does not stop the others: each is tried, and every error is
//! returned at the end.
//!
//! Main entry point: [`import_files`].

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::feature::feature_to_steps;
use super::plan::plan_to_steps;
use super::unportable::Unportable;
use crate::regular_file::read_regular;
use crate::scenario::{MAX_SCENARIO_BYTES, ScenarioError, parse, parse_feature_as_written};
use crate::visible::Visible;

/// Why a file was not imported.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ImportError {
    #[error("cannot read {}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{} is neither a Playwright plan (`*.plan.md`) nor a Gherkin file (`*.feature`)", .path.display())]
    Kind { path: PathBuf },
    #[error("{} holds no scenario with steps (`#### N.M. name`, then `**Steps:**` and a numbered list)", .path.display())]
    EmptyPlan { path: PathBuf },
    /// The `.feature` file does not parse (boxed, as every scenario error here).
    #[error(transparent)]
    Scenario(Box<ScenarioError>),
    #[error("{}:{line}: {reason}", .path.display())]
    Unportable {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    /// What the import wrote does not parse: a sentence `.steps` reads as something else.
    #[error("{} as `.steps` does not parse", .path.display())]
    Invalid {
        path: PathBuf,
        #[source]
        source: Box<ScenarioError>,
    },
    #[error("{} exists; import never overwrites a file", .path.display())]
    Exists { path: PathBuf },
    #[error("could not write {}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// More than one file was not imported (the others were).
    #[error("{}", Several(.errors, *.files))]
    Several {
        errors: Vec<ImportError>,
        /// How many files were given.
        files: usize,
    },
}

impl ImportError {
    pub(crate) fn hint(&self) -> Option<String> {
        match self {
            ImportError::Exists { .. } => Some(
                "remove or rename it, or import into another directory with `--output DIR`"
                    .to_owned(),
            ),
            ImportError::Invalid { .. } => {
                Some("fix that sentence in the source file and import again".to_owned())
            }
            _ => None,
        }
    }

    /// Whether writing failed (the machine's fault, not the files').
    pub(crate) fn is_infrastructure(&self) -> bool {
        match self {
            ImportError::Write { .. } => true,
            ImportError::Several { errors, .. } => errors.iter().any(Self::is_infrastructure),
            _ => false,
        }
    }

    fn unportable(path: &Path, unportable: Unportable) -> ImportError {
        ImportError::Unportable {
            path: path.to_owned(),
            line: unportable.line,
            reason: unportable.reason,
        }
    }
}

/// Displays [`ImportError::Several`]: a count, then each error with its causes and hint.
struct Several<'a>(&'a [ImportError], usize);

impl fmt::Display for Several<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of {} files were not imported:", self.0.len(), self.1)?;
        for error in self.0 {
            write!(f, "\n\n{error}")?;
            let mut source = std::error::Error::source(error);
            while let Some(cause) = source {
                write!(f, "\n  caused by: {cause}")?;
                source = cause.source();
            }
            if let Some(hint) = error.hint() {
                write!(f, "\n  hint: {hint}")?;
            }
        }
        Ok(())
    }
}

/// One file imported.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Imported {
    pub from: PathBuf,
    pub to: PathBuf,
    pub tests: usize,
    pub sentences: usize,
    /// Control characters of the source were written as escapes in names, sentences or values.
    pub escaped: bool,
}

/// Imports each of `files` (relative to `cwd`) into `dir` (`NAME.plan.md` and `NAME.feature`
/// become `NAME.steps`), telling `out` what it wrote. Every file is tried: the error returned,
/// if any, holds the error of each file that was not imported.
pub(crate) fn import_files(
    cwd: &Path,
    files: &[PathBuf],
    dir: &Path,
    out: &mut dyn Write,
) -> Result<Vec<Imported>, ImportError> {
    let mut imported = Vec::new();
    let mut errors = Vec::new();
    for given in files {
        match import_file(cwd, given, dir) {
            Ok(one) => {
                let shown_to = one
                    .to
                    .strip_prefix(cwd)
                    .unwrap_or(&one.to)
                    .display()
                    .to_string();
                // The names come from the file system and may hold control characters.
                let _ = writeln!(
                    out,
                    "imported {} -> {} ({} tests, {} sentences)",
                    Visible(given.display()),
                    Visible(&shown_to),
                    one.tests,
                    one.sentences
                );
                if one.escaped {
                    let _ = writeln!(
                        out,
                        "  control characters of {} are written as escapes (`\\x1b`) in {}: a \
                         comment marks each line",
                        Visible(given.display()),
                        Visible(&shown_to)
                    );
                }
                imported.push(one);
            }
            Err(error) => errors.push(error),
        }
    }
    match errors.len() {
        0 => Ok(imported),
        1 => Err(errors.remove(0)),
        _ => Err(ImportError::Several {
            errors,
            files: files.len(),
        }),
    }
}

/// Imports one file, `given` relative to `cwd`, into `dir`.
fn import_file(cwd: &Path, given: &Path, dir: &Path) -> Result<Imported, ImportError> {
    // Messages and the written file's comment name the file as given.
    let display = given.display().to_string();
    let file = &cwd.join(given);
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // A plan or feature comes from wherever the user got it: read with the bounds of a
    // `.steps` file, so a link to `/dev/zero` or a FIFO is an error, not a hang.
    let read = |path: &Path| {
        read_regular(path, MAX_SCENARIO_BYTES, "imported files").map_err(|source| {
            ImportError::Read {
                path: path.to_owned(),
                source,
            }
        })
    };
    let (stem, converted) = if let Some(stem) = name.strip_suffix(".plan.md") {
        let bytes = read(file)?;
        let source = String::from_utf8_lossy(&bytes);
        let (converted, _) =
            plan_to_steps(&display, &source).ok_or_else(|| ImportError::EmptyPlan {
                path: given.to_owned(),
            })?;
        (stem.to_owned(), converted)
    } else if let Some(stem) = name.strip_suffix(".feature") {
        let bytes = read(file)?;
        let parsed = parse_feature_as_written(&display, &bytes)
            .map_err(|e| ImportError::Scenario(Box::new(e)))?;
        let converted =
            feature_to_steps(&display, &parsed).map_err(|u| ImportError::unportable(given, u))?;
        (stem.to_owned(), converted)
    } else {
        return Err(ImportError::Kind {
            path: given.to_owned(),
        });
    };
    let to = dir.join(format!("{stem}.steps"));
    let text = converted.text;
    let parsed = parse(&to.display().to_string(), text.as_bytes()).map_err(|source| {
        ImportError::Invalid {
            path: to.clone(),
            source: Box::new(source),
        }
    })?;
    // Each sentence as written once: the rows of an examples table share their steps.
    let mut seen: Vec<&str> = Vec::new();
    let mut sentences = parsed.background.len();
    for test in &parsed.tests {
        if !seen.contains(&test.identity()) {
            seen.push(test.identity());
            sentences += test.steps.len();
        }
    }
    write_new(&to, &text)?;
    Ok(Imported {
        from: given.to_owned(),
        to,
        tests: parsed.tests.len(),
        sentences,
        escaped: converted.escaped,
    })
}

fn write_new(path: &Path, text: &str) -> Result<(), ImportError> {
    let error = |source| ImportError::Write {
        path: path.to_owned(),
        source,
    };
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(error)?;
    }
    match fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(mut file) => file.write_all(text.as_bytes()).map_err(error),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(ImportError::Exists {
            path: path.to_owned(),
        }),
        Err(e) => Err(error(e)),
    }
}
