//! One game per WebSocket connection: the page sends JSON messages (`{"type": ...}`), the
//! session answers with the state of the game, search progress, errors, FEN and PGN. The game
//! is Chimera's own: its registry, position, rules and searcher (driven through the protocol
//! crate's [`EngineState`], which runs the search on a worker thread). Every message is
//! checked; a bad one gets `{"type":"error"}` and the session carries on. When the socket
//! closes, the running search is stopped and everything is dropped. The session watches the
//! clocks itself (every [`POLL`]), so that a flag falls on a clock nobody moves against.

use std::net::TcpStream;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;

use chimera_engine::rules::result_token;
use chimera_engine::search::{IterationInfo, Limits, Score, SearchReport};
use chimera_engine::{Color, Move, Position, Registry};
use chimera_protocol::options::{MULTIPV, SKILL_LEVEL};
use chimera_protocol::state::{panic_text, EngineState, Event, Output, SearchFor};
use serde_json::{json, Value};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::CloseFrame;
use tungstenite::{Message, WebSocket};

use crate::clock::{Clocks, TimeControl};
use crate::{review, settings, view};

/// How long a read waits before the session looks at its search again.
const POLL: Duration = Duration::from_millis(20);
/// The longest time per move accepted, in ms (an hour).
const MAX_MOVETIME: u64 = 3_600_000;

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// The engine's move for the side to move.
    Move,
    /// Open-ended analysis of the position.
    Analysis,
    /// One position of the whole game's review (its ply).
    Review(usize),
}

/// A search line's progress, sent from the search thread to the session.
struct Progress {
    /// The ply of the searched position (its place in the eval graph).
    ply: usize,
    /// The score from White's point of view, in centipawns (mates as large values).
    white_cp: i32,
    /// The message for the page.
    message: Value,
    /// Passed on to the page (a review's searches are only scores).
    forward: bool,
}

/// Passes each iteration on as a [`Progress`].
struct Report {
    root: Position,
    tx: Sender<Progress>,
    forward: bool,
}

impl SearchReport for Report {
    fn iteration(&mut self, info: &IterationInfo) {
        let (score, cp) = match info.score {
            Score::Cp(c) => (json!({ "cp": c }), c),
            Score::Mate(m) => (json!({ "mate": m }), if m > 0 { 100_000 } else { -100_000 }),
        };
        let white_cp = if self.root.side_to_move() == Color::White {
            cp
        } else {
            -cp
        };
        let message = json!({
            "type": "info",
            "depth": info.depth,
            "seldepth": info.seldepth,
            "score": score,
            "white": white_cp,
            "side": if self.root.side_to_move() == Color::White { "w" } else { "b" },
            "nodes": info.nodes,
            "nps": info.nps,
            "time": info.time.as_millis() as u64,
            "multipv": info.multipv,
            "pv": view::turn_words(&self.root, &info.pv),
            "san": view::line_san(&self.root, &info.pv),
        });
        let _ = self.tx.send(Progress {
            ply: self.root.game_ply(),
            white_cp,
            message,
            forward: self.forward,
        });
    }
}

/// One connection's game.
struct Session {
    state: EngineState,
    events: Receiver<Event>,
    progress_tx: Sender<Progress>,
    progress: Receiver<Progress>,
    capture: chimera_protocol::state::Capture,
    /// Which sides the engine plays (White, Black).
    engine: [bool; 2],
    /// The time control and the clocks.
    clock: Clocks,
    /// Analysis is wanted while a person is to move (with the option MultiPV's lines).
    analysing: bool,
    /// The running search's purpose.
    purpose: Option<Purpose>,
    /// The position changed while a search ran: start what is due once it is back.
    restart: bool,
    /// White's score per ply of the game, from the deepest search of that position.
    evals: Vec<Option<i32>>,
    /// The result by a flag fall (the rules decide every other end).
    flagged: Option<String>,
    /// The next ply of the game to review, while the whole game is reviewed.
    review: Option<usize>,
    /// The SAN of the moves played so far (kept, so that a `state` costs no SAN).
    san: Vec<String>,
    /// Messages waiting to be sent.
    outbox: Vec<Value>,
}

