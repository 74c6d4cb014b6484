//! `chimera serve` played by clicks in a real browser: starts the server (`--port 0`) and
//! `chromedriver`, drives headless Chromium through the WebDriver HTTP protocol, and in
//! vanguard, pawnvault, pioneer, alice and aliceguard makes a person's moves by clicking the
//! page (a Berserker's two-leg move leg by leg, a castellan gating choice, Pioneer's file choice
//! and the reserve man's entry, a move across Alice's boards, both parts of an Alice Guard turn), waits for the engine's reply, and
//! checks the page's FEN against Chimera's own FEN after the same moves. A screenshot of each
//! game is kept under target/screenshots/. A second test walks through what a person met in
//! #79: a drag (from the board and from the hand), the re-clicked man, the SAN move list stepped through, a review of the whole
//! game, check and last-move marks, a shogi promotion drawn, Alice Guard's parts (status, Undo, PGN mid-turn), a flag
//! falling on an idle clock, and a reload that keeps the game.
//!
//! Without Chromium and chromedriver (Debian `chromium`, `chromium-driver`) the test says SKIP
//! loudly and passes; `.ci/run` installs them.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use chimera_engine::{Position, Registry};
use serde_json::{json, Value};

/// The engine's time per move: short, the test is about the page.
const MOVETIME_MS: u64 = 100;
/// The longest wait for the page or the engine.
const PATIENCE: Duration = Duration::from_secs(30);

/// A child process killed when the test ends, however it ends.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var("PATH").unwrap_or_default();
    for name in names {
        for dir in path.split(':').chain(["/usr/bin", "/usr/lib/chromium"]) {
            let p = Path::new(dir).join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// One HTTP/1.1 request with a JSON body; the JSON answer.
fn http(method: &str, port: u16, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let body = body.map(Value::to_string).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    // Read the head, then exactly the body it announces: chromedriver may keep the
    // connection open whatever the request says.
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let body_at = loop {
        if let Some(i) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = s.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed before the head ended".into());
        }
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..body_at]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let body = &raw[body_at..];
        let complete = match length {
            Some(n) => body.len() >= n,
            None if chunked => body.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if complete {
            break;
        }
        let n = s.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let mut payload = raw[body_at..].to_vec();
    if chunked {
        payload = unchunk(&payload);
    }
    serde_json::from_slice(&payload)
        .map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&payload)))
}

fn unchunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = data.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&data[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = eol + 2;
        out.extend_from_slice(&data[start..(start + size).min(data.len())]);
        data = &data[(start + size + 2).min(data.len())..];
    }
    out
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// A WebDriver session.
struct Browser {
    port: u16,
    session: String,
}

