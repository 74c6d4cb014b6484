//! The search: iterative deepening with aspiration windows over a principal variation search
//! with quiescence, sharing a lock-free transposition table between Lazy SMP threads.
//!
//! - `see`: static exchange evaluation, for move ordering and quiescence pruning;
//! - `tt`: the transposition table;
//! - `time`: turning clock limits into an optimum and a maximum time, scaled per iteration;
//! - `worker`: one thread's alpha-beta search, move ordering and histories;
//! - `pages`: allocation of the large tables so that they may use huge pages.
//!
//! The engine never prints: every result goes through the [`SearchReport`] trait, and scores
//! come from an [`Evaluator`], implemented outside this crate (chimera-eval).

mod busy;
mod correction;
mod history;
mod pages;
pub mod see;
pub mod skill;
mod thread_data;
pub mod time;
pub mod tt;
mod turn;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::position::Position;
use crate::types::{Move, PieceId};
use crate::variant::GameValue;

pub use pages::AllocError;
pub use skill::Skill;
use thread_data::ThreadData;
pub use time::TimeBudget;
pub use tt::TranspositionTable;

/// A score in centipawns from the side to move's point of view.
pub type Value = i32;

/// The score of delivering mate now; a mate `n` plies away scores `MATE - n`.
pub const MATE: Value = 32_000;
/// The stack every search thread needs: the search recurses up to [`MAX_PLY`] plies (and
/// quiescence below them) with a move list in each frame, far more than the 2 MB a spawned
/// thread gets by default. It is address space only: what is not used is never backed.
pub const SEARCH_STACK_BYTES: usize = 256 << 20;

/// Scores beyond this (in absolute value) are mates.
pub const MATE_BOUND: Value = MATE - 1_000;
/// Larger than every score.
pub const INFINITE: Value = 32_500;
/// The deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;

/// An evaluator's working memory for one search thread (its caches and scratch maps): made by
/// [`Evaluator::new_cache`], kept by the searcher with the thread's other data between
/// searches, and passed to each of that thread's evaluations, so that an evaluator needs no
/// thread-local state (which would outlive the searcher and be shared by unrelated searches).
pub type EvalCache = Box<dyn std::any::Any + Send>;

/// Scores a position for the search. Implemented by the evaluation crate; shared by every
/// search thread, so it must be `Sync` and take `&self`: what it keeps per thread lives in
/// the [`EvalCache`] each thread passes in.
pub trait Evaluator: Sync {
    /// A fresh working memory for one thread. By default none.
    fn new_cache(&self) -> EvalCache {
        Box::new(())
    }

    /// The static score of `pos` in centipawns, from the side to move's point of view, with
    /// the calling thread's `cache`. It must stay well inside `±MATE_BOUND`, and must not
    /// depend on what the cache holds.
    fn evaluate_with(&self, pos: &Position, cache: &mut EvalCache) -> Value;

    /// The score of `pos`, or an estimate of it when that is far outside `alpha..beta` (a
    /// cheaper evaluation that leaves out small terms), with `true` when it is the full
    /// evaluation (the search caches only those). By default the full evaluation.
    fn evaluate_lazy_with(
        &self,
        pos: &Position,
        cache: &mut EvalCache,
        alpha: Value,
        beta: Value,
    ) -> (Value, bool) {
        let _ = (alpha, beta);
        (self.evaluate_with(pos, cache), true)
    }

    /// One evaluation outside a search, with a working memory of its own.
    fn evaluate(&self, pos: &Position) -> Value {
        self.evaluate_with(pos, &mut self.new_cache())
    }

    /// One lazy evaluation outside a search (see [`Evaluator::evaluate_lazy_with`]).
    fn evaluate_lazy(&self, pos: &Position, alpha: Value, beta: Value) -> (Value, bool) {
        self.evaluate_lazy_with(pos, &mut self.new_cache(), alpha, beta)
    }

    /// The material value of a piece type (for capture ordering and pruning margins).
    fn piece_value(&self, id: PieceId) -> Value;
}

