//! The net behind the search's `Evaluator` trait: each search thread keeps its accumulators
//! in its evaluator working memory (the search's per-thread data), the reserve features
//! (which live in the game state rather than the journal) are added at evaluation time, the
//! hand-made evaluation still gives the piece values the search orders and prunes with, and
//! the output is scaled to that evaluation's centipawns (`calibrate`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use chimera_engine::search::{EvalCache, Evaluator, Value};
use chimera_engine::types::{Color, PieceId};
use chimera_engine::{Position, VariantRef};
use chimera_eval::VariantEval;

use crate::accumulator::Accumulators;
use crate::calibrate;
use crate::features::Layout;
use crate::netfile::QuantNet;
use crate::simd::apply_column;

/// Evaluations are kept this far inside the mate scores.
const EVAL_LIMIT: Value = 20_000;

/// Tells evaluators apart, so that a thread's working memory made for one net is never read
/// for another.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A loaded net for one variant.
pub struct NetEval {
    net: Arc<QuantNet>,
    layout: Layout,
    fallback: VariantEval,
    /// The net's output times this (in `1 / calibrate::ONE`) is the evaluation: the net on
    /// the hand-made evaluation's scale (see `calibrate`).
    factor: i32,
    id: u64,
}

impl std::fmt::Debug for NetEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetEval")
            .field("variant", &self.net.variant)
            .field("hidden", &self.net.hidden)
            .finish_non_exhaustive()
    }
}

/// A thread's working memory: the accumulators, for the evaluator `owner`.
struct Scratch {
    owner: u64,
    acc: Accumulators,
    /// The reserve features' scratch (Pioneer).
    extra: Vec<u32>,
    sums: Vec<i16>,
}

impl NetEval {
    /// The evaluator of `net` for `variant`, or an error when the net was made for another.
    pub fn new(net: Arc<QuantNet>, variant: &VariantRef) -> Result<NetEval, String> {
        let mut eval = NetEval::new_unscaled(net, variant)?;
        eval.factor = calibrate::factor(variant, &eval, &eval.fallback);
        Ok(eval)
    }

    /// The evaluator of `net` for `variant` on the net's own scale, without the factor
    /// `new` fits: for tests of the net's machinery, whose trees must not depend on the fit.
    pub fn new_unscaled(net: Arc<QuantNet>, variant: &VariantRef) -> Result<NetEval, String> {
        let layout = net.layout_for(variant.name(), &Layout::of(variant))?;
        Ok(NetEval {
            net,
            layout,
            fallback: VariantEval::new(variant),
            factor: calibrate::ONE,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// The factor on the net's output (in `1 / calibrate::ONE`) that puts it on the hand-made
    /// evaluation's scale.
    pub fn factor(&self) -> i32 {
        self.factor
    }

    /// Loads the net file at `path` for `variant`.
    pub fn load(path: &str, variant: &VariantRef) -> Result<NetEval, String> {
        let net = QuantNet::load(path)?;
        NetEval::new(Arc::new(net), variant).map_err(|e| format!("{path}: {e}"))
    }

    /// The net.
    pub fn net(&self) -> &Arc<QuantNet> {
        &self.net
    }

    fn scratch(&self) -> Scratch {
        Scratch {
            owner: self.id,
            acc: Accumulators::new(self.net.hidden),
            extra: Vec::new(),
            sums: vec![0; 2 * self.net.hidden],
        }
    }

    /// The evaluation of `pos` with the accumulators of `s`.
    fn value(&self, pos: &Position, s: &mut Scratch) -> Value {
        let h = self.net.hidden;
        let mut acc = s.acc.update(&self.net, &self.layout, pos);
        s.extra.clear();
        self.layout
            .reserve_features(pos, Color::White, &mut s.extra);
        if !s.extra.is_empty() {
            s.sums.copy_from_slice(acc);
            let (w, b) = s.sums.split_at_mut(h);
            for &f in &s.extra {
                apply_column::<true>(w, self.net.column(f as usize));
            }
            s.extra.clear();
            self.layout
                .reserve_features(pos, Color::Black, &mut s.extra);
            for &f in &s.extra {
                apply_column::<true>(b, self.net.column(f as usize));
            }
            acc = &s.sums;
        }
        let (white, black) = acc.split_at(h);
        let (us, them) = match pos.side_to_move() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let raw = self.net.output(us, them, self.layout.bucket(pos));
        calibrate::apply(raw, self.factor).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

impl Evaluator for NetEval {
    fn new_cache(&self) -> EvalCache {
        Box::new(self.scratch())
    }

    fn evaluate_with(&self, pos: &Position, cache: &mut EvalCache) -> Value {
        if !matches!(cache.downcast_ref::<Scratch>(), Some(s) if s.owner == self.id) {
            *cache = self.new_cache();
        }
        let s = cache.downcast_mut::<Scratch>().expect("the net's scratch");
        self.value(pos, s)
    }

    fn piece_value(&self, id: PieceId) -> Value {
        self.fallback.piece_value(id)
    }
}

/// The accumulators of one thread, for tests: evaluations through `eval` with the working
/// memory `cache`, and how they were found.
pub fn stats_of(cache: &EvalCache) -> Option<crate::accumulator::Stats> {
    cache.downcast_ref::<Scratch>().map(|s| s.acc.stats)
}
