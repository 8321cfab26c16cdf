//! `prettyplay merge-reports`: the report blobs of the shards of a run, combined into the event
//! stream of one run, which the usual reporters then render (one HTML, one JUnit, one summary).
//!
//! Tests come in a stable order, by browser project (tests without one first), then file, line
//! and name; each test's events stay in the order its shard wrote them. The same test in two
//! browser projects is two tests. The totals are counted again from the merged events; the run's
//! duration is that of the longest shard (the wall time of the merged run, as in Playwright's
//! merge-reports). A setup test (`[saves=NAME]`) that several shards ran is kept once (a failed
//! run of it over a passed one); any other test in two blobs is an error.
//!
//! Main function: [`merge_blobs`].

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::{self, Read as _};
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use super::blob::SetupTest;
use super::blob_read::{Blob, MAX_TRACE_BYTES, MergeError, ScreenshotBudget, read_blob};
use crate::regular_file::{human, open_regular_nofollow};
use crate::runner::{
    EventKind, EventTime, RunEvent, RunFinished, RunKind, RunStarted, RunStats, StepId, StopReason,
    TestId, TestKind, TestOutcome,
};

/// The blob files under `paths`: a file as it is, a directory's `*.jsonl` files at any depth
/// (an artifact download may put each shard's blob in a directory of its own), sorted.
///
/// A blob named on the command line may be a symbolic link, because the user chose it: it is
/// read where the link leads. One found in a directory came with the artifact, so anything named
/// `*.jsonl` there that is not a directory is taken, and a link, a FIFO or a device among them is
/// then refused by [`read_blob`] with its name, rather than skipped in silence (which would drop
/// a shard's tests from the report) or followed out of the directory.
pub(crate) fn find_blobs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, MergeError> {
    let mut blobs = Vec::new();
    for path in paths {
        let read_error = |path: &Path, source| MergeError::Read {
            path: path.to_path_buf(),
            source,
        };
        if !path.is_dir() {
            let meta = fs::symlink_metadata(path).map_err(|err| read_error(path, err))?;
            blobs.push(if meta.file_type().is_symlink() {
                fs::canonicalize(path).map_err(|err| read_error(path, err))?
            } else {
                path.clone()
            });
            continue;
        }
        let mut found = Vec::new();
        for entry in walkdir::WalkDir::new(path) {
            let entry = entry.map_err(|err| {
                let at = err.path().unwrap_or(path).to_path_buf();
                read_error(&at, err.into())
            })?;
            if !entry.file_type().is_dir()
                && entry.path().extension().is_some_and(|ext| ext == "jsonl")
            {
                found.push(entry.into_path());
            }
        }
        found.sort();
        blobs.extend(found);
    }
    if blobs.is_empty() {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(MergeError::NoBlobs(names.join(", ")));
    }
    Ok(blobs)
}

/// What tells the tests of a merged run apart, in the order they come: browser project, file,
/// line, name.
type Key = (Option<String>, String, usize, String);

fn key(test: &TestId) -> Key {
    (
        test.project.clone(),
        test.scenario.clone(),
        test.line,
        test.name.clone(),
    )
}

/// One test of the merged run: where it came from and its events.
struct Entry {
    /// The test, for the error that finds it twice.
    test: TestId,
    /// `file:line` of its first event, for the error that finds it twice.
    from: String,
    /// Whether its blob lists it as a setup test.
    setup: bool,
    failed: bool,
    events: Vec<RunEvent>,
}

/// The run merged from blobs.
#[derive(Debug)]
pub(crate) struct Merged {
    /// `run_started`, every test's events (by file and line), `run_finished` with the merged
    /// totals.
    pub events: Vec<RunEvent>,
    /// The shards (`K/N`) of the split whose blobs were not among those merged: a shard that
    /// failed before it wrote its blob, or that had no tests.
    pub missing_shards: Vec<String>,
}

