//! The [`Reporter`] trait every reporter implements, and [`Reporters`], a fan-out of several
//! fed the same events.
//!
//! Main type: [`Reporters`].

use std::io;

use super::locations::ReportFile;
use crate::runner::RunEvent;

/// Something that consumes the event stream of a run.
pub trait Reporter {
    /// Handles one event, in the order the run emits them.
    fn handle(&mut self, event: &RunEvent) -> io::Result<()>;

    /// Called once after the last event: file reporters write their files here.
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// Called once every reporter has finished, with the report files that were written: the
    /// terminal reporters say where they went.
    fn reports_written(&mut self, _files: &[ReportFile]) -> io::Result<()> {
        Ok(())
    }
}

/// Several reporters fed the same events.
///
/// A reporter whose `handle` fails is not fed again (its error is returned once); the others go
/// on, so a closed stdout does not lose the JUnit file. `finish` finishes every reporter that did
/// not fail, then tells those still standing which report files were written (the files of the
/// reporters that did not fail), and returns the first error.
#[derive(Default)]
pub struct Reporters {
    reporters: Vec<Entry>,
}

struct Entry {
    reporter: Box<dyn Reporter + Send>,
    /// The report files the reporter writes.
    files: Vec<ReportFile>,
    failed: bool,
}

impl Reporters {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, reporter: impl Reporter + Send + 'static) {
        self.push_writing(reporter, Vec::new());
    }

    /// Adds a reporter that writes `files`, which are said to be written once it finished.
    pub fn push_writing(
        &mut self,
        reporter: impl Reporter + Send + 'static,
        files: Vec<ReportFile>,
    ) {
        self.reporters.push(Entry {
            reporter: Box::new(reporter),
            files,
            failed: false,
        });
    }

    pub fn len(&self) -> usize {
        self.reporters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.reporters.is_empty()
    }

    /// [`Reporter::handle`] for every reporter (callable without the trait in scope).
    pub fn handle(&mut self, event: &RunEvent) -> io::Result<()> {
        Reporter::handle(self, event)
    }

    /// [`Reporter::finish`] for every reporter (callable without the trait in scope).
    pub fn finish(&mut self) -> io::Result<()> {
        Reporter::finish(self)
    }
}

impl Reporter for Reporters {
    fn handle(&mut self, event: &RunEvent) -> io::Result<()> {
        let mut first_error = None;
        for entry in self.reporters.iter_mut().filter(|e| !e.failed) {
            if let Err(err) = entry.reporter.handle(event) {
                entry.failed = true;
                first_error.get_or_insert(err);
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    fn finish(&mut self) -> io::Result<()> {
        let mut first_error = None;
        for entry in self.reporters.iter_mut().filter(|e| !e.failed) {
            if let Err(err) = entry.reporter.finish() {
                entry.failed = true;
                first_error.get_or_insert(err);
            }
        }
        let written: Vec<ReportFile> = self
            .reporters
            .iter()
            .filter(|e| !e.failed)
            .flat_map(|e| e.files.iter().cloned())
            .collect();
        for entry in self.reporters.iter_mut().filter(|e| !e.failed) {
            if let Err(err) = entry.reporter.reports_written(&written) {
                entry.failed = true;
                first_error.get_or_insert(err);
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::runner::RunStats;

    /// Counts the events it handled and whether it was finished.
    #[derive(Clone, Default)]
    struct Counting(Arc<Mutex<(usize, bool)>>);

    impl Reporter for Counting {
        fn handle(&mut self, _: &RunEvent) -> io::Result<()> {
            self.0.lock().unwrap().0 += 1;
            Ok(())
        }
        fn finish(&mut self) -> io::Result<()> {
            self.0.lock().unwrap().1 = true;
            Ok(())
        }
    }

    /// Fails to handle anything, and to finish.
    struct Failing;

    impl Reporter for Failing {
        fn handle(&mut self, _: &RunEvent) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn finish(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    /// Writes nothing but says which report files it was told were written.
    #[derive(Clone, Default)]
    struct Announcing(Arc<Mutex<Vec<ReportFile>>>);

    impl Reporter for Announcing {
        fn handle(&mut self, _: &RunEvent) -> io::Result<()> {
            Ok(())
        }
        fn reports_written(&mut self, files: &[ReportFile]) -> io::Result<()> {
            self.0.lock().unwrap().extend_from_slice(files);
            Ok(())
        }
    }

    #[test]
    fn only_the_files_of_reporters_that_finished_are_said_to_be_written() {
        use crate::report::ReportFileKind;
        let announcing = Announcing::default();
        let mut reporters = Reporters::new();
        reporters.push(announcing.clone());
        let junit = ReportFile::new(ReportFileKind::Junit, "out/junit.xml");
        let html = ReportFile::new(ReportFileKind::Html, "out/index.html");
        reporters.push_writing(Counting::default(), vec![junit.clone()]);
        reporters.push_writing(Failing, vec![html]);
        assert!(reporters.finish().is_err());
        assert_eq!(*announcing.0.lock().unwrap(), [junit]);
    }

    #[test]
    fn a_failing_reporter_is_not_fed_again_and_the_others_go_on() {
        let counting = Counting::default();
        let mut reporters = Reporters::new();
        reporters.push(Failing);
        reporters.push(counting.clone());
        assert_eq!(reporters.len(), 2);
        let events = [
            RunEvent::of_run(crate::runner::RunStarted { tests: 0 }),
            RunEvent::of_run(crate::runner::RunFinished {
                stats: RunStats::default(),
            }),
        ];
        let errors = events
            .iter()
            .filter(|e| reporters.handle(e).is_err())
            .count();
        assert_eq!(errors, 1);
        // The failed reporter is not finished either: its finish would fail.
        reporters.finish().unwrap();
        assert_eq!(*counting.0.lock().unwrap(), (2, true));
    }
}
