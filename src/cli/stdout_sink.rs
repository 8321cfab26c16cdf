//! The stdout that a run's reporters write to. It drops the output once its reader has gone, so
//! that `prettyplay replay | head` still finishes the run and exits with the run's code.
//!
//! Main type: [`StdoutSink`].

use std::io::{self, Write};

/// A writer that turns a closed pipe into a sink. After the first broken-pipe error it accepts
/// and discards every write, because the run must go on to write its cache, its report files
/// and `last-run.json`, and its exit code must say whether the tests passed. Other errors are
/// returned as they are.
pub(crate) struct StdoutSink<W> {
    out: W,
    closed: bool,
}

impl<W: Write> StdoutSink<W> {
    pub(crate) fn new(out: W) -> Self {
        Self { out, closed: false }
    }

    /// Turns a broken pipe into success and remembers that the reader has gone; `written` is
    /// what a successful call returns.
    fn absorb<T>(&mut self, result: io::Result<T>, written: T) -> io::Result<T> {
        match result {
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {
                tracing::debug!("stdout was closed: the rest of the run's output is dropped");
                self.closed = true;
                Ok(written)
            }
            other => other,
        }
    }
}

impl<W: Write> Write for StdoutSink<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let result = self.out.write(buf);
        self.absorb(result, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.out.flush();
        self.absorb(result, ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Accepts `room` bytes, then fails every call with `kind`. It counts the calls that
    /// reached it, so a test can see that a closed sink stops writing.
    struct Pipe {
        room: usize,
        kind: io::ErrorKind,
        got: Vec<u8>,
        calls: usize,
    }

    impl Pipe {
        fn new(room: usize, kind: io::ErrorKind) -> Self {
            Self {
                room,
                kind,
                got: Vec::new(),
                calls: 0,
            }
        }
    }

    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.calls += 1;
            if self.got.len() >= self.room {
                return Err(self.kind.into());
            }
            let n = buf.len().min(self.room - self.got.len());
            self.got.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            self.calls += 1;
            if self.got.len() >= self.room {
                return Err(self.kind.into());
            }
            Ok(())
        }
    }

    #[test]
    fn an_open_pipe_gets_everything() {
        let mut sink = StdoutSink::new(Pipe::new(100, io::ErrorKind::BrokenPipe));
        writeln!(sink, "Running 1 test").expect("room for it");
        sink.flush().expect("room for it");
        assert_eq!(sink.out.got, b"Running 1 test\n");
        assert!(!sink.closed);
    }

    #[test]
    fn a_closed_pipe_swallows_the_rest_of_the_output() {
        let mut sink = StdoutSink::new(Pipe::new(8, io::ErrorKind::BrokenPipe));
        writeln!(sink, "Running 1 test").expect("the first 8 bytes are written");
        writeln!(sink, "1 passed, 1 failed").expect("the rest is dropped");
        sink.flush().expect("nothing is left to flush");
        assert_eq!(sink.out.got, b"Running ");
        assert!(sink.closed);
    }

    #[test]
    fn a_closed_sink_no_longer_writes_to_its_pipe() {
        let mut sink = StdoutSink::new(Pipe::new(0, io::ErrorKind::BrokenPipe));
        sink.write_all(b"FAIL")
            .expect("the pipe's error is absorbed");
        let calls = sink.out.calls;
        sink.write_all(b"summary").expect("dropped");
        sink.flush().expect("dropped");
        assert_eq!(sink.out.calls, calls);
    }

    #[test]
    fn a_flush_into_a_closed_pipe_closes_the_sink() {
        let mut sink = StdoutSink::new(Pipe::new(0, io::ErrorKind::BrokenPipe));
        sink.flush().expect("the pipe's error is absorbed");
        assert!(sink.closed);
    }

    #[test]
    fn other_errors_are_returned() {
        let mut sink = StdoutSink::new(Pipe::new(0, io::ErrorKind::StorageFull));
        let err = sink
            .write_all(b"FAIL")
            .expect_err("a full disk is an error");
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
        let err = sink.flush().expect_err("still full");
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
        assert!(!sink.closed);
    }
}