/// What the shards' own events (`run_started`, `run_finished`) say, added up.
#[derive(Default)]
struct Shards {
    /// The tests the shards selected.
    selected: usize,
    /// The earliest start and the latest end among the shards whose events have a time.
    started: Option<EventTime>,
    finished: Option<EventTime>,
    /// Each shard's totals.
    totals: Vec<RunStats>,
}

impl Shards {
    fn observe(&mut self, time: Option<EventTime>, kind: RunKind) {
        match kind {
            RunKind::Started(started) => {
                self.selected += started.tests;
                self.started = earliest(self.started, time);
            }
            RunKind::Finished(finished) => {
                self.finished = latest(self.finished, time);
                self.totals.push(finished.stats);
            }
        }
    }
}

fn earliest(kept: Option<EventTime>, time: Option<EventTime>) -> Option<EventTime> {
    kept.into_iter()
        .chain(time)
        .min_by_key(|time| time.timestamp)
}

fn latest(kept: Option<EventTime>, time: Option<EventTime>) -> Option<EventTime> {
    kept.into_iter()
        .chain(time)
        .max_by_key(|time| time.timestamp)
}

/// The run made of the blobs at `paths` (see [`Merged`]). Traces are copied into `trace_dir`
/// (each file once) and the events name them there. The merged run starts when the first
/// shard started and finishes when the last one finished; the other events keep their times.
pub(crate) fn merge_blobs(paths: &[PathBuf], trace_dir: &Path) -> Result<Merged, MergeError> {
    let mut budget = ScreenshotBudget::new();
    let blobs = paths
        .iter()
        .map(|path| read_blob(path, &mut budget))
        .collect::<Result<Vec<Blob>, _>>()?;
    let missing_shards = missing_shards(&blobs);
    let mut traces = TraceCopies::new(trace_dir);
    let mut tests: BTreeMap<Key, Entry> = BTreeMap::new();
    let mut shards = Shards::default();
    let mut dropped = 0;
    for blob in blobs {
        for (key, entry) in entries_of(blob, &mut traces, &mut shards)? {
            match tests.get(&key) {
                None => {
                    tests.insert(key, entry);
                }
                Some(kept) if kept.setup && entry.setup => {
                    dropped += 1;
                    if entry.failed && !kept.failed {
                        tests.insert(key, entry);
                    }
                }
                Some(kept) => {
                    return Err(MergeError::Duplicate {
                        test: kept.test.to_string(),
                        first: kept.from.clone(),
                        second: entry.from,
                    });
                }
            }
        }
    }
    let started = RunStarted {
        tests: shards.selected.saturating_sub(dropped),
    };
    let mut events = vec![RunEvent {
        time: shards.started,
        kind: EventKind::Run(started.into()),
    }];
    events.extend(tests.into_values().flat_map(|entry| entry.events));
    let stats = merged_stats(&events, &shards.totals);
    events.push(RunEvent {
        time: shards.finished,
        kind: EventKind::Run(RunFinished { stats }.into()),
    });
    Ok(Merged {
        events,
        missing_shards,
    })
}

/// The tests of `blob`, each with its events (its traces copied by `traces`); the blob's own
/// events go to `shards`.
fn entries_of(
    blob: Blob,
    traces: &mut TraceCopies<'_>,
    shards: &mut Shards,
) -> Result<BTreeMap<Key, Entry>, MergeError> {
    let mut entries: BTreeMap<Key, Entry> = BTreeMap::new();
    for (line, event) in blob.events {
        let test = match event.kind {
            EventKind::Run(kind) => {
                shards.observe(event.time, kind);
                continue;
            }
            EventKind::Test(ref test, _) | EventKind::Step(StepId { ref test, .. }, _) => test,
        };
        let setup = blob.header.setups.contains(&SetupTest::from(test));
        let entry = entries.entry(key(test)).or_insert_with(|| Entry {
            test: test.clone(),
            from: format!("{}:{line}", blob.path.display()),
            setup,
            failed: false,
            events: Vec::new(),
        });
        entry.failed |= matches!(
            &event.kind,
            EventKind::Test(_, TestKind::Finished(finished))
                if matches!(finished.outcome, TestOutcome::Failed(_))
        );
        entry.events.push(traces.copy(event, &blob.path, line)?);
    }
    Ok(entries)
}

