//! One search thread: iterative deepening, principal variation search, quiescence, move
//! ordering (table move, captures by MVV-LVA, killers, history) and the histories themselves,
//! which are sized from the variant (piece types x mailbox cells), not from chess.

mod root;

use std::sync::atomic::Ordering;

use once_cell::sync::Lazy;

use super::busy;
use super::correction::{CorrectionHistory, CorrectionKeys};
use super::history::{Slot, HISTORY_MAX};
use super::see::{see, see_ge, SeeValues};
use super::thread_data::{ThreadData, EVAL_CACHE_SIZE, NO_MOVE};
use super::time::TimeScale;
use super::tt::{key_from, move_key, value_from_tt, value_to_tt, Bound, Entry};
use super::{
    game_value, Evaluator, Score, SearchReport, Shared, Value, INFINITE, MATE, MATE_BOUND, MAX_PLY,
};
use crate::board::position::Position;
use crate::movegen::legal::DeferredLegality;
use crate::movegen::{MoveList, SpillVec, INLINE_MOVES};
use crate::types::{Color, Move, MoveKind, Square};
use crate::variant::ends::MaterialCounting;
use crate::variant::GameValue;

/// Late-move reductions by depth and move number (both capped at 63), the same for every
/// search: built once, on the first search.
static LMR: Lazy<[[u8; 64]; 64]> = Lazy::new(|| {
    let mut lmr = [[0u8; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
        }
    }
    lmr
});

/// What a quiet move's cutoff at `depth` adds to its histories (and takes from the quiet
/// moves tried before it): growing about linearly with depth, so that the shallow nodes, by
/// far the most numerous, teach the tables as well, and capped so that no single cutoff
/// outweighs what many shallower ones taught.
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (16 * depth * depth + 128 * depth - 100).clamp(0, HISTORY_MAX / 4)
}

/// The null move: a pass made from a border cell, whose castling mask is empty, so that
/// making it touches nothing but the side to move, the e.p. square and the counters.
const NULL_MOVE: Move = Move {
    from: Square(0),
    to: Square(0),
    aux: Square::NONE,
    kind: MoveKind::Pass,
    piece: Move::NO_PIECE,
};

/// Ordering scores: the table move first, then winning and equal captures and promotions,
/// killers, captures that lose material by static exchange (still before the quiet moves: in
/// tactical positions they are often sacrifices, and searching them early took fewer nodes
/// to the bench depth than searching them last), then quiet moves by history, and a pass
/// (where the rules allow one) last of all.
const SCORE_TT: i32 = 1 << 30;
const SCORE_CAPTURE: i32 = 1 << 28;
const SCORE_KILLER: i32 = 1 << 27;
const SCORE_BAD_CAPTURE: i32 = 1 << 26;
/// Below every quiet move's history: a pass where the rules let a side pass (janggi,
/// Fairy-Stockfish's `pass` and `passOnStalemate`) has no history slot, and ranked at 0 it came
/// before the quiet moves with a bad history, so that late-move pruning at low depth kept
/// the pass and dropped the moves (janggi passed at its first move).
const SCORE_PASS: i32 = -(1 << 26);

/// How far above beta a capture's shallow search must reach for ProbCut to trust it.
const PROBCUT_MARGIN: Value = 200;

/// The shallowest node whose table move is tested for being singular (see
/// [`Worker::singular_extension`]): the test costs a search of every other move at half the
/// depth, worth it only where the subtree is large.
const SINGULAR_MIN_DEPTH: i32 = 7;

/// The exchange value of a move whose ordering score says SEE found it losing material
/// (worked out when the move was picked), `None` for every other score.
#[inline]
fn losing_exchange(score: i32) -> Option<Value> {
    (SCORE_BAD_CAPTURE - (1 << 20)..SCORE_BAD_CAPTURE)
        .contains(&score)
        .then(|| score - SCORE_BAD_CAPTURE)
}

/// True for the ordering score of a move that SEE says loses material.
#[inline]
fn is_bad_capture(score: i32) -> bool {
    losing_exchange(score).is_some()
}

/// Ordering scores, one per move of a [`MoveList`], in the same order. A capture or promotion
/// that might lose material by static exchange is first scored as a winning one and marked
/// unchecked; [`Worker::pick`] runs the exchange only when the move comes up for its turn, so
/// that the many nodes that cut off early never pay for the exchanges of moves they never try.
#[derive(Default)]
struct ScoreList {
    score: SpillVec<i32, INLINE_MOVES>,
    unchecked: SpillVec<bool, INLINE_MOVES>,
}

impl ScoreList {
    #[inline]
    fn push(&mut self, score: i32, unchecked: bool) {
        self.score.push(score);
        self.unchecked.push(unchecked);
    }

    #[inline]
    fn swap(&mut self, i: usize, j: usize) {
        self.score.swap(i, j);
        self.unchecked.swap(i, j);
    }
}

/// How often (in nodes, a power of two) a thread publishes its node count and the main thread
/// looks at the clock: often enough that the slowest variants (Vanguard, some 20-60 thousand
/// nodes a second) overrun a deadline by a few milliseconds at most.
const CHECK_EVERY: u64 = 128;

/// What a singular-extension test says about the table move.
enum Singular {
    /// Nothing: search it as usual.
    No,
    /// It alone holds the node: search it a ply deeper.
    Extend,
    /// Other moves beat beta too: the node fails high with this value.
    Cut(Value),
}

/// What a thread's iterations produced: the last completed iteration (or the part of an
/// interrupted one that is already better).
pub(crate) struct IterResult {
    pub pv: Vec<Move>,
    pub score: Value,
    pub depth: u32,
    pub seldepth: u32,
}

pub(crate) struct Worker<'a> {
    id: usize,
    pos: Position,
    shared: &'a Shared<'a>,
    eval: &'a dyn Evaluator,
    nodes: u64,
    published: u64,
    seldepth: usize,
    stopped: bool,
    /// The thread's lasting data (histories, killers, counter-moves, evaluation caches),
    /// lent by the searcher for this search and handed back by [`Worker::into_data`].
    data: ThreadData,
    /// The slot (piece type x destination) of the move being searched at each ply, `None`
    /// for a null move or a move the histories do not cover.
    played: Vec<Option<Slot>>,
    cells: usize,
    pieces: usize,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Static evaluation per ply (for the improving test), corrected by the correction
    /// history.
    evals: [Value; MAX_PLY + 1],
    /// Per ply, the evaluation before correction, for updating the correction history when
    /// the node's search ends.
    raw_evals: [Value; MAX_PLY + 1],
    /// The depth of the iteration under way.
    root_depth: i32,
    /// Ply of the last null move on the current path (repetitions do not cross it).
    last_null: Vec<usize>,
    /// Mover colour with the bits of the variant that the node code asks about.
    checking: bool,
    royal_mask: bool,
    /// The variant has ends that the position alone decides (a flag reached, extinction,
    /// men in a row, both sides passed): each node asks for them before anything else.
    position_ends: bool,
    /// A repetition is not simply a draw (`nFoldValue`, perpetual check, material counting).
    scored_repetition: bool,
    /// Per colour, the rules let the side pass (`pass`, `passOnStalemate`): its pass is
    /// ordered last and kept out of the killers.
    side_passes: [bool; 2],
    /// Piece values per type, read once from the evaluator.
    values: Vec<Value>,
    see_values: SeeValues,
    /// The move being searched at each ply (`NO_MOVE` for a null move).
    path: Vec<Move>,
    /// Root moves left out of this search: those outside `Limits::root_moves`, and in a
    /// multi-line search the first moves of the lines already found this iteration.
    root_skip: Vec<Move>,
    /// Per ply, the table move that a singular-extension test leaves out of the node's search
    /// (`NO_MOVE` outside such a test).
    excluded: Vec<Move>,
    /// A root move that beat the best one by a null-window search, while its full-window
    /// search is under way.
    root_fail_high: Option<Move>,
    /// The value of the best root move of the iteration under way, once one has raised alpha.
    root_best: Value,
    /// Nodes spent below each root move in the iteration under way (every aspiration search
    /// of it): what share of them the best move took tells the time manager how clear the
    /// choice is.
    root_nodes: Vec<(Move, u64)>,
    /// What the completed iterations say about the time this move deserves (main thread).
    scale: TimeScale,
}