/// Runs the session until the socket closes.
pub fn run(mut ws: WebSocket<TcpStream>, registry: Registry) {
    let _ = ws.get_mut().set_read_timeout(Some(POLL));
    // A page that stops reading (a frozen tab) must not hold the session for ever.
    let _ = ws
        .get_mut()
        .set_write_timeout(Some(Duration::from_secs(10)));
    let (tx, events) = channel();
    let (out, capture) = Output::capture();
    let (progress_tx, progress) = channel();
    let mut s = Session {
        state: EngineState::new(registry, out, tx),
        events,
        progress_tx,
        progress,
        capture,
        engine: [false, true],
        clock: Clocks::new(),
        analysing: false,
        purpose: None,
        restart: false,
        evals: vec![None],
        flagged: None,
        san: Vec::new(),
        review: None,
        outbox: Vec::new(),
    };
    s.state.error_line = |t| t.to_string();
    loop {
        match ws.read() {
            Ok(Message::Text(text)) => {
                // A fault in the engine must not take the server down: the page hears of it.
                let handled = catch_unwind(AssertUnwindSafe(|| s.message(&text)));
                if let Err(panic) = handled {
                    s.error(&format!("internal error: {}", panic_text(&panic)));
                }
            }
            Ok(Message::Binary(_)) => s.error("binary messages are not understood"),
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            // A frame beyond the limit or against the protocol leaves the stream at no known
            // frame boundary: nothing more can be read from it. The page is told why, in a
            // close frame, and the connection ends (a bad message, by contrast, gets an
            // error and the session goes on).
            Err(tungstenite::Error::Capacity(e)) => {
                close(&mut ws, CloseCode::Size, &format!("message too large: {e}"));
                break;
            }
            Err(tungstenite::Error::Protocol(e)) => {
                close(&mut ws, CloseCode::Protocol, &format!("bad frame: {e}"));
                break;
            }
            Err(_) => break,
        }
        s.poll();
        let mut failed = false;
        for m in s.outbox.drain(..) {
            if ws.send(Message::Text(m.to_string())).is_err() {
                failed = true;
                break;
            }
        }
        if failed || matches!(ws.flush(), Err(e) if !is_would_block(&e)) {
            break;
        }
    }
    // The page is gone: its search stops and its thread ends by itself.
    s.state.stop_search();
}

/// The side that made the last move, if any.
fn last_mover(pos: &Position) -> Option<Color> {
    let mut before = pos.clone();
    before.game_ply().checked_sub(1)?;
    before.unmake_move();
    Some(before.side_to_move())
}

/// Takes back the last turn, or what has been played of an unfinished one: every move back to
/// the last one the other side made.
fn take_back_turn(pos: &mut Position) {
    let Some(mover) = last_mover(pos) else {
        return;
    };
    while last_mover(pos) == Some(mover) {
        pos.unmake_move();
    }
}

/// Sends a close frame with its reason (cut to the 123 bytes a close frame holds).
fn close(ws: &mut WebSocket<TcpStream>, code: CloseCode, reason: &str) {
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    let frame = CloseFrame {
        code,
        reason: reason[..end].to_string().into(),
    };
    if ws.close(Some(frame)).is_ok() {
        let _ = ws.flush();
    }
}

fn is_would_block(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(io) if matches!(io.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut))
}

/// A string field of a message.
fn text_field<'a>(msg: &'a Value, key: &str) -> Result<&'a str, String> {
    msg.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("'{key}' (a string) is missing"))
}

/// A whole-number field of a message, if present, within `lo..=hi`.
fn number_field(msg: &Value, key: &str, lo: u64, hi: u64) -> Result<Option<u64>, String> {
    match msg.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
            _ => Err(format!("'{key}' must be a whole number in {lo}..{hi}")),
        },
    }
}

impl Session {
    fn error(&mut self, text: &str) {
        self.outbox
            .push(json!({ "type": "error", "message": text }));
    }