/// The `K/N` of every shard of the splits the blobs come from that has no blob among them.
fn missing_shards(blobs: &[Blob]) -> Vec<String> {
    let shards: Vec<(usize, usize)> = blobs
        .iter()
        .filter_map(|blob| {
            let (k, n) = blob.header.shard.as_deref()?.split_once('/')?;
            Some((k.parse().ok()?, n.parse().ok()?))
        })
        .collect();
    let mut totals: Vec<usize> = shards.iter().map(|&(_, n)| n).collect();
    totals.sort_unstable();
    totals.dedup();
    totals
        .into_iter()
        .flat_map(|n| (1..=n).map(move |k| (k, n)))
        .filter(|shard| !shards.contains(shard))
        .map(|(k, n)| format!("{k}/{n}"))
        .collect()
}

/// The totals of the merged run: counted from its events, with what no event says taken from
/// the shards' totals (tests that did not run, summed; the interruption and the warnings' flags,
/// any shard's; the duration, the longest shard's).
fn merged_stats(events: &[RunEvent], shards: &[RunStats]) -> RunStats {
    let mut stats = RunStats::default();
    for event in events {
        stats.observe(event);
    }
    let mut unavailable = Vec::new();
    let mut interrupted = false;
    for shard in shards {
        stats.not_run += shard.not_run;
        interrupted |= shard.interrupted();
        stats.llm_cut_off |= shard.llm_cut_off;
        stats.heal_veto_off |= shard.heal_veto_off;
        stats.llm_writes |= shard.llm_writes;
        stats.allowed_origins_off |= shard.allowed_origins_off;
        stats.duration = stats.duration.max(shard.duration);
        if let Some(StopReason::Halted(reason)) = &shard.stopped
            && !unavailable.contains(reason)
        {
            unavailable.push(reason.clone());
        }
    }
    // Ctrl-C in any shard decides the exit code, as it does in one run.
    stats.stopped = if interrupted {
        Some(StopReason::Interrupted)
    } else {
        (!unavailable.is_empty()).then(|| StopReason::Halted(unavailable.join("; ")))
    };
    stats
}

/// Copies the traces the blobs name into the merged report's `traces/`, each file once.
struct TraceCopies<'a> {
    dir: &'a Path,
    /// The copies made, by the file they were made from (its device and inode, so that a second
    /// path or a hard link to one file counts once).
    made: HashMap<(u64, u64), PathBuf>,
}

impl<'a> TraceCopies<'a> {
    fn new(dir: &'a Path) -> Self {
        Self {
            dir,
            made: HashMap::new(),
        }
    }

    /// A trace event with its trace copied; other events as they are. The trace (line `line` of
    /// `blob` names it) is opened without following a symbolic link and copied up to
    /// [`MAX_TRACE_BYTES`]; the copy never follows a link either. A trace already copied is not
    /// copied again, because a blob that names one big trace on every line would otherwise make
    /// the merge copy it as many times.
    fn copy(
        &mut self,
        mut event: RunEvent,
        blob: &Path,
        line: usize,
    ) -> Result<RunEvent, MergeError> {
        if let EventKind::Test(_, TestKind::TraceWritten(trace)) = &mut event.kind {
            trace.path = self.copied(&trace.path, blob, line)?;
        }
        Ok(event)
    }

