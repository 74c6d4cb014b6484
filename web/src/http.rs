//! The HTTP side of the server: reads one request head, answers a GET for an embedded asset
//! (then closes), or upgrades `/ws` to a WebSocket and hands it to a game session. Only what a
//! browser sends to this page is understood; anything else gets a 4xx and the door. A request
//! must name a host that cannot be rebound to this machine (`limits::host_allowed`), finish
//! its head within a deadline, and a game waits for a free session.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::WebSocket;

/// The page's files, compiled in: path, content type, bytes.
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_bytes!("../assets/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/app.js"),
    ),
    (
        "/pieces.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/pieces.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/board.js"),
    ),
    (
        "/legend.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/legend.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_bytes!("../assets/style.css"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_bytes!("../assets/favicon.svg"),
    ),
];

/// The longest request head read; browsers send a few hundred bytes.
const MAX_HEAD: usize = 16 * 1024;

/// The time a client has to send its whole request head: a timeout on each read alone would
/// let a client that sends a byte now and then hold its thread for ever.
const HEAD_DEADLINE: Duration = Duration::from_secs(10);

/// A request head: method, path and headers (names lower-cased).
struct Head {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
}

impl Head {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Serves one connection.
pub fn handle(mut stream: TcpStream, server: &crate::Server) {
    let head = match read_head(&mut stream, Instant::now() + HEAD_DEADLINE) {
        Ok(h) => h,
        Err(e) => {
            respond(&mut stream, "400 Bad Request", "text/plain", e.as_bytes());
            return;
        }
    };
    let host = head.header("host").unwrap_or("");
    if !crate::limits::host_allowed(host, &server.listen_host) {
        respond(
            &mut stream,
            "403 Forbidden",
            "text/plain",
            b"unknown host: use the address the server printed",
        );
        return;
    }
    let upgrade = head
        .header("upgrade")
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    if upgrade && head.path == "/ws" {
        // Any web page the browser shows may open a WebSocket to 127.0.0.1: only our own
        // page (same host and port) may drive the engine.
        if !same_origin(&head) {
            respond(
                &mut stream,
                "403 Forbidden",
                "text/plain",
                b"foreign origin",
            );
            return;
        }
        let Some(key) = head.header("sec-websocket-key") else {
            respond(&mut stream, "400 Bad Request", "text/plain", b"no key");
            return;
        };
        let Some(slot) = server.sessions.take() else {
            let text = format!(
                "all {} games are taken: try again when one ends",
                server.sessions.ceiling()
            );
            respond(
                &mut stream,
                "503 Service Unavailable",
                "text/plain",
                text.as_bytes(),
            );
            return;
        };
        let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
        let reply = format!(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
        );
        if stream.write_all(reply.as_bytes()).is_err() {
            return;
        }
        // A message is a move or a FEN, or a PGN at most: a megabyte is plenty.
        let config = WebSocketConfig {
            max_message_size: Some(1 << 20),
            max_frame_size: Some(1 << 20),
            ..WebSocketConfig::default()
        };
        let ws = WebSocket::from_raw_socket(stream, Role::Server, Some(config));
        crate::session::run(ws, server.registry.clone());
        drop(slot);
        return;
    }
    if head.method != "GET" && head.method != "HEAD" {
        respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only",
        );
        return;
    }
    let path = head.path.split('?').next().unwrap_or("/");
    let path = if path == "/index.html" { "/" } else { path };
    match ASSETS.iter().find(|(p, ..)| *p == path) {
        Some((_, kind, body)) => {
            let body: &[u8] = if head.method == "HEAD" { b"" } else { body };
            respond(&mut stream, "200 OK", kind, body)
        }
        None => respond(&mut stream, "404 Not Found", "text/plain", b"not found"),
    }
}

/// True when the request has no `Origin` (not a browser page) or one naming the host the
/// request was sent to.
fn same_origin(head: &Head) -> bool {
    let Some(origin) = head.header("origin") else {
        return true;
    };
    let host = head.header("host").unwrap_or("");
    let origin_host = origin.split_once("://").map_or(origin, |(_, h)| h);
    !host.is_empty() && origin_host.trim_end_matches('/').eq_ignore_ascii_case(host)
}

/// Reads up to the blank line that ends the head, by `deadline`, and parses it.
fn read_head(stream: &mut TcpStream, deadline: Instant) -> Result<Head, String> {
    let mut buf = Vec::with_capacity(1024);
    let mut byte = [0u8; 512];
    // Read in small pieces until the head ends; a GET or an upgrade carries no body, so
    // nothing after the head is lost (the WebSocket client waits for our 101 first).
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        if buf.len() > MAX_HEAD {
            return Err("request head too long".into());
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err("request head too slow".into());
        }
        stream
            .set_read_timeout(Some(left))
            .map_err(|e| e.to_string())?;
        let n = stream.read(&mut byte).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed".into());
        }
        buf.extend_from_slice(&byte[..n]);
    }
    let text = String::from_utf8_lossy(&buf);
    let mut lines = text.split("\r\n");
    let first = lines.next().unwrap_or("");
    let mut parts = first.split_whitespace();
    let (Some(method), Some(path)) = (parts.next(), parts.next()) else {
        return Err("bad request line".into());
    };
    let headers = lines
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Ok(Head {
        method: method.to_string(),
        path: path.to_string(),
        headers,
    })
}

fn respond(stream: &mut TcpStream, status: &str, kind: &str, body: &[u8]) {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|_| stream.write_all(body))
        .and_then(|_| stream.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(headers: &[(&str, &str)]) -> Head {
        Head {
            method: "GET".into(),
            path: "/ws".into(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn only_our_own_page_may_open_the_socket() {
        assert!(same_origin(&head(&[("host", "127.0.0.1:8080")])));
        assert!(same_origin(&head(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080")
        ])));
        assert!(!same_origin(&head(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "https://evil.example")
        ])));
        assert!(!same_origin(&head(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:9999")
        ])));
    }
}