impl Browser {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_call(method, path, body)
            .unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"))
    }

    fn try_call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let url = format!("/session/{}{path}", self.session);
        let answer = http(method, self.port, &url, body.as_ref())?;
        if answer["value"]["error"].is_string() {
            return Err(answer["value"].to_string());
        }
        Ok(answer["value"].clone())
    }

    fn script(&self, code: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": code, "args": [] })),
        )
    }

    fn state(&self) -> Value {
        self.script("return window.chimera ? window.chimera.state : null;")
    }

    /// Clicks the element that `css` selects, found afresh (the page redraws the board on
    /// every state it is sent, which can make a found element stale before the click).
    fn click(&self, css: &str) {
        let mut last = String::new();
        for _ in 0..20 {
            let found = self.try_call(
                "POST",
                "/element",
                Some(json!({ "using": "css selector", "value": css })),
            );
            let id = match found {
                Ok(v) => v.as_object().and_then(|o| o.values().next()).cloned(),
                Err(e) => {
                    last = e;
                    None
                }
            };
            if let Some(Value::String(id)) = id {
                match self.try_call("POST", &format!("/element/{id}/click"), Some(json!({}))) {
                    Ok(_) => return,
                    Err(e) => last = e,
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("cannot click {css}: {last}");
    }

    fn wait_for(&self, what: &str, mut ok: impl FnMut(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let s = self.state();
            if !s.is_null() && ok(&s) {
                return s;
            }
            if start.elapsed() > PATIENCE {
                panic!("timed out waiting for {what}; state: {s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn screenshot(&self, file: &Path) {
        let png = self.call("GET", "/screenshot", None);
        let bytes = base64_decode(png.as_str().expect("a screenshot"));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, bytes).expect("screenshot written");
    }
}

/// One game of the test: the screenshot's name, the variant, its FEN (or the start), and the
/// person's turns.
struct Game {
    name: &'static str,
    variant: &'static str,
    fen: Option<&'static str>,
    turns: &'static [&'static [Part]],
}

/// A part of the person's turn: a move's text, or the first plain move the page offers.
enum Part {
    Text(&'static str),
    AnyPlain,
}

/// Makes one move by clicks: each click of the move's path (a square, a hand or reserve man,
/// a pass), then the piece choice if the page asks for one.
fn click_move(browser: &Browser, part: &Part) -> String {
    let state = browser.state();
    let moves = state["moves"].as_array().expect("legal moves").clone();
    let mv = match part {
        Part::Text(t) => moves
            .iter()
            .find(|m| m["text"] == *t)
            .unwrap_or_else(|| panic!("{t} is not among the page's legal moves"))
            .clone(),
        Part::AnyPlain => moves
            .iter()
            .find(|m| m["choice"].is_null() && m["path"].as_array().unwrap().len() == 2)
            .expect("a plain move")
            .clone(),
    };
    let fen_before = state["fen"].clone();
    for token in mv["path"].as_array().unwrap() {
        let t = token.as_str().unwrap();
        if t == "pass" {
            browser.click("#pass");
        } else if t.starts_with('@') {
            browser.click(&format!(".token[data-token=\"{t}\"]"));
        } else {
            browser.click(&format!("#board [data-square=\"{t}\"]"));
        }
    }
    // A move that shares its clicks with others (promotion, gating) asks for the piece.
    let same_clicks = moves.iter().filter(|m| m["path"] == mv["path"]).count();
    if same_clicks > 1 {
        let choice = mv["choice"].as_str().unwrap_or("");
        browser.click(&format!("#choice [data-choice=\"{choice}\"]"));
    }
    browser.wait_for("the move to be played", |s| s["fen"] != fen_before);
    mv["text"].as_str().unwrap().to_string()
}

/// Plays `turns` (each a list of parts) as White against the engine, checking the page after
/// each engine reply against Chimera's own FEN for the same moves.
fn play_game(browser: &Browser, url: &str, game: &Game, shots: &Path) {
    let Game {
        name,
        variant,
        fen,
        turns,
    } = *game;
    let mut page = format!("{url}?variant={variant}&movetime={MOVETIME_MS}");
    if let Some(f) = fen {
        // The FEN's spaces and slashes as a query value.
        let escaped: String = f
            .bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' => (b as char).to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect();
        page.push_str(&format!("&fen={escaped}"));
    }
    browser.call("POST", "/url", Some(json!({ "url": page })));
    browser.wait_for("the game to be set up", |s| {
        s["variant"] == variant
            && fen.iter().all(|f| s["fen"] == *f)
            && s["history"].as_array().is_some_and(|h| h.is_empty())
            && s["tc"]["movetime"] == MOVETIME_MS
    });
    let registry = Registry::new();
    let v = registry.get(variant).unwrap();
    for (n, parts) in turns.iter().enumerate() {
        let mut texts = Vec::new();
        for part in parts.iter() {
            texts.push(click_move(browser, part));
        }
        let expected = 2 * (n + 1);
        let state = browser.wait_for("the engine's reply", |s| {
            s["history"].as_array().unwrap().len() >= expected && s["side"] == "w"
        });
        let history: Vec<String> = state["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect();
        assert_eq!(history.len(), expected, "{variant}: {history:?}");
        assert_eq!(
            history[2 * n],
            texts.join(","),
            "{variant}: the person's turn"
        );
        let mut pos = match fen {
            Some(f) => Position::from_fen(&v, f).unwrap(),
            None => Position::startpos(&v),
        };
        for word in &history {
            pos.try_play(word)
                .unwrap_or_else(|e| panic!("{variant}: {word} in {history:?}: {e}"));
        }
        assert_eq!(
            state["fen"].as_str().unwrap(),
            pos.fen(),
            "{variant}: the page's FEN after {history:?}"
        );
        let body_fen = browser.script("return document.body.dataset.fen;");
        assert_eq!(
            body_fen.as_str(),
            Some(pos.fen().as_str()),
            "{variant}: shown FEN"
        );
        println!("{variant}: {} -> {}", history.join(" "), pos.fen());
    }
    browser.screenshot(&shots.join(format!("{name}.png")));
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The server, chromedriver and a headless Chromium session, ended when dropped (a failed test
/// included).
struct Harness {
    browser: Browser,
    url: String,
    profile: PathBuf,
    _driver: Reaped,
    _server: Reaped,
}

impl Harness {
    /// Starts everything, or says SKIP loudly and gives `None` without Chromium.
    fn start(test: &str) -> Option<Harness> {
        let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"]);
        let driver = find_program(&["chromedriver"]);
        let (Some(chromium), Some(driver)) = (chromium, driver) else {
            eprintln!(
                "\n*** SKIP {test}: chromium and chromedriver are not installed \
                 (Debian: apt-get install chromium chromium-driver); the web board is NOT tested ***\n"
            );
            return None;
        };
        let mut server = Command::new(env!("CARGO_BIN_EXE_chimera"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("chimera serve starts");
        let out = server.stdout.take().unwrap();
        let server = Reaped(server);
        let mut first = String::new();
        BufReader::new(out).read_line(&mut first).unwrap();
        let url = first.trim().to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "first line: {url}");

        let port = free_port();
        let driver = Reaped(
            Command::new(&driver)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        let start = Instant::now();
        while http("GET", port, "/status", None).is_err() {
            assert!(start.elapsed() < PATIENCE, "chromedriver does not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile =
            std::env::temp_dir().join(format!("chimera-chromium-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let caps = json!({ "capabilities": { "alwaysMatch": { "goog:chromeOptions": {
            "binary": chromium.to_string_lossy(),
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                     format!("--user-data-dir={}", profile.display()), "--window-size=1400,1000"]
        }}}});
        let answer = http("POST", port, "/session", Some(&caps)).expect("a WebDriver session");
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        Some(Harness {
            browser: Browser { port, session },
            url,
            profile,
            _driver: driver,
            _server: server,
        })
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        let b = &self.browser;
        let _ = http("DELETE", b.port, &format!("/session/{}", b.session), None);
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn screenshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots")
}

#[test]
fn web_board_plays_by_clicks_in_chromium() {
    let Some(h) = Harness::start("serve_browser") else {
        return;
    };
    let (browser, url) = (&h.browser, &h.url);
    let shots = screenshots();
    let game = |name, variant, fen, turns| Game {
        name,
        variant,
        fen,
        turns,
    };
    let games = [
        game(
            "vanguard",
            "vanguard",
            None,
            &[&[Part::Text("d3d5")], &[Part::AnyPlain]],
        ),
        // A Berserker's two-leg move, clicked leg by leg: capture on h9, on to h10.
        game(
            "vanguard-legs",
            "vanguard",
            Some("k14j/16/16/16/16/16/16/7p8/7Z8/16/16/16/16/16/16/K14J w - - 0 1"),
            &[&[Part::Text("h8h9,h9h10")]],
        ),
        // The castellan gated in behind the pawn: the page asks which piece.
        game("pawnvault", "pawnvault", None, &[&[Part::Text("e2e4t")]]),
        // The reserve man's file, then the move that lets him in.
        game(
            "pioneer",
            "pioneer",
            None,
            &[&[Part::Text("M@g")], &[Part::Text("g1f3")]],
        ),
        // From board A's e2 to board B's e4.
        game("alice", "alice", None, &[&[Part::Text("e2m4")]]),
        // A one-part first turn, then a turn of two parts.
        game(
            "aliceguard",
            "aliceguard",
            None,
            &[&[Part::Text("m2e4")], &[Part::AnyPlain, Part::AnyPlain]],
        ),
    ];
    for g in &games {
        play_game(browser, url, g, &shots);
    }
}

impl Browser {
    /// The centre of the element `css` selects, in the window's pixels.
    fn centre(&self, css: &str) -> (i64, i64) {
        let code = format!(
            "const r = document.querySelector('{css}').getBoundingClientRect();\
             return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];"
        );
        let v = self.script(&code);
        (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
    }

    /// Drags with the mouse from the centre of `from` to the centre of `to` (both CSS).
    fn drag(&self, from: &str, to: &str) {
        let (a, b) = (self.centre(from), self.centre(to));
        let mv = |x: i64, y: i64, ms: u64| json!({ "type": "pointerMove", "duration": ms, "origin": "viewport", "x": x, "y": y });
        let actions = json!({ "actions": [{ "type": "pointer", "id": "mouse",
        "parameters": { "pointerType": "mouse" },
        "actions": [
            mv(a.0, a.1, 0),
            { "type": "pointerDown", "button": 0 },
            mv((a.0 + b.0) / 2, (a.1 + b.1) / 2, 100),
            mv(b.0, b.1, 100),
            { "type": "pointerUp", "button": 0 },
        ]}]});
        self.call("POST", "/actions", Some(actions));
        self.call("DELETE", "/actions", None);
    }

    /// Opens the board at `query` and waits until `ready` holds for its state.
    fn open(&self, url: &str, query: &str, ready: impl FnMut(&Value) -> bool) -> Value {
        self.call(
            "POST",
            "/url",
            Some(json!({ "url": format!("{url}{query}") })),
        );
        self.wait_for("the page to be set up", ready)
    }

    fn text(&self, id: &str) -> String {
        let v = self.script(&format!(
            "return document.getElementById('{id}').textContent;"
        ));
        v.as_str().unwrap_or_default().to_string()
    }

    /// Sets a form field and tells the page, as a person's edit does.
    fn set_field(&self, id: &str, value: &str) {
        self.script(&format!(
            "const e = document.getElementById('{id}'); e.value = '{value}';\
             e.dispatchEvent(new Event('change'));"
        ));
    }

    fn count(&self, css: &str) -> u64 {
        let v = self.script(&format!(
            "return document.querySelectorAll('{css}').length;"
        ));
        v.as_u64().unwrap()
    }

    /// A key pressed on the page (not in a field).
    fn key(&self, key: &str) {
        self.script(&format!(
            "document.body.dispatchEvent(new KeyboardEvent('keydown', {{ key: '{key}', bubbles: true }}));"
        ));
    }

    /// The turn shown from the move list (`None`: the game as it stands) once it has come.
    fn wait_peek(&self, turn: Option<u64>) -> Value {
        let start = Instant::now();
        loop {
            let p = self.script("return window.chimera.peek;");
            if p["turn"].as_u64() == turn {
                return p;
            }
            assert!(start.elapsed() < PATIENCE, "no view of turn {turn:?}: {p}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn history(s: &Value) -> Vec<String> {
    s["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect()
}

/// The FEN after `moves` from the variant's start.
fn fen_after(variant: &str, moves: &[String]) -> String {
    let registry = Registry::new();
    let v = registry.get(variant).unwrap();
    let mut pos = Position::startpos(&v);
    for m in moves {
        pos.try_play(m).unwrap();
    }
    pos.fen()
}

/// Chess: a man picked and clicked again is put down; a move by drag; the last move marked;
/// the move list in SAN, stepped through by a click, the keys and the buttons; check marked.
fn chess_drag_and_move_list(b: &Browser, url: &str, shots: &Path) {
    b.open(url, "?variant=chess&movetime=100", |s| {
        s["variant"] == "chess" && history(s).is_empty() && s["tc"]["movetime"] == 100
    });
    b.click("#board [data-square=\"g1\"]");
    assert!(
        b.count("#board .target") > 0,
        "g1's knight shows his squares"
    );
    b.click("#board [data-square=\"g1\"]");
    assert_eq!(
        b.count("#board .target"),
        0,
        "clicked again, he is put down"
    );
    b.drag("#board [data-square=\"e2\"]", "#board [data-square=\"e4\"]");
    let s = b.wait_for("the drag's move and the reply", |s| history(s).len() == 2);
    assert_eq!(history(&s)[0], "e2e4", "the drag made e2e4");
    assert_eq!(s["san"][0], "e4", "the list is SAN");
    assert_eq!(b.count("#board .mark.last"), 2, "the last move is marked");
    click_move(b, &Part::Text("d2d4"));
    let s = b.wait_for("the second reply", |s| history(s).len() == 4);
    let moves = history(&s);
    assert_eq!(b.count("#history [data-turn]"), 4);
    b.click("#history [data-turn=\"1\"]");
    let p = b.wait_peek(Some(1));
    assert_eq!(p["fen"], fen_after("chess", &moves[..1]), "after 1. e4");
    assert!(
        b.text("status").contains("After e4"),
        "{}",
        b.text("status")
    );
    b.key("ArrowRight");
    let p = b.wait_peek(Some(2));
    assert_eq!(p["fen"], fen_after("chess", &moves[..2]));
    b.key("Home");
    let p = b.wait_peek(Some(0));
    assert_eq!(p["fen"], fen_after("chess", &[]));
    b.screenshot(&shots.join("chess-move-list.png"));
    b.key("End");
    b.wait_peek(None);
    b.click("#prev");
    b.wait_peek(Some(3));
    b.click("#last");
    b.wait_peek(None);
    assert_eq!(b.text("status"), "White to move");
    // The whole game reviewed: a score for every position, a mark (or none) for every move.
    b.set_field("black", "human");
    b.wait_for("Black a person's", |s| s["engine"]["black"] == false);
    b.click("#review");
    let s = b.wait_for("the review", |s| {
        s["reviewing"] == false && s["evals"].as_array().unwrap().iter().all(|e| !e.is_null())
    });
    assert_eq!(s["evals"].as_array().unwrap().len(), 5);
    assert_eq!(s["marks"].as_array().unwrap().len(), 4);
    assert!(
        b.text("review-summary").starts_with("Review: White:"),
        "{}",
        b.text("review-summary")
    );
    // Check: the king's square glows.
    let fen = "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1";
    b.open(
        url,
        &format!("?variant=chess&fen={}", fen.replace(' ', "%20")),
        |s| s["fen"] == fen,
    );
    assert_eq!(
        b.count("#board [data-check=\"e1\"]"),
        1,
        "the king in check"
    );
    b.screenshot(&shots.join("chess-check.png"));
}

/// Crazyhouse: a man dragged from the hand onto the board is dropped there.
fn drag_from_hand(b: &Browser, url: &str, shots: &Path) {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1";
    let query: String = fen
        .bytes()
        .map(|c| match c {
            b' ' => "%20".to_string(),
            b'[' => "%5B".to_string(),
            b']' => "%5D".to_string(),
            c => (c as char).to_string(),
        })
        .collect();
    b.open(
        url,
        &format!("?variant=crazyhouse&movetime=100&fen={query}"),
        |s| s["fen"] == fen && s["tc"]["movetime"] == 100,
    );
    b.drag(
        ".token[data-token=\"@N\"][data-color=\"w\"]",
        "#board [data-square=\"e4\"]",
    );
    let s = b.wait_for("the drop and the reply", |s| history(s).len() == 2);
    assert_eq!(history(&s)[0], "N@e4");
    b.screenshot(&shots.join("crazyhouse-drop.png"));
}

/// Shogi: the promotion prompt shows the promoted man and the man as he is; the promoted man
/// is drawn as `+B` in red, and the list writes the promotion `Bg7+`.
fn shogi_promotion(b: &Browser, url: &str, shots: &Path) {
    let fen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[] w - - 0 3";
    b.open(
        url,
        &format!("?variant=shogi&fen={}", fen.replace(' ', "%20")),
        |s| s["fen"] == fen,
    );
    // A person plays Black too, so that the promoted man stays to be seen.
    b.set_field("black", "human");
    b.wait_for("Black a person's", |s| s["engine"]["black"] == false);
    b.click("#board [data-square=\"b2\"]");
    b.click("#board [data-square=\"g7\"]");
    assert_eq!(b.count("#choice button"), 2, "promote or not");
    let promoted =
        b.script("return document.querySelector('#choice [data-choice=\"+B\"]').textContent;");
    assert_eq!(promoted, "+B", "the prompt shows the promoted man");
    let plain =
        b.script("return document.querySelector('#choice [data-choice=\"\"]').textContent;");
    assert_eq!(plain, "B", "and the man as he is");
    b.screenshot(&shots.join("shogi-promotion.png"));
    b.click("#choice [data-choice=\"+B\"]");
    let s = b.wait_for("the promotion", |s| history(s).len() == 1);
    assert_eq!(s["san"][0], "Bg7+");
    let man = b.script(
        "const g = document.querySelector('#board .piece[data-man=\"+B\"]');\
         return g ? [g.textContent, g.querySelector('text').getAttribute('fill')] : null;",
    );
    assert_eq!(man, json!(["+B", "#c0141c"]), "the horse is +B, in red");
    b.screenshot(&shots.join("shogi-promoted.png"));
}

/// Alice Guard: the status names the part and the army; Undo in the middle of a turn takes
/// back that part only; a PGN stopped in the middle of a turn loads back.
fn aliceguard_turns(b: &Browser, url: &str, shots: &Path) {
    b.open(url, "?variant=aliceguard&movetime=100", |s| {
        s["variant"] == "aliceguard" && history(s).is_empty() && s["tc"]["movetime"] == 100
    });
    let status = b.text("status");
    assert!(
        status.contains("first turn") && status.contains("guard army"),
        "{status}"
    );
    click_move(b, &Part::AnyPlain);
    let s = b.wait_for("the engine's turn", |s| {
        history(s).len() == 2 && s["side"] == "w"
    });
    let before = history(&s);
    let status = b.text("status");
    assert!(
        status.contains("part 1 of 2") && status.contains("home army"),
        "{status}"
    );
    click_move(b, &Part::AnyPlain);
    let status = b.text("status");
    assert!(
        status.contains("part 2 of 2") && status.contains("guard army"),
        "{status}"
    );
    b.click("#undo");
    let s = b.wait_for("the part taken back", |s| s["part"]["n"] == 1);
    assert_eq!(history(&s), before, "only the part is taken back");
    let part = click_move(b, &Part::AnyPlain);
    let fen = b.state()["fen"].clone();
    b.click("#pgnout");
    let start = Instant::now();
    while b.script("return document.getElementById('pgn').value;") == "" {
        assert!(start.elapsed() < PATIENCE, "no PGN");
        std::thread::sleep(Duration::from_millis(50));
    }
    b.set_field("variant", "chess");
    b.wait_for("another game", |s| s["variant"] == "chess");
    b.click("#pgnin");
    let s = b.wait_for("the PGN loaded", |s| s["variant"] == "aliceguard");
    assert_eq!(s["fen"], fen, "{}", b.text("error"));
    assert_eq!(history(&s).last(), Some(&part), "the half turn is back");
    b.screenshot(&shots.join("aliceguard-mid-turn.png"));
}

/// A clock of 2 seconds that nobody moves against: the flag falls by itself.
fn flag_on_idle_clock(b: &Browser, url: &str, shots: &Path) {
    b.open(url, "?variant=chess", |s| s["variant"] == "chess");
    b.set_field("tcmode", "clock");
    b.set_field("min", "0");
    b.set_field("sec", "2");
    b.set_field("inc", "0");
    b.wait_for("the clock set", |s| s["tc"]["base"] == 2000);
    let set = Instant::now();
    let s = b.wait_for("the flag", |s| s["result"].is_string());
    let took = set.elapsed();
    assert_eq!(s["result"], "0-1 (time forfeit)");
    assert!(
        took < Duration::from_secs(5),
        "the flag fell after {took:?}"
    );
    assert!(
        b.text("clocks").contains("White 0:00.0"),
        "{}",
        b.text("clocks")
    );
    b.screenshot(&shots.join("flag-idle-clock.png"));
}

/// The game and the settings survive a reload (a page opened without `?variant=`).
fn reload_keeps_the_game(b: &Browser, url: &str, shots: &Path) {
    // Nothing is stored yet (every page before had `?variant=`): a fresh game of chess.
    b.open(url, "", |s| {
        s["variant"] == "chess" && history(s).is_empty()
    });
    b.set_field("tcmode", "movetime");
    b.set_field("movetime", "150");
    b.wait_for("the time set", |s| s["tc"]["movetime"] == 150);
    assert_eq!(b.state()["engine"]["black"], true, "the engine plays Black");
    click_move(b, &Part::Text("e2e4"));
    let s = b.wait_for("the reply", |s| history(s).len() == 2);
    let moves = history(&s);
    b.open(url, "", |s| s["variant"] == "chess" && history(s) == moves);
    assert_eq!(
        b.script("return document.getElementById('movetime').value;"),
        "150"
    );
    b.screenshot(&shots.join("reload.png"));
}

/// The piece sets of the families: xiangqi's discs, janggi's octagons, makruk's men.
fn piece_sets(b: &Browser, url: &str, shots: &Path) {
    for (variant, family, shape) in [
        ("xiangqi", "xiangqi", "circle"),
        ("janggi", "janggi", "polygon"),
        ("makruk", "makruk", "ellipse"),
    ] {
        b.open(url, &format!("?variant={variant}"), |s| {
            s["variant"] == variant
        });
        assert_eq!(b.state()["family"], family);
        assert!(
            b.count(&format!("#board .piece {shape}")) >= 16,
            "{variant}: men drawn as {shape}s"
        );
        b.screenshot(&shots.join(format!("{variant}.png")));
    }
}

/// Vanguard's legend: 21 pieces by name, and a hover diagram from the engine's moves.
fn vanguard_legend(b: &Browser, url: &str, shots: &Path) {
    b.open(url, "?variant=vanguard", |s| s["variant"] == "vanguard");
    assert_eq!(b.count("#legend .lg"), 21);
    assert!(
        b.text("legend").contains("Berserker"),
        "{}",
        b.text("legend")
    );
    let start = Instant::now();
    while b.script("return legendDiagrams.variant;") != "vanguard" {
        assert!(start.elapsed() < PATIENCE, "no diagrams");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The Chancellor (RN): rook's and knight's moves, each a move and a capture.
    b.script(
        "const row = [...document.querySelectorAll('#legend .lg')].find(r => r.textContent.includes('Chancellor'));\
         row.scrollIntoView(); row.dispatchEvent(new MouseEvent('mouseenter'));",
    );
    let dots = b.count(".legend-diagram circle[fill=\"#1565c0\"]");
    assert_eq!(
        dots,
        8 + 16,
        "the Chancellor's moves: a knight's 8, a rook's 16 within 4 squares"
    );
    b.screenshot(&shots.join("vanguard-legend.png"));
}

#[test]
fn web_board_is_comfortable_in_chromium() {
    let Some(h) = Harness::start("serve_browser_comfort") else {
        return;
    };
    let shots = screenshots();
    let (b, url) = (&h.browser, h.url.as_str());
    chess_drag_and_move_list(b, url, &shots);
    drag_from_hand(b, url, &shots);
    shogi_promotion(b, url, &shots);
    aliceguard_turns(b, url, &shots);
    flag_on_idle_clock(b, url, &shots);
    reload_keeps_the_game(b, url, &shots);
    piece_sets(b, url, &shots);
    vanguard_legend(b, url, &shots);
}
