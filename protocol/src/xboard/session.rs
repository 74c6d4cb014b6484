//! The XBoard session, CECP version 2 (docs/protocols.md §4): each line is parsed into an
//! [`XbCommand`], then run on the shared [`EngineState`]. What to search is decided in one place
//! ([`Xboard::kick`]) from the mode (force, analyse, the side the engine plays), so every command
//! only changes the mode and the position. Squares on 10-rank boards are 0-based on the wire
//! (docs/protocols.md D1).
//! With `hard`, the engine ponders on the reply it expects after each of its moves; a
//! correct guess turns the ponder search into the search for the engine's next move.
//!
//! Vanguard (16x16) under XBoard 4.9: XBoard cannot read back moves from rank 16 and does not
//! know every multi-leg piece, so start it as
//! `xboard -fcp "chimera xboard" -variant vanguard -rankOffset 1 -firstOptions RankBase=0
//! -testLegality false -size 49`. Pawn Vault, Pioneer and Alice move in the forms of
//! `present` both ways (docs/protocols.md §11, the seed games under XBoard).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chimera_engine::rules::{GameEnd, Termination};
use chimera_engine::search::{
    IterationInfo, Limits, Score, SearchReport, SearchResult, TimeBudget,
};
use chimera_engine::{Color, Move, MoveError, Position};

use crate::dialect::{Dialect, Flow};
use crate::facts::ENGINE_NAME;
use crate::options::{self, xboard_feature, Front, HASH, OPTIONS, THREADS};
use crate::state::{EngineState, Event, Finished, Output, SearchFor};
use crate::wire::xboard_move_lines;
use crate::xboard::command::XbCommand;
use crate::xboard::highlight::{choice_line, highlight_line};
use crate::xboard::present::{self, Style};
use crate::xboard::translate::{cecp_text, decimal_ranks, setup_lines, shift_ranks, xboard_name};

/// The time per move when the GUI has set no time control and no depth.
const DEFAULT_MOVETIME_MS: u64 = 5000;

/// Thinking output: `ply score time nodes<TAB>pv`, time in centiseconds, mates as ±100000+N.
struct Thinking {
    out: Output,
    root: Position,
    post: Arc<AtomicBool>,
    /// What [`cecp_text`] adds to rank numbers.
    rank_shift: i32,
}

impl SearchReport for Thinking {
    fn iteration(&mut self, info: &IterationInfo) {
        if !self.post.load(Ordering::Relaxed) {
            return;
        }
        let score = match info.score {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 100_000 + m,
            Score::Mate(m) => -100_000 + m,
        };
        let pv = cecp_text(
            &crate::report::pv_text(&self.root, &info.pv),
            self.rank_shift,
        );
        self.out.line(&format!(
            "{} {score} {} {}\t{pv}",
            info.depth,
            info.time.as_millis() / 10,
            info.nodes
        ));
    }
}

/// The XBoard dialect.
pub struct Xboard {
    /// The shared state.
    pub state: EngineState,
    force: bool,
    /// The side the engine plays when not in force mode.
    engine: Color,
    analyzing: bool,
    post: Arc<AtomicBool>,
    /// No move has been made since `new` or `variant` (docs/protocols.md D9 applies).
    fresh: bool,
    depth: Option<u32>,
    movetime: Option<u64>,
    /// Moves per session, base and increment (ms).
    level: Option<(u32, u64, u64)>,
    time_cs: Option<i64>,
    otim_cs: Option<i64>,
    /// Root moves left out by `exclude`; reset on every new position.
    excluded: Vec<Move>,
    /// The reply the last search expects, with the hash of the position it answers (for
    /// `hint` and pondering).
    hint: Option<(u64, Move)>,
    /// The ponder search in progress, if any.
    pondering: Option<Ponder>,
    queue: VecDeque<String>,
    /// The game was declared over: no searching until `new` or a new position.
    over: bool,
    /// The square of the man the user last lifted, and where he last put a man (`lift`,
    /// `put`): a lift where the lifted man was put continues his move (highlight.rs).
    lifted: Option<chimera_engine::Square>,
    put: Option<chimera_engine::Square>,
    /// The square the lifted man was moved through, once the user continued from it.
    via: Option<chimera_engine::Square>,
}

