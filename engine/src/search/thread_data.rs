//! What one search thread learns and keeps between searches: its histories, killers,
//! counter-moves, evaluation cache and the evaluator's own working memory. The [`Searcher`]
//! owns one per thread, so that a `go` does not rebuild (and relearn) them.
//!
//! [`Searcher`]: super::Searcher

use std::sync::Arc;

use super::correction::CorrectionHistory;
use super::history::History;
use super::{EvalCache, Evaluator, Value, MAX_PLY};
use crate::types::{Move, MoveKind, Square};
use crate::variant::VariantRef;

/// A placeholder for "no move": an empty killer or counter-move slot here, and in the
/// worker's PV table and paths. Its kind is `Normal`, not `Pass`: a real pass is a move
/// like any other (janggi's, a Berserker's), and it must never compare equal to "none" (as
/// the singular test's excluded move, it would skip every pass).
pub(crate) const NO_MOVE: Move = Move {
    from: Square::NONE,
    to: Square::NONE,
    aux: Square::NONE,
    kind: MoveKind::Normal,
    piece: Move::NO_PIECE,
};

/// Entries in each thread's evaluation cache (a power of two).
pub(crate) const EVAL_CACHE_SIZE: usize = 1 << 16;

/// One search thread's lasting data, sized for one variant.
pub(crate) struct ThreadData {
    /// The variant the tables are sized for (another one, even of the same name, gets new
    /// tables: its pieces and board may differ).
    variant: VariantRef,
    /// Per ply, the two quiet moves that last cut off there.
    pub killers: Vec<[Move; 2]>,
    pub history: History,
    /// Per (piece type, cell) of the opponent's last move: the quiet reply that last refuted
    /// it.
    pub counters: Vec<Move>,
    /// What the searches found the static evaluation to miss, by pawn formation and men.
    pub correction: CorrectionHistory,
    /// Full static evaluations by position key (a small direct-mapped cache: the same
    /// positions come back through transpositions, re-searches and quiescence).
    pub eval_cache: Vec<(u64, Value)>,
    /// The evaluator's working memory for this thread (see [`Evaluator::new_cache`]).
    pub eval_scratch: EvalCache,
    /// Set by [`ThreadData::clear`]: the tables are wiped when the next search starts, and
    /// only if it keeps them (a search of another variant builds new ones instead, so that a
    /// clear before each search, as the bench makes, costs nothing more).
    stale: bool,
}

impl std::fmt::Debug for ThreadData {
    // The tables are too large to show; what they are for is enough.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThreadData")
            .field("variant", &self.variant.name())
            .finish_non_exhaustive()
    }
}

impl ThreadData {
    /// Fresh data for a thread searching `variant` with `eval`.
    pub fn new(variant: &VariantRef, eval: &dyn Evaluator) -> ThreadData {
        Self::with_scratch(variant, eval.new_cache())
    }

    /// Fresh tables for `variant`, with the evaluator's working memory `eval_scratch`.
    fn with_scratch(variant: &VariantRef, eval_scratch: EvalCache) -> ThreadData {
        let cells = variant.geometry().num_cells();
        let pieces = variant.num_pieces().max(1);
        ThreadData {
            killers: vec![[NO_MOVE; 2]; MAX_PLY + 1],
            history: History::new(pieces, cells, |cell| {
                variant.geometry().contains(Square(cell as u16))
            }),
            counters: vec![NO_MOVE; pieces * cells],
            correction: CorrectionHistory::new(),
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            eval_scratch,
            variant: variant.clone(),
            stale: false,
        }
    }

    /// Makes the data ready for a search of `variant`: new tables when they were sized for
    /// another variant (the evaluator's working memory, keyed by position, is kept), wiped
    /// ones after a [`ThreadData::clear`].
    pub fn prepare(&mut self, variant: &VariantRef) {
        if !Arc::ptr_eq(&self.variant, variant) {
            let scratch = std::mem::replace(&mut self.eval_scratch, Box::new(()));
            *self = Self::with_scratch(variant, scratch);
        } else if self.stale {
            self.killers.fill([NO_MOVE; 2]);
            self.history.clear();
            self.counters.fill(NO_MOVE);
            self.correction.clear();
            self.eval_cache.fill((0, 0));
            self.stale = false;
        }
    }

    /// Forgets what was learnt, as if new: a search after this plays as one with fresh data.
    /// The evaluator's working memory is kept: it holds only values computed from positions
    /// (by their keys), which do not change what a search finds.
    pub fn clear(&mut self) {
        self.stale = true;
    }
}