/// A score as a protocol shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns, from the side to move's point of view.
    Cp(Value),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// The protocol form of a search value, in a variant whose turns take `plies_per_turn`
    /// plies of search (1, or the number of parts of a turn): mates count the turns of the
    /// winner, the last one included.
    pub fn from_value(v: Value, plies_per_turn: i32) -> Score {
        let per_round = 2 * plies_per_turn.max(1);
        if v >= MATE_BOUND {
            // The loser is found without his royal man, or without a move, `MATE - v` plies
            // on: the winner's turns are that many plies over two turns, rounded up.
            let plies = MATE - v;
            Score::Mate((plies + per_round - 1) / per_round)
        } else if v <= -MATE_BOUND {
            // The opponent's turns start a turn later; 0 when the side to move is already
            // lost.
            let plies = MATE + v - per_round / 2;
            Score::Mate(-((plies.max(0) + per_round - 1) / per_round))
        } else {
            Score::Cp(v)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// What one completed iteration found (sent to the [`SearchReport`]).
#[derive(Clone, Debug)]
pub struct IterationInfo {
    /// The nominal depth completed.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// The score of the best move.
    pub score: Score,
    /// Nodes searched by all threads so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table use, in permille.
    pub hashfull: u32,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// Which line this is, from 1 (the best) to [`Limits::multipv`]; an iteration of a
    /// multi-line search is reported as one call per line, best first.
    pub multipv: u32,
}

/// Receives the search's progress. The protocol layer implements it (UCI `info`, XBoard
/// thinking output, the bench counter); only the main search thread calls it.
pub trait SearchReport {
    /// Called after each completed iteration.
    fn iteration(&mut self, info: &IterationInfo);
}

/// A report that ignores everything.
#[derive(Copy, Clone, Debug, Default)]
pub struct Silent;

impl SearchReport for Silent {
    fn iteration(&mut self, _: &IterationInfo) {}
}

/// Passes reports on and remembers the best line's first move in the last one, so that the
/// search can tell whether the move it plays is the one last reported.
struct LastReported<'a> {
    inner: &'a mut dyn SearchReport,
    first: Option<Move>,
}

impl SearchReport for LastReported<'_> {
    fn iteration(&mut self, info: &IterationInfo) {
        if info.multipv == 1 {
            self.first = info.pv.first().copied();
        }
        self.inner.iteration(info);
    }
}

/// Keeps the lines of the last iteration reported (a multi-line search reports only completed
/// iterations, their lines best first, line 1 opening each) and passes on the first `shown`.
struct LinesKept<'a> {
    inner: &'a mut dyn SearchReport,
    shown: u32,
    last: Vec<IterationInfo>,
}

impl SearchReport for LinesKept<'_> {
    fn iteration(&mut self, info: &IterationInfo) {
        if info.multipv <= 1 {
            self.last.clear();
        }
        self.last.push(info.clone());
        if info.multipv <= self.shown {
            self.inner.iteration(info);
        }
    }
}

/// When to stop searching. Every field is optional; several may be combined and the first to
/// be reached ends the search. With none set the search runs to [`MAX_PLY`] or until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search to this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (exactly, with one thread).
    pub nodes: Option<u64>,
    /// Spend this many milliseconds.
    pub movetime: Option<u64>,
    /// White's clock, in milliseconds.
    pub wtime: Option<u64>,
    /// Black's clock, in milliseconds.
    pub btime: Option<u64>,
    /// White's increment per move, in milliseconds.
    pub winc: Option<u64>,
    /// Black's increment per move, in milliseconds.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until stopped (clock limits are ignored).
    pub infinite: bool,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search only these root moves (UCI `searchmoves`, XBoard `exclude`/`include`); empty
    /// means every legal move. Moves that are not legal in the root position are ignored.
    pub root_moves: Vec<Move>,
    /// How many best lines to find and report per iteration (UCI `MultiPV`); 0 and 1 both
    /// mean one.
    pub multipv: u32,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: Score,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time used.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The whole turn to play: `best`, followed by the other parts of the turn where the
    /// variant's turns have several (protocols print it as one token, `a,b`).
    pub turn: Vec<Move>,
}

/// The state every thread of one search shares.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub stop: &'a AtomicBool,
    /// Nodes of all threads, published in batches.
    pub nodes: AtomicU64,
    pub limits: &'a Limits,
    pub budget: TimeBudget,
    pub start: Instant,
    pub threads: usize,
    /// Moves being searched by some thread (used with more than one thread).
    pub busy: busy::BusyMoves,
}

