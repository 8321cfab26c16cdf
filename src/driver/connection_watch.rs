//! Tracks whether a TCP connection that prettyplay holds is still up. playwright-rs leaves every
//! call on a `connect`ed browser waiting forever when its WebSocket closes, because it fails no
//! pending reply and sends no disconnected event. prettyplay therefore finds the socket that
//! playwright-rs just opened in `/proc` and watches its state, as `lifeline.rs` watches the
//! driver's process.
//!
//! Main items: [`connections_to`] lists this process's established TCP connections to a port,
//! and [`watch_connection`] returns a [`Lifeline`] that is cut when one of them is no longer
//! established.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::driver::Lifeline;

/// How often the connection is checked. A closed connection fails the calls that wait on it
/// within this interval.
const POLL_INTERVAL: Duration = Duration::from_millis(100);

/// `st` of an established connection in `/proc/net/tcp`.
const ESTABLISHED: u8 = 0x01;

/// One socket of this process, by inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct SocketInode(u64);

/// Returns the inodes of this process's open sockets.
fn own_sockets() -> HashSet<u64> {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return HashSet::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| std::fs::read_link(entry.path()).ok())
        .filter_map(|target| {
            let target = target.to_str()?;
            target
                .strip_prefix("socket:[")?
                .strip_suffix(']')?
                .parse()
                .ok()
        })
        .collect()
}

/// Returns the TCP sockets of this network namespace, mapping each inode to its remote port and
/// state.
fn tcp_table() -> HashMap<u64, (u16, u8)> {
    let mut table = HashMap::new();
    for file in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
        if let Ok(text) = std::fs::read_to_string(file) {
            table.extend(text.lines().skip(1).filter_map(parse_tcp_line));
        }
    }
    table
}

/// Parses one line of `/proc/net/tcp` (`sl local rem st queues tr retrnsmt uid timeout inode
/// ...`), whose remote address has the form `HEXADDR:HEXPORT`.
fn parse_tcp_line(line: &str) -> Option<(u64, (u16, u8))> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let (_, port) = fields.get(2)?.rsplit_once(':')?;
    let port = u16::from_str_radix(port, 16).ok()?;
    let state = u8::from_str_radix(fields.get(3)?, 16).ok()?;
    let inode = fields.get(9)?.parse().ok()?;
    Some((inode, (port, state)))
}

/// Returns this process's established TCP connections to `port` on any host.
pub(crate) fn connections_to(port: u16) -> HashSet<SocketInode> {
    let own = own_sockets();
    tcp_table()
        .into_iter()
        .filter(|(inode, (remote, state))| {
            *remote == port && *state == ESTABLISHED && own.contains(inode)
        })
        .map(|(inode, _)| SocketInode(inode))
        .collect()
}

/// Watches the connection `socket` on `handle`. The returned lifeline is cut with `reason`
/// within [`POLL_INTERVAL`] of the connection leaving the established state, which happens
/// when the peer closes or resets it or its process dies. The watch ends with the cut, or when
/// nobody holds the lifeline any more.
pub(crate) fn watch_connection(
    socket: SocketInode,
    reason: String,
    handle: &tokio::runtime::Handle,
) -> Lifeline {
    let (lifeline, cut) = Lifeline::new();
    handle.spawn(async move {
        loop {
            tokio::time::sleep(POLL_INTERVAL).await;
            if cut.is_unheld() {
                return;
            }
            let up = tcp_table()
                .get(&socket.0)
                .is_some_and(|(_, state)| *state == ESTABLISHED);
            if !up {
                cut.cut(&reason);
                return;
            }
        }
    });
    lifeline
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::net::{TcpListener, TcpStream};

    use super::*;

    #[test]
    fn a_proc_net_tcp_line_gives_the_inode_the_remote_port_and_the_state() {
        let line = "   3: 0100007F:A1B2 0100007F:0BB8 01 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 20 4 30 10 -1";
        assert_eq!(parse_tcp_line(line), Some((4242, (3000, ESTABLISHED))));
        assert_eq!(parse_tcp_line("  sl  local_address rem_address"), None);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn a_connection_closed_by_its_peer_cuts_the_lifeline() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let before = connections_to(port);
        let mut client = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        let (server, _) = listener.accept().expect("accept");
        let new: Vec<SocketInode> = connections_to(port).difference(&before).copied().collect();
        assert_eq!(new.len(), 1, "{new:?}");
        let lifeline = watch_connection(
            new[0],
            "the server went away".to_owned(),
            &tokio::runtime::Handle::current(),
        );
        client.write_all(b"hello").expect("write");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(lifeline.lost(), None);
        drop(server);
        let reason = tokio::time::timeout(Duration::from_secs(10), lifeline.until_lost())
            .await
            .expect("noticed");
        assert_eq!(reason, "the server went away");
    }
}
