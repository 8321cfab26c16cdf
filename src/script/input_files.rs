//! The files step code may upload with `locator.setInputFiles(paths)`: paths resolve inside the
//! project directory, and anything outside it (an absolute path elsewhere, `..` escaping, a
//! symbolic link pointing out) is refused.
//!
//! Main function: [`input_files`], which turns the paths into the protocol's `setInputFiles`
//! parameters. The driver runs on this machine, so, like Playwright's own client with a local
//! driver, it receives checked absolute paths (`localPaths`, or `localDirectory` for one
//! directory) and reads the files itself: names, MIME types and timestamps come out exactly as
//! Playwright makes them.

use std::path::{Path, PathBuf};

use crate::paths::normalize;

use serde_json::{Value, json};

use crate::script::driver_error::HostError;

/// The `setInputFiles` parameters for `files` (the paths step code gave), checked against
/// `project_dir`. No paths clear the input.
pub(crate) fn input_files(project_dir: &Path, files: &[Value]) -> Result<Value, HostError> {
    if files.is_empty() {
        return Ok(json!({ "payloads": [] }));
    }
    let refused = HostError::script;
    let root = project_dir.canonicalize().map_err(|err| {
        refused(format!(
            "the project directory {}: {err}",
            project_dir.display()
        ))
    })?;
    let mut paths = Vec::with_capacity(files.len());
    for file in files {
        let Some(file) = file.as_str() else {
            return Err(refused(format!("expected a file path, got {file}")));
        };
        paths.push(inside(project_dir, &root, file).map_err(|err| refused(err.to_string()))?);
    }
    let directories = paths.iter().filter(|p| p.is_dir()).count();
    match (directories, paths.len()) {
        (0, _) => Ok(json!({ "localPaths": paths })),
        (1, 1) => Ok(json!({ "localDirectory": paths[0] })),
        _ => Err(refused(
            "file paths must be all files or a single directory".to_owned(),
        )),
    }
}

/// `file` (relative to `project_dir`, or absolute) as a canonical path, if it exists inside the
/// project (`root` is its canonical form). Containment is checked on the path as written (so a
/// missing file outside is still refused as outside) and again once symbolic links are resolved.
fn inside(project_dir: &Path, root: &Path, file: &str) -> Result<PathBuf, InputFileError> {
    let outside = || InputFileError::Outside {
        file: file.to_owned(),
        root: root.to_owned(),
    };
    let written = normalize(&project_dir.join(file));
    if !written.starts_with(normalize(project_dir)) && !written.starts_with(root) {
        return Err(outside());
    }
    let resolved =
        project_dir
            .join(file)
            .canonicalize()
            .map_err(|source| InputFileError::Unreadable {
                file: file.to_owned(),
                source,
            })?;
    if resolved.starts_with(root) {
        Ok(resolved)
    } else {
        Err(outside())
    }
}

/// Why a file step code gave `setInputFiles` is refused.
#[derive(Debug, thiserror::Error)]
enum InputFileError {
    #[error(
        "{file:?} is outside the project directory ({}); step code may only upload files from \
         inside it",
        root.display()
    )]
    Outside { file: String, root: PathBuf },
    // The cause is part of the message: step code sees this text, not a chain.
    #[error("cannot read {file:?} in the project directory: {source}")]
    Unreadable {
        file: String,
        source: std::io::Error,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("project/files")).unwrap();
        std::fs::write(dir.path().join("project/files/a.txt"), "a").unwrap();
        std::fs::write(dir.path().join("project/b.txt"), "b").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "s").unwrap();
        dir
    }

    #[test]
    fn relative_and_absolute_paths_inside_the_project_are_sent_as_local_paths() {
        let dir = project();
        let root = dir.path().join("project");
        let absolute = root.join("b.txt").display().to_string();
        let params = input_files(&root, &[json!("files/a.txt"), json!(absolute)]).unwrap();
        let canonical = root.canonicalize().unwrap();
        assert_eq!(
            params,
            json!({ "localPaths": [canonical.join("files/a.txt"), canonical.join("b.txt")] })
        );
    }

    #[test]
    fn no_paths_clear_the_input() {
        assert_eq!(
            input_files(Path::new("/nonexistent"), &[]).unwrap(),
            json!({ "payloads": [] })
        );
    }

    #[test]
    fn paths_outside_the_project_are_refused() {
        let dir = project();
        let root = dir.path().join("project");
        for path in [
            "../secret.txt".to_owned(),
            "../missing.txt".to_owned(),
            "files/../../secret.txt".to_owned(),
            dir.path().join("secret.txt").display().to_string(),
            "/etc/passwd".to_owned(),
        ] {
            let err = input_files(&root, &[json!(path)]).unwrap_err();
            assert!(
                err.message.contains("outside the project directory"),
                "{path}: {}",
                err.message
            );
            assert_eq!(err.kind, crate::script::FailureKind::Script);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_out_of_the_project_is_refused() {
        let dir = project();
        let root = dir.path().join("project");
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("link.txt")).unwrap();
        let err = input_files(&root, &[json!("link.txt")]).unwrap_err();
        assert!(err.message.contains("outside the project directory"));
    }

    #[test]
    fn a_missing_file_is_a_clear_error() {
        let dir = project();
        let root = dir.path().join("project");
        let err = input_files(&root, &[json!("nope.txt")]).unwrap_err();
        assert!(
            err.message.contains("cannot read \"nope.txt\""),
            "{}",
            err.message
        );
    }

    #[test]
    fn one_directory_is_sent_as_a_local_directory() {
        let dir = project();
        let root = dir.path().join("project");
        let params = input_files(&root, &[json!("files")]).unwrap();
        assert_eq!(
            params,
            json!({ "localDirectory": root.canonicalize().unwrap().join("files") })
        );
        assert!(input_files(&root, &[json!("files"), json!("b.txt")]).is_err());
    }
}
