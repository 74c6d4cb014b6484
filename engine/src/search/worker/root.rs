//! The root of one thread's search, where the protocol's choices act: the root-move filter
//! (UCI `searchmoves`, XBoard `exclude`) and MultiPV. Several lines are found by searching
//! the root again without the first moves of the lines found so far, each with a full
//! window, and are reported best first, one report call per line.

use super::{IterResult, Worker};
use crate::search::{SearchReport, Value, INFINITE};
use crate::types::Move;

/// One line of a multi-line iteration: its score and principal variation.
type Line = (Value, Vec<Move>);

impl Worker<'_> {
    /// Leaves out the root moves that `Limits::root_moves` does not name, and returns how
    /// many lines this thread searches: the MultiPV count on the main thread, at most one per
    /// root move searched; helpers search one line and fill the table. A filter that names no
    /// legal move is ignored, so that there is always a move to play.
    pub(super) fn prepare_root(&mut self) -> usize {
        let limits = self.shared.limits;
        self.root_skip.clear();
        let legal = self.pos.legal_moves();
        if !limits.root_moves.is_empty() {
            let skipped: Vec<Move> = legal
                .iter()
                .filter(|m| !limits.root_moves.contains(m))
                .copied()
                .collect();
            if skipped.len() < legal.len() {
                self.root_skip = skipped;
            }
        }
        if self.id != 0 {
            return 1;
        }
        let searchable = legal.len() - self.root_skip.len();
        (limits.multipv.max(1) as usize).min(searchable.max(1))
    }

    /// The result of an iteration to `depth` whose best line is `line`.
    fn line_result(&self, (score, pv): Line, depth: u32) -> IterResult {
        IterResult {
            pv,
            score,
            depth,
            seldepth: self.seldepth as u32,
        }
    }

    /// Iterative deepening that finds `lines` best lines at every depth. The result is the
    /// best line of the last completed iteration (or of the first line of an interrupted one,
    /// when that line was completed).
    pub(super) fn iterate_lines(
        &mut self,
        max_depth: u32,
        lines: usize,
        report: &mut dyn SearchReport,
    ) -> IterResult {
        let limits = self.shared.limits;
        let filtered = self.root_skip.clone();
        let mut result = IterResult {
            pv: Vec::new(),
            score: 0,
            depth: 0,
            seldepth: 0,
        };
        for depth in 1..=max_depth {
            self.root_depth = depth as i32;
            self.root_skip.clone_from(&filtered);
            self.seldepth = 0;
            let mut found: Vec<Line> = Vec::with_capacity(lines);
            for _ in 0..lines {
                let score = self.negamax(depth as i32, -INFINITE, INFINITE, 0, None, false);
                if self.stopped || self.pv_len[0] == 0 {
                    break;
                }
                let pv = self.pv[0][..self.pv_len[0]].to_vec();
                self.root_skip.push(pv[0]);
                found.push((score, pv));
            }
            if self.stopped {
                if let Some(line) = found.into_iter().next() {
                    result = self.line_result(line, depth);
                }
                break;
            }
            if found.is_empty() {
                break;
            }
            // Each line was searched without the better lines' moves, so the scores fall,
            // but a later line's deeper look may still beat an earlier one: sort them.
            found.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            self.publish();
            let elapsed = self.shared.start.elapsed();
            for (k, (score, pv)) in found.iter().enumerate() {
                report.iteration(&self.shared.iteration_info(
                    elapsed,
                    depth,
                    self.seldepth as u32,
                    self.score(*score),
                    pv.clone(),
                    k as u32 + 1,
                ));
            }
            result = self.line_result(found.swap_remove(0), depth);
            if !limits.infinite && self.shared.budget.soft.is_some_and(|soft| elapsed >= soft) {
                break;
            }
            if self.mate_found(result.score, limits.mate) {
                break;
            }
            if self.shared.stopped() {
                break;
            }
        }
        self.root_skip = filtered;
        self.publish();
        result
    }
}
