//! [`ClosedPort`]: a port of 127.0.0.1 that this process holds and never listens on, so that
//! every connection to it is refused, for the browser's proxy of last resort.
//!
//! A Firefox context connects through the worker's [`OutboundProxy`](super::outbound_proxy)
//! because the context's proxy says so. A request that no live context owns, such as a beacon
//! or a `keepalive` fetch the page sends while its context closes, falls back to the browser's
//! own proxy preferences, which would otherwise connect directly. Pointing those preferences at
//! this port makes every such connection fail before anything leaves. The port is bound, not
//! merely picked free, so that no other process can take it and answer.

use std::net::{Ipv4Addr, SocketAddr};

use tokio::net::TcpSocket;

/// A bound, never listening TCP socket on 127.0.0.1; see the module documentation.
pub(crate) struct ClosedPort {
    address: SocketAddr,
    /// Held only to keep the port bound; dropping it frees the port.
    _socket: TcpSocket,
}

impl ClosedPort {
    /// Binds a free port of 127.0.0.1 without listening on it.
    pub(crate) fn bind() -> std::io::Result<ClosedPort> {
        let socket = TcpSocket::new_v4()?;
        socket.bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))?;
        let address = socket.local_addr()?;
        Ok(ClosedPort {
            address,
            _socket: socket,
        })
    }

    /// The port, which refuses every connection while `self` lives.
    pub(crate) fn port(&self) -> u16 {
        self.address.port()
    }
}

#[cfg(test)]
mod tests {
    use std::io::ErrorKind;
    use std::net::TcpStream;

    use super::*;

    #[test]
    fn a_connection_to_the_closed_port_is_refused() {
        let closed = ClosedPort::bind().expect("bind a port of 127.0.0.1");
        let err = TcpStream::connect((Ipv4Addr::LOCALHOST, closed.port()))
            .expect_err("nothing listens on the closed port");
        assert_eq!(err.kind(), ErrorKind::ConnectionRefused);
    }

    #[test]
    fn no_one_else_can_listen_on_the_closed_port_while_it_is_held() {
        let closed = ClosedPort::bind().expect("bind a port of 127.0.0.1");
        let taken = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, closed.port()));
        assert!(taken.is_err(), "another socket bound the held port");
    }
}