impl Xboard {
    /// The dialect on `state`.
    pub fn new(mut state: EngineState) -> Xboard {
        state.error_line = |e| format!("Error ({e})");
        Xboard {
            state,
            force: false,
            engine: Color::Black,
            analyzing: false,
            post: Arc::new(AtomicBool::new(false)),
            fresh: true,
            depth: None,
            movetime: None,
            level: None,
            time_cs: None,
            otim_cs: None,
            excluded: Vec::new(),
            hint: None,
            pondering: None,
            queue: VecDeque::new(),
            over: false,
            lifted: None,
            put: None,
            via: None,
        }
    }

    fn out(&self, s: &str) {
        self.state.out.line(s);
    }

    /// What is added to a rank number on the way out, as XBoard's `ONE` macro counts: one
    /// less on boards of exactly 10 ranks (docs/protocols.md D1), and one less again with
    /// `RankBase` 0, the numbering XBoard uses when started with `-rankOffset 1` (needed on
    /// 16-rank boards, whose rank 16 XBoard cannot read back; docs/protocols.md §6).
    fn rank_shift(&self) -> i32 {
        let zero_based = self.state.options.rank_base == 0;
        -((self.state.variant.geometry().ranks == 10) as i32) - zero_based as i32
    }

    fn wire_in(&self, text: &str) -> String {
        match self.rank_shift() {
            0 => text.to_string(),
            d => shift_ranks(text, -d),
        }
    }

    fn wire_out(&self, text: &str) -> String {
        cecp_text(text, self.rank_shift())
    }

    /// A FEN from the wire: only the e.p. field holds squares.
    fn fen_in(&self, fen: &str) -> String {
        let mut f: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
        if f.len() > 3 {
            f[3] = self.wire_in(&f[3]);
        }
        f.join(" ")
    }

    fn features(&self) {
        let variants: Vec<String> = self
            .state
            .registry
            .names()
            .iter()
            // XBoard draws at most 16 files (docs/protocols.md D4): three 8x8 boards side by
            // side do not fit.
            // Two reserve men (`pioneer-two`) would need a choice naming two files, which
            // XBoard has no move for (present.rs).
            .filter(|n| {
                self.state.registry.get(n).is_some_and(|v| {
                    v.geometry().display_files() <= 16 && v.reserve().is_none_or(|r| r.count == 1)
                })
            })
            .map(|n| xboard_name(n))
            .collect();
        self.out("feature done=0");
        self.out(
            "feature ping=1 setboard=1 usermove=1 playother=1 colors=0 time=1 draw=0 reuse=1 \
             analyze=1 san=0 sigint=0 sigterm=0 name=0 nps=0 memory=1 smp=1 exclude=1 \
             highlight=1",
        );
        self.out(&format!(
            "feature myname=\"{ENGINE_NAME}\" variants=\"{}\"",
            variants.join(",")
        ));
        for option in OPTIONS.iter().filter(|o| o.listed_on(Front::Xboard)) {
            self.out(&xboard_feature(option, &self.state));
        }
        self.out("feature done=1");
    }

    /// `setup` and `piece` lines for an engine-defined variant (docs/protocols.md §5.2, §5.3).
    fn send_setup(&self) {
        for line in setup_lines(&self.state.variant, self.rank_shift()) {
            self.out(&line);
        }
    }

    /// The `highlight` line for the man on `from` (moved through `via`, if given), judged by
    /// the wire forms of this variant's presentation.
    fn highlight(
        &self,
        from: chimera_engine::Square,
        via: Option<chimera_engine::Square>,
    ) -> Option<String> {
        let pos = &self.state.position;
        let style = present::style(pos.variant());
        let wire = move |p: &Position, m: Move| present::wire_move(p, style, m);
        highlight_line(pos, from, via, &wire)
    }

    /// Stops the running search and drops its result.
    fn abandon(&mut self) {
        if let Some(r) = self.state.running.as_mut() {
            r.discard = true;
        }
        self.state.stop_search();
    }

