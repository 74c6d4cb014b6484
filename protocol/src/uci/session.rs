//! The UCI session (docs/protocols.md §3): each line, read into a [`UciCommand`], runs on the
//! shared [`EngineState`]. Searches run on the worker thread; `isready`, `stop`, `ponderhit`
//! and `quit` are answered while they run, other commands wait for the search's end.

use std::collections::VecDeque;
use std::time::Duration;

use chimera_engine::movegen::perft::MAX_PERFT_DEPTH;
use chimera_engine::search::{IterationInfo, Limits, SearchReport, SearchResult, TimeBudget};
use chimera_engine::{Color, Position};

use super::command::{Go, UciCommand};
use crate::dialect::{Dialect, Flow};
use crate::facts::{ENGINE_AUTHOR, ENGINE_NAME};
use crate::options::{self, uci_line, Front, OPTIONS};
use crate::report::{best_and_ponder, info_line_with};
use crate::state::{EngineState, Event, Output, SearchFor};
use crate::wire::{move_text, Castling};

/// Writes each completed iteration as an `info` line (one per line of a MultiPV search).
struct InfoReport {
    out: Output,
    root: Position,
    castling: Castling,
}

impl SearchReport for InfoReport {
    fn iteration(&mut self, info: &IterationInfo) {
        self.out
            .line(&info_line_with(&self.root, info, self.castling));
    }
}

/// `bestmove M [ponder P]` for a result found in `root`.
pub fn bestmove_line(root: &Position, r: &SearchResult, castling: Castling) -> String {
    if root.variant().turns().is_some() {
        // A turn of several parts goes out as one `a,b` token (docs/protocols.md D3).
        return match best_and_ponder(root, r) {
            None => "bestmove (none)".to_string(),
            Some((best, None)) => format!("bestmove {best}"),
            Some((best, Some(p))) => format!("bestmove {best} ponder {p}"),
        };
    }
    let Some(best) = r.best else {
        return "bestmove (none)".to_string();
    };
    let mut line = format!("bestmove {}", move_text(root, best, castling));
    if let Some(p) = r.ponder {
        let mut after = root.clone();
        after.make_move(best);
        line.push_str(&format!(" ponder {}", move_text(&after, p, castling)));
    }
    line
}

/// The UCI dialect.
pub struct Uci {
    /// The shared state.
    pub state: EngineState,
    queue: VecDeque<String>,
    /// The result of an open-ended search that ended by itself, shown at `stop`/`ponderhit`.
    held: Option<String>,
    /// The real limits of a `go ponder`, used from `ponderhit` on.
    ponder_limits: Option<Limits>,
    /// Input has ended: finish the queued commands, then quit (see [`Uci::wind_down`]).
    input_ended: bool,
}

impl Uci {
    /// The dialect on `state`.
    pub fn new(state: EngineState) -> Uci {
        Uci {
            state,
            queue: VecDeque::new(),
            held: None,
            ponder_limits: None,
            input_ended: false,
        }
    }

    fn info(&self, text: &str) {
        self.state.out.line(&format!("info string {text}"));
    }

    /// The answer to `uci`: the engine's name, every option the table lists for UCI, `uciok`.
    fn announce_options(&self) {
        let out = &self.state.out;
        out.line(&format!("id name {ENGINE_NAME}"));
        out.line(&format!("id author {ENGINE_AUTHOR}"));
        for option in OPTIONS.iter().filter(|o| o.listed_on(Front::Uci)) {
            out.line(&uci_line(option, &self.state));
        }
        out.line("uciok");
    }

