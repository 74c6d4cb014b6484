//! `chimera serve`: a local web board for every variant Chimera plays. One module per job: the
//! command line and the listener (here), the HTTP side that hands out the embedded page and
//! upgrades to a WebSocket (`http`), one game per connection driven by JSON messages
//! (`session`), its time control and clocks (`clock`), the position as the page sees it
//! (`view`), the engine options it offers, from the protocol crate's table (`settings`), PGN
//! in and out (`pgn`), the rules of a whole game's review (`review`), the legend's move
//! diagrams from the move generator (`diagram`), and what one server lets its clients take
//! (`limits`).
//!
//! Nothing is fetched at run time: the page's assets are compiled into the binary.

mod clock;
mod diagram;
mod http;
mod limits;
mod pgn;
mod review;
mod session;
mod settings;
mod view;

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use chimera_engine::registry::Registry;

const USAGE: &str =
    "usage: chimera serve [--host H] [--port P] [--variants FILE] [--max-sessions N]
  --host H            the address to listen on (127.0.0.1)
  --port P            the port (8080; 0 = any free port)
  --variants FILE     load extra variant definitions (repeatable)
  --max-sessions N    games at once, each with its own engine (16; 1-1024)
The first line printed is the board's URL.";

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
struct Config {
    host: String,
    port: u16,
    variant_files: Vec<String>,
    max_sessions: usize,
}

/// Reads the words after `serve`.
fn parse_args(args: &[String]) -> Result<Config, String> {
    let mut config = Config {
        host: "127.0.0.1".into(),
        port: 8080,
        variant_files: Vec::new(),
        max_sessions: limits::DEFAULT_MAX_SESSIONS,
    };
    let mut it = args.iter();
    while let Some(word) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match word.as_str() {
            "--host" => config.host = value("--host")?,
            "--port" => {
                let v = value("--port")?;
                config.port = v
                    .parse()
                    .map_err(|_| format!("--port {v}: not a port number (0-65535)"))?;
            }
            "--variants" => config.variant_files.push(value("--variants")?),
            "--max-sessions" => {
                let v = value("--max-sessions")?;
                config.max_sessions = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=1024).contains(n))
                    .ok_or_else(|| format!("--max-sessions {v}: not a number in 1-1024"))?;
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok(config)
}

/// `chimera serve ARGS`: listens until killed; returns the exit status on a startup error.
pub fn run(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return 0;
    }
    let config = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return 2;
        }
    };
    let mut registry = Registry::new();
    for file in &config.variant_files {
        let report = registry.load_file(file);
        if !report.errors.is_empty() {
            // The good sections load; the bad ones are named and left out.
            eprintln!("{}", report.errors_text("\n"));
        }
    }
    let listener = match TcpListener::bind((config.host.as_str(), config.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "error: cannot listen on {}:{}: {e}",
                config.host, config.port
            );
            return 1;
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    // The first line is the URL, for a person and for the tests that start the server.
    println!("http://{addr}/");
    let _ = std::io::stdout().flush();
    let server = Server {
        registry,
        listen_host: config.host,
        sessions: limits::Pool::new(config.max_sessions),
    };
    serve(listener, Arc::new(server));
    0
}

/// What every connection of one server shares.
pub(crate) struct Server {
    pub registry: Registry,
    /// The `--host` the server listens on, the one name besides addresses and `localhost`
    /// that a request's `Host` may give.
    pub listen_host: String,
    /// The games being played, each with its own engine.
    pub sessions: Arc<limits::Pool>,
}