    /// Whether the engine is thinking about its own move (not analysing, not pondering).
    fn thinking(&self) -> bool {
        self.state
            .running
            .as_ref()
            .is_some_and(|r| !r.discard && !self.analyzing && self.pondering.is_none())
    }

    /// The root moves to search after `exclude`: empty for all of them, `None` when every
    /// move is excluded.
    fn root_moves(&self) -> Option<Vec<Move>> {
        if self.excluded.is_empty() {
            return Some(Vec::new());
        }
        let mut pos = self.state.position.clone();
        let left: Vec<Move> = pos
            .legal_moves()
            .iter()
            .filter(|m| !self.excluded.contains(m))
            .copied()
            .collect();
        (!left.is_empty()).then_some(left)
    }

    /// A new position: exclusions end, and the expected reply no longer applies.
    fn position_changed(&mut self) {
        self.excluded.clear();
    }

    /// The moves the engine may play: all but those XBoard cannot take from an engine, the
    /// moves of more than three legs (a Vanguard Helepolis sweeping three men or more), which
    /// XBoard 4.9 shortens to two legs and relays as a move no engine can read. Empty (every
    /// move) when nothing is left out, or when nothing else is legal.
    fn playable_moves(&self) -> Vec<Move> {
        let mut pos = self.state.position.clone();
        let style = present::style(pos.variant());
        let legal = pos.legal_moves();
        let fits = |m: &&Move| present::wire_move(&pos, style, **m).matches(',').count() <= 2;
        let playable: Vec<Move> = legal.iter().filter(fits).copied().collect();
        if playable.len() == legal.len() || playable.is_empty() {
            Vec::new()
        } else {
            playable
        }
    }

    fn limits(&self) -> Limits {
        // Exclusions are for analysis; a move must be played even if all are excluded.
        let mut root_moves = self.root_moves().unwrap_or_default();
        let playable = self.playable_moves();
        if !playable.is_empty() {
            root_moves = if root_moves.is_empty() {
                playable
            } else {
                let kept: Vec<Move> = root_moves
                    .iter()
                    .filter(|m| playable.contains(m))
                    .copied()
                    .collect();
                if kept.is_empty() {
                    playable
                } else {
                    kept
                }
            };
        }
        let mut l = Limits {
            depth: self.depth,
            multipv: self.state.options.multipv,
            root_moves,
            ..Default::default()
        };
        if let Some(ms) = self.movetime {
            l.movetime = Some(ms);
            return l;
        }
        let (mine, theirs) = (
            self.time_cs.map(|t| (t.max(0) as u64) * 10),
            self.otim_cs.map(|t| (t.max(0) as u64) * 10),
        );
        let inc = self.level.map(|(_, _, i)| i);
        let (wt, bt) = match self.engine {
            Color::White => (mine, theirs),
            Color::Black => (theirs, mine),
        };
        l.wtime = wt;
        l.btime = bt;
        l.winc = inc;
        l.binc = inc;
        if let Some((mps, base, _)) = self.level {
            if mps > 0 {
                let played = turns_played(&self.state.position, self.engine) % mps;
                l.movestogo = Some(mps - played);
            }
            if mine.is_none() {
                // No `time` yet: assume a full session on the clock.
                match self.engine {
                    Color::White => l.wtime = Some(base),
                    Color::Black => l.btime = Some(base),
                }
            }
        } else if mine.is_none() && self.depth.is_none() {
            // No time control at all: think briefly rather than forever.
            l.movetime = Some(DEFAULT_MOVETIME_MS);
        }
        l
    }

    /// Sends the result claim if the game is over in the current position.
    fn claim_if_over(&mut self) -> bool {
        let Some(end) = self.state.position.outcome() else {
            return false;
        };
        if !claims(&self.state.position, &end) {
            return false;
        }
        self.out(&end.claim());
        self.over = true;
        true
    }

    fn thinking_report(&self, root: &Position) -> Box<Thinking> {
        Box::new(Thinking {
            out: self.state.out.clone(),
            root: root.clone(),
            post: self.post.clone(),
            rank_shift: self.rank_shift(),
        })
    }

