//! How the HTML report points at a test's Playwright trace: a link relative to the report's
//! directory when the trace is inside it (so the directory can be moved, published or served as
//! a whole, `prettyplay show-report`), and the `prettyplay show-trace` command that opens it.
//!
//! Main type: [`TraceLink`].

use std::path::{Component, Path};

use crate::paths::normalize;

/// Where a trace is, as the report shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TraceLink {
    /// Inside the report's directory: `path` relative to it, `/`-separated, and its URL
    /// (percent-encoded), relative to the report's `index.html`.
    Inside { path: String, href: String },
    /// Elsewhere (or not expressible as a relative link): the path as the run wrote it.
    Outside { path: String },
}

impl TraceLink {
    /// The link to `trace` (the path of a `trace_written` event) from a report written in
    /// `report_dir`. Both are compared as written, `.` and `..` resolved lexically: the run
    /// derives both from the same working directory.
    pub(crate) fn new(trace: &str, report_dir: &Path) -> Self {
        let inside = normalize(Path::new(trace))
            .strip_prefix(normalize(report_dir))
            .ok()
            .and_then(segments);
        match inside {
            Some(segments) if !segments.is_empty() => TraceLink::Inside {
                path: segments.join("/"),
                href: segments
                    .iter()
                    .map(|s| percent_encode(s))
                    .collect::<Vec<_>>()
                    .join("/"),
            },
            _ => TraceLink::Outside {
                path: trace.to_owned(),
            },
        }
    }

    /// The command that opens the trace in Playwright's trace viewer: run in the report's
    /// directory for a trace inside it, anywhere for one outside.
    pub(crate) fn command(&self) -> String {
        let path = match self {
            TraceLink::Inside { path, .. } | TraceLink::Outside { path } => path,
        };
        format!("prettyplay show-trace {}", shell_word(path))
    }
}

/// The UTF-8 names of a relative path made of plain names only.
fn segments(rel: &Path) -> Option<Vec<String>> {
    rel.components()
        .map(|component| match component {
            Component::Normal(name) => name.to_str().map(str::to_owned),
            _ => None,
        })
        .collect()
}

/// A path segment for a URL: everything but RFC 3986's unreserved characters percent-encoded.
fn percent_encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `word` as one word of a POSIX shell command line: as it is when it is made of characters no
/// shell treats specially, else single-quoted.
pub(crate) fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_inside_the_report_directory_is_linked_relative_to_it() {
        let link = TraceLink::new(
            "/work/proj/prettyplay-report/traces/scenarios_todo.steps-add_a_todo.zip",
            Path::new("/work/proj/prettyplay-report"),
        );
        assert_eq!(
            link,
            TraceLink::Inside {
                path: "traces/scenarios_todo.steps-add_a_todo.zip".into(),
                href: "traces/scenarios_todo.steps-add_a_todo.zip".into(),
            }
        );
        assert_eq!(
            link.command(),
            "prettyplay show-trace traces/scenarios_todo.steps-add_a_todo.zip"
        );
    }

    #[test]
    fn dots_in_either_path_resolve_before_they_are_compared() {
        let link = TraceLink::new(
            "/work/proj/sub/../report/./traces/a b#c.zip",
            Path::new("/work/proj/report/"),
        );
        assert_eq!(
            link,
            TraceLink::Inside {
                path: "traces/a b#c.zip".into(),
                href: "traces/a%20b%23c.zip".into(),
            }
        );
        assert_eq!(link.command(), "prettyplay show-trace 'traces/a b#c.zip'");
    }

    #[test]
    fn a_trace_outside_the_report_directory_keeps_its_path_and_gets_no_link() {
        for (trace, dir) in [
            ("/work/proj/traces/t.zip", "/work/proj/report"),
            ("/work/proj/report-2/t.zip", "/work/proj/report"),
            ("traces/t.zip", "/work/proj/report"),
            ("/work/proj/report", "/work/proj/report"),
        ] {
            assert_eq!(
                TraceLink::new(trace, Path::new(dir)),
                TraceLink::Outside { path: trace.into() },
                "{trace} from {dir}"
            );
        }
        let link = TraceLink::new("/tmp/it's here/t.zip", Path::new("/work/report"));
        assert_eq!(
            link.command(),
            r"prettyplay show-trace '/tmp/it'\''s here/t.zip'"
        );
    }
}
