//! `prettyplay import FILE...`: Playwright plans (`*.plan.md`) and Gherkin files (`*.feature`)
//! written as `.steps` files into a directory, never over an existing file. Every file written
//! is parsed back as `.steps` first, so an import never leaves a file that does not load.
//!
//! Main entry point: [`import_files`].

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::feature::feature_to_steps;
use super::plan::plan_to_steps;
use crate::regular_file::read_regular;
use crate::scenario::{MAX_SCENARIO_BYTES, ScenarioError, parse, parse_feature};
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
}

/// One file imported.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Imported {
    pub from: PathBuf,
    pub to: PathBuf,
    pub tests: usize,
    pub sentences: usize,
}

/// Imports each of `files` (relative to `cwd`) into `dir` (`NAME.plan.md` and `NAME.feature` become `NAME.steps`),
/// telling `out` what it wrote.
pub(crate) fn import_files(
    cwd: &Path,
    files: &[PathBuf],
    dir: &Path,
    out: &mut dyn Write,
) -> Result<Vec<Imported>, ImportError> {
    let mut imported = Vec::new();
    for given in files {
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
        let (stem, text) = if let Some(stem) = name.strip_suffix(".plan.md") {
            let bytes = read(file)?;
            let source = String::from_utf8_lossy(&bytes);
            let (text, _) =
                plan_to_steps(&display, &source).ok_or_else(|| ImportError::EmptyPlan {
                    path: given.clone(),
                })?;
            (stem.to_owned(), text)
        } else if let Some(stem) = name.strip_suffix(".feature") {
            let bytes = read(file)?;
            let parsed =
                parse_feature(&display, &bytes).map_err(|e| ImportError::Scenario(Box::new(e)))?;
            let text =
                feature_to_steps(&display, &parsed).map_err(|u| ImportError::Unportable {
                    path: given.clone(),
                    line: u.line,
                    reason: u.reason,
                })?;
            (stem.to_owned(), text)
        } else {
            return Err(ImportError::Kind {
                path: given.clone(),
            });
        };
        let to = dir.join(format!("{stem}.steps"));
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
        let shown_to = to.strip_prefix(cwd).unwrap_or(&to).display().to_string();
        // The names come from the file system and may hold control characters.
        let _ = writeln!(
            out,
            "imported {} -> {} ({} tests, {sentences} sentences)",
            Visible(&display),
            Visible(&shown_to),
            parsed.tests.len()
        );
        imported.push(Imported {
            from: given.clone(),
            to,
            tests: parsed.tests.len(),
            sentences,
        });
    }
    Ok(imported)
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