    /// `setoption`: the table reads, checks and applies the value; what the option has to
    /// tell, and what went wrong, become `info string` lines.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut notes = Vec::new();
        let set = options::set(Front::Uci, &mut self.state, name, value, &mut notes);
        for note in notes {
            self.info(&note);
        }
        if let Err(e) = set {
            self.info(&format!("error: {e}"));
        }
    }

    fn go(&mut self, go: Go) {
        if let Some(depth) = go.perft {
            if depth > MAX_PERFT_DEPTH {
                self.info(&format!(
                    "error: perft depth {depth} is more than {MAX_PERFT_DEPTH}"
                ));
                return;
            }
            let stopped = format!("info string perft {depth} stopped");
            if let Err(e) = self.state.start_perft(depth, self.castling(), stopped) {
                self.info(&format!("error: {e}"));
            }
            return;
        }
        let mut pos = self.state.position.clone();
        let mut root_moves = Vec::with_capacity(go.searchmoves.len());
        for m in &go.searchmoves {
            match pos.parse_move(m) {
                Ok(mv) => root_moves.push(mv),
                Err(e) => {
                    self.info(&format!("error: searchmoves: {e}"));
                    self.state.out.line("bestmove (none)");
                    return;
                }
            }
        }
        let mut limits = go.limits.clone();
        for e in &go.errors {
            self.info(&format!("error: {e}"));
        }
        if !go.errors.is_empty() && !go.ponder && !Self::ends(&limits, pos.side_to_move()) {
            // What was left of the command would search until `stop`, which a GUI that sent
            // a clock or a limit will never send: answer at once instead.
            self.info("error: no usable limit left; searching to depth 1");
            limits.depth = Some(1);
        }
        limits.root_moves = root_moves;
        limits.multipv = self.state.options.multipv;
        if go.ponder {
            self.ponder_limits = Some(go.limits.clone());
            limits.infinite = true;
        }
        let open_ended = go.ponder || limits.infinite;
        // `go infinite` is analysis; every other search (pondering too) finds a move to play.
        let purpose = if limits.infinite && !go.ponder {
            SearchFor::Analysis
        } else {
            SearchFor::Move
        };
        let report = InfoReport {
            out: self.state.out.clone(),
            root: self.state.position.clone(),
            castling: self.castling(),
        };
        self.held = None;
        if let Err(e) = self
            .state
            .start_search(limits, open_ended, purpose, Box::new(report))
        {
            self.info(&format!("error: {e}"));
            self.state.out.line("bestmove (none)");
        }
    }

    /// True when `limits` stop a search of `mover` by themselves (or `infinite` asks for
    /// one that waits for `stop`).
    fn ends(limits: &Limits, mover: Color) -> bool {
        limits.infinite
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some()
            || TimeBudget::new(limits, mover, 0).hard.is_some()
    }

    fn castling(&self) -> Castling {
        // As Fairy-Stockfish: the option, or a variant with Chess960 castling.
        if self.state.options.chess960 || self.state.variant.chess960() {
            Castling::KingTakesRook
        } else {
            Castling::KingToTarget
        }
    }

    fn ponderhit(&mut self) {
        let Some(limits) = self.ponder_limits.take() else {
            return;
        };
        if let Some(line) = self.held.take() {
            self.state.out.line(&line);
            return;
        }
        let Some(r) = self.state.running.as_mut() else {
            return;
        };
        r.open_ended = false;
        let budget = TimeBudget::new(
            &limits,
            self.state.position.side_to_move(),
            self.state.options.move_overhead,
        );
        match budget.soft.or(budget.hard) {
            Some(t) => self.state.stop_later(t),
            None if limits.depth.is_some() || limits.nodes.is_some() => {}
            // No limit of its own: the opponent's move was expected, so move at once.
            None => self.state.stop_later(Duration::ZERO),
        }
    }

    /// Runs one parsed command.
    pub fn run(&mut self, cmd: UciCommand) -> Flow {
        match cmd {
            UciCommand::Uci => self.announce_options(),
            UciCommand::IsReady => self.state.out.line("readyok"),
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            UciCommand::NewGame => self.state.new_game(),
            UciCommand::Position { fen, moves } => {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                match self.state.set_position(fen.as_deref(), &moves) {
                    Ok(oddities) => {
                        for w in oddities {
                            self.info(&format!("warning: {w}"));
                        }
                    }
                    Err(e) => self.info(&format!("error: {e} (position unchanged)")),
                }
            }
            UciCommand::Go(go) => self.go(go),
            UciCommand::Stop => {
                if let Some(line) = self.held.take() {
                    self.state.out.line(&line);
                }
                self.ponder_limits = None;
                self.state.stop_search();
            }
            UciCommand::PonderHit => self.ponderhit(),
            UciCommand::Quit => {
                self.state.stop_search();
                return Flow::Quit;
            }
            UciCommand::Ignored | UciCommand::Empty => {}
        }
        Flow::Continue
    }

    fn line(&mut self, line: &str) -> Flow {
        let cmd = match line.parse::<UciCommand>() {
            Ok(c) => c,
            Err(_) if self.state.searching() => {
                self.queue.push_back(line.to_string());
                return Flow::Continue;
            }
            Err(e) => {
                self.info(&format!("error: {e}"));
                return Flow::Continue;
            }
        };
        if self.state.searching() && !Self::urgent(line) {
            // Commands that change the game wait until the search has reported its move.
            self.queue.push_back(line.to_string());
            return Flow::Continue;
        }
        self.run(cmd)
    }

    fn done(&mut self, f: crate::state::Finished) -> Flow {
        if let Some((r, result, root)) = self.state.finish(f) {
            let line = bestmove_line(&root, &result, self.castling());
            if r.open_ended && !r.stopped {
                self.held = Some(line);
            } else {
                self.state.out.line(&line);
            }
        }
        while let Some(l) = self.queue.front() {
            if self.state.searching() && !Self::urgent(l) {
                break;
            }
            let l = self.queue.pop_front().unwrap_or_default();
            if self.line(&l) == Flow::Quit {
                return Flow::Quit;
            }
        }
        if self.input_ended {
            return self.wind_down();
        }
        Flow::Continue
    }

    /// After the end of input: searches that end by themselves run to their `bestmove`, an
    /// open-ended one is stopped (it still owes its `bestmove`), queued commands run as
    /// searches finish, and the session ends when nothing is left.
    fn wind_down(&mut self) -> Flow {
        if !self.queue.is_empty() {
            return Flow::Continue;
        }
        match &self.state.running {
            None => {
                if let Some(line) = self.held.take() {
                    self.state.out.line(&line);
                }
                Flow::Quit
            }
            Some(r) if r.open_ended && !r.stopped => self.run(UciCommand::Stop),
            Some(_) => Flow::Continue,
        }
    }

    /// Commands answered even while a search runs.
    fn urgent(line: &str) -> bool {
        matches!(
            line.split_whitespace().next(),
            None | Some("isready" | "stop" | "ponderhit" | "quit" | "debug" | "register")
        )
    }
}

impl Dialect for Uci {
    fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(l) => self.line(&l),
            Event::Unreadable(why) => {
                self.info(&format!("error: {why}"));
                Flow::Continue
            }
            Event::Done(f) => self.done(*f),
            Event::Eof => {
                self.input_ended = true;
                self.wind_down()
            }
        }
    }

    fn state(&self) -> &EngineState {
        &self.state
    }
}