    /// Starts whatever search the mode asks for, if none is running: analysis, the engine's
    /// move, or pondering on the opponent's expected move.
    fn kick(&mut self) {
        if self.state.searching() {
            return;
        }
        let report = self.thinking_report(&self.state.position);
        if self.analyzing {
            // With every move excluded there is nothing to analyse.
            if let Some(root_moves) = self.root_moves() {
                let limits = Limits {
                    infinite: true,
                    root_moves,
                    multipv: self.state.options.multipv,
                    ..Default::default()
                };
                if let Err(e) = self
                    .state
                    .start_search(limits, true, SearchFor::Analysis, report)
                {
                    self.out(&format!("Error ({e}): analyze"));
                }
            }
            return;
        }
        if self.force || self.over {
            return;
        }
        if self.state.position.side_to_move() != self.engine {
            self.start_pondering();
            return;
        }
        if self.claim_if_over() {
            return;
        }
        let limits = self.limits();
        if let Err(e) = self
            .state
            .start_search(limits, false, SearchFor::Move, report)
        {
            self.out(&format!("Error ({e}): go"));
        }
    }

    /// With `hard`, searches the position after the opponent's expected move until the
    /// opponent moves (docs/protocols.md §4.3).
    fn start_pondering(&mut self) {
        let Some((hash, predicted)) = self.hint else {
            return;
        };
        if !self.state.options.ponder || hash != self.state.position.hash() {
            return;
        }
        let mut root = self.state.position.clone();
        if !root.is_legal(predicted) {
            return;
        }
        let text = self.wire_out(&present::wire_move(
            &root,
            present::style(root.variant()),
            predicted,
        ));
        root.make_move(predicted);
        if root.clone().outcome().is_some() {
            return;
        }
        let limits = Limits {
            infinite: true,
            depth: self.depth,
            multipv: self.state.options.multipv,
            ..Default::default()
        };
        let report = self.thinking_report(&root);
        if self
            .state
            .start_search_on(root, limits, true, SearchFor::Move, report)
            .is_ok()
        {
            self.out(&format!("Hint: {text}"));
            self.pondering = Some(Ponder {
                predicted,
                finished: None,
            });
        }
    }

    /// Ends pondering: the ponder search is stopped and its result dropped.
    fn stop_pondering(&mut self) {
        if self.pondering.take().is_some() {
            self.abandon();
        }
    }

    /// The opponent played the expected move `mv` while the engine pondered on it: the ponder
    /// search becomes the search for the engine's move, now with the clock's limits.
    fn ponder_hit(&mut self, mv: Move, ponder: Ponder) {
        self.state.position.make_move(mv);
        self.fresh = false;
        self.position_changed();
        self.engine = self.state.position.side_to_move();
        if let Some((result, root)) = ponder.finished {
            // The ponder search already ended (a depth limit, a mate): play its move now.
            self.play_result(&result, &root);
            return;
        }
        let limits = self.limits();
        let budget = TimeBudget::new(
            &limits,
            self.state.position.side_to_move(),
            self.state.options.move_overhead,
        );
        if let Some(r) = self.state.running.as_mut() {
            r.open_ended = false;
        }
        match budget.soft.or(budget.hard) {
            Some(t) => self.state.stop_later(t),
            None if limits.depth.is_some() => {}
            None => self.state.stop_later(Duration::ZERO),
        }
    }

    /// The move `internal` names: first as one of the wire forms of this variant's
    /// presentation (present.rs), then in Chimera's notation, where a plain form that XBoard
    /// would apply differently from the rules is refused with the form to use.
    fn read_move(&self, internal: &str) -> Result<Move, MoveError> {
        let pos = &self.state.position;
        let style = present::style(pos.variant());
        if let Some(mv) = present::match_wire(pos, style, internal) {
            return Ok(mv);
        }
        let mv = pos.clone().parse_move(internal)?;
        match present::plain_form_refusal(pos, style, mv) {
            Some(why) => Err(MoveError::Illegal(why)),
            None => Ok(mv),
        }
    }

