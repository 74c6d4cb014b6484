//! The web board's game messages through the real binary, without a browser (so that they are
//! checked where Chromium is missing): a flag falling on a clock nobody moves against, Stop
//! making the engine play its best move, Undo in the middle of an Alice Guard turn, a game set
//! up from its moves and stepped through (`peek`), shogi's men keyed by identity, and a review
//! of the whole game marking a blunder (in its PGN too). The WebSocket helpers are `hostile_web`'s.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::hostile_web::{ask, frame, open_game, read_frame, Server};
use std::io::Write;

/// Sends a message without waiting for an answer.
fn send(s: &mut TcpStream, message: Value) {
    s.write_all(&frame(1, message.to_string().as_bytes()))
        .unwrap();
}

/// Reads messages until one of type `kind` for which `ok` holds, within `patience`.
fn wait(s: &mut TcpStream, kind: &str, patience: Duration, ok: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        assert!(start.elapsed() < patience, "no '{kind}' in {patience:?}");
        let (_, payload) = read_frame(s).unwrap_or_else(|| panic!("no '{kind}' answer"));
        let v: Value = serde_json::from_slice(&payload).unwrap();
        if v["type"] == kind && ok(&v) {
            return v;
        }
    }
}

fn game(server: &Server, new: Value) -> (TcpStream, Value) {
    let mut s = open_game(server.port).expect("a game");
    let state = ask(&mut s, &new.to_string(), "state");
    (s, state)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_flag_falls_on_a_clock_nobody_moves_against() {
    let server = Server::start(&[]);
    let (mut s, _) = game(&server, json!({ "type": "new", "variant": "chess" }));
    let set = Instant::now();
    send(&mut s, json!({ "type": "time", "base": 1000, "inc": 0 }));
    let state = wait(&mut s, "state", Duration::from_secs(5), |v| {
        v["result"].is_string()
    });
    assert_eq!(state["result"], "0-1 (time forfeit)");
    assert_eq!(state["clocks"][0], 0, "White's clock shows zero");
    let took = set.elapsed();
    assert!(
        took < Duration::from_secs(3),
        "the flag fell after {took:?}"
    );
}

#[test]
fn stop_makes_the_engine_play_its_best_move() {
    let server = Server::start(&[]);
    let (mut s, _) = game(&server, json!({ "type": "new", "variant": "chess" }));
    ask(&mut s, r#"{"type":"time","movetime":60000}"#, "state");
    ask(
        &mut s,
        r#"{"type":"players","white":"engine","black":"human"}"#,
        "thinking",
    );
    std::thread::sleep(Duration::from_millis(300));
    let stopped = Instant::now();
    send(&mut s, json!({ "type": "stop" }));
    wait(&mut s, "engine-move", Duration::from_secs(5), |_| true);
    assert!(
        stopped.elapsed() < Duration::from_secs(2),
        "the move came at once"
    );
    let state = wait(&mut s, "state", Duration::from_secs(5), |v| {
        v["history"].as_array().is_some_and(|h| h.len() == 1)
    });
    assert_eq!(
        state["engine"]["white"], true,
        "the engine still plays White"
    );
}

#[test]
fn undo_in_the_middle_of_a_turn_takes_back_that_part() {
    let server = Server::start(&[]);
    let (mut s, mut state) = game(&server, json!({ "type": "new", "variant": "aliceguard" }));
    assert_eq!(
        state["part"],
        json!({ "n": 1, "of": 1, "opening": true, "movers": "GDTLSF" })
    );
    ask(
        &mut s,
        r#"{"type":"players","white":"human","black":"human"}"#,
        "state",
    );
    // White's opening turn, Black's two parts, then White's first part.
    for _ in 0..4 {
        let mv = state["moves"][0]["text"].as_str().unwrap().to_string();
        state = ask(
            &mut s,
            &json!({ "type": "move", "move": mv }).to_string(),
            "state",
        );
    }
    assert_eq!(state["part"]["n"], 2, "{}", state["part"]);
    let before = strings(&state["history"]);
    let undone = ask(&mut s, r#"{"type":"undo"}"#, "state");
    assert_eq!(undone["part"]["n"], 1);
    assert_eq!(
        undone["part"]["movers"], "KQRBNP",
        "the home army moves first"
    );
    // Two whole turns and White's first part; the part goes, the turns stay.
    assert_eq!(before.len(), 3, "{before:?}");
    assert_eq!(strings(&undone["history"]), before[..2], "{before:?}");
}

#[test]
fn a_game_from_its_moves_is_stepped_through() {
    let server = Server::start(&[]);
    let new = json!({ "type": "new", "variant": "chess", "moves": ["e2e4", "e7e5", "g1f3"] });
    let (mut s, state) = game(&server, new);
    assert_eq!(strings(&state["san"]), ["e4", "e5", "Nf3"]);
    assert_eq!(state["lastMove"], json!(["g1", "f3"]));
    let peek = ask(&mut s, r#"{"type":"peek","turn":1}"#, "peek");
    assert_eq!(
        peek["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(peek["lastMove"], json!(["e2", "e4"]));
    let bad = json!({ "type": "new", "variant": "chess", "moves": ["e2e5"] });
    let err = ask(&mut s, &bad.to_string(), "error");
    assert!(err["message"].as_str().unwrap().contains("move 1"), "{err}");
}

#[test]
fn shogi_men_are_keyed_by_identity() {
    let server = Server::start(&[]);
    let fen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[] w - - 0 3";
    let (mut s, state) = game(
        &server,
        json!({ "type": "new", "variant": "shogi", "fen": fen }),
    );
    assert_eq!(state["family"], "shogi");
    let keys: Vec<&str> = state["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["key"].as_str().unwrap())
        .collect();
    assert!(keys.contains(&"+P") && keys.contains(&"+B"), "{keys:?}");
    let choices: Vec<&Value> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["path"] == json!(["b2", "g7"]))
        .map(|m| &m["choice"])
        .collect();
    assert_eq!(choices.len(), 2);
    assert!(choices.contains(&&json!("+B")), "{choices:?}");
    ask(
        &mut s,
        r#"{"type":"players","white":"human","black":"human"}"#,
        "state",
    );
    let after = ask(&mut s, r#"{"type":"move","move":"b2g7+"}"#, "state");
    assert_eq!(after["cells"][0][6][6], "+B");
    assert_eq!(strings(&after["san"]), ["Bg7+"]);
}

#[test]
fn a_review_marks_the_blunder() {
    let server = Server::start(&[]);
    let moves = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"];
    let (mut s, state) = game(
        &server,
        json!({ "type": "new", "variant": "chess", "moves": moves }),
    );
    assert_eq!(state["result"], "1-0 (checkmate)");
    send(&mut s, json!({ "type": "review" }));
    let done = wait(&mut s, "state", Duration::from_secs(20), |v| {
        v["reviewing"] == false && v["evals"].as_array().unwrap().iter().all(|e| !e.is_null())
    });
    assert_eq!(
        done["marks"][5], "??",
        "Nf6 lets the queen mate: {}",
        done["marks"]
    );
    assert_eq!(done["evals"][7], 100_000, "the mate is scored");
    // The reviewed game's PGN carries each move's score and the blunder's NAG.
    let pgn = ask(&mut s, r#"{"type":"pgn"}"#, "pgn");
    let text = pgn["pgn"].as_str().unwrap();
    assert!(text.contains("Nf6 $4 {+M}"), "{text}");
    assert!(text.contains("Qxf7# {+M}"), "{text}");
}

#[test]
fn the_strength_is_an_option_of_the_board() {
    let server = Server::start(&[]);
    let (mut s, state) = game(&server, json!({ "type": "new", "variant": "chess" }));
    assert_eq!(state["skill"], 20, "full strength by default");
    let options = ask(&mut s, r#"{"type":"options"}"#, "options");
    let skill = options["list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "Skill Level")
        .expect("Skill Level is offered");
    assert_eq!((&skill["min"], &skill["max"]), (&json!(0), &json!(20)));
    let state = ask(&mut s, r#"{"type":"strength","level":3}"#, "state");
    assert_eq!(state["skill"], 3);
    let error = ask(&mut s, r#"{"type":"strength","level":99}"#, "error");
    assert!(error.to_string().contains("Skill Level"), "{error}");
    // Level 0 plays a move at once.
    ask(&mut s, r#"{"type":"strength","level":0}"#, "state");
    ask(&mut s, r#"{"type":"time","movetime":5000}"#, "state");
    send(
        &mut s,
        json!({ "type": "players", "white": "engine", "black": "human" }),
    );
    let start = Instant::now();
    wait(&mut s, "engine-move", Duration::from_secs(5), |_| true);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}
