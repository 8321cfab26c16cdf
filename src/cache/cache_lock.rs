//! The cache lock: one exclusive OS file lock on `<cache_dir>/.lock` for the whole cache.
//!
//! Main type: [`CacheLock`], a guard that holds the lock until dropped. Writes and prune take it;
//! readers don't (files are only ever replaced whole).

use std::fs::{self, File, OpenOptions};
use std::path::Path;

use super::CacheError;
use super::cache_error::io_error;

/// The lock file, directly in the cache directory. Safe to ignore (and to delete when no prettyplay
/// runs); users may add it to `.gitignore`.
pub(crate) const LOCK_FILE: &str = ".lock";

/// Holds the cache lock until dropped (closing the file releases it).
#[derive(Debug)]
pub(crate) struct CacheLock {
    _file: File,
}

impl CacheLock {
    /// Takes the exclusive lock (blocking) on `<dir>/.lock`, creating the directory and the lock
    /// file if missing. Another thread or process holding it makes this wait.
    pub(crate) fn acquire(dir: &Path) -> Result<Self, CacheError> {
        fs::create_dir_all(dir).map_err(io_error("create directory", dir))?;
        let path = dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error("open lock file", &path))?;
        file.lock().map_err(io_error("lock", &path))?;
        Ok(Self { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_lock_is_exclusive_until_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let cache_dir = dir.path().join("cache");
        let held = CacheLock::acquire(&cache_dir).unwrap();
        assert!(cache_dir.join(LOCK_FILE).is_file());
        let (sender, receiver) = mpsc::channel();
        let waiter = {
            let cache_dir = cache_dir.clone();
            std::thread::spawn(move || {
                let _lock = CacheLock::acquire(&cache_dir).unwrap();
                sender.send(()).unwrap();
            })
        };
        assert!(
            receiver.recv_timeout(Duration::from_millis(200)).is_err(),
            "a second lock was taken while the first was held"
        );
        drop(held);
        receiver.recv_timeout(Duration::from_secs(10)).unwrap();
        waiter.join().unwrap();
    }
}
