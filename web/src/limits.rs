//! What the server lets its clients take: a bounded number of games (each an engine with its
//! table and threads) and of connections in flight, and an accept loop that backs off when the
//! system refuses it (out of file descriptors) instead of spinning on the error.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Games at once by default: each holds an engine (a 16 MB table at its first search, a
/// search thread) and about 25 MB while searching, so 16 stay well under half a gigabyte.
pub const DEFAULT_MAX_SESSIONS: usize = 16;

/// Connections being served at once (page loads, upgrades, games): each holds a thread, and a
/// client that opens hundreds of slow ones must not take the machine's threads.
pub const MAX_CONNECTIONS: usize = 128;

/// A count with a ceiling, shared by the threads that take and give back its slots.
#[derive(Debug)]
pub struct Pool {
    ceiling: usize,
    taken: AtomicUsize,
}

/// One slot of a [`Pool`], given back when dropped.
#[derive(Debug)]
pub struct Slot(Arc<Pool>);

impl Pool {
    pub fn new(ceiling: usize) -> Arc<Pool> {
        Arc::new(Pool {
            ceiling,
            taken: AtomicUsize::new(0),
        })
    }

    pub fn ceiling(&self) -> usize {
        self.ceiling
    }

    /// A slot, or `None` when all are taken.
    pub fn take(self: &Arc<Pool>) -> Option<Slot> {
        self.taken
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.ceiling).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(self.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.taken.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The pause after a failed `accept`: it doubles from 5 ms up to half a second while accepting
/// keeps failing (a full descriptor table frees up only when clients leave), and starts over
/// after a success.
#[derive(Debug, Default)]
pub struct Backoff {
    failures: u32,
}

impl Backoff {
    const FIRST: Duration = Duration::from_millis(5);
    const MOST: Duration = Duration::from_millis(500);

    /// The pause after one more failure.
    pub fn failed(&mut self) -> Duration {
        let pause = Self::FIRST.saturating_mul(1 << self.failures.min(16));
        self.failures += 1;
        pause.min(Self::MOST)
    }

    pub fn succeeded(&mut self) {
        self.failures = 0;
    }
}

/// Whether a request's `Host` may reach the board. A page that rebinds its own name to
/// 127.0.0.1 (DNS rebinding) sends its name as the host, and as the origin too, so the origin
/// check alone lets it in. A name can be rebound, an address cannot: the host must be an IP
/// address, `localhost` (or a name below it, which resolvers keep on the loopback), or the
/// name the server was told to listen on (`--host`).
pub fn host_allowed(host_header: &str, listen_host: &str) -> bool {
    let name = host_name(host_header);
    if name.is_empty() {
        return false;
    }
    let lower = name.to_ascii_lowercase();
    lower.parse::<std::net::IpAddr>().is_ok()
        || lower == "localhost"
        || lower.ends_with(".localhost")
        || lower.eq_ignore_ascii_case(host_name(listen_host))
}

/// The host part of `name:port`, `[v6]:port` or a bare name or address.
fn host_name(header: &str) -> &str {
    let h = header.trim();
    if let Some(rest) = h.strip_prefix('[') {
        return rest.split(']').next().unwrap_or("");
    }
    match h.rsplit_once(':') {
        // A bare IPv6 address has several colons and no port.
        Some((name, port)) if !name.contains(':') && port.chars().all(|c| c.is_ascii_digit()) => {
            name
        }
        _ => h,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_gives_at_most_its_ceiling_and_takes_slots_back() {
        let pool = Pool::new(2);
        let a = pool.take().expect("first");
        let _b = pool.take().expect("second");
        assert!(pool.take().is_none());
        drop(a);
        assert!(pool.take().is_some());
    }

    #[test]
    fn the_backoff_doubles_to_its_most_and_starts_over() {
        let mut b = Backoff::default();
        let pauses: Vec<u128> = (0..10).map(|_| b.failed().as_millis()).collect();
        assert_eq!(pauses, [5, 10, 20, 40, 80, 160, 320, 500, 500, 500]);
        b.succeeded();
        assert_eq!(b.failed().as_millis(), 5);
    }

    #[test]
    fn names_that_can_be_rebound_are_refused() {
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST",
            "board.localhost:80",
            "[::1]:8080",
            "::1",
            "192.168.1.7:8080",
            "myhost:8080",
        ] {
            assert!(host_allowed(ok, "myhost"), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "evil.example",
            "",
            ":8080",
            "localhost.evil.example",
        ] {
            assert!(!host_allowed(bad, "127.0.0.1"), "{bad}");
        }
    }
}
