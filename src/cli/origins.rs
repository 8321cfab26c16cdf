//! `prettyplay origins`: the origins outside `[browser] allowed_origins` that the last run's
//! tests reached for, what became of their requests (loaded for the app, blocked, failed), and
//! the `allowed_origins` line that would let the app's own through.
//!
//! Main function: [`origins`]. It reads `.prettyplay/last-run.json`, which `run`, `replay` and
//! `audit` write.

use std::io::Write;

use crate::runner::{LastRun, OriginOutcome};

/// Writes the listing of the last run's origins for the project at `root` to `out`.
pub(crate) fn origins(root: &std::path::Path, out: &mut dyn Write) -> std::io::Result<()> {
    let path = LastRun::path(root);
    if !path.exists() {
        return writeln!(
            out,
            "no run is recorded in {}: run `prettyplay run` or `prettyplay replay` first",
            path.display()
        );
    }
    let record = LastRun::load(root);
    if record.origins.is_empty() {
        return writeln!(
            out,
            "the last run reached for no origin outside [browser] allowed_origins"
        );
    }
    writeln!(
        out,
        "origins outside [browser] allowed_origins in the last run ({}):",
        path.display()
    )?;
    let width = record
        .origins
        .iter()
        .map(|r| r.origin.len())
        .max()
        .unwrap_or(0);
    for record in &record.origins {
        writeln!(
            out,
            "  {:width$}  {:7}  {} ({}, {})  e.g. {}",
            record.origin,
            record.outcome.as_str(),
            record.kinds.join(", "),
            plural(record.requests, "request"),
            plural(record.tests, "test"),
            record.url,
        )?;
    }
    let app: Vec<String> = origins_with(&record, |o| o != OriginOutcome::Failed)
        .into_iter()
        .filter(|origin| origin.starts_with("http"))
        .map(|origin| format!("\"{origin}\""))
        .collect();
    if !app.is_empty() {
        writeln!(
            out,
            "to let the app's own requests through, add to [browser] in prettyplay.toml: \
             allowed_origins = [{}]",
            app.join(", ")
        )?;
    }
    let failed = origins_with(&record, |o| o == OriginOutcome::Failed);
    if !failed.is_empty() {
        writeln!(
            out,
            "failed: step code reached for {} (or a request carried a secret): allow it only if \
             you trust the code that did",
            failed.join(", ")
        )?;
    }
    Ok(())
}

/// The distinct origins of `record` whose outcome `keep` accepts, in order.
fn origins_with(record: &LastRun, keep: impl Fn(OriginOutcome) -> bool) -> Vec<String> {
    let mut origins: Vec<String> = Vec::new();
    for r in record.origins.iter().filter(|r| keep(r.outcome)) {
        if !origins.contains(&r.origin) {
            origins.push(r.origin.clone());
        }
    }
    origins
}

fn plural(n: u32, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::OriginSeen;

    fn listing(root: &std::path::Path) -> String {
        let mut out = Vec::new();
        origins(root, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_last_runs_origins_are_listed_with_a_line_to_allow_the_apps() {
        let dir = tempfile::tempdir().unwrap();
        assert!(listing(dir.path()).starts_with("no run is recorded in "));
        LastRun::default().save(dir.path()).unwrap();
        assert_eq!(
            listing(dir.path()),
            "the last run reached for no origin outside [browser] allowed_origins\n"
        );
        let mut record = LastRun::default();
        let seen = |origin: &str, outcome, kind: &str| OriginSeen {
            origin: origin.into(),
            outcome,
            kinds: vec![kind.into()],
            requests: 1,
            url: format!("{origin}/x"),
        };
        record.note_origins(&[
            seen("http://127.0.0.1:4001", OriginOutcome::Loaded, "font"),
            seen("http://127.0.0.1:4002", OriginOutcome::Blocked, "ping"),
            seen("http://127.0.0.1:4003", OriginOutcome::Failed, "fetch"),
        ]);
        record.note_origins(&[seen("http://127.0.0.1:4001", OriginOutcome::Loaded, "font")]);
        record.save(dir.path()).unwrap();
        let text = listing(dir.path());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1..],
            [
                "  http://127.0.0.1:4001  loaded   font (2 requests, 2 tests)  e.g. http://127.0.0.1:4001/x",
                "  http://127.0.0.1:4002  blocked  ping (1 request, 1 test)  e.g. http://127.0.0.1:4002/x",
                "  http://127.0.0.1:4003  failed   fetch (1 request, 1 test)  e.g. http://127.0.0.1:4003/x",
                "to let the app's own requests through, add to [browser] in prettyplay.toml: \
                 allowed_origins = [\"http://127.0.0.1:4001\", \"http://127.0.0.1:4002\"]",
                "failed: step code reached for http://127.0.0.1:4003 (or a request carried a \
                 secret): allow it only if you trust the code that did",
            ]
        );
    }
}
