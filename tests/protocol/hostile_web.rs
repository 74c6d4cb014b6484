//! `chimera serve` against a hostile client, through the real binary on loopback: a frame
//! header announcing 50 MB, a frame against the protocol, more games than the server takes,
//! a page beside searching games, a host name rebound to this machine (DNS rebinding), and the
//! state of a game of 32,000 plies. Each is held: a close frame with its reason and a server
//! at rest, a clear refusal, an answer in time. The WebSocket is spoken by hand here, so that
//! the test can send what no well-behaved client would.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A running `chimera serve`, killed when dropped.
pub(super) struct Server {
    child: Child,
    pub(super) port: u16,
}

impl Server {
    pub(super) fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("chimera serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let port = first
            .trim()
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("first line: {first}"));
        Server { child, port }
    }

    /// The processor time the server has used, in clock ticks (Linux), if it can be read.
    fn cpu_ticks(&self) -> Option<u64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // The fields after the command's name, which is in parentheses: utime is the 14th
        // field of the line, stime the 15th.
        let rest = stat.rsplit_once(')')?.1;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn connect(port: u16) -> TcpStream {
    let s = TcpStream::connect(("127.0.0.1", port)).expect("the server accepts");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s
}

/// Sends a request head and returns the status line of the answer, reading through its head.
fn request(s: &mut TcpStream, head: &str) -> String {
    s.write_all(head.as_bytes()).unwrap();
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\r\n\r\n") {
        match s.read(&mut byte) {
            Ok(1) => got.push(byte[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&got)
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

fn upgrade_head(host: &str, origin: Option<&str>) -> String {
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    format!(
        "GET /ws HTTP/1.1\r\nHost: {host}\r\n{origin}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
}

/// A WebSocket opened by hand, or the status line that refused it.
pub(super) fn open_game(port: u16) -> Result<TcpStream, String> {
    let mut s = connect(port);
    let status = request(&mut s, &upgrade_head(&format!("127.0.0.1:{port}"), None));
    if status.contains(" 101 ") {
        Ok(s)
    } else {
        Err(status)
    }
}

/// A client's frame: masked, as the protocol wants from clients.
pub(super) fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [0x37, 0xfa, 0x21, 0x3d];
    let mut out = vec![0x80 | opcode];
    match payload.len() {
        n if n < 126 => out.push(0x80 | n as u8),
        n if n <= 0xffff => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(0x80 | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

/// The next frame from the server (which does not mask): opcode and payload, or `None` at the
/// end of the stream.
pub(super) fn read_frame(s: &mut TcpStream) -> Option<(u8, Vec<u8>)> {
    let mut head = [0u8; 2];
    s.read_exact(&mut head).ok()?;
    let len = match head[1] & 0x7f {
        126 => {
            let mut b = [0u8; 2];
            s.read_exact(&mut b).ok()?;
            u16::from_be_bytes(b) as usize
        }
        127 => {
            let mut b = [0u8; 8];
            s.read_exact(&mut b).ok()?;
            u64::from_be_bytes(b) as usize
        }
        n => n as usize,
    };
    let mut payload = vec![0u8; len];
    s.read_exact(&mut payload).ok()?;
    Some((head[0] & 0x0f, payload))
}

/// Sends a JSON message and reads messages until one of type `kind`.
pub(super) fn ask(s: &mut TcpStream, message: &str, kind: &str) -> Value {
    s.write_all(&frame(1, message.as_bytes())).unwrap();
    loop {
        let (opcode, payload) = read_frame(s).unwrap_or_else(|| panic!("no '{kind}' answer"));
        assert_eq!(opcode, 1, "a text frame");
        let v: Value = serde_json::from_slice(&payload).unwrap();
        if v["type"] == kind {
            return v;
        }
    }
}

/// Reads to the end of the stream: the close frame's code and reason, and the bytes read.
fn close_of(s: &mut TcpStream) -> (Option<(u16, String)>, usize) {
    let mut close = None;
    let mut bytes = 0;
    while let Some((opcode, payload)) = read_frame(s) {
        bytes += payload.len() + 2;
        if opcode == 8 && payload.len() >= 2 {
            let code = u16::from_be_bytes([payload[0], payload[1]]);
            close = Some((code, String::from_utf8_lossy(&payload[2..]).to_string()));
        }
    }
    (close, bytes)
}

#[test]
fn an_oversized_frame_header_gets_a_close_frame_and_the_server_rests() {
    let server = Server::start(&[]);
    let mut s = open_game(server.port).expect("a game");
    // The header alone, announcing 50 MB that never come.
    let mut header = vec![0x81, 0x80 | 127];
    header.extend_from_slice(&(50u64 << 20).to_be_bytes());
    header.extend_from_slice(&[1, 2, 3, 4]);
    s.write_all(&header).unwrap();
    let (close, bytes) = close_of(&mut s);
    let (code, reason) = close.expect("a close frame");
    assert_eq!(code, 1009, "{reason}");
    assert!(reason.contains("too large"), "{reason}");
    assert!(bytes < 4096, "{bytes} bytes of answer");
    // The server is at rest afterwards, and serves the next game.
    if let (Some(before), true) = (server.cpu_ticks(), cfg!(target_os = "linux")) {
        std::thread::sleep(Duration::from_secs(1));
        let used = server.cpu_ticks().unwrap() - before;
        assert!(
            used <= 20,
            "{used} ticks of processor time in a second at rest"
        );
    }
    let mut next = open_game(server.port).expect("another game");
    assert_eq!(
        ask(&mut next, r#"{"type":"state"}"#, "state")["variant"],
        "chess"
    );
}

#[test]
fn a_frame_against_the_protocol_gets_a_close_frame() {
    let server = Server::start(&[]);
    let mut s = open_game(server.port).expect("a game");
    // A client's frame must be masked: this one is not.
    s.write_all(&[0x81, 0x05, b'h', b'e', b'l', b'l', b'o'])
        .unwrap();
    let (close, _) = close_of(&mut s);
    let (code, reason) = close.expect("a close frame");
    assert_eq!(code, 1002, "{reason}");
}

#[test]
fn games_beyond_the_cap_are_refused_until_one_ends() {
    let server = Server::start(&["--max-sessions", "2"]);
    let first = open_game(server.port).expect("the first game");
    let _second = open_game(server.port).expect("the second game");
    let refused = open_game(server.port).expect_err("a third game");
    assert!(refused.contains(" 503 "), "{refused}");
    // The page itself is still served.
    let mut s = connect(server.port);
    let page = request(
        &mut s,
        &format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", server.port),
    );
    assert!(page.contains(" 200 "), "{page}");
    // A game that ends frees its place.
    drop(first);
    let start = Instant::now();
    while open_game(server.port).is_err() {
        assert!(start.elapsed() < Duration::from_secs(10), "no place freed");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_page_loads_within_a_second_beside_searching_games() {
    let server = Server::start(&["--max-sessions", "8"]);
    let mut games = Vec::new();
    for _ in 0..8 {
        let mut g = open_game(server.port).expect("a game");
        ask(&mut g, r#"{"type":"analyse","on":true}"#, "info");
        games.push(g);
    }
    for _ in 0..52 {
        assert!(open_game(server.port).is_err(), "a game beyond the cap");
    }
    let start = Instant::now();
    let mut s = connect(server.port);
    let page = request(
        &mut s,
        &format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", server.port),
    );
    let took = start.elapsed();
    assert!(page.contains(" 200 "), "{page}");
    assert!(took < Duration::from_secs(1), "the page took {took:?}");
}

#[test]
fn a_rebound_host_name_is_refused() {
    let server = Server::start(&[]);
    let port = server.port;
    let evil = format!("evil.example:{port}");
    let mut s = connect(port);
    let status = request(&mut s, &format!("GET / HTTP/1.1\r\nHost: {evil}\r\n\r\n"));
    assert!(status.contains(" 403 "), "{status}");
    // Host and Origin agree, as they do after a rebinding: still refused.
    let mut s = connect(port);
    let status = request(
        &mut s,
        &upgrade_head(&evil, Some(&format!("http://{evil}"))),
    );
    assert!(status.contains(" 403 "), "{status}");
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let mut s = connect(port);
        let status = request(&mut s, &format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n"));
        assert!(status.contains(" 200 "), "{host}: {status}");
    }
}

#[test]
fn the_state_of_a_game_of_32000_plies_is_written_at_once() {
    // Knights out and back, in a chess that no repetition or move count ends.
    let dir = std::env::temp_dir().join(format!("chimera-hostile-web-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ini = dir.join("endless.ini");
    std::fs::write(&ini, "[endless:chess]\nnFoldRule = 0\nnMoveRule = 0\n").unwrap();
    let server = Server::start(&["--variants", ini.to_str().unwrap()]);
    let mut g = open_game(server.port).expect("a game");
    let mut pgn = String::from("[Variant \"endless\"]\n\n");
    for i in 0..8000 {
        pgn += &format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2);
    }
    pgn += "*";
    let load = serde_json::json!({ "type": "loadpgn", "pgn": pgn }).to_string();
    let loaded = ask(&mut g, &load, "state");
    assert_eq!(loaded["history"].as_array().map(Vec::len), Some(32000));
    let start = Instant::now();
    let state = ask(&mut g, r#"{"type":"state"}"#, "state");
    let took = start.elapsed();
    println!("the state of 32,000 plies took {took:?}");
    assert_eq!(state["history"].as_array().map(Vec::len), Some(32000));
    // Written in linear time this takes a few hundredths of a second; a copy of the game per
    // move took over a second.
    assert!(took < Duration::from_millis(500), "state took {took:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