/// The shallowest node where threads put off the moves another thread is searching: below it
/// the searches are too short to be worth sharing out.
const MIN_SHARE_DEPTH: i32 = 3;

/// Iterations in a row that must repeat a mate score before a search on the clock may stop
/// early with it (see [`Worker::mate_settled`]).
const MATE_STABLE_ITERATIONS: u32 = 3;

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        pos: Position,
        shared: &'a Shared<'a>,
        eval: &'a dyn Evaluator,
        data: ThreadData,
    ) -> Worker<'a> {
        let v = pos.variant().clone();
        let cells = v.geometry().num_cells();
        let pieces = v.num_pieces().max(1);
        let values = (0..v.num_pieces())
            .map(|i| eval.piece_value(crate::types::PieceId(i as u8)))
            .collect();
        let see_values = SeeValues::new(&pos, |id| eval.piece_value(id));
        Worker {
            id,
            pos,
            shared,
            eval,
            nodes: 0,
            published: 0,
            seldepth: 0,
            stopped: false,
            data,
            played: vec![None; MAX_PLY + 1],
            cells,
            pieces,
            pv: vec![[NO_MOVE; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 1],
            raw_evals: [0; MAX_PLY + 1],
            root_depth: 0,
            last_null: Vec::with_capacity(MAX_PLY),
            root_fail_high: None,
            root_best: 0,
            root_nodes: Vec::new(),
            scale: TimeScale::new(),
            checking: v.checking(),
            royal_mask: v.royal_mask() != 0,
            position_ends: v.has_position_ends() || v.repetition().move_repetition_illegal,
            scored_repetition: v.n_fold_rule() > 0
                && (v.repetition().scored() || v.material_counting() != MaterialCounting::None),
            side_passes: [Color::White, Color::Black].map(|c| {
                let (pass, on_stalemate) = v.passing(c);
                pass || on_stalemate
            }),
            values,
            see_values,
            path: vec![NO_MOVE; MAX_PLY + 1],
            root_skip: Vec::new(),
            excluded: vec![NO_MOVE; MAX_PLY + 1],
        }
    }

    /// The thread's lasting data, for the searcher to keep until the next search.
    pub fn into_data(self) -> ThreadData {
        self.data
    }

    /// Iterative deepening; returns the last completed iteration (or the partial one, when it
    /// had already found a move better than the previous iteration's).
    pub fn iterate(&mut self, report: &mut dyn SearchReport) -> IterResult {
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut result = IterResult {
            pv: Vec::new(),
            score: 0,
            depth: 0,
            seldepth: 0,
        };
        let lines = self.prepare_root();
        if lines > 1 {
            return self.iterate_lines(max_depth, lines, report);
        }
        let mut depth = 1;
        let mut mate_streak = 0;
        while depth <= max_depth {
            // Helpers skip some depths (see `skips`), but never the depth limit: a search
            // asked for depth D answers from depth D, and no thread spends time beyond it.
            if depth < max_depth && self.skips(depth) {
                depth += 1;
                continue;
            }
            self.root_depth = depth as i32;
            let prev = result.score;
            let mut window: Value = 18;
            let (mut alpha, mut beta) = if depth >= 5 {
                (
                    (prev - window).max(-INFINITE),
                    (prev + window).min(INFINITE),
                )
            } else {
                (-INFINITE, INFINITE)
            };
            let mut score;
            self.root_nodes.clear();
            loop {
                self.seldepth = 0;
                self.root_fail_high = None;
                score = self.negamax(depth as i32, alpha, beta, 0, None, false);
                if self.stopped {
                    break;
                }
                if score >= beta && self.pv_len[0] > 0 {
                    // The move that failed high is the best so far, whatever the re-search
                    // with a wider window has time for.
                    result.pv = self.pv[0][..self.pv_len[0]].to_vec();
                }
                if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - window).max(-INFINITE);
                } else if score >= beta {
                    beta = (score + window).min(INFINITE);
                } else {
                    break;
                }
                window += window / 2 + 5;
                if window > 1000 {
                    alpha = -INFINITE;
                    beta = INFINITE;
                }
            }
            if self.stopped {
                // A move that finished with a score above the window's alpha is better than the
                // last iteration's choice; anything else is not trustworthy.
                if let Some(mv) = self.root_fail_high {
                    result.pv = vec![mv];
                } else if self.pv_len[0] > 0 {
                    result.pv = self.pv[0][..self.pv_len[0]].to_vec();
                    // Without a completed iteration there is no score to fall back on; the
                    // first one searches with a full window, so the best move's value so far
                    // is exact (a mate in one found before the budget ran out is reported
                    // as one).
                    if result.depth == 0 {
                        result.score = self.root_best;
                    }
                }
                break;
            }
            mate_streak = if score.abs() >= MATE_BOUND && score == result.score {
                mate_streak + 1
            } else {
                0
            };
            result = IterResult {
                pv: self.pv[0][..self.pv_len[0]].to_vec(),
                score,
                depth,
                seldepth: self.seldepth as u32,
            };
            self.publish();
            if self.id != 0 && depth >= max_depth {
                // A helper that completes the depth asked for ends the search: its result is
                // as deep as the main thread's would be, and sooner.
                self.shared.stop.store(true, Ordering::Relaxed);
                break;
            }
            if self.id == 0 {
                let elapsed = self.shared.start.elapsed();
                report.iteration(&self.shared.iteration_info(
                    elapsed,
                    depth,
                    self.seldepth as u32,
                    self.score(score),
                    result.pv.clone(),
                    1,
                ));
                if self.pv_len[0] == 0 {
                    break;
                }
                let best_nodes = self.best_move_node_share(result.pv[0]);
                self.scale.update(depth, result.pv[0], score, best_nodes);
                let limit = self.shared.budget.iteration_limit(&self.scale);
                if let (Some(limit), false) = (limit, limits.infinite) {
                    if elapsed >= limit {
                        break;
                    }
                }
                if self.mate_found(score, limits.mate)
                    || self.mate_settled(score, depth, mate_streak)
                {
                    break;
                }
            }
            if self.shared.stopped() {
                break;
            }
            depth += 1;
        }
        self.publish();
        result
    }

    /// True when a search on the clock may end early because its mate score is settled: the
    /// iteration depth covers the whole mating line with room to spare and the score has not
    /// changed for [`MATE_STABLE_ITERATIONS`] iterations. Deeper iterations would only repeat
    /// it (or find a slightly shorter mate), and the clock time is worth more later in the
    /// game. Searches without a deadline (fixed depth or nodes, infinite, pondering) go on.
    fn mate_settled(&self, score: Value, depth: u32, streak: u32) -> bool {
        // The streak only counts mate scores.
        let on_clock = self.shared.budget.soft.is_some() && !self.shared.limits.infinite;
        on_clock
            && streak >= MATE_STABLE_ITERATIONS
            && depth as Value >= 2 * (MATE - score.abs()) + 4
    }

    /// Helper threads leave out some iterations, each helper a different pattern of blocks of
    /// depths, so that the threads spread over several depths instead of repeating each
    /// other's work; the main thread searches every depth.
    fn skips(&self, depth: u32) -> bool {
        const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
        const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
        if self.id == 0 || depth <= 1 {
            return false;
        }
        let i = (self.id - 1) % SIZE.len();
        ((depth + PHASE[i]) / SIZE[i]) & 1 != 0
    }

    /// The share of this iteration's root nodes that went to `best`, once there are enough
    /// of them to say something.
    fn best_move_node_share(&self, best: Move) -> Option<f64> {
        let total: u64 = self.root_nodes.iter().map(|&(_, n)| n).sum();
        let on_best: u64 = self
            .root_nodes
            .iter()
            .filter(|&&(m, _)| m == best)
            .map(|&(_, n)| n)
            .sum();
        (total >= 1024).then(|| on_best as f64 / total as f64)
    }

    /// Adds `nodes` to those spent below root move `mv` in this iteration.
    fn count_root_nodes(&mut self, mv: Move, nodes: u64) {
        match self.root_nodes.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, n)) => *n += nodes,
            None => self.root_nodes.push((mv, nodes)),
        }
    }

    fn publish(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
    }

    /// Counts a node and decides whether to stop: the stop flag, the node limit (exact with
    /// one thread) and, on the main thread, the hard deadline.
    #[inline]
    fn visit(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if let Some(n) = self.shared.limits.nodes {
            let total = if self.shared.threads == 1 {
                self.nodes
            } else {
                self.shared.nodes.load(Ordering::Relaxed) + self.nodes - self.published
            };
            if total >= n {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            self.publish();
            if self.id == 0 {
                if let Some(hard) = self.shared.budget.hard {
                    if !self.shared.limits.infinite && self.shared.start.elapsed() >= hard {
                        self.shared.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            if self.shared.stopped() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Makes `mv` at `ply` of the search path: records it where the histories and the
    /// countermove of the next ply read it, and starts loading the child's table bucket.
    #[inline]
    fn play(&mut self, mv: Move, ply: usize) {
        self.played[ply] = self.slot(mv);
        self.pos.make_move(mv);
        self.shared.tt.prefetch(self.pos.hash());
        self.path[ply] = mv;
    }

    /// The histories' name for `mv` (before it is made).
    #[inline]
    fn slot(&self, mv: Move) -> Option<Slot> {
        self.data.history.slot(self.pos.moved_piece(mv)?, mv.to)
    }

    /// The moves played at the two plies before `ply`, as the continuation histories see them.
    #[inline]
    fn earlier_slots(&self, ply: usize) -> [Option<Slot>; 2] {
        let at = |back: usize| ply.checked_sub(back).and_then(|p| self.played[p]);
        [at(1), at(2)]
    }

    /// The history of the quiet move `mv` by `side` at `ply` (before it is made).
    #[inline]
    fn quiet_history(&self, side: Color, mv: Move, ply: usize) -> i32 {
        self.slot(mv).map_or(0, |s| {
            self.data.history.score(side, s, self.earlier_slots(ply))
        })
    }

    /// The slot in `counters` for the opponent's move that led to `ply`.
    #[inline]
    fn counter_index(&self, ply: usize) -> Option<usize> {
        let prev = *self.path.get(ply.checked_sub(1)?)?;
        if prev == NO_MOVE || prev.to.index() >= self.cells {
            return None;
        }
        let id = self.pos.cell(prev.to).id().index();
        (id < self.pieces).then(|| id * self.cells + prev.to.index())
    }

    /// Rewards or punishes the capture `mv` (before it is made) in the capture history.
    fn update_capture_history(&mut self, mv: Move, bonus: i32) {
        if let (Some(s), Some(victim)) = (self.slot(mv), self.pos.captured_piece(mv)) {
            self.data.history.update_capture(s, victim, bonus);
        }
    }

    fn update_history(&mut self, side: Color, mv: Move, ply: usize, bonus: i32) {
        if let Some(s) = self.slot(mv) {
            let earlier = self.earlier_slots(ply);
            self.data.history.update(side, s, earlier, bonus);
        }
    }

    #[inline]
    fn value(&self, id: crate::types::PieceId) -> Value {
        self.values.get(id.index()).copied().unwrap_or(0)
    }

    /// What a fail-soft search's `best` says about the true value, given its window.
    fn bound(best: Value, old_alpha: Value, beta: Value) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Keeps a search result in the shared table.
    fn store(&self, key: u64, best_move: Move, value: Value, depth: i32, bound: Bound, ply: usize) {
        let mk = if best_move == NO_MOVE {
            0
        } else {
            move_key(best_move)
        };
        self.shared
            .tt
            .store(key, mk, value_to_tt(value, ply), depth, bound);
    }

    /// The full static evaluation of the current position.
    fn evaluate(&mut self) -> Value {
        let key = self.pos.hash();
        let slot = &mut self.data.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let v = self
            .eval
            .evaluate_with(&self.pos, &mut self.data.eval_scratch);
        self.data.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)] = (key, v);
        v
    }

    /// The static evaluation, or a bound on it far outside `alpha..beta` (cached only when
    /// it is complete).
    fn evaluate_lazy(&mut self, alpha: Value, beta: Value) -> Value {
        let key = self.pos.hash();
        let slot = &mut self.data.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let (v, complete) =
            self.eval
                .evaluate_lazy_with(&self.pos, &mut self.data.eval_scratch, alpha, beta);
        if complete {
            *slot = (key, v);
        }
        v
    }

    /// The protocol form of a search value.
    fn score(&self, v: Value) -> Score {
        Score::from_value(v, self.pos.variant().plies_per_turn())
    }

    /// True when `v` is a mate (for either side) within `mate` turns, the `go mate` limit.
    fn mate_found(&self, v: Value, mate: Option<u32>) -> bool {
        match (self.score(v), mate) {
            (Score::Mate(n), Some(m)) => n.unsigned_abs() <= m,
            _ => false,
        }
    }

    /// True when `mv`, listed by [`Position::generate_legal_deferred`], is legal: only the
    /// moves it left untested are tested.
    #[inline]
    fn legal(&mut self, mv: Move, deferred: &DeferredLegality) -> bool {
        !deferred.needs_test(mv) || self.pos.passes_deferred_test(mv, deferred)
    }

    /// The static exchange value of `mv`, when SEE can judge it.
    #[inline]
    fn see(&self, mv: Move) -> Option<Value> {
        see(&self.pos, &self.see_values, mv)
    }

    /// Whether the exchange value of `mv` reaches `threshold`, when SEE can judge it.
    #[inline]
    fn see_ge(&self, mv: Move, threshold: Value) -> Option<bool> {
        see_ge(&self.pos, &self.see_values, mv, threshold)
    }

    /// True when SEE cannot judge this variant's captures.
    #[inline]
    fn see_values_unusable(&self) -> bool {
        !self.pos.variant().simple_attacks()
    }

    /// Ordering scores for the moves of `moves` that `scores` does not cover yet, appended in
    /// the same order.
    fn score_moves(&self, moves: &MoveList, tt_key: u32, ply: usize, scores: &mut ScoreList) {
        let side = self.pos.side_to_move();
        let counter = self.counter_index(ply).map(|i| self.data.counters[i]);
        let history = self.data.history.rows(side, self.earlier_slots(ply));
        let side_may_pass = self.side_passes[side.index()];
        for &mv in &moves[scores.score.len()..] {
            if tt_key != 0 && move_key(mv) == tt_key {
                scores.push(SCORE_TT, false);
            } else if let Some(victim_id) = self.pos.captured_piece(mv) {
                let victim = self.value(victim_id);
                let attacker = self.pos.moved_piece(mv).map_or(0, |p| self.value(p));
                let promotion = mv.promotion().map_or(0, |p| self.value(p));
                // Taking a man worth at least the taker never loses material: no SEE needed.
                let learnt = self
                    .slot(mv)
                    .map_or(0, |s| self.data.history.capture_score(s, victim_id))
                    / 8;
                let score = SCORE_CAPTURE + victim * 16 - attacker / 16 + promotion + learnt;
                scores.push(score, victim < attacker);
            } else if let Some(p) = mv.promotion() {
                scores.push(SCORE_CAPTURE + self.value(p) - 200, true);
            } else if mv.kind == MoveKind::Pass && side_may_pass {
                scores.push(SCORE_PASS, false);
            } else {
                let score = if mv == self.data.killers[ply][0] {
                    SCORE_KILLER + 1
                } else if mv == self.data.killers[ply][1] {
                    SCORE_KILLER
                } else if counter == Some(mv) {
                    SCORE_KILLER - 1
                } else {
                    self.slot(mv).map_or(0, |s| history.score(s))
                };
                scores.push(score, false);
            }
        }
    }

    /// Moves the best-scored move among `i..` to `i` (selection sort, one step at a time: most
    /// nodes cut off after a move or two). An unchecked capture that comes out best is checked
    /// first; one that loses material drops to the losing captures' place and the choice is
    /// made again, which picks the same moves in the same order as scoring every exchange up
    /// front would.
    #[inline]
    fn pick(&self, moves: &mut MoveList, scores: &mut ScoreList, i: usize) {
        loop {
            // The first of the best scores: the maximum first (a loop the compiler vectorises),
            // then where it stands.
            let rest = &scores.score[i..moves.len()];
            let top = rest.iter().copied().fold(i32::MIN, i32::max);
            let best = i + rest.iter().position(|&s| s == top).unwrap_or(0);
            if scores.unchecked[best] {
                scores.unchecked[best] = false;
                if let Some(s) = self.see(moves[best]).filter(|&s| s < 0) {
                    scores.score[best] = SCORE_BAD_CAPTURE + s;
                    continue;
                }
            }
            moves.swap(i, best);
            scores.swap(i, best);
            return;
        }
    }

    /// The value of the side to move having lost its last royal man, in variants without check
    /// rules (where the royal may be captured); `None` otherwise.
    #[inline]
    fn royal_lost(&self, ply: usize) -> Option<Value> {
        let extinction = self.pos.variant().extinction_royals();
        (self.royal_mask
            && (!self.checking || extinction)
            && self.pos.royal_count(self.pos.side_to_move()) == 0)
            .then(|| -MATE + ply as Value)
    }

    /// The value of a position that the rules end by themselves (see
    /// [`Position::position_end`]), or that janggi's ban on moving back and forth ends in the
    /// side to move's favour, from the side to move's view, mates counted from the root.
    #[cold]
    fn position_end_value(&mut self, ply: usize) -> Option<Value> {
        let window = match self.last_null.last() {
            Some(&null_ply) => ply - null_ply,
            None => usize::MAX,
        };
        if self.pos.moved_back_and_forth(window) {
            return Some(game_value(GameValue::Win, ply));
        }
        let (value, _) = self.pos.position_end()?;
        Some(game_value(self.pos.counted_if_drawn(value), ply))
    }

    /// The value of a position that occurred `repeated` times before (looking `window` plies
    /// back), where the variant scores repetitions: decided when the rules' count is reached,
    /// or when the earlier occurrence lies inside the search (the line can be repeated until
    /// it is); `None` for a return to a position of the game only, which is searched on.
    #[cold]
    fn scored_repetition_value(
        &mut self,
        repeated: usize,
        window: usize,
        ply: usize,
    ) -> Option<Value> {
        let n_fold = self.pos.variant().n_fold_rule() as usize;
        if repeated + 1 >= n_fold || self.pos.repetitions(window.min(ply)) > 0 {
            Some(self.repetition_value(ply))
        } else {
            None
        }
    }

    /// The value of a repetition on the current line, where the variant scores it: its
    /// `nFoldValue` (perpetual check judged over the game when no null move lies in between).
    #[cold]
    fn repetition_value(&mut self, ply: usize) -> Value {
        let value = if self.last_null.is_empty() {
            self.pos.repetition_value()
        } else {
            self.pos.plain_repetition_value()
        };
        game_value(value, ply)
    }

    /// True when a pass (null move) is a fair test of the position at `ply`: the rules have
    /// check (without it, passing may be the best move), turns are single moves, the side to
    /// move has a man other than royals and pawns (zugzwang), and the last move was not a pass
    /// (a null move, or a real pass where the rules allow one: two in a row may end the game).
    fn may_pass(&self, ply: usize) -> bool {
        self.checking
            && self.pos.variant().turns().is_none()
            && (ply == 0 || {
                let last = self.path[ply - 1];
                last != NO_MOVE && last.kind != MoveKind::Pass
            })
            && self.has_pieces()
    }

    /// True when the side to move has a man that is neither royal nor a pawn: null-move pruning
    /// is unsafe without one (zugzwang).
    fn has_pieces(&self) -> bool {
        let v = self.pos.variant();
        let us = self.pos.side_to_move();
        self.pos.squares_of(us).iter().any(|&sq| {
            let id = self.pos.cell(sq).id();
            !v.is_royal(id) && !v.promotion().promotes(id, us)
        })
    }

    /// Searches the position just reached by a move of `mover`, with the window of the node
    /// that made it, and returns its value from that node's point of view: negated when the
    /// move handed the turn to the opponent, as it is when the same side moves again (a part
    /// of a turn made of several moves). `in_check` is the side to move's check, which the
    /// node that made the move has already worked out; `cut` says whether the child is expected
    /// to fail high (see [`Worker::negamax`]).
    fn child(
        &mut self,
        mover: Color,
        depth: i32,
        window: (Value, Value),
        ply: usize,
        in_check: bool,
        cut: bool,
    ) -> Value {
        let (alpha, beta) = window;
        if self.pos.side_to_move() == mover {
            self.negamax(depth, alpha, beta, ply, Some(in_check), cut)
        } else {
            -self.negamax(depth, -beta, -alpha, ply, Some(in_check), cut)
        }
    }

    /// Singular extension: the table move `mv` of a node at `depth`, when its table entry `e`
    /// is deep enough and a lower bound or exact, is tested against all the other moves,
    /// searched at half the depth against a bound a little below the entry's value. When none
    /// of them reaches it, the table move is singular (the position hangs on it) and is
    /// searched a ply deeper. When they do and the bound is at or above beta, several moves
    /// beat beta (multi-cut): the node fails high without the full search.
    #[allow(clippy::too_many_arguments)]
    fn singular_extension(
        &mut self,
        mv: Move,
        e: Entry,
        depth: i32,
        beta: Value,
        ply: usize,
        in_check: bool,
        cut_node: bool,
    ) -> Singular {
        let tt_value = value_from_tt(e.value, ply);
        if e.bound == Bound::Upper
            || e.depth < depth - 3
            || tt_value.abs() >= MATE_BOUND
            || ply as i32 >= 2 * self.root_depth
        {
            return Singular::No;
        }
        let singular_beta = tt_value - 2 * depth;
        self.excluded[ply] = mv;
        let v = self.negamax(
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            Some(in_check),
            cut_node,
        );
        self.excluded[ply] = NO_MOVE;
        if self.stopped {
            Singular::No
        } else if v < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else {
            Singular::No
        }
    }

    /// ProbCut: when a good capture, searched shallower (depth - 4) against a bound well above
    /// beta, still beats that bound, the full-depth search would almost surely fail high too.
    /// Only captures that SEE says win at least the gap between the static value and that
    /// bound are tried, each first by quiescence so that most are dismissed cheaply. Returns
    /// the value to cut with. Not for turns of several parts (the child's sign is not fixed).
    /// The static value is the node's, kept in `evals[ply]`.
    fn probcut(
        &mut self,
        moves: &MoveList,
        deferred: &DeferredLegality,
        depth: i32,
        beta: Value,
        ply: usize,
        cut_node: bool,
    ) -> Option<Value> {
        let static_eval = self.evals[ply];
        if beta.abs() >= MATE_BOUND
            || static_eval.abs() >= MATE_BOUND
            || self.pos.variant().turns().is_some()
        {
            return None;
        }
        let probe_beta = beta + PROBCUT_MARGIN;
        for &mv in moves.iter() {
            if !self.pos.is_capture(mv)
                || self.see_ge(mv, probe_beta - static_eval) != Some(true)
                || !self.legal(mv, deferred)
            {
                continue;
            }
            self.play(mv, ply);
            let window = (-probe_beta, -probe_beta + 1);
            let mut v = -self.qsearch(window.0, window.1, ply + 1, 0, None);
            if v >= probe_beta {
                v = -self.negamax(depth - 4, window.0, window.1, ply + 1, None, !cut_node);
            }
            self.pos.unmake_move();
            if self.stopped {
                return Some(0);
            }
            if v >= probe_beta {
                return Some(v);
            }
        }
        None
    }

    /// The table move with the key `tt_key`, when it is a legal move of a man on the board,
    /// found among that man's moves alone; `None` otherwise (it may still be a legal move of
    /// another kind, which the full list has).
    fn legal_table_move(&mut self, tt_key: u32, in_check: bool) -> Option<Move> {
        let mut moves = MoveList::new();
        self.pos.generate_moves_of(key_from(tt_key), &mut moves);
        // The first move with the key, as in the full list: a few kinds of move leave a
        // square out of the key, so two of one man's moves may share it.
        let mv = moves.iter().copied().find(|&m| move_key(m) == tt_key)?;
        (self.pos.is_pseudo_legal_move_legal(mv, in_check) && self.pos.passes_move_filters(mv))
            .then_some(mv)
    }

    /// Moves the move with the key `tt_key` to the front of `moves`; false when none has it.
    fn table_move_first(moves: &mut MoveList, tt_key: u32) -> bool {
        if tt_key == 0 {
            return false;
        }
        match moves.iter().position(|&m| move_key(m) == tt_key) {
            Some(t) => {
                moves.swap(0, t);
                true
            }
            None => false,
        }
    }

    /// Replaces `moves`, which holds the table move found by [`Worker::legal_table_move`]
    /// alone, with the full list, ordered as if it had been listed before: the table move
    /// first, in the place of the move it changed places with.
    fn list_behind_table_move(&mut self, moves: &mut MoveList, tt_key: u32) -> DeferredLegality {
        let table_move = moves[0];
        moves.clear();
        let deferred = self.pos.generate_legal_deferred(moves);
        let listed = Self::table_move_first(moves, tt_key);
        debug_assert!(
            listed && moves[0] == table_move,
            "{} {}: the table move {table_move:?} is not the first listed, {:?}",
            self.pos.variant().name(),
            self.pos.fen(),
            moves.first()
        );
        deferred
    }

    /// `in_check`: whether the side to move is in check, when the caller knows it.
    ///
    /// `cut_node`: a null-window node expected to fail high: the first move of its parent's
    /// late moves, searched to refute it. Its own late moves are then expected to be useless and
    /// are reduced more; the nodes below it alternate (a cut node's first child is expected to
    /// fail low, and that child's children to fail high).
    fn negamax(
        &mut self,
        mut depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        in_check: Option<bool>,
        cut_node: bool,
    ) -> Value {
        self.pv_len[ply] = 0;
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        if !root {
            if let Some(v) = self.royal_lost(ply) {
                return v;
            }
            if self.position_ends {
                if let Some(v) = self.position_end_value(ply) {
                    return v;
                }
            }
            let n_rule = self.pos.variant().n_move_rule();
            let since_null = ply - self.last_null.last().copied().unwrap_or(0);
            let window = if self.last_null.is_empty() {
                usize::MAX
            } else {
                since_null
            };
            let repeated = self.pos.repetitions(window);
            if repeated > 0 {
                if !self.scored_repetition {
                    return 0;
                }
                if let Some(v) = self.scored_repetition_value(repeated, window, ply) {
                    return v;
                }
            }
            if n_rule > 0
                && self.pos.halfmove_clock() as u32 >= n_rule
                && !self.pos.in_check()
                && self.pos.halfmove_clock() as usize
                    >= n_rule as usize + self.pos.move_rule_extension()
            {
                return 0;
            }
            // The counting rule's draw (makruk): unless mated.
            if self.pos.count_over() && (!self.pos.in_check() || !self.pos.legal_moves().is_empty())
            {
                return 0;
            }
            // Mate distance pruning: no line from here can beat a mate already found nearer
            // the root.
            alpha = alpha.max(-MATE + ply as Value);
            beta = beta.min(MATE - ply as Value - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate();
            }
        }
        let in_check = in_check.unwrap_or_else(|| self.pos.in_check());
        if in_check && root {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0, Some(in_check));
        }
        let key = self.pos.hash();
        // A singular-extension test of this node's table move searches the node again
        // without that move: the table entry, which speaks for the whole node, neither cuts
        // it off nor orders it, and what the test finds is not stored.
        let excluded = self.excluded[ply];
        let testing_singular = excluded != NO_MOVE;
        let entry = if testing_singular {
            None
        } else {
            self.shared.tt.probe(key)
        };
        let tt_key = entry.map_or(0, |e| e.move_key);
        if let Some(e) = entry {
            let v = value_from_tt(e.value, ply);
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                }
            {
                return v;
            }
        }
        let static_eval = if in_check {
            -INFINITE
        } else {
            let raw = self.evaluate();
            let keys = CorrectionKeys::of(&self.pos);
            self.raw_evals[ply] = raw;
            let side = self.pos.side_to_move();
            CorrectionHistory::apply(raw, self.data.correction.correction(side, &keys))
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        if !pv_node && !in_check && !testing_singular {
            // Reverse futility: far above beta at low depth, a quiet move will not lose it all.
            // (Confirming it first by a quiescence search after a pass, against threats that
            // the static value cannot see, cost more than it found: -24 Elo in 400 games.)
            if depth <= 7
                && static_eval - 80 * (depth - improving as i32) >= beta
                && static_eval.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Null move: give the opponent a free move; if that still fails high, so would a
            // real move.
            if depth >= 2 && static_eval >= beta && beta.abs() < MATE_BOUND && self.may_pass(ply) {
                let r = (854 + 68 * depth) / 258 + ((static_eval - beta) / 192).min(3);
                self.pos.make_move(NULL_MOVE);
                self.path[ply] = NO_MOVE;
                self.played[ply] = None;
                self.last_null.push(ply + 1);
                let v = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, None, !cut_node);
                self.last_null.pop();
                self.pos.unmake_move();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
                // Mate threat: passing loses to a mate, so the opponent has a threat that
                // the next moves must meet; they are searched a ply deeper (within twice the
                // iteration's depth, so that a chain of threats cannot run away).
                if v <= -MATE_BOUND && (ply as i32) < 2 * self.root_depth {
                    depth += 1;
                }
            }
            // Razoring: hopeless at low depth unless a capture saves it.
            if depth <= 2 && static_eval + 250 * depth < alpha {
                let v = self.qsearch(alpha, alpha + 1, ply, 0, Some(false));
                if v <= alpha {
                    return v;
                }
            }
        }
        if entry.is_none() && !testing_singular && (pv_node || cut_node) && depth >= 4 {
            // Without a table move the ordering is poor; a shallower search is cheaper and
            // fills the table for the next iteration. At an expected all node every move is
            // searched anyway, so the order matters less and the depth is kept.
            depth -= 1;
        }

        let probcut_node = !pv_node && !in_check && !testing_singular && depth >= 5;
        let mut moves = MoveList::new();
        let mut scores = ScoreList::default();
        // The table move is searched before the other moves are even listed, where nothing
        // comes before it (ProbCut tries the listed captures first; the root may leave moves
        // out): when it cuts the node off, as it mostly does, the list is never needed.
        let early = if tt_key != 0 && !root && !probcut_node {
            self.legal_table_move(tt_key, in_check)
        } else {
            None
        };
        let mut unlisted = early.is_some();
        let mut deferred = DeferredLegality::NONE;
        // The table move goes first without scoring the others: when it cuts the node off,
        // their scores are never needed either.
        let tt_first = if let Some(mv) = early {
            moves.push(mv);
            true
        } else {
            deferred = self.pos.generate_legal_deferred(&mut moves);
            if moves.is_empty() {
                return game_value(self.pos.no_move_value(in_check), ply);
            }
            if probcut_node {
                if let Some(v) = self.probcut(&moves, &deferred, depth, beta, ply, cut_node) {
                    return v;
                }
            }
            Self::table_move_first(&mut moves, tt_key)
        };
        if tt_first {
            scores.push(SCORE_TT, false);
        }

        let us = self.pos.side_to_move();
        let old_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = NO_MOVE;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut captures_tried: arrayvec::ArrayVec<Move, 32> = arrayvec::ArrayVec::new();
        let mut searched = 0usize;
        // With helper threads: moves put off because another thread is searching them at
        // this node (see `busy`), searched after the others.
        let share = self.shared.threads > 1 && !root && depth >= MIN_SHARE_DEPTH;
        let mut put_off: arrayvec::ArrayVec<(Move, i32), 64> = arrayvec::ArrayVec::new();
        let mut second_pass = false;
        for i in 0.. {
            if i == moves.len() && unlisted {
                // The table move, searched alone, did not cut the node off.
                unlisted = false;
                deferred = self.list_behind_table_move(&mut moves, tt_key);
            }
            if i == moves.len() && !put_off.is_empty() {
                second_pass = true;
                // In the order they came, with the scores they had.
                for &(mv, score) in &put_off {
                    moves.push(mv);
                    scores.push(score, false);
                }
                put_off.clear();
            }
            if i == moves.len() {
                break;
            }
            if i == scores.score.len() {
                // The table move, if listed, is already first: no other move has its key.
                self.score_moves(&moves, 0, ply, &mut scores);
            }
            if i > 0 || !tt_first {
                self.pick(&mut moves, &mut scores, i);
            }
            let mv = moves[i];
            if root && self.root_skip.contains(&mv) || mv == excluded {
                continue;
            }
            let capture = self.pos.is_capture(mv);
            let quiet = !capture && mv.promotion().is_none();
            let is_killer = mv == self.data.killers[ply][0] || mv == self.data.killers[ply][1];
            let history = if quiet {
                self.quiet_history(us, mv, ply)
            } else {
                0
            };
            let may_check = self.pos.may_give_check(mv);
            // Late move pruning: at low depth, the last quiet moves almost never matter.
            // Futility: even a good quiet move would not bring this node up to alpha. Neither
            // prunes a check; a move that cannot give check is dropped before it is made.
            // Futility and the exchange test of quiet moves look at the depth a late move
            // would be searched to after its reduction, not the node's (both read it only for
            // quiet moves). The same table value starts the reduction below.
            let table_reduction = LMR[(depth as usize).min(63)][searched.min(63)] as i32;
            let lmr_depth = (depth - 1 - table_reduction).max(0);
            let futile = !root && quiet && !in_check && best > -MATE_BOUND && {
                let lmp_limit = (3 + depth * depth) / (2 - improving as i32);
                depth <= 5 && searched as i32 >= lmp_limit
                    || lmr_depth <= 6 && static_eval + 100 + 90 * lmr_depth <= alpha
            };
            if futile && !may_check {
                continue;
            }
            // Low depth: a quiet move that loses the mover, or a capture that loses much more
            // than the margin, is not worth a search unless it gives check.
            // The exchange tests below spare the root, evasions, a node still looking for a
            // move that escapes mate, killers and the first move.
            let exchange_prunable =
                !root && !in_check && best > -MATE_BOUND && !is_killer && searched > 0;
            let losing = exchange_prunable
                && if quiet {
                    lmr_depth <= 5 && self.see_ge(mv, -60 * lmr_depth) == Some(false)
                } else {
                    // A losing capture's exchange was worked out when it was picked.
                    depth <= 6
                        && losing_exchange(scores.score[i])
                            .is_some_and(|s| s < -100 * depth * depth)
                };
            if losing && !may_check {
                continue;
            }
            // A move that may give check is spared the rules above, but not when it throws away
            // far more than the margin: in the drop games nearly every move can check, and a
            // man dropped or sent where it is simply taken is rarely worth the search.
            if may_check
                && exchange_prunable
                && depth <= 8
                && self.see_ge(mv, -200 * depth) == Some(false)
            {
                continue;
            }
            // Put off before the legality test, which the second pass makes anyway.
            let busy_mark = share.then(|| busy::mark(key, move_key(mv)));
            if busy_mark
                .is_some_and(|m| searched > 0 && !second_pass && self.shared.busy.is_busy(m))
                && put_off.try_push((mv, scores.score[i])).is_ok()
            {
                continue;
            }
            if !self.legal(mv, &deferred) {
                continue;
            }
            let mut singular = false;
            // The table move, first only when the table had an entry for the node.
            let tested = i == 0 && tt_first && !root && !testing_singular;
            if let Some(e) = entry.filter(|_| tested && depth >= SINGULAR_MIN_DEPTH) {
                match self.singular_extension(mv, e, depth, beta, ply, in_check, cut_node) {
                    Singular::Extend => singular = true,
                    Singular::Cut(v) => return v,
                    Singular::No => {}
                }
                if self.stopped {
                    return 0;
                }
            }
            self.play(mv, ply);
            let gives_check = may_check && self.pos.in_check();
            // Check extension, for checks that do not simply lose the checking man. A capture
            // or promotion ranked by its ordering score had its exchange judged when it was
            // picked; only quiet checks and the table move need the test.
            let extend = gives_check
                && if !quiet && scores.score[i] != SCORE_TT {
                    !is_bad_capture(scores.score[i])
                } else {
                    self.pos.unmake_move();
                    let safe = self.see_ge(mv, 0) != Some(false);
                    self.pos.make_move(mv);
                    safe
                };
            if (futile || losing) && !gives_check {
                self.pos.unmake_move();
                continue;
            }
            // Marked only once it is sure to be searched, so that every mark is taken back.
            if let Some(m) = busy_mark {
                self.shared.busy.enter(m);
            }
            let new_depth = depth - 1 + (extend || singular) as i32;
            let nodes_before = self.nodes;
            let mut v;
            if searched == 0 {
                // The first move: at a cut node it should refute (its child fails low); at an
                // expected all node it is the one searched to see that nothing works.
                let cut = !pv_node && !cut_node;
                v = self.child(us, new_depth, (alpha, beta), ply + 1, gives_check, cut);
            } else {
                let mut r = 0;
                // A quiet check is reduced a ply less than other quiet moves.
                if depth >= 3 && quiet && !root {
                    r = table_reduction;
                    r -= gives_check as i32;
                    r -= pv_node as i32;
                    r -= is_killer as i32;
                    r += !improving as i32;
                    r -= history / 8000;
                    // Where the node was expected to fail high, a late move that has not done
                    // it yet is unlikely to.
                    r += 2 * cut_node as i32;
                    r = r.clamp(0, new_depth - 1);
                }
                let window = (alpha, alpha + 1);
                v = self.child(us, new_depth - r, window, ply + 1, gives_check, true);
                if v > alpha && r > 0 {
                    v = self.child(us, new_depth, window, ply + 1, gives_check, !cut_node);
                }
                if v > alpha && v < beta {
                    // Better than the best move so far by a null-window test: if time runs
                    // out during the full search that follows, it is still the better choice.
                    // Not so when the test itself was cut short: its value (0) means nothing.
                    if root && !self.stopped {
                        self.root_fail_high = Some(mv);
                    }
                    v = self.child(us, new_depth, (alpha, beta), ply + 1, gives_check, false);
                    if root && !self.stopped {
                        self.root_fail_high = None;
                    }
                }
            }
            self.pos.unmake_move();
            if root {
                self.count_root_nodes(mv, self.nodes - nodes_before);
            }
            if let Some(m) = busy_mark {
                self.shared.busy.leave(m);
            }
            if self.stopped {
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_move = mv;
                    alpha = v;
                    if root {
                        self.root_best = v;
                    }
                    self.pv[ply][0] = mv;
                    let n = self.pv_len[ply + 1].min(MAX_PLY - 1);
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply][1..=n].copy_from_slice(&tail[0][..n]);
                    self.pv_len[ply] = n + 1;
                    if v >= beta {
                        // A pass is no killer: it would be tried early in sister nodes.
                        let side_pass = mv.kind == MoveKind::Pass && self.side_passes[us.index()];
                        let bonus = history_bonus(depth);
                        // The captures tried before the move that refuted the node did not.
                        for &c in &captures_tried {
                            self.update_capture_history(c, -bonus);
                        }
                        if capture {
                            self.update_capture_history(mv, bonus);
                        }
                        if quiet && !side_pass {
                            if self.data.killers[ply][0] != mv {
                                self.data.killers[ply][1] = self.data.killers[ply][0];
                                self.data.killers[ply][0] = mv;
                            }
                            if let Some(c) = self.counter_index(ply) {
                                self.data.counters[c] = mv;
                            }
                            self.update_history(us, mv, ply, bonus);
                            for &q in &quiets_tried {
                                self.update_history(us, q, ply, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets_tried.try_push(mv);
            } else if capture {
                let _ = captures_tried.try_push(mv);
            }
        }
        if searched == 0 {
            // Every move was pruned: the node is as bad as its static value says.
            return alpha;
        }
        // A root searched without some of its moves has no true value to keep, nor has a
        // node searched without its table move.
        if (!root || self.root_skip.is_empty()) && !testing_singular {
            let bound = Self::bound(best, old_alpha, beta);
            self.store(key, best_move, best, depth, bound, ply);
            self.update_correction(best, best_move, bound, depth, ply, in_check);
        }
        best
    }

    /// Teaches the correction history what the node's search found, when the value it settled
    /// on says something about the static value: not in check, not a mate, decided by a quiet
    /// move (or by none), and a bound on the right side of the static value.
    fn update_correction(
        &mut self,
        best: Value,
        best_move: Move,
        bound: Bound,
        depth: i32,
        ply: usize,
        in_check: bool,
    ) {
        let corrected = self.evals[ply];
        let raw = self.raw_evals[ply];
        if in_check
            || best.abs() >= MATE_BOUND
            || raw.abs() >= MATE_BOUND
            || best_move != NO_MOVE
                && (self.pos.is_capture(best_move) || best_move.promotion().is_some())
            || bound == Bound::Lower && best <= corrected
            || bound == Bound::Upper && best >= corrected
        {
            return;
        }
        let side = self.pos.side_to_move();
        // The node's position again: the keys it was evaluated with.
        let keys = CorrectionKeys::of(&self.pos);
        self.data.correction.update(side, &keys, best - raw, depth);
    }

    /// Quiescence: captures and promotions (every legal evasion when in check; quiet checks
    /// too at its first ply, so that a mate threat behind a null move or a pruned quiet move
    /// is seen), with a stand-pat cutoff, delta pruning and a cheap guard against obviously
    /// losing captures.
    fn qsearch(
        &mut self,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        qply: usize,
        in_check: Option<bool>,
    ) -> Value {
        self.pv_len[ply] = 0;
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.royal_lost(ply) {
            return v;
        }
        if self.position_ends {
            if let Some(v) = self.position_end_value(ply) {
                return v;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let key = self.pos.hash();
        let entry = self.shared.tt.probe(key);
        if let Some(e) = entry {
            let v = value_from_tt(e.value, ply);
            if match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            } {
                return v;
            }
        }
        let tt_key = entry.map_or(0, |e| e.move_key);
        let old_alpha = alpha;
        let in_check = in_check.unwrap_or_else(|| self.pos.in_check());
        let us = self.pos.side_to_move();
        let mut moves = MoveList::new();
        let mut best;
        let stand_pat;
        if in_check {
            self.pos.generate_legal(&mut moves);
            if moves.is_empty() {
                return game_value(self.pos.checkmate_value(), ply);
            }
            best = -INFINITE;
            stand_pat = -INFINITE;
        } else {
            // The lazy evaluation's window moves by the correction, which is added after.
            let keys = CorrectionKeys::of(&self.pos);
            let correction = self.data.correction.correction(us, &keys);
            let raw = self.evaluate_lazy(alpha - correction, beta - correction);
            stand_pat = CorrectionHistory::apply(raw, correction);
            if stand_pat >= beta {
                if entry.is_none() {
                    self.shared
                        .tt
                        .store(key, 0, value_to_tt(stand_pat, ply), 0, Bound::Lower);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            let mut all = MoveList::new();
            let checks = qply == 0 && self.checking;
            if checks {
                self.pos.generate_pseudo_legal(&mut all);
            } else {
                self.pos.generate_tactical(&mut all);
            }
            for &mv in all.iter() {
                if mv.promotion().is_some()
                    || self.pos.is_capture(mv)
                    || checks && self.pos.may_give_check(mv)
                {
                    moves.push(mv);
                }
            }
        }
        let mut scores = ScoreList::default();
        self.score_moves(&moves, tt_key, ply, &mut scores);
        let them = us.opposite();
        let mut best_move = NO_MOVE;
        let gating_checked = self
            .pos
            .variant()
            .gating()
            .as_ref()
            .is_some_and(|g| !g.blocks_check);
        // Quiet evasions searched so far: once an evasion has been found not to be mated, no
        // quiet evasion past the second is searched, nor one that SEE says loses the mover (in
        // the drop games a check can be met by a drop on any square between, most of them
        // lost at once).
        let mut quiet_evasions = 0;
        for i in 0..moves.len() {
            self.pick(&mut moves, &mut scores, i);
            let mv = moves[i];
            let tactical = mv.promotion().is_some() || self.pos.is_capture(mv);
            if in_check
                && !tactical
                && best > -MATE_BOUND
                && (quiet_evasions >= 2 || self.see_ge(mv, 0) == Some(false))
            {
                continue;
            }
            // A capture that cannot raise the score to alpha, or that puts a valuable man
            // where it can be taken back, is searched only when it gives check (a checking
            // capture may be a mate).
            let mut doubtful = false;
            if !in_check && tactical {
                let victim = self.pos.captured_piece(mv).map_or(0, |p| self.value(p));
                let promo = mv.promotion().map_or(0, |p| self.value(p));
                if promo == 0 && stand_pat + victim + 200 <= alpha
                    || is_bad_capture(scores.score[i])
                {
                    doubtful = true;
                } else if self.see_values_unusable() {
                    let attacker = self.pos.moved_piece(mv).map_or(0, |p| self.value(p));
                    doubtful =
                        promo == 0 && attacker > victim + 50 && self.pos.is_attacked(mv.to, them);
                }
                if gating_checked && mv.gated().is_some() && !self.pos.is_legal_by_making(mv) {
                    continue;
                }
            }
            if !in_check && !tactical && mv.gated().is_some() {
                continue;
            }
            // Quiet moves and doubtful captures are searched only if they give check.
            let needs_check = !in_check && (!tactical || doubtful);
            // Out of check, a quiet move is on the list only because it may give check.
            let may_check =
                self.checking && (!in_check && !tactical || self.pos.may_give_check(mv));
            if needs_check && !may_check {
                continue;
            }
            // A quiet check that SEE says loses the checking man is not worth the search (a
            // checking drop on a square the enemy holds, most often).
            if needs_check && !tactical && self.see_ge(mv, 0) == Some(false) {
                continue;
            }
            let surely_legal = in_check || self.pos.leaves_royal_safe_unmade(mv);
            self.play(mv, ply);
            // A move that hands over the turn and cannot give check spares the reply its own
            // check test.
            let handed_over = self.pos.side_to_move() != us;
            let mut gives_check = (handed_over && self.checking && !may_check).then_some(false);
            if !in_check {
                if !surely_legal && self.pos.move_left_royal_in_danger(us) {
                    self.pos.unmake_move();
                    continue;
                }
                if needs_check {
                    if !self.pos.in_check() {
                        self.pos.unmake_move();
                        continue;
                    }
                    gives_check = Some(true);
                }
            }
            if in_check && !tactical {
                quiet_evasions += 1;
            }
            let v = if self.pos.side_to_move() == us {
                // A part of a turn that leaves the same side to move.
                self.qsearch(alpha, beta, ply + 1, qply + 1, gives_check)
            } else {
                -self.qsearch(-beta, -alpha, ply + 1, qply + 1, gives_check)
            };
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = mv;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if best > -INFINITE {
            self.store(
                key,
                best_move,
                best,
                0,
                Self::bound(best, old_alpha, beta),
                ply,
            );
        }
        best
    }
}
