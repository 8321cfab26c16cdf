//! The [`Reporter`] trait every reporter implements, and [`Reporters`], a fan-out of several
//! fed the same events.
//!
//! Main type: [`Reporters`].

use std::io;

use crate::runner::RunEvent;

/// Something that consumes the event stream of a run.
pub trait Reporter {
    /// Handles one event, in the order the run emits them.
    fn handle(&mut self, event: &RunEvent) -> io::Result<()>;

    /// Called once after the last event: file reporters write their files here.
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Several reporters fed the same events.
///
/// A reporter whose `handle` fails is not fed again (its error is returned once); the others go
/// on, so a closed stdout does not lose the JUnit file. `finish` finishes every reporter that did
/// not fail and returns the first error.
#[derive(Default)]
pub struct Reporters {
    reporters: Vec<Entry>,
}

struct Entry {
    reporter: Box<dyn Reporter + Send>,
    failed: bool,
}

impl Reporters {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, reporter: impl Reporter + Send + 'static) {
        self.reporters.push(Entry {
            reporter: Box::new(reporter),
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

    #[test]
    fn a_failing_reporter_is_not_fed_again_and_the_others_go_on() {
        let counting = Counting::default();
        let mut reporters = Reporters::new();
        reporters.push(Failing);
        reporters.push(counting.clone());
        assert_eq!(reporters.len(), 2);
        let events = [
            RunEvent::RunStarted { tests: 0 },
            RunEvent::RunFinished {
                stats: RunStats::default(),
            },
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