    /// Handles one message from the page.
    fn message(&mut self, text: &str) {
        let msg: Value = match serde_json::from_str(text) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => return self.error("a message is a JSON object"),
            Err(e) => return self.error(&format!("not JSON: {e}")),
        };
        let kind = msg.get("type").and_then(Value::as_str).unwrap_or("");
        let done = match kind {
            "variants" => {
                self.variants();
                Ok(())
            }
            "new" => self.new_game(&msg),
            "state" => {
                self.send_state();
                Ok(())
            }
            "options" => {
                self.outbox.push(settings::describe(&self.state));
                Ok(())
            }
            "move" => self.play(&msg),
            "undo" => self.undo(),
            "players" => self.players(&msg),
            "time" => self.time(&msg),
            "go" => self.go(),
            "stop" => {
                self.stop();
                Ok(())
            }
            "peek" => self.peek(&msg),
            "review" => self.start_review(),
            "legend" => {
                let name = self.state.variant.name().to_string();
                self.outbox
                    .push(crate::diagram::legend(&self.state.registry, &name));
                Ok(())
            }
            "analyse" => self.analyse(&msg),
            "strength" => self.strength(&msg),
            "fen" => self.fen(&msg),
            "pgn" => {
                self.pgn();
                Ok(())
            }
            "loadpgn" => self.load_pgn(&msg),
            "" => Err("'type' is missing".to_string()),
            other => Err(format!("unknown message type '{other}'")),
        };
        if let Err(e) = done {
            self.error(&e);
        }
    }

    fn variants(&mut self) {
        let r = &self.state.registry;
        let list: Vec<Value> = r
            .names()
            .iter()
            .filter_map(|n| r.get(n))
            .map(|v| {
                let g = v.geometry();
                json!({ "name": v.name(), "files": g.files, "ranks": g.ranks, "boards": g.boards })
            })
            .collect();
        self.outbox
            .push(json!({ "type": "variants", "list": list }));
    }

    /// `{"type":"new","variant":V,"fen":F?}`: a new game (the variant stays when not named).
    fn new_game(&mut self, msg: &Value) -> Result<(), String> {
        let name = match msg.get("variant") {
            None | Some(Value::Null) => self.state.variant.name().to_string(),
            Some(_) => text_field(msg, "variant")?.to_string(),
        };
        let fen = match msg.get("fen") {
            None | Some(Value::Null) => None,
            Some(_) => Some(text_field(msg, "fen")?.trim().to_string()).filter(|f| !f.is_empty()),
        };
        let variant = self
            .state
            .registry
            .get(&name)
            .ok_or_else(|| format!("unknown variant '{name}'"))?;
        let pos = match &fen {
            Some(f) => Position::from_fen(&variant, f).map_err(|e| format!("bad FEN: {e}"))?,
            None => Position::startpos(&variant),
        };
        let mut pos = pos;
        // `moves`: the game's moves from there (a page reloaded sends its game back).
        if let Some(list) = msg.get("moves").filter(|m| !m.is_null()) {
            let list = list.as_array().ok_or("'moves' must be a list of moves")?;
            for (i, m) in list.iter().enumerate() {
                let text = m.as_str().ok_or("'moves' must be a list of moves")?;
                if let Some(end) = view::result(&pos) {
                    return Err(format!(
                        "move {}: '{text}' comes after the end ({end})",
                        i + 1
                    ));
                }
                pos.try_play(text)
                    .map_err(|e| format!("move {}: '{text}': {e}", i + 1))?;
            }
        }
        self.state.set_variant(&name)?;
        self.state.position = pos;
        self.state.new_game();
        self.restart_game();
        Ok(())
    }

    /// After a new position: fresh clocks and graph, then the state and what is due.
    fn restart_game(&mut self) {
        self.clock.restart();
        self.flagged = None;
        self.san.clear();
        self.evals = vec![None; self.state.position.game_ply() + 1];
        self.changed();
    }

    /// `{"type":"move","move":TEXT}`: the person's move (a whole turn `a,b` or one part).
    fn play(&mut self, msg: &Value) -> Result<(), String> {
        let text = text_field(msg, "move")?;
        if text.len() > 64 {
            return Err("move text too long".into());
        }
        if self.game_over() {
            return Err("the game is over".into());
        }
        if self.purpose == Some(Purpose::Move) {
            return Err("the engine is thinking".into());
        }
        let before = self.state.position.side_to_move();
        self.state.play(text).map_err(|e| e.to_string())?;
        self.moved(before);
        Ok(())
    }

    /// Book-keeping after moves by `mover`: the clock, the graph, then the state.
    fn moved(&mut self, mover: Color) {
        let pos = &self.state.position;
        if pos.side_to_move() != mover && self.clock.turn_done(mover) && self.flagged.is_none() {
            let r = result_token(Some(mover.opposite()));
            self.flagged = Some(format!("{r} (time forfeit)"));
        }
        let ply = pos.game_ply();
        self.evals.resize(ply + 1, None);
        self.changed();
    }

    /// `{"type":"undo"}`: takes back the last turn (and the engine's reply before it, so that
    /// the person is to move again); in the middle of a turn, only the parts of that turn.
    fn undo(&mut self) -> Result<(), String> {
        if self.state.position.game_ply() == 0 {
            return Err("nothing to take back".into());
        }
        self.engine_off_if_thinking();
        let pos = &mut self.state.position;
        let mid_turn = last_mover(pos) == Some(pos.side_to_move());
        take_back_turn(pos);
        let to_move = self.state.position.side_to_move();
        if !mid_turn
            && self.engine[to_move.index()]
            && !self.engine[to_move.opposite().index()]
            && self.state.position.game_ply() > 0
        {
            take_back_turn(&mut self.state.position);
        }
        self.flagged = None;
        let ply = self.state.position.game_ply();
        self.evals.truncate(ply + 1);
        self.san.truncate(ply);
        self.clock.turn_restarts();
        self.changed();
        Ok(())
    }

    /// `{"type":"stop"}`: the engine's search for a move ends and the engine plays the best
    /// move found so far (when the engine plays both sides, the other side becomes a person's,
    /// so that the game stops after that move); an analysis is switched off, a review ends.
    fn stop(&mut self) {
        match self.purpose {
            Some(Purpose::Move) => {
                let side = self.state.position.side_to_move();
                if self.engine == [true, true] {
                    self.engine[side.opposite().index()] = false;
                }
                self.state.stop_search();
            }
            Some(Purpose::Analysis) => {
                self.analysing = false;
                self.state.stop_search();
            }
            Some(Purpose::Review(_)) => {
                self.review = None;
                self.state.stop_search();
                self.restart = true;
            }
            None => {
                if self.engine == [true, true] {
                    self.engine = [false, false];
                }
            }
        }
        self.send_state();
    }

    /// `{"type":"peek","turn":K}`: the board after the first K turns of the game (the page's
    /// move list steps through the game with it); the game itself does not change.
    fn peek(&mut self, msg: &Value) -> Result<(), String> {
        let k = number_field(msg, "turn", 0, u32::MAX as u64)?.ok_or("'turn' is missing")?;
        let start = self.start_position();
        let moves: Vec<Move> = self.state.position.moves_played().collect();
        let turns = start.group_turns(&moves);
        let k = (k as usize).min(turns.len());
        let plies: usize = turns[..k].iter().map(Vec::len).sum();
        let mut pos = start;
        for &mv in &moves[..plies] {
            pos.make_move(mv);
        }
        let last = turns[..k].last().and_then(|t| t.last()).map(|&mv| {
            let mut before = pos.clone();
            before.unmake_move();
            view::path_of(&before, mv)
        });
        let mut out = view::board(&pos);
        if let Value::Object(o) = &mut out {
            o.insert("type".into(), json!("peek"));
            o.insert("turn".into(), json!(k));
            o.insert("lastMove".into(), json!(last));
        }
        self.outbox.push(out);
        Ok(())
    }

    /// `{"type":"review"}`: every position of the game is searched in turn
    /// ([`review::MS_PER_POSITION`] each), so that the graph and each move's mark cover the
    /// whole game; a move, a new game or a setting changed ends the review.
    fn start_review(&mut self) -> Result<(), String> {
        if self.state.position.game_ply() == 0 {
            return Err("no move to review".into());
        }
        if self.state.position.game_ply() > review::MAX_PLIES {
            return Err(format!(
                "a game of more than {} plies is too long to review",
                review::MAX_PLIES
            ));
        }
        if self.purpose == Some(Purpose::Move) {
            return Err("the engine is thinking".into());
        }
        if self.purpose == Some(Purpose::Analysis) {
            self.state.stop_search();
            self.restart = true;
        }
        self.review = Some(0);
        self.start_due();
        Ok(())
    }

    /// Starts the review's search of its next position; scores the positions the rules have
    /// ended at once. Returns false when the review is over.
    fn review_next(&mut self) -> bool {
        let Some(mut ply) = self.review else {
            return false;
        };
        let start = self.start_position();
        let moves: Vec<Move> = self.state.position.moves_played().collect();
        self.evals.resize(moves.len() + 1, None);
        while ply <= moves.len() {
            let pos = review::position_at(&start, &moves, ply);
            if let Some(score) = review::final_score(&pos) {
                self.evals[ply] = Some(score);
                ply += 1;
                continue;
            }
            let report = Box::new(Report {
                root: pos.clone(),
                tx: self.progress_tx.clone(),
                forward: false,
            });
            match self.state.start_search_on(
                pos,
                review::limits(),
                false,
                SearchFor::Analysis,
                report,
            ) {
                Ok(()) => {
                    self.review = Some(ply);
                    self.purpose = Some(Purpose::Review(ply));
                    self.outbox
                        .push(json!({ "type": "review", "ply": ply, "of": moves.len() }));
                    return true;
                }
                Err(e) => {
                    self.error(&format!("cannot search: {e}"));
                    break;
                }
            }
        }
        self.review = None;
        self.outbox
            .push(json!({ "type": "review", "ply": moves.len(), "of": moves.len(), "done": true }));
        self.send_state();
        false
    }

    /// A running engine move is abandoned (its result will be dropped).
    fn engine_off_if_thinking(&mut self) {
        if self.purpose.is_some() {
            self.state.stop_search();
            self.restart = true;
        }
    }

    /// `{"type":"players","white":"human"|"engine","black":...}`; both engine = watch.
    fn players(&mut self, msg: &Value) -> Result<(), String> {
        let mut engine = self.engine;
        for (i, key) in ["white", "black"].iter().enumerate() {
            match msg.get(*key).and_then(Value::as_str) {
                None => {}
                Some("human") => engine[i] = false,
                Some("engine") => engine[i] = true,
                Some(other) => return Err(format!("'{key}': '{other}' is not human or engine")),
            }
        }
        self.engine = engine;
        self.changed();
        Ok(())
    }

    /// `{"type":"time","movetime":MS}` or `{"type":"time","base":MS,"inc":MS}`.
    fn time(&mut self, msg: &Value) -> Result<(), String> {
        if let Some(ms) = number_field(msg, "movetime", 10, MAX_MOVETIME)? {
            self.clock.set(TimeControl::PerMove(ms));
        } else if let Some(base) = number_field(msg, "base", 1000, 10 * MAX_MOVETIME)? {
            let inc = number_field(msg, "inc", 0, MAX_MOVETIME)?.unwrap_or(0);
            self.clock.set(TimeControl::Clock { base, inc });
        } else {
            return Err("give 'movetime', or 'base' (and 'inc'), in ms".into());
        }
        self.send_state();
        Ok(())
    }

    /// `{"type":"go"}`: the engine takes over the side to move now.
    fn go(&mut self) -> Result<(), String> {
        if self.game_over() {
            return Err("the game is over".into());
        }
        let side = self.state.position.side_to_move();
        self.engine[side.index()] = true;
        self.changed();
        Ok(())
    }

    /// `{"type":"analyse","on":BOOL,"multipv":N?}`: `multipv` is the option MultiPV, checked
    /// by the options table.
    fn analyse(&mut self, msg: &Value) -> Result<(), String> {
        let on = msg
            .get("on")
            .and_then(Value::as_bool)
            .ok_or("'on' (true or false) is missing")?;
        if let Some(n) = msg.get("multipv").filter(|v| !v.is_null()) {
            settings::set(&mut self.state, &MULTIPV, "multipv", n)?;
        }
        self.analysing = on;
        if self.purpose == Some(Purpose::Analysis) {
            self.state.stop_search();
            self.restart = true;
        }
        self.changed();
        Ok(())
    }

    /// `{"type":"strength","level":N}`: the engine's playing strength, the option `Skill
    /// Level` (0 to 20, 20 full strength), checked by the options table. It takes effect
    /// from the engine's next move; analysis is always at full strength.
    fn strength(&mut self, msg: &Value) -> Result<(), String> {
        let level = msg.get("level").ok_or("'level' (0 to 20) is missing")?;
        settings::set(&mut self.state, &SKILL_LEVEL, "level", level)?;
        self.changed();
        Ok(())
    }

    /// `{"type":"fen"}` answers the FEN; with `"fen":F` it sets the position up.
    fn fen(&mut self, msg: &Value) -> Result<(), String> {
        if msg.get("fen").is_some() {
            return self.new_game(msg);
        }
        let fen = self.state.position.fen();
        self.outbox.push(json!({ "type": "fen", "fen": fen }));
        Ok(())
    }

    fn start_position(&self) -> Position {
        let mut start = self.state.position.clone();
        while start.game_ply() > 0 {
            start.unmake_move();
        }
        start
    }

    fn pgn(&mut self) {
        let start = self.start_position();
        let moves: Vec<Move> = self.state.position.moves_played().collect();
        let name = |engine: bool| if engine { "Chimera" } else { "Player" };
        let result = self.result();
        let notes = self.notes(&start, &moves);
        let text = crate::pgn::write(
            &start,
            &moves,
            [name(self.engine[0]), name(self.engine[1])],
            result.as_deref(),
            &notes,
        );
        self.outbox.push(json!({ "type": "pgn", "pgn": text }));
    }

    /// A scored game's notes for its PGN, one per move: the move's mark as a NAG and White's
    /// score after it; none unless every position has a score (a reviewed game).
    fn notes(&self, start: &Position, moves: &[Move]) -> Vec<String> {
        let scored = self.evals.len() == moves.len() + 1 && self.evals.iter().all(Option::is_some);
        if !scored || moves.is_empty() {
            return Vec::new();
        }
        let marks = self.marks(start, moves);
        (0..moves.len())
            .map(|i| {
                let nag = marks[i].as_str().map(review::nag);
                let score = review::score_text(self.evals[i + 1].unwrap_or(0));
                match nag {
                    Some(n) => format!("{n} {{{score}}}"),
                    None => format!("{{{score}}}"),
                }
            })
            .collect()
    }

    /// `{"type":"loadpgn","pgn":TEXT}`: the game of a PGN text, replayed through the rules.
    fn load_pgn(&mut self, msg: &Value) -> Result<(), String> {
        let text = text_field(msg, "pgn")?;
        let (_, end) = crate::pgn::read(&self.state.registry, text)?;
        let name = end.variant().name().to_string();
        self.state.set_variant(&name)?;
        self.state.position = end;
        self.state.new_game();
        self.restart_game();
        Ok(())
    }

    fn result(&self) -> Option<String> {
        self.flagged
            .clone()
            .or_else(|| view::result(&self.state.position))
    }

    fn game_over(&self) -> bool {
        self.result().is_some()
    }

    /// The position or the settings changed: stop an analysis of the old position, send the
    /// new state, start what is due.
    fn changed(&mut self) {
        if self.review.take().is_some() && matches!(self.purpose, Some(Purpose::Review(_))) {
            self.state.stop_search();
            self.restart = true;
        }
        if self.purpose == Some(Purpose::Analysis) {
            self.state.stop_search();
            self.restart = true;
        }
        self.send_state();
        self.start_due();
    }

    /// Starts the engine's move or the analysis if one is due and nothing runs.
    fn start_due(&mut self) {
        if self.purpose.is_some() || (self.review.is_some() && self.review_next()) {
            return;
        }
        if self.game_over() {
            return;
        }
        let pos = &self.state.position;
        let side = pos.side_to_move();
        let (purpose, limits) = if self.engine[side.index()] {
            let mut limits = Limits::default();
            self.clock.limits(side, &mut limits);
            limits.multipv = 1;
            (Purpose::Move, limits)
        } else if self.analysing {
            let limits = Limits {
                infinite: true,
                multipv: self.state.options.multipv,
                ..Limits::default()
            };
            (Purpose::Analysis, limits)
        } else {
            return;
        };
        let report = Box::new(Report {
            root: pos.clone(),
            tx: self.progress_tx.clone(),
            forward: true,
        });
        let open_ended = purpose == Purpose::Analysis;
        let search_for = if purpose == Purpose::Move {
            SearchFor::Move
        } else {
            SearchFor::Analysis
        };
        match self
            .state
            .start_search(limits, open_ended, search_for, report)
        {
            Ok(()) => {
                self.purpose = Some(purpose);
                self.outbox
                    .push(json!({ "type": "thinking", "purpose": format!("{purpose:?}") }));
            }
            Err(e) => self.error(&format!("cannot search: {e}")),
        }
    }

    /// A flag falls as soon as the side to move's clock runs out, whether or not anybody moves.
    fn check_flag(&mut self) {
        let side = self.state.position.side_to_move();
        if self.game_over() || !self.clock.flag(side) {
            return;
        }
        let r = result_token(Some(side.opposite()));
        self.flagged = Some(format!("{r} (time forfeit)"));
        self.engine_off_if_thinking();
        self.send_state();
    }

    /// Forwards search progress, takes finished searches back, and passes on error lines.
    fn poll(&mut self) {
        self.check_flag();
        while let Ok(p) = self.progress.try_recv() {
            if p.message["multipv"] == 1 {
                if let Some(slot) = self.evals.get_mut(p.ply) {
                    *slot = Some(p.white_cp);
                }
            }
            if p.forward {
                self.outbox.push(p.message);
            }
        }
        while let Ok(event) = self.events.try_recv() {
            if let Event::Done(f) = event {
                self.finished(*f);
            }
        }
        for line in self.capture.take() {
            self.error(&line);
        }
    }

    fn finished(&mut self, f: chimera_protocol::state::Finished) {
        let Some((_, result, root)) = self.state.finish(f) else {
            return;
        };
        let purpose = self.purpose.take();
        let restart = std::mem::take(&mut self.restart);
        if let (Some(Purpose::Review(ply)), Some(_)) = (purpose, self.review) {
            // The next position of the review (its score came with the search's lines).
            self.review = Some(ply + 1);
            self.start_due();
            return;
        }
        let current = root.same_state(&self.state.position)
            && root.game_ply() == self.state.position.game_ply();
        let side = root.side_to_move();
        if purpose == Some(Purpose::Move) && current && !restart && self.engine[side.index()] {
            for &mv in &result.turn {
                self.state.position.make_move(mv);
            }
            let text = view::turn_words(&root, &result.turn).join(" ");
            self.outbox
                .push(json!({ "type": "engine-move", "move": text }));
            self.moved(side);
            return;
        }
        self.send_state();
        self.start_due();
    }

    /// Each move's mark from the scores around it (`?!`, `?`, `??`), for a game whose turns
    /// are single moves (in a game of turns in parts the list names turns, not moves).
    fn marks(&self, start: &Position, moves: &[Move]) -> Value {
        if start.variant().turns().is_some() {
            return Value::Null;
        }
        let first = start.side_to_move();
        let movers: Vec<Color> = (0..moves.len())
            .map(|i| if i % 2 == 0 { first } else { first.opposite() })
            .collect();
        json!(review::marks(&self.evals, &movers))
    }

    fn send_state(&mut self) {
        let pos = &self.state.position;
        let mut state = view::board(pos);
        let start = self.start_position();
        let moves: Vec<Move> = pos.moves_played().collect();
        let last = moves.last().map(|&mv| {
            let mut before = pos.clone();
            before.unmake_move();
            view::path_of(&before, mv)
        });
        let (tc, clocks) = self.clock.describe(pos.side_to_move(), !self.game_over());
        let history = view::turn_words(&start, &moves);
        let san = if pos.variant().turns().is_some() {
            history.clone()
        } else {
            if self.san.len() > moves.len() {
                self.san.truncate(moves.len());
            }
            let known = self.san.len();
            self.san.extend(view::san_words(&start, &moves, known));
            self.san.clone()
        };
        let extra = json!({
            "type": "state",
            "result": self.result(),
            "history": history,
            "san": san,
            "startFen": start.fen(),
            "lastMove": last,
            "pieces": view::pieces(&self.state.registry, self.state.variant.name()),
            "engine": { "white": self.engine[0], "black": self.engine[1] },
            "analysing": self.analysing,
            "multipv": self.state.options.multipv,
            "skill": self.state.options.skill_level,
            "tc": tc,
            "clocks": clocks,
            "evals": self.evals,
            "marks": self.marks(&start, &moves),
            "reviewing": self.review.is_some(),
        });
        if let (Value::Object(a), Value::Object(b)) = (&mut state, extra) {
            a.extend(b);
        }
        self.outbox.push(state);
    }
}