    /// Where the trace at `path` is copied to, copied there unless it was already.
    fn copied(&mut self, path: &Path, blob: &Path, line: usize) -> Result<PathBuf, MergeError> {
        let error = |source| MergeError::Trace {
            blob: blob.to_path_buf(),
            line,
            path: path.to_path_buf(),
            source,
        };
        let (source, _) = open_regular_nofollow(path, MAX_TRACE_BYTES, "traces in report blobs")
            .map_err(error)?;
        let meta = source.metadata().map_err(error)?;
        let id = (meta.dev(), meta.ino());
        if let Some(target) = self.made.get(&id) {
            return Ok(target.clone());
        }
        let target = self.dir.join(path.file_name().unwrap_or(path.as_os_str()));
        copy_regular(source, &target).map_err(error)?;
        self.made.insert(id, target.clone());
        Ok(target)
    }
}

/// Copies `source` (a regular file opened by [`open_regular_nofollow`]) to `to` (its directory
/// made) without following a symbolic link, up to [`MAX_TRACE_BYTES`].
fn copy_regular(source: fs::File, to: &Path) -> io::Result<()> {
    if let Some(dir) = to.parent() {
        fs::create_dir_all(dir)?;
    }
    let mut target = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(to)?;
    let copied = io::copy(&mut source.take(MAX_TRACE_BYTES + 1), &mut target)?;
    if copied > MAX_TRACE_BYTES {
        drop(target);
        let _ = fs::remove_file(to);
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "it grew past the limit of {} for traces in report blobs while it was copied",
                human(MAX_TRACE_BYTES)
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::report::blob::{BlobHeader, BlobReporter};
    use crate::report::{ReportOptions, testing};
    use crate::runner::Shard;

    /// The fixture run's events split in two shards, by test: shard 1 has the todo tests,
    /// shard 2 the login test; `extra` is added to shard 2's tests. Answers the blobs' paths.
    fn two_shards(dir: &Path, extra: &[&str]) -> Vec<PathBuf> {
        let all = testing::events();
        let in_shard = |event: &RunEvent, todo: bool| match event.test() {
            Some(test) => {
                (test.scenario == "scenarios/todo.steps") == todo
                    || (!todo && extra.contains(&test.name.as_str()))
            }
            None => true,
        };
        (1..=2)
            .map(|index| {
                let mut events: Vec<RunEvent> = all
                    .iter()
                    .filter(|e| in_shard(e, index == 1))
                    .cloned()
                    .collect();
                for event in &mut events {
                    match &mut event.kind {
                        EventKind::Run(RunKind::Started(started)) => {
                            started.tests = if index == 1 { 2 } else { 1 };
                        }
                        EventKind::Run(RunKind::Finished(RunFinished { stats })) => {
                            stats.duration = Duration::from_millis(1000 * index as u64);
                            stats.not_run = 1;
                        }
                        _ => {}
                    }
                }
                write_blob(dir, index, &events)
            })
            .collect()
    }

    /// Writes `events` as the blob of shard `index` of 2 under `dir`, and answers its path.
    fn write_blob(dir: &Path, index: usize, events: &[RunEvent]) -> PathBuf {
        let options = ReportOptions {
            output_dir: dir.to_path_buf(),
            shard: Some(Shard { index, total: 2 }),
            ..ReportOptions::default()
        };
        let path = options.blob_file();
        let mut blob = BlobReporter::create(&path, &BlobHeader::new(&options)).unwrap();
        testing::feed(&mut blob, events);
        path
    }

    /// The totals a `run_finished` event carries.
    fn stats_of(event: &RunEvent) -> Option<&RunStats> {
        match &event.kind {
            EventKind::Run(RunKind::Finished(finished)) => Some(&finished.stats),
            _ => None,
        }
    }

    /// The finished tests of `events`, by name, in order.
    fn finished(events: &[RunEvent]) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Test(test, TestKind::Finished(_)) => Some(test.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn two_shards_merge_into_one_run_by_file_and_line_with_the_totals_counted_again() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = two_shards(dir.path(), &[]);
        assert_eq!(find_blobs(&[dir.path().to_path_buf()]).unwrap(), blobs);
        let merged = merge_blobs(&blobs, &dir.path().join("traces")).unwrap();
        assert!(merged.missing_shards.is_empty());
        let events = merged.events;
        assert_eq!(events[0], RunEvent::of_run(RunStarted { tests: 3 }));
        assert_eq!(
            finished(&events),
            [
                "scenarios/login.steps › log in",
                "scenarios/todo.steps › add a todo",
                "scenarios/todo.steps › rename a todo"
            ]
        );
        let Some(stats) = events.last().and_then(stats_of) else {
            panic!("no run_finished");
        };
        let fixture = testing::events();
        let Some(single) = fixture.last().and_then(stats_of) else {
            panic!("the fixture ends with run_finished");
        };
        assert_eq!(
            (
                stats.passed,
                stats.failed,
                stats.cached_steps,
                stats.llm_requests
            ),
            (
                single.passed,
                single.failed,
                single.cached_steps,
                single.llm_requests
            )
        );
        assert_eq!(stats.duration, Duration::from_secs(2), "the longest shard");
        assert_eq!(stats.not_run, 2, "summed");
        // The screenshot came back from its file.
        let failed = events.iter().find_map(|e| match &e.kind {
            EventKind::Test(_, TestKind::Finished(finished)) => match &finished.outcome {
                TestOutcome::Failed(f) => Some(f),
                _ => None,
            },
            _ => None,
        });
        assert_eq!(
            failed.and_then(|f| f.screenshot.as_deref()),
            Some(&testing::PNG[..])
        );
    }

    #[test]
    fn a_blob_written_before_events_carried_their_time_merges_with_a_newer_one() {
        let dir = tempfile::tempdir().unwrap();
        // The fixture run as an older prettyplay wrote it, with its screenshot beside it.
        let old = dir.path().join("old/report.jsonl");
        let screenshot = dir.path().join("old/report/screenshots/1.png");
        fs::create_dir_all(screenshot.parent().unwrap()).unwrap();
        fs::write(&screenshot, testing::PNG).unwrap();
        fs::write(&old, include_str!("fixtures/blob-without-time.jsonl")).unwrap();
        // The same run in Firefox, written now: its events carry their time.
        let firefox = testing::stamped(testing::in_project(&testing::events(), "firefox"));
        let new = write_blob(&dir.path().join("new"), 2, &firefox);
        let merged = merge_blobs(&[old, new], &dir.path().join("traces")).unwrap();
        let events = merged.events;
        assert_eq!(finished(&events).len(), 6);
        assert_eq!(
            events[0].kind,
            EventKind::Run(RunStarted { tests: 6 }.into())
        );
        // The merged run starts and ends when the only shard that said so did.
        assert_eq!(events[0].time, firefox[0].time);
        assert_eq!(events.last().unwrap().time, firefox.last().unwrap().time);
        let (with_time, without): (Vec<&RunEvent>, Vec<&RunEvent>) = events[1..events.len() - 1]
            .iter()
            .partition(|e| e.time.is_some());
        assert!(
            with_time
                .iter()
                .all(|e| e.test().unwrap().project.is_some())
        );
        assert!(without.iter().all(|e| e.test().unwrap().project.is_none()));
        assert_eq!(
            (with_time.len(), without.len()),
            (firefox.len() - 2, firefox.len() - 2)
        );
        let Some(stats) = events.last().and_then(stats_of) else {
            panic!("no run_finished");
        };
        assert_eq!((stats.passed, stats.failed), (4, 2));
    }

    #[test]
    fn the_merged_run_starts_with_the_first_shard_and_finishes_with_the_last() {
        let dir = tempfile::tempdir().unwrap();
        let all = testing::events();
        let (start, end) = (all[0].clone(), all[all.len() - 1].clone());
        let later = |events: Vec<RunEvent>, seconds: u64| -> Vec<RunEvent> {
            testing::stamped(events)
                .into_iter()
                .map(|mut event| {
                    let time = event.time.as_mut().unwrap();
                    time.timestamp = time
                        .timestamp
                        .checked_add(Duration::from_secs(seconds))
                        .unwrap();
                    event
                })
                .collect()
        };
        let shard = |name: &str, seconds: u64| {
            let mut events = vec![start.clone()];
            events.extend(
                all.iter()
                    .filter(|e| e.test().is_some_and(|t| t.scenario == name))
                    .cloned(),
            );
            events.push(end.clone());
            later(events, seconds)
        };
        let first = shard("scenarios/todo.steps", 0);
        let second = shard("scenarios/login.steps", 30);
        let blobs = [
            write_blob(dir.path(), 1, &second),
            write_blob(dir.path(), 2, &first),
        ];
        let events = merge_blobs(&blobs, &dir.path().join("traces"))
            .unwrap()
            .events;
        assert_eq!(events[0].time, first[0].time);
        assert_eq!(events.last().unwrap().time, second.last().unwrap().time);
    }

    #[test]
    fn a_shard_without_its_blob_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = two_shards(dir.path(), &[]);
        let merged = merge_blobs(&blobs[1..], &dir.path().join("traces")).unwrap();
        assert_eq!(merged.missing_shards, ["1/2"]);
    }

    #[test]
    fn the_same_test_in_two_blobs_is_an_error_naming_both() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = two_shards(dir.path(), &["add a todo"]);
        let err = merge_blobs(&blobs, &dir.path().join("traces"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("test `scenarios/todo.steps › add a todo` is in two blobs, "),
            "{err}"
        );
        assert!(err.contains("report-1-of-2.jsonl:3"), "{err}");
        assert!(err.contains("report-2-of-2.jsonl:"), "{err}");
    }

    #[test]
    fn a_link_or_fifo_found_as_a_blob_is_refused_by_name_and_a_named_link_is_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        let blobs = two_shards(&elsewhere, &[]);
        let dir = tmp.path().join("blobs");
        fs::create_dir_all(&dir).unwrap();
        let link = dir.join("report-1-of-2.jsonl");
        std::os::unix::fs::symlink(&blobs[0], &link).unwrap();
        let found = find_blobs(std::slice::from_ref(&dir)).unwrap();
        assert_eq!(
            found,
            std::slice::from_ref(&link),
            "the link is taken, not skipped"
        );
        let err = chain(&merge_blobs(&found, &tmp.path().join("traces")).unwrap_err());
        assert_eq!(
            err,
            format!(
                "cannot read {}: it is a symbolic link, not a regular file: report blobs must \
                 be regular files, not links to them",
                link.display()
            )
        );
        // Named on the command line, the same link is read where it leads.
        let named = find_blobs(std::slice::from_ref(&link)).unwrap();
        assert_eq!(named, [fs::canonicalize(&blobs[0]).unwrap()]);
        assert!(merge_blobs(&named, &tmp.path().join("traces")).is_ok());

        fs::remove_file(&link).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&link)
            .status()
            .unwrap();
        assert!(made.success());
        let found = find_blobs(std::slice::from_ref(&dir)).unwrap();
        let err = chain(&merge_blobs(&found, &tmp.path().join("traces")).unwrap_err());
        assert!(
            err.contains("it is a FIFO (named pipe), not a regular file"),
            "{err}"
        );
    }

    /// An error and its sources, as the CLI shows them.
    fn chain(err: &dyn std::error::Error) -> String {
        let mut shown = err.to_string();
        let mut source = err.source();
        while let Some(cause) = source {
            shown.push_str(&format!(": {cause}"));
            source = cause.source();
        }
        shown
    }

    #[test]
    fn a_trace_named_twice_or_through_a_hard_link_is_copied_once() {
        let tmp = tempfile::tempdir().unwrap();
        let trace = tmp.path().join("blob/report/traces/a.zip");
        fs::create_dir_all(trace.parent().unwrap()).unwrap();
        fs::write(&trace, "zip").unwrap();
        let linked = trace.with_file_name("b.zip");
        fs::hard_link(&trace, &linked).unwrap();
        let merged = tmp.path().join("merged/traces");
        let mut copies = TraceCopies::new(&merged);
        let test = testing::events()
            .iter()
            .find_map(|e| e.test().cloned())
            .unwrap();
        let event = |path: &Path| {
            let trace = crate::runner::TraceWritten {
                path: path.to_path_buf(),
            };
            RunEvent::of_test(test.clone(), trace)
        };
        let blob = tmp.path().join("blob/report.jsonl");
        let first = copies.copy(event(&trace), &blob, 4).unwrap();
        assert_eq!(first, event(&merged.join("a.zip")));
        // Changed after the first copy: a second copy would overwrite it.
        fs::write(merged.join("a.zip"), "copied once").unwrap();
        for path in [&trace, &linked] {
            assert_eq!(copies.copy(event(path), &blob, 5).unwrap(), first);
        }
        assert_eq!(
            fs::read_to_string(merged.join("a.zip")).unwrap(),
            "copied once"
        );
        assert!(!merged.join("b.zip").exists());
    }

    #[test]
    fn no_blobs_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = find_blobs(&[dir.path().to_path_buf()]).unwrap_err();
        assert!(
            err.to_string().starts_with("no report blobs (*.jsonl) in "),
            "{err}"
        );
        let missing = find_blobs(&[dir.path().join("nope")]).unwrap_err();
        assert!(missing.to_string().starts_with("cannot read "), "{missing}");
    }

    /// The fixture run in two browsers, a blob each: shard 1 ran it in `firefox`, shard 2 in
    /// `chromium` (`twice` adds firefox's `add a todo` to shard 2 as well). Returns the blobs'
    /// paths.
    fn two_browsers(dir: &Path, twice: bool) -> Vec<PathBuf> {
        let all = testing::events();
        [(1, "firefox"), (2, "chromium")]
            .into_iter()
            .map(|(index, project)| {
                let mut events = testing::in_project(&all, project);
                if twice && index == 2 {
                    let add = testing::in_project(&all, "firefox")
                        .into_iter()
                        .filter(|e| e.test().is_some_and(|t| t.name == "add a todo"));
                    let end = events.len() - 1;
                    events.splice(end..end, add);
                }
                write_blob(dir, index, &events)
            })
            .collect()
    }

    #[test]
    fn the_same_tests_in_two_browsers_merge_into_both_by_project_then_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = two_browsers(dir.path(), false);
        let events = merge_blobs(&blobs, &dir.path().join("traces"))
            .unwrap()
            .events;
        assert_eq!(
            finished(&events),
            [
                "[chromium] scenarios/login.steps › log in",
                "[chromium] scenarios/todo.steps › add a todo",
                "[chromium] scenarios/todo.steps › rename a todo",
                "[firefox] scenarios/login.steps › log in",
                "[firefox] scenarios/todo.steps › add a todo",
                "[firefox] scenarios/todo.steps › rename a todo",
            ]
        );
        assert_eq!(events[0], RunEvent::of_run(RunStarted { tests: 6 }));
        let Some(stats) = events.last().and_then(stats_of) else {
            panic!("no run_finished");
        };
        assert_eq!((stats.passed, stats.failed), (4, 2));
    }

    #[test]
    fn the_same_test_in_the_same_browser_in_two_blobs_is_an_error_naming_its_project() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = two_browsers(dir.path(), true);
        let err = merge_blobs(&blobs, &dir.path().join("traces"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("test `[firefox] scenarios/todo.steps › add a todo` is in two blobs, "),
            "{err}"
        );
    }
}