impl Shared<'_> {
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The report of an iteration `elapsed` after the start, with the node count published so
    /// far by all threads.
    pub fn iteration_info(
        &self,
        elapsed: Duration,
        depth: u32,
        seldepth: u32,
        score: Score,
        pv: Vec<Move>,
        multipv: u32,
    ) -> IterationInfo {
        let nodes = self.nodes.load(Ordering::Relaxed);
        IterationInfo {
            depth,
            seldepth,
            score,
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            time: elapsed,
            hashfull: self.tt.hashfull(),
            pv,
            multipv,
        }
    }
}

/// The search engine: the transposition table, the thread count and the stop flag. One per
/// game; [`Searcher::clear`] starts a new game.
#[derive(Debug)]
pub struct Searcher {
    tt: TranspositionTable,
    threads: usize,
    /// Each thread's lasting data (index 0 the main thread's), kept between searches; built
    /// by the first search of a variant, rebuilt when the variant or the number of threads
    /// changes, cleared by [`Searcher::clear`].
    data: Vec<ThreadData>,
    stop: Arc<AtomicBool>,
    /// When [`Searcher::arm`] cleared the stop flag for the next search, which must then keep
    /// any stop requested since, and whose clock runs from that moment.
    armed: Option<Instant>,
    /// Milliseconds kept in reserve on every clock decision, for the protocol's latency.
    pub move_overhead: u64,
    /// The playing strength of [`Searcher::search`] (full by default; see [`skill`]).
    pub skill: Skill,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes and `threads` threads (at least 1).
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            threads: threads.max(1),
            data: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            armed: None,
            move_overhead: time::DEFAULT_OVERHEAD_MS,
            skill: Skill::full(),
        }
    }

    /// Resizes (and clears) the transposition table. When the memory for the new size cannot
    /// be had, the old table stays and the error says what was asked for.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), AllocError> {
        self.tt = TranspositionTable::try_new(mb)?;
        Ok(())
    }

    /// Sets the number of search threads (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The transposition table's size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learnt (a new game): after this, a one-thread search with the same
    /// limits repeats itself exactly.
    pub fn clear(&mut self) {
        self.tt.clear();
        for d in &mut self.data {
            d.clear();
        }
    }

    /// A handle that stops the running search when set to `true` (from another thread).
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Clears the stop flag for the next search, which then keeps every stop requested after
    /// this call, even one that arrives before it has started. A protocol calls this on its
    /// own thread before handing the searcher to the thread that searches; without it the
    /// search clears the flag itself when it starts, which suits callers that search on the
    /// thread that would stop them. The search's clock starts here, so that the time the
    /// protocol spends before the search thread runs counts against the budget.
    pub fn arm(&mut self) {
        self.stop.store(false, Ordering::SeqCst);
        self.armed = Some(Instant::now());
    }

    /// Searches `pos` within `limits` and returns the best move found. A stopped search still
    /// returns a legal move when there is one (one of `limits.root_moves`, if given), and the
    /// result's `turn` is always a whole turn.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        eval: &dyn Evaluator,
        report: &mut dyn SearchReport,
    ) -> SearchResult {
        let mut result = if self.skill.is_full() {
            self.search_one(pos, limits, eval, report)
        } else {
            self.search_weakened(pos, limits, eval, report)
        };
        if let (Some(best), true) = (result.best, pos.variant().turns().is_some()) {
            result.turn = self.complete_turn(pos, best, &result.pv, result.depth, eval);
        }
        result
    }

    /// A search at [`Searcher::skill`] below full strength: a smaller search that finds
    /// several lines, and one of them chosen by the skill's random allowances. The report
    /// sees the lines `limits` asked for, and last the line chosen as line 1.
    fn search_weakened(
        &mut self,
        pos: &Position,
        limits: &Limits,
        eval: &dyn Evaluator,
        report: &mut dyn SearchReport,
    ) -> SearchResult {
        let weak = self.skill.limits(limits);
        let mut lines = LinesKept {
            inner: report,
            shown: limits.multipv.max(1),
            last: Vec::new(),
        };
        let mut result = self.search_one(pos, &weak, eval, &mut lines);
        let LinesKept { inner, last, .. } = lines;
        let scores: Vec<Score> = last.iter().map(|info| info.score).collect();
        let index = self.skill.choose(&scores, pos.hash());
        let Some(chosen) = last.get(index).filter(|info| !info.pv.is_empty()) else {
            return result;
        };
        if index > 0 {
            let mut info = chosen.clone();
            info.multipv = 1;
            info.nodes = result.nodes;
            info.time = result.time;
            inner.iteration(&info);
        }
        result.best = chosen.pv.first().copied();
        result.ponder = chosen.pv.get(1).copied();
        result.score = chosen.score;
        result.depth = chosen.depth;
        result.pv = chosen.pv.clone();
        result.turn = result.best.into_iter().collect();
        result
    }

    /// One search of `pos` (the best move may be only a part of a turn).
    fn search_one(
        &mut self,
        pos: &Position,
        limits: &Limits,
        eval: &dyn Evaluator,
        report: &mut dyn SearchReport,
    ) -> SearchResult {
        let start = match self.armed.take() {
            Some(armed) => armed,
            None => {
                self.stop.store(false, Ordering::Relaxed);
                Instant::now()
            }
        };
        self.tt.new_search();
        let budget = TimeBudget::new(limits, pos.side_to_move(), self.move_overhead);
        let shared = Shared {
            tt: &self.tt,
            stop: &self.stop,
            nodes: AtomicU64::new(0),
            limits,
            budget,
            start,
            threads: self.threads,
            busy: busy::BusyMoves::new(),
        };
        let mut reported = LastReported {
            inner: report,
            first: None,
        };
        // The threads' data, fitted to this search: one per thread, for this variant.
        let mut data = std::mem::take(&mut self.data);
        data.truncate(self.threads);
        for d in &mut data {
            d.prepare(pos.variant());
        }
        while data.len() < self.threads {
            data.push(ThreadData::new(pos.variant(), eval));
        }
        let mut data = data.into_iter();
        let main_data = data.next().expect("one thread at least");
        let (main, helpers, kept) = std::thread::scope(|s| {
            let handles: Vec<_> = data
                .enumerate()
                .filter_map(|(i, d)| {
                    let shared = &shared;
                    // Stopped while the helpers are still being started (many threads on
                    // few cores start slowly): the rest would only start to stop again.
                    if shared.stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    let p = pos.clone();
                    // A helper that cannot be had (the system's thread limit) is left out
                    // (and its data with it: the next search builds it again).
                    std::thread::Builder::new()
                        .stack_size(SEARCH_STACK_BYTES)
                        .spawn_scoped(s, move || {
                            let mut w = worker::Worker::new(i + 1, p, shared, eval, d);
                            let r = w.iterate(&mut Silent);
                            (r, w.into_data())
                        })
                        .ok()
                })
                .collect();
            let mut w = worker::Worker::new(0, pos.clone(), &shared, eval, main_data);
            let r = w.iterate(&mut reported);
            shared.stop.store(true, Ordering::Relaxed);
            let mut kept = vec![w.into_data()];
            let mut helpers = Vec::new();
            for (h, d) in handles.into_iter().filter_map(|h| h.join().ok()) {
                helpers.push(h);
                kept.push(d);
            }
            (r, helpers, kept)
        });
        self.data = kept;
        let nodes = shared.nodes.load(Ordering::Relaxed);
        let (result, from_helper) = if limits.multipv > 1 {
            // The lines reported are the main thread's; its best line is the answer.
            (main, false)
        } else {
            choose_result(main, helpers, limits.depth)
        };
        let score = Score::from_value(result.score, pos.variant().plies_per_turn());
        // The answer may not be the last line reported: a helper's, or a move that beat the
        // reported one in the main thread's unfinished iteration (shown with the depth and
        // score of the last finished iteration, the best known of it). It is reported, so that
        // the last line a user or GUI sees belongs to the move played.
        let unreported = !result.pv.is_empty() && result.pv.first() != reported.first.as_ref();
        if from_helper || unreported && limits.multipv <= 1 {
            reported.iteration(&shared.iteration_info(
                start.elapsed(),
                result.depth,
                result.seldepth,
                score,
                result.pv.clone(),
                1,
            ));
        }
        let mut best = result.pv.first().copied();
        if best.is_none() {
            // Stopped before the first move was searched: any legal move beats none.
            let legal = pos.clone().legal_moves();
            best = legal
                .iter()
                .find(|m| limits.root_moves.is_empty() || limits.root_moves.contains(m))
                .or(legal.first())
                .copied();
        }
        let ponder = match (result.pv.get(1), best) {
            (Some(&reply), _) => Some(reply),
            (None, Some(best)) => self.expected_reply(pos, best),
            _ => None,
        };
        SearchResult {
            best,
            ponder,
            score,
            depth: result.depth,
            nodes,
            time: start.elapsed(),
            pv: result.pv,
            turn: best.into_iter().collect(),
        }
    }

    /// The opponent's reply that the table holds for the position after `best`: the move to
    /// ponder on when the search ended with a line of one move (an unfinished iteration whose
    /// new best move had no line behind it yet). Only for turns of one move.
    fn expected_reply(&self, pos: &Position, best: Move) -> Option<Move> {
        if pos.variant().turns().is_some() {
            return None;
        }
        let mut after = pos.clone();
        after.make_move(best);
        let key = self.tt.probe(after.hash())?.move_key;
        if key == 0 {
            return None;
        }
        after
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| tt::move_key(m) == key)
    }
}

