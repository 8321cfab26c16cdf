//! Serves a directory over HTTP for the demo: `demo_server DIR [ADDR]`.
//!
//! `ADDR` defaults to `127.0.0.1:0` (a free port). Once bound, the server prints
//! `listening on http://HOST:PORT` on stdout; `./setup demo` reads the port from that line.

#![expect(
    clippy::print_stderr,
    reason = "a command-line tool: its errors go to stderr"
)]

#[path = "../tests/it/support/static_server.rs"]
mod static_server;

use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(dir) = args.next().map(PathBuf::from) else {
        eprintln!("usage: demo_server DIR [ADDR]");
        return ExitCode::from(2);
    };
    let addr = args
        .next()
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or_else(|| "127.0.0.1:0".to_owned());
    if !dir.is_dir() {
        eprintln!("demo_server: {} is not a directory", dir.display());
        return ExitCode::from(2);
    }
    let listener = match TcpListener::bind(&addr) {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("demo_server: cannot bind {addr}: {err}");
            return ExitCode::FAILURE;
        }
    };
    let local = match listener.local_addr() {
        Ok(local) => local,
        Err(err) => {
            eprintln!("demo_server: {err}");
            return ExitCode::FAILURE;
        }
    };
    let mut stdout = std::io::stdout();
    // If nobody reads stdout any more the server is still useful; ignore a write error.
    let _ = writeln!(stdout, "listening on http://{local}");
    let _ = stdout.flush();
    static_server::serve(dir, listener);
    ExitCode::SUCCESS
}
