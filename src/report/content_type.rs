//! The `Content-Type` `prettyplay show-report` answers for a file of a report directory.
//!
//! Main function: [`content_type`].

use std::ffi::OsStr;
use std::path::Path;

/// The `Content-Type` of a file, from its extension.
pub(crate) fn content_type(path: &Path) -> &'static str {
    let extension = path
        .extension()
        .and_then(OsStr::to_str)
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match extension.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        // JSON lines (events.jsonl): shown as text rather than downloaded.
        "jsonl" | "txt" | "log" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "wasm" => "application/wasm",
        "zip" => "application/zip",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "webm" => "video/webm",
        "mp4" => "video/mp4",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_decides_case_insensitively_and_unknown_is_octet_stream() {
        for (name, expected) in [
            ("index.html", "text/html; charset=utf-8"),
            ("report.JS", "text/javascript; charset=utf-8"),
            ("trace.zip", "application/zip"),
            ("shot.png", "image/png"),
            ("icon.svg", "image/svg+xml"),
            ("codec.wasm", "application/wasm"),
            ("events.jsonl", "text/plain; charset=utf-8"),
            ("junit.xml", "application/xml"),
            ("README", "application/octet-stream"),
            ("archive.tar.gz", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Path::new(name)), expected, "{name}");
        }
    }
}
