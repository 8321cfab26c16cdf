//! Path helpers shared by settings, discovery and the step-code binding.

use std::path::{Component, Path, PathBuf};

/// Removes `.` components and resolves `..` lexically (symlinks are not consulted), so that
/// paths compare as written.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else if !matches!(
                    out.components().next_back(),
                    Some(Component::RootDir | Component::Prefix(_))
                ) {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_resolve_lexically() {
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(normalize(Path::new("../x/..")), PathBuf::from(".."));
        assert_eq!(normalize(Path::new("/..")), PathBuf::from("/"));
    }
}
