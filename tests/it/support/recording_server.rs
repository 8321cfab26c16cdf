//! [`RecordingServer`]: a second origin on 127.0.0.1 that records every request it receives, for
//! tests that check the browser sent none there.
//!
//! It answers every request `200 OK` with a short body and `Access-Control-Allow-Origin: *`, so
//! that a request it lets through succeeds in the page (and a test relying on the block cannot
//! pass by accident).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// The body of every answer.
pub(crate) const BODY: &str = "from the other origin";

/// A server on a 127.0.0.1 port of its own; see the module documentation.
pub(crate) struct RecordingServer {
    origin: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl RecordingServer {
    /// Starts the server; it runs until the test process ends.
    pub(crate) fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a port on 127.0.0.1");
        let origin = format!("http://{}", listener.local_addr().expect("its address"));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let recorded = Arc::clone(&recorded);
                thread::spawn(move || {
                    // A client that hangs up mid-request is its own problem.
                    let _ = answer(stream, &recorded);
                });
            }
        });
        Self { origin, requests }
    }

    /// `http://127.0.0.1:PORT`.
    pub(crate) fn origin(&self) -> &str {
        &self.origin
    }

    /// The request lines received so far (`GET /path HTTP/1.1`); connections that sent no request
    /// are not counted.
    pub(crate) fn requests(&self) -> Vec<String> {
        self.requests.lock().expect("the request list").clone()
    }
}

fn answer(mut stream: TcpStream, recorded: &Mutex<Vec<String>>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    if request_line.trim_end().is_empty() {
        // A connection that sent nothing: Chromium preconnects to the host of a link it expects
        // to be followed (a hovered or clicked link). No request, nothing sent.
        return Ok(());
    }
    recorded
        .lock()
        .expect("the request list")
        .push(request_line.trim_end().to_owned());
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim_end().is_empty() {
            break;
        }
    }
    write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\
         Access-Control-Allow-Origin: *\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{BODY}",
        BODY.len()
    )
}