    fn usermove(&mut self, text: &str) {
        // XBoard leaves its internal leg marker `;` on a two-leg move it read from a file.
        let internal = self.wire_in(text.trim_end_matches(';'));
        let read = if present::style(&self.state.variant) == Style::Plain
            || (self.state.variant.turns().is_some() && internal.contains(','))
        {
            None
        } else {
            Some(self.read_move(&internal))
        };
        if let Some(ponder) = self.pondering.take() {
            let mv = match &read {
                Some(r) => r.clone(),
                None => self.state.position.clone().parse_move(&internal),
            };
            match mv {
                Ok(mv) if mv == ponder.predicted && !self.force => {
                    return self.ponder_hit(mv, ponder);
                }
                // A different move: the ponder search was for nothing.
                _ => self.abandon(),
            }
        }
        let played = match read {
            Some(Ok(mv)) => {
                self.state.position.make_move(mv);
                Ok(mv)
            }
            Some(Err(e)) => Err(e),
            None => self.state.play(&internal),
        };
        match played {
            Ok(_) => {
                self.fresh = false;
                self.position_changed();
                if !self.force && !self.analyzing {
                    self.engine = self.state.position.side_to_move();
                    self.claim_if_over();
                }
            }
            Err(e) if self.force && self.fresh => {
                // docs/protocols.md D9: Cute Chess's dummy move before `setboard` must not be
                // refused.
                let _ = e;
                self.flip_side();
            }
            Err(MoveError::Syntax(_)) => self.out(&format!("Illegal move (malformed): {text}")),
            Err(MoveError::Illegal(why))
                if why.starts_with("enter it") || why.starts_with("the reserve") =>
            {
                self.out(&format!("Illegal move ({why}): {text}"))
            }
            Err(MoveError::Illegal(_)) => self.out(&format!("Illegal move: {text}")),
        }
    }

    fn flip_side(&mut self) {
        let fen = self.state.position.fen();
        let mut f: Vec<&str> = fen.split_whitespace().collect();
        if f.len() > 1 {
            f[1] = if f[1] == "w" { "b" } else { "w" };
            if f.len() > 3 {
                f[3] = "-";
            }
            let flipped = f.join(" ");
            let _ = self.state.set_position(Some(&flipped), &[]);
        }
    }

    fn take_back(&mut self, plies: usize, cmd: &str) {
        if self.state.position.moves_played().count() < plies {
            self.out(&format!("Error (no move to take back): {cmd}"));
            return;
        }
        for _ in 0..plies {
            self.state.position.unmake_move();
        }
        self.over = false;
        self.position_changed();
    }

    /// `option NAME[=VALUE]`: the table reads, checks and applies the value; what the option
    /// has to tell becomes comment lines (`# ...`, which XBoard logs), an error `Error (...)`.
    fn option(&mut self, name: &str, value: Option<&str>) {
        let mut notes = Vec::new();
        let set = options::set(Front::Xboard, &mut self.state, name, value, &mut notes);
        for note in notes {
            self.out(&format!("# {note}"));
        }
        if let Err(e) = set {
            self.out(&format!("Error ({e}): option {name}"));
        }
    }

