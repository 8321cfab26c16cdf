//! Reading the files users name (`.steps` files, `prettyplay.toml`, cache files) with bounds:
//! only regular files, and only up to a size limit.
//!
//! Main function: [`read_regular`]. A path that is (or links to) a device such as `/dev/zero`, a
//! FIFO or a socket is refused from its metadata, before it is opened, so a read can neither run
//! forever nor block forever; a file over the limit is refused before it is read, and a file that
//! grows past the limit while it is read is refused too. The errors are `io::Error`s whose
//! message says what the file is and what to do, for the caller to wrap with the file's path.
//!
//! [`open_regular_nofollow`] and [`read_regular_nofollow`] are for files named by untrusted
//! input (report blobs found in a directory, and their attachments): they refuse a symbolic link instead of following
//! it, and they look at what was opened rather than at the path, so that a FIFO swapped in
//! neither blocks the open nor the read.

use std::fs::{self, File, FileType};
use std::io::{self, Read as _};
use std::path::Path;

/// One mebibyte, for limits.
pub(crate) const MIB: u64 = 1024 * 1024;

/// The bytes of the regular file at `path` (symbolic links followed), at most `limit` bytes.
///
/// `what` names the kind of file in messages, plural (e.g. "`.steps` files"). Errors: the
/// metadata or read errors of `path` as they are (so `NotFound` stays `NotFound`); a file that is
/// not regular (`InvalidInput`); a file over `limit` bytes (`FileTooLarge`).
pub(crate) fn read_regular(path: &Path, limit: u64, what: &str) -> io::Result<Vec<u8>> {
    let meta = fs::metadata(path)?;
    check(&meta, limit, what, Links::Followed)?;
    let file = File::open(path)?;
    // The file may have been replaced between the two looks: check what was opened, too.
    check(&file.metadata()?, limit, what, Links::Followed)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(None, limit, what));
    }
    Ok(bytes)
}

/// The regular file at `path`, opened for reading without following a symbolic link in its last
/// component, and its length, at most `limit` bytes.
///
/// The file is opened non-blocking, so that a FIFO does not wait for a writer, and its type and
/// size are checked on the opened descriptor. Errors: those of `open` (a symbolic link is
/// `ELOOP`, which says "too many levels of symbolic links"), a file that is not regular
/// (`InvalidInput`), a file over `limit` bytes (`FileTooLarge`).
pub(crate) fn open_regular_nofollow(
    path: &Path,
    limit: u64,
    what: &str,
) -> io::Result<(File, u64)> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let opened = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let file = match opened {
        Ok(file) => file,
        // `O_NOFOLLOW` refuses a link with `ELOOP`, whose own message ("too many levels of
        // symbolic links") does not say what is wrong with the file.
        Err(err)
            if err.raw_os_error() == Some(libc::ELOOP)
                && fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink()) =>
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "it is a symbolic link, not a regular file: {what} must be regular files, \
                     not links to them"
                ),
            ));
        }
        Err(err) => return Err(err),
    };
    let meta = file.metadata()?;
    check(&meta, limit, what, Links::Refused)?;
    Ok((file, meta.len()))
}

/// Like [`read_regular`], through [`open_regular_nofollow`]: a symbolic link is refused.
pub(crate) fn read_regular_nofollow(path: &Path, limit: u64, what: &str) -> io::Result<Vec<u8>> {
    let (file, len) = open_regular_nofollow(path, limit, what)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(None, limit, what));
    }
    Ok(bytes)
}

/// Like [`read_regular`], as UTF-8 text (`InvalidData` if it is not).
pub(crate) fn read_regular_to_string(path: &Path, limit: u64, what: &str) -> io::Result<String> {
    utf8(read_regular(path, limit, what)?)
}

/// Like [`read_regular_nofollow`], as UTF-8 text (`InvalidData` if it is not).
pub(crate) fn read_regular_nofollow_to_string(
    path: &Path,
    limit: u64,
    what: &str,
) -> io::Result<String> {
    utf8(read_regular_nofollow(path, limit, what)?)
}

fn utf8(bytes: Vec<u8>) -> io::Result<String> {
    String::from_utf8(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

/// Whether a read follows symbolic links, for the message that says what a file must be.
#[derive(Clone, Copy)]
enum Links {
    Followed,
    Refused,
}

fn check(meta: &fs::Metadata, limit: u64, what: &str, links: Links) -> io::Result<()> {
    if !meta.is_file() {
        let or_links = match links {
            Links::Followed => " (or symbolic links to them)",
            Links::Refused => "",
        };
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "it is {}, not a regular file: {what} must be regular files{or_links}",
                describe(meta.file_type())
            ),
        ));
    }
    if meta.len() > limit {
        return Err(too_large(Some(meta.len()), limit, what));
    }
    Ok(())
}

fn too_large(size: Option<u64>, limit: u64, what: &str) -> io::Error {
    let size = match size {
        Some(size) => format!("it is {size} bytes,"),
        None => "it grew while being read,".to_owned(),
    };
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "{size} over the limit of {limit} bytes ({}) for {what}: make it smaller or split it",
            human(limit)
        ),
    )
}

/// `10 MiB`, `64 KiB`, or bytes.
pub(crate) fn human(bytes: u64) -> String {
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

fn describe(kind: FileType) -> &'static str {
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a");
        fs::write(&path, "hello").unwrap();
        assert_eq!(read_regular(&path, 5, "files").unwrap(), b"hello");
        assert_eq!(read_regular_to_string(&path, 5, "files").unwrap(), "hello");
        let e = read_regular(&path, 4, "files").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "it is 5 bytes, over the limit of 4 bytes (4 bytes) for files: make it smaller or split it"
        );
    }

    #[test]
    fn missing_files_keep_their_error_kind() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_regular(&dir.path().join("nope"), 5, "files").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn directories_and_devices_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_regular(dir.path(), MIB, "files").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(
            e.to_string()
                .starts_with("it is a directory, not a regular file")
        );
        #[cfg(unix)]
        {
            let e = read_regular(Path::new("/dev/zero"), MIB, "`.steps` files").unwrap_err();
            assert_eq!(
                e.to_string(),
                "it is a character device, not a regular file: `.steps` files must be regular \
                 files (or symbolic links to them)"
            );
        }
    }

    #[test]
    fn nofollow_reads_refuse_links_fifos_and_big_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a");
        fs::write(&path, "hello").unwrap();
        assert_eq!(read_regular_nofollow(&path, 5, "files").unwrap(), b"hello");
        let e = read_regular_nofollow(&path, 4, "files").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let e = read_regular_nofollow(&link, 5, "files").unwrap_err();
        assert_eq!(
            e.to_string(),
            "it is a symbolic link, not a regular file: files must be regular files, not links \
             to them"
        );
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(read_regular_nofollow(&zero, MIB, "files").is_err());
        // A FIFO without a writer would block a plain open; this one returns at once.
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let e = read_regular_nofollow(&fifo, MIB, "files").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("it is a FIFO (named pipe), not a regular file"),
            "{e}"
        );
    }

    #[test]
    fn sizes_are_shown_in_round_units() {
        assert_eq!(human(10 * MIB), "10 MiB");
        assert_eq!(human(64 * 1024), "64 KiB");
        assert_eq!(human(1000), "1000 bytes");
    }
}