/// Accepts connections for ever, a thread each, at most [`limits::MAX_CONNECTIONS`] at once.
fn serve(listener: TcpListener, server: Arc<Server>) {
    let connections = limits::Pool::new(limits::MAX_CONNECTIONS);
    let mut backoff = limits::Backoff::default();
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => {
                backoff.succeeded();
                stream
            }
            Err(_) => {
                // Out of descriptors, say: retrying at once would only spin on the error.
                std::thread::sleep(backoff.failed());
                continue;
            }
        };
        let Some(slot) = connections.take() else {
            turn_away(stream);
            continue;
        };
        let server = server.clone();
        let spawned = std::thread::Builder::new()
            .name("connection".into())
            .spawn(move || {
                http::handle(stream, &server);
                drop(slot);
            });
        if let Err(e) = spawned {
            eprintln!("cannot start a connection thread: {e}");
        }
    }
}

/// Answers a connection beyond the limit from the accepting thread, which must not wait on it.
fn turn_away(mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
    let _ = stream.write_all(
        b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};
    use std::net::TcpStream;
    use std::time::{Duration, Instant};
    use tungstenite::{Message, WebSocket};

    fn start_server() -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = Server {
            registry: Registry::new(),
            listen_host: "127.0.0.1".into(),
            sessions: limits::Pool::new(limits::DEFAULT_MAX_SESSIONS),
        };
        std::thread::spawn(move || serve(listener, Arc::new(server)));
        port
    }

    fn connect(port: u16) -> WebSocket<TcpStream> {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let url = format!("ws://127.0.0.1:{port}/ws");
        tungstenite::client::client(url.as_str(), stream)
            .expect("the WebSocket handshake")
            .0
    }

    fn send(ws: &mut WebSocket<TcpStream>, text: &str) {
        ws.send(Message::Text(text.to_string())).unwrap();
    }

    /// Reads messages until one satisfies `want`; returns it.
    fn until(ws: &mut WebSocket<TcpStream>, what: &str, want: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            assert!(start.elapsed() < Duration::from_secs(20), "no {what}");
            if let Message::Text(t) = ws.read().expect("the server answers") {
                let v: Value = serde_json::from_str(&t).unwrap();
                if want(&v) {
                    return v;
                }
            }
        }
    }

    fn is(kind: &'static str) -> impl Fn(&Value) -> bool {
        move |v| v["type"] == kind
    }

    #[test]
    fn bad_messages_get_errors_and_the_session_goes_on() {
        let port = start_server();
        let mut ws = connect(port);
        for bad in [
            "not json",
            "[1,2]",
            "{}",
            r#"{"type":"nope"}"#,
            r#"{"type":"move"}"#,
            r#"{"type":"move","move":"e2e5"}"#,
            r#"{"type":"move","move":7}"#,
            r#"{"type":"new","variant":"nosuch"}"#,
            r#"{"type":"new","variant":"chess","fen":"garbage"}"#,
            r#"{"type":"new","variant":"vanguard","fen":"8/8/8/8/8/8/8/8 w - - 0 1"}"#,
            r#"{"type":"time","movetime":-5}"#,
            r#"{"type":"time","movetime":1e99}"#,
            r#"{"type":"analyse","on":"yes"}"#,
            r#"{"type":"analyse","on":true,"multipv":0}"#,
            r#"{"type":"players","white":"robot"}"#,
            r#"{"type":"undo"}"#,
            r#"{"type":"loadpgn","pgn":"1. e4 e5 2. Ke3 *"}"#,
        ] {
            send(&mut ws, bad);
            let answer = until(&mut ws, "an answer", |_| true);
            assert_eq!(answer["type"], "error", "{bad} answered {answer}");
        }
        // Still alive: a state on request.
        send(&mut ws, r#"{"type":"state"}"#);
        let state = until(&mut ws, "a state", is("state"));
        assert_eq!(state["variant"], "chess");
        // A message larger than the limit closes this connection only.
        let _ = ws.send(Message::Text("x".repeat(2 << 20)));
        let mut other = connect(port);
        send(&mut other, r#"{"type":"variants"}"#);
        let list = until(&mut other, "the variants", is("variants"));
        assert!(list["list"].as_array().unwrap().len() > 20);
    }

    /// The analysis lines are the option MultiPV (and the strength `Skill Level`): the page is
    /// sent their ranges from the options table, and the table checks what the page sends.
    #[test]
    fn the_analysis_lines_follow_the_options_table() {
        let port = start_server();
        let mut ws = connect(port);
        send(&mut ws, r#"{"type":"options"}"#);
        let options = until(&mut ws, "the options", is("options"));
        let (min, max) = chimera_protocol::options::MULTIPV.range().unwrap();
        assert_eq!(
            options["list"],
            json!([
                { "name": "MultiPV", "type": "spin", "value": 1, "min": min, "max": max },
                { "name": "Skill Level", "type": "spin", "value": 20, "min": 0, "max": 20 }
            ])
        );
        for (lines, answer) in [
            (json!(max + 1), "error"),
            (json!(min - 1), "error"),
            (json!("3"), "error"),
            (json!(2.5), "error"),
            (json!(max), "state"),
        ] {
            let msg = json!({ "type": "analyse", "on": false, "multipv": lines });
            send(&mut ws, &msg.to_string());
            let reply = until(&mut ws, "an answer", |_| true);
            assert_eq!(reply["type"], answer, "{lines}: {reply}");
        }
        send(&mut ws, r#"{"type":"state"}"#);
        let state = until(&mut ws, "the state", is("state"));
        assert_eq!(state["multipv"], max);
    }

    /// Messages put together at random from the protocol's words and odd values (a fixed
    /// seed): whatever they ask, the session answers the next plain request.
    #[test]
    fn random_messages_leave_the_session_answering() {
        let port = start_server();
        let mut ws = connect(port);
        let types = [
            "variants", "new", "state", "move", "undo", "players", "time", "go", "stop", "analyse",
            "fen", "pgn", "loadpgn", "", "MOVE",
        ];
        let keys = [
            "variant", "fen", "move", "white", "black", "movetime", "base", "inc", "on", "multipv",
            "pgn",
        ];
        let values = [
            json!(null),
            json!(true),
            json!(-1),
            json!(0),
            json!(50),
            json!(1e300),
            json!("engine"),
            json!("human"),
            json!("alice"),
            json!("aliceguard"),
            json!("e2m4"),
            json!("M@g"),
            json!("h8h9,h9h10"),
            json!("8/8/8/8/8/8/8/8 w - - 0 1"),
            json!("k14j/16/16/16/16/16/16/7p8/7Z8/16/16/16/16/16/16/K14J w - - 0 1"),
            json!("\u{0}\u{ffff}"),
            json!([1, [2, {"a": 3}]]),
            json!({"type": "move"}),
        ];
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        for _ in 0..300 {
            let mut m = serde_json::Map::new();
            m.insert("type".into(), json!(types[next(types.len())]));
            for _ in 0..next(4) {
                m.insert(
                    keys[next(keys.len())].into(),
                    values[next(values.len())].clone(),
                );
            }
            send(&mut ws, &Value::Object(m).to_string());
        }
        send(&mut ws, r#"{"type":"stop"}"#);
        send(&mut ws, r#"{"type":"fen"}"#);
        let fen = until(&mut ws, "the FEN after the storm", is("fen"));
        assert!(fen["fen"].is_string());
    }

    #[test]
    fn a_game_against_the_engine_with_undo_fen_pgn_and_analysis() {
        let port = start_server();
        let mut ws = connect(port);
        let msgs = [
            json!({"type": "new", "variant": "alice"}),
            json!({"type": "players", "white": "human", "black": "engine"}),
            json!({"type": "time", "movetime": 50}),
            json!({"type": "move", "move": "e2m4"}),
        ];
        for m in &msgs {
            send(&mut ws, &m.to_string());
        }
        let reply = until(&mut ws, "the engine's move", is("engine-move"));
        assert!(reply["move"].is_string());
        let state = until(&mut ws, "the state after it", |v| {
            v["type"] == "state" && v["history"].as_array().is_some_and(|h| h.len() == 2)
        });
        assert_eq!(state["side"], "w");
        assert_eq!(state["history"][0], "e2m4");
        assert!(
            state["evals"][1].is_i64(),
            "the engine's score is kept: {}",
            state["evals"]
        );
        // PGN out and back in.
        send(&mut ws, r#"{"type":"pgn"}"#);
        let pgn = until(&mut ws, "the PGN", is("pgn"));
        let text = pgn["pgn"].as_str().unwrap().to_string();
        assert!(text.contains("[Variant \"alice\"]"), "{text}");
        // Undo takes back the engine's reply and the person's move.
        send(&mut ws, r#"{"type":"undo"}"#);
        let undone = until(&mut ws, "the state after undo", is("state"));
        assert_eq!(undone["history"].as_array().unwrap().len(), 0);
        send(
            &mut ws,
            &json!({"type": "loadpgn", "pgn": text}).to_string(),
        );
        let loaded = until(&mut ws, "the loaded game", is("state"));
        assert_eq!(loaded["fen"], state["fen"]);
        // FEN out, and in.
        send(&mut ws, r#"{"type":"fen"}"#);
        let fen = until(&mut ws, "the FEN", is("fen"));
        assert_eq!(fen["fen"], state["fen"]);
        // Analysis: two lines streamed for the person's position.
        send(&mut ws, r#"{"type":"players","black":"human"}"#);
        send(&mut ws, r#"{"type":"analyse","on":true,"multipv":2}"#);
        let second = until(&mut ws, "a second line", |v| {
            v["type"] == "info" && v["multipv"] == 2
        });
        assert!(second["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
        send(&mut ws, r#"{"type":"analyse","on":false}"#);
        // A closed page: the server carries on for the next one.
        drop(ws);
        let mut next = connect(port);
        send(&mut next, r#"{"type":"state"}"#);
        until(&mut next, "a state", is("state"));
    }

    /// Every built-in variant, the seed games and Fairy-Stockfish's built-ins alike, is shown
    /// and played by the engine against itself through the socket for a few turns (or to the
    /// end, if the rules end the game sooner).
    #[test]
    fn the_engine_plays_every_builtin_variant_on_the_board() {
        let port = start_server();
        let mut ws = connect(port);
        for name in chimera_engine::registry::builtin_names() {
            for m in [
                json!({"type": "new", "variant": name}),
                json!({"type": "time", "movetime": 10}),
                json!({"type": "players", "white": "engine", "black": "engine"}),
            ] {
                send(&mut ws, &m.to_string());
            }
            let state = until(&mut ws, &format!("three turns in {name}"), |v| {
                v["type"] == "error"
                    || (v["type"] == "state"
                        && v["variant"] == name.as_str()
                        && (v["history"].as_array().is_some_and(|h| h.len() >= 3)
                            || !v["result"].is_null()))
            });
            assert_eq!(state["type"], "state", "{name}: {state}");
            assert!(state["fen"].is_string(), "{name}: {state}");
            send(
                &mut ws,
                r#"{"type":"players","white":"human","black":"human"}"#,
            );
        }
    }

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn arguments_are_read_and_checked() {
        let c = parse_args(&words("--port 0 --host 0.0.0.0 --variants a.ini")).unwrap();
        assert_eq!(c.port, 0);
        assert_eq!(c.host, "0.0.0.0");
        assert_eq!(c.variant_files, vec!["a.ini".to_string()]);
        assert_eq!(parse_args(&[]).unwrap().host, "127.0.0.1");
        assert!(parse_args(&words("--port 70000")).is_err());
        assert!(parse_args(&words("--port")).is_err());
        assert!(parse_args(&words("--bogus")).is_err());
        assert_eq!(parse_args(&[]).unwrap().max_sessions, 16);
        assert_eq!(
            parse_args(&words("--max-sessions 3")).unwrap().max_sessions,
            3
        );
        assert!(parse_args(&words("--max-sessions 0")).is_err());
        assert!(parse_args(&words("--max-sessions many")).is_err());
    }
}