    /// Runs one parsed command.
    pub fn run(&mut self, cmd: XbCommand) -> Flow {
        use XbCommand as C;
        match cmd {
            C::Xboard | C::Ignored => {}
            C::Protover(_) => self.features(),
            C::New => {
                self.abandon();
                let _ = self.state.set_variant("chess");
                self.state.new_game();
                self.force = false;
                self.engine = Color::Black;
                self.depth = None;
                self.movetime = None;
                self.fresh = true;
                self.over = false;
                self.position_changed();
                self.hint = None;
            }
            C::Variant(name) => {
                // A size prefix `WxH+S_` is ours to check, not to select by.
                let bare = name.split_once('_').map_or(name.as_str(), |(p, n)| {
                    if p.contains('x') && p.contains('+') {
                        n
                    } else {
                        name.as_str()
                    }
                });
                self.abandon();
                match self.state.set_variant(bare) {
                    Ok(()) => {
                        self.fresh = true;
                        self.over = false;
                        self.position_changed();
                        self.send_setup();
                    }
                    Err(_) => self.out(&format!("Error (unknown variant): {name}")),
                }
            }
            C::SetBoard(fen) => {
                let v = &self.state.variant;
                let fen = present::fen_from_wire(v, present::style(v), &self.fen_in(&fen));
                self.abandon();
                match self.state.set_position(Some(&fen), &[]) {
                    Ok(oddities) => {
                        // A comment line: a GUI shows it in its log, not as an error.
                        for w in oddities {
                            self.out(&format!("# warning: {w}"));
                        }
                        self.over = false;
                        self.fresh = false;
                        self.position_changed();
                    }
                    Err(e) => {
                        self.out(&format!("tellusererror Illegal position: {e}"));
                        self.out(&format!("Error (bad FEN): setboard {fen}"));
                    }
                }
            }
            C::UserMove(m) => {
                if self.analyzing {
                    self.abandon();
                }
                self.usermove(&m);
            }
            C::Force => {
                self.abandon();
                self.force = true;
            }
            C::Go => {
                self.force = false;
                self.engine = self.state.position.side_to_move();
                self.over = false;
            }
            C::PlayOther => {
                self.force = false;
                self.engine = self.state.position.side_to_move().opposite();
            }
            C::MoveNow => {
                if self.thinking() {
                    self.state.stop_search();
                }
            }
            C::Undo => {
                if self.analyzing {
                    self.abandon();
                }
                self.take_back(1, "undo");
            }
            C::Remove => {
                self.abandon();
                self.take_back(2, "remove");
            }
            C::Level(mps, base, inc) => {
                self.level = Some((mps, base, inc));
                self.movetime = None;
            }
            C::St(ms) => {
                self.movetime = Some(ms.max(1));
                self.level = None;
            }
            C::Sd(d) => self.depth = Some(d.max(1)),
            C::Time(t) => self.time_cs = Some(t),
            C::Otim(t) => self.otim_cs = Some(t),
            C::Post(on) => self.post.store(on, Ordering::Relaxed),
            C::Analyze => {
                // Analysis plays no moves, and `exit` leaves the engine in force mode.
                self.abandon();
                self.analyzing = true;
                self.force = true;
            }
            C::Exit => {
                if self.analyzing {
                    self.abandon();
                    self.analyzing = false;
                }
            }
            C::Stat => {}
            // XBoard's own commands for the options UCI sets with `setoption`: `hard`/`easy`
            // (Ponder), `memory` (Hash) and `cores` (Threads). The GUI's figures are the whole
            // engine's means, which the options take up to their own bounds.
            C::Ponder(on) => self.state.options.ponder = on,
            C::Memory(mb) => {
                if let Err(e) = HASH.set_within_range(&mut self.state, mb as u64) {
                    self.out(&format!("Error ({e}): memory {mb}"));
                }
            }
            C::Cores(n) => {
                if let Err(e) = THREADS.set_within_range(&mut self.state, n as u64) {
                    self.out(&format!("Error ({e}): cores {n}"));
                }
            }
            C::Option(name, value) => self.option(&name, value.as_deref()),
            C::Result => {
                self.abandon();
                self.force = true;
                self.over = true;
            }
            C::Ping(n) => self.out(&format!("pong {n}")),
            C::Hint => {
                if let Some((hash, mv)) = self.hint {
                    if hash == self.state.position.hash() {
                        let pos = &self.state.position;
                        let text = present::wire_move(pos, present::style(pos.variant()), mv);
                        self.out(&format!("Hint: {}", self.wire_out(&text)));
                    }
                }
            }
            C::Book => {
                self.out(" no book moves");
                self.out("");
            }
            C::Exclude(on, m) => self.exclude(on, &m),
            C::Lift(sq) => {
                let internal = self.wire_in(&decimal_ranks(&sq));
                let square = self.state.variant.geometry().parse_square(&internal);
                // A lift on the square the last lifted man was just put on continues
                // that man's move through it (XBoard's cyan leg squares).
                let via = match (self.lifted, square) {
                    (Some(from), Some(s)) if self.put == Some(s) && from != s => Some((from, s)),
                    _ => None,
                };
                self.put = None;
                if let Some((from, s)) = via {
                    if let Some(line) = self.highlight(from, Some(s)) {
                        self.via = Some(s);
                        self.out(&line);
                        return Flow::Continue;
                    }
                }
                self.lifted = square;
                self.via = None;
                if let Some(line) = square.and_then(|sq| self.highlight(sq, None)) {
                    self.out(&line);
                }
            }
            C::Put(sq) => {
                let internal = self.wire_in(&decimal_ranks(sq.trim_end_matches(',')));
                self.put = self.state.variant.geometry().parse_square(&internal);
                // A square marked blue (one suffix only) waits for the engine's `choice`.
                if let (Some(from), Some(to)) = (self.lifted, self.put) {
                    let pos = &self.state.position;
                    let style = present::style(pos.variant());
                    let wire = move |p: &Position, m: Move| present::wire_move(p, style, m);
                    if let Some(line) = choice_line(pos, from, self.via, to, &wire) {
                        self.out(&line);
                    }
                }
            }
            C::Quit => {
                self.state.stop_search();
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// `exclude`/`include` a root move, or all of them; a running analysis restarts with the
    /// new set.
    fn exclude(&mut self, on: bool, text: &str) {
        let word = if on { "exclude" } else { "include" };
        if text == "all" {
            self.excluded.clear();
            if on {
                self.excluded = self.state.position.clone().legal_moves().to_vec();
            }
        } else {
            let internal = self.wire_in(&decimal_ranks(text));
            let mut pos = self.state.position.clone();
            match pos.parse_move(&internal) {
                Ok(mv) => {
                    self.excluded.retain(|x| *x != mv);
                    if on {
                        self.excluded.push(mv);
                    }
                }
                Err(e) => {
                    self.out(&format!("Error ({e}): {word} {text}"));
                    return;
                }
            }
        }
        if self.analyzing {
            self.abandon();
        }
    }

    /// Whether `cmd` leaves a ponder search running: it asks something, sets the clock or
    /// the next move's limits, or is the opponent's move (which `usermove` handles).
    fn keeps_pondering(cmd: &XbCommand) -> bool {
        use XbCommand as C;
        matches!(
            cmd,
            C::UserMove(_)
                | C::Ping(_)
                | C::Time(_)
                | C::Otim(_)
                | C::Post(_)
                | C::Hint
                | C::Book
                | C::Stat
                | C::Ponder(true)
                | C::Level(..)
                | C::St(_)
                | C::Sd(_)
                | C::Lift(_)
                | C::Put(_)
                | C::MoveNow
                | C::Ignored
        )
    }

    fn line(&mut self, line: &str) -> Flow {
        let cmd = match line.parse::<XbCommand>() {
            Ok(c) => c,
            Err(e) if e.starts_with("Error") => {
                self.out(&e);
                return Flow::Continue;
            }
            Err(e) => {
                let word = line.split_whitespace().next().unwrap_or("");
                self.out(&format!("Error ({e}): {word}"));
                return Flow::Continue;
            }
        };
        use XbCommand as C;
        let urgent = matches!(
            cmd,
            C::MoveNow
                | C::Quit
                | C::Force
                | C::New
                | C::Result
                | C::Exit
                | C::Post(_)
                | C::Ponder(_)
                | C::Time(_)
                | C::Otim(_)
                | C::Stat
                | C::Ignored
        );
        if self.thinking() && !urgent {
            // Everything else, `ping` included, is answered after the engine's move.
            self.queue.push_back(line.to_string());
            return Flow::Continue;
        }
        if self.pondering.is_some() && !Self::keeps_pondering(&cmd) {
            self.stop_pondering();
        }
        let flow = self.run(cmd);
        if flow == Flow::Continue {
            self.kick();
        }
        flow
    }

    /// Plays the engine's move from a search of `root` (the current position) and sends it.
    fn play_result(&mut self, result: &SearchResult, root: &Position) {
        let Some(best) = result.best else {
            self.claim_if_over();
            return;
        };
        if root.variant().turns().is_some() {
            // A turn of several parts goes out as one `a,b` token (docs/protocols.md D3); no
            // pondering on it.
            let Some((text, _)) = crate::report::best_and_ponder(root, result) else {
                return;
            };
            let turn = if result.turn.is_empty() {
                vec![best]
            } else {
                result.turn.clone()
            };
            for mv in turn {
                self.state.position.make_move(mv);
            }
            self.fresh = false;
            self.position_changed();
            self.hint = None;
            self.out(&format!("move {}", self.wire_out(&text)));
            self.claim_if_over();
            return;
        }
        let text = present::wire_move(root, present::style(root.variant()), best);
        let text = present::three_legs_in_one(&text).unwrap_or(text);
        self.state.position.make_move(best);
        self.fresh = false;
        self.position_changed();
        self.hint = result.ponder.map(|p| (self.state.position.hash(), p));
        for line in xboard_move_lines(&self.wire_out(&text)) {
            self.out(&line);
        }
        self.claim_if_over();
    }

    fn done(&mut self, f: Finished) -> Flow {
        if let Some((r, result, root)) = self.state.finish(f) {
            if let Some(ponder) = self.pondering.as_mut().filter(|_| !r.discard) {
                // The ponder search ended by itself: keep its move for a correct guess.
                ponder.finished = Some((result, root));
            } else if !r.discard && !self.analyzing {
                self.play_result(&result, &root);
            }
        }
        while !self.thinking() {
            let Some(l) = self.queue.pop_front() else {
                break;
            };
            if self.line(&l) == Flow::Quit {
                return Flow::Quit;
            }
        }
        self.kick();
        Flow::Continue
    }
}

/// A ponder search: the opponent's move it assumes, and its result if it ended by itself.
struct Ponder {
    predicted: Move,
    finished: Option<(SearchResult, Position)>,
}

impl Dialect for Xboard {
    fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(l) => self.line(&l),
            Event::Unreadable(why) => {
                self.out(&format!("Error (unreadable line): {why}"));
                Flow::Continue
            }
            Event::Done(f) => self.done(*f),
            Event::Eof if self.thinking() => {
                // Input ended while the engine thinks: send its move, then quit.
                self.queue.push_back("quit".into());
                Flow::Continue
            }
            Event::Eof => {
                self.state.stop_search();
                Flow::Quit
            }
        }
    }

    fn state(&self) -> &EngineState {
        &self.state
    }
}

/// The turns `side` has completed since the game's position was set up (`new`, `setboard`),
/// which is how a GUI counts the moves of a `level MPS ...` control: from the start of the
/// game it shows, whatever move number a FEN gives, and a turn of several parts (Alice
/// Guard) as one move.
fn turns_played(position: &Position, side: Color) -> u32 {
    let mut pos = position.clone();
    let mut turns = 0;
    while pos.game_ply() > 0 {
        let after = pos.side_to_move();
        pos.unmake_move();
        turns += (pos.side_to_move() == side && after != side) as u32;
    }
    turns
}

/// Whether the engine claims `end`, an end its rules see in `pos`. Every end but the optional
/// draws (repetition, the count, the move rule) of the games with a counting rule (makruk,
/// cambodian, asean, sittuyin and their kin). There the GUIs keep their own rules of drawn
/// games: Cute Chess follows the federations' (the count alone, no repetition draw; its ai-wok
/// has the fifty-move rule instead of the count), judges a claim its rules do not confirm
/// false and forfeits the claimer, and ends by itself the drawn games its rules know. Chimera
/// scores these draws as Fairy-Stockfish does; unclaimed, the game goes on until the GUI's
/// rules end it.
fn claims(pos: &Position, end: &GameEnd) -> bool {
    let optional_draw = end.winner.is_none()
        && matches!(
            end.reason,
            Termination::Repetition | Termination::Counting | Termination::MoveRule
        );
    !(optional_draw && pos.variant().counting().is_some())
}