/// The answer of a search on several threads, and whether it is a helper's: the main
/// thread's, unless a helper completed a deeper iteration with a score at least as good, or
/// completed the depth asked for when the main thread did not. (A helper that skipped ahead
/// past the main thread's depth has looked further; a worse score from it at a depth nobody
/// asked for may be a line the main thread has already seen through, so it keeps its say.)
fn choose_result(
    main: worker::IterResult,
    helpers: Vec<worker::IterResult>,
    depth_limit: Option<u32>,
) -> (worker::IterResult, bool) {
    let reached = |r: &worker::IterResult| depth_limit.is_some_and(|d| r.depth >= d);
    let mut best = main;
    let mut from_helper = false;
    for h in helpers {
        let better = h.score >= best.score || reached(&h) && !reached(&best);
        if !h.pv.is_empty() && h.depth > best.depth && better {
            best = h;
            from_helper = true;
        }
    }
    (best, from_helper)
}

/// The value of a game-ending rule for the side to move, `ply` plies from the root: mates
/// found sooner score higher.
#[inline]
pub fn game_value(value: GameValue, ply: usize) -> Value {
    match value {
        GameValue::Win => MATE - ply as Value,
        GameValue::Loss => -MATE + ply as Value,
        GameValue::Draw | GameValue::None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(depth: u32, score: Value, mv: u16) -> worker::IterResult {
        let m = Move {
            from: crate::types::Square(mv),
            to: crate::types::Square(mv + 1),
            aux: crate::types::Square::NONE,
            kind: crate::types::MoveKind::Normal,
            piece: Move::NO_PIECE,
        };
        worker::IterResult {
            pv: vec![m],
            score,
            depth,
            seldepth: depth,
        }
    }

    #[test]
    fn a_helper_result_needs_more_depth_and_no_worse_score() {
        let pick = |helper: worker::IterResult, limit| {
            let (r, from_helper) = choose_result(result(10, 30, 1), vec![helper], limit);
            (r.pv[0].from.0, from_helper)
        };
        assert_eq!(pick(result(11, 30, 2), None), (2, true));
        assert_eq!(pick(result(11, 29, 2), None), (1, false));
        assert_eq!(pick(result(10, 90, 2), None), (1, false));
        // The only result at the depth asked for wins, whatever its score.
        assert_eq!(pick(result(11, -50, 2), Some(11)), (2, true));
        assert_eq!(pick(result(11, -50, 2), Some(10)), (1, false));
        let (r, _) = choose_result(
            result(10, 30, 1),
            vec![worker::IterResult {
                pv: Vec::new(),
                ..result(12, 99, 2)
            }],
            None,
        );
        assert_eq!(r.depth, 10, "a helper without a move is never chosen");
    }
}
