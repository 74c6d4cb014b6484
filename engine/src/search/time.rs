//! Time management: turns the limits of one search into deadlines, and adapts them to how the
//! search goes. From the clock come an optimum time (what an average move should cost) and a
//! maximum (the hard stop, a safety net that always leaves the protocol's margin on the
//! clock). After each completed iteration a [`TimeScale`] scales the optimum: a best move
//! that keeps changing, a falling score or a best move that takes few of the nodes mean the
//! position is unclear and is worth more time; a settled one is worth less. No new iteration
//! starts once the scaled optimum, less the share the next iteration would need, has passed.
//! Fixed move times, depths, node counts and infinite searches are not adapted.

use std::time::Duration;

use super::{Limits, Value, MATE_BOUND};
use crate::types::{Color, Move};

/// The default margin, in milliseconds, kept for the time it takes a move to reach the GUI.
pub const DEFAULT_OVERHEAD_MS: u64 = 50;

/// Moves a sudden-death game is planned over: not the moves left in the game (unknown) but a
/// horizon that spends the clock early enough to matter while the share shrinks with it.
const SUDDEN_DEATH_HORIZON: u64 = 32;

/// The fraction of the (scaled) optimum after which no new iteration starts: the next
/// iteration usually takes about as long as everything before it, so starting one late would
/// overshoot the optimum or be cut by the hard stop. With iterations doubling, a move then
/// costs about 0.6 x 1.44 = 0.87 of the optimum on average.
const START_FRACTION: f64 = 0.6;

/// The maximum time of one move, in optimum times: room for an iteration that explodes or for
/// a scaled-up optimum.
const MAX_RATIO: u32 = 4;

/// The bounds of the scale: never less than this share of the optimum, nor more than this
/// many optima (and never beyond the maximum, whatever the scale).
const MIN_SCALE: f64 = 0.4;
const MAX_SCALE: f64 = 2.5;

/// Below this depth iterations take microseconds and their best moves and scores are noise:
/// the scale stays at 1.
const SCALE_FROM_DEPTH: u32 = 5;

/// The deadlines of one search; `None` means no time limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this (the unscaled limit; a search on the clock
    /// scales it, see [`TimeBudget::iteration_limit`]).
    pub soft: Option<Duration>,
    /// Stop searching at this.
    pub hard: Option<Duration>,
    /// What an average move should cost, when the budget comes from a clock; only then does
    /// the search adapt its time.
    pub optimum: Option<Duration>,
}

impl TimeBudget {
    /// The deadlines for `side` to move under `limits`, keeping `overhead_ms` in reserve.
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64) -> TimeBudget {
        let ms = Duration::from_millis;
        let unlimited = TimeBudget {
            soft: None,
            hard: None,
            optimum: None,
        };
        if limits.infinite {
            return unlimited;
        }
        if let Some(t) = limits.movetime {
            let t = t.saturating_sub(overhead_ms).max(1);
            return TimeBudget {
                soft: Some(ms(t)),
                hard: Some(ms(t)),
                optimum: None,
            };
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return unlimited;
        };
        let (optimum, maximum) = clock_times(time, inc.unwrap_or(0), limits.movestogo, overhead_ms);
        let soft = ((optimum as f64 * START_FRACTION) as u64).clamp(1, maximum);
        TimeBudget {
            soft: Some(ms(soft)),
            hard: Some(ms(maximum)),
            optimum: Some(ms(optimum)),
        }
    }

    /// The time after which no new iteration starts, given what the iterations so far said
    /// about the position: the soft limit scaled, but never beyond the hard one. Budgets not
    /// from a clock keep their soft limit.
    pub fn iteration_limit(&self, scale: &TimeScale) -> Option<Duration> {
        let (Some(optimum), Some(hard)) = (self.optimum, self.hard) else {
            return self.soft;
        };
        let t = optimum.mul_f64(scale.factor() * START_FRACTION);
        Some(t.min(hard).max(Duration::from_millis(1)))
    }
}

/// The optimum and the maximum time of a move, in milliseconds, with `time` on the clock,
/// `inc` per move and `movestogo` moves to the next control (sudden death when `None`).
/// Both are at least 1 and the maximum keeps `overhead` on the clock.
fn clock_times(time: u64, inc: u64, movestogo: Option<u32>, overhead: u64) -> (u64, u64) {
    let usable = time.saturating_sub(overhead).max(1);
    let mtg = movestogo.map_or(SUDDEN_DEATH_HORIZON, |m| (m as u64).clamp(1, 50));
    // The clock plus the increments of the moves planned over, shared evenly. An increment
    // is only counted once it arrives, so the pool is what this move and the next `mtg - 1`
    // can have.
    let pool = usable + inc * (mtg - 1);
    let share = pool / mtg;
    // The last move before a time control may use most of what is left: a quarter stays,
    // since the overhead alone did not cover a loaded machine's latency (games at 10 moves in
    // 2 s came within 9 ms of the flag). Otherwise one move never takes more than a quarter of
    // the clock, whatever the increment promises, so that the clock never falls to zero (an
    // increment arrives only after the move).
    let cap = if mtg == 1 { usable * 3 / 4 } else { usable / 4 };
    let maximum = (share * MAX_RATIO as u64).min(cap).max(1);
    let optimum = share.min(maximum).max(1);
    (optimum, maximum)
}

/// What the completed iterations of one search say about how much time it deserves: a
/// factor on the optimum, from the best move's stability, the score's trend and the share of
/// the nodes the best move took. Pure bookkeeping, updated by the main thread only.
#[derive(Clone, Debug)]
pub struct TimeScale {
    /// The best move of the last iteration.
    best: Option<Move>,
    /// Iterations in a row that kept the best move.
    stable: u32,
    /// Best-move changes, each halved every iteration, so that recent changes weigh most.
    changes: f64,
    /// The scores of the last few iterations, oldest first.
    scores: Vec<Value>,
    factor: f64,
}

impl Default for TimeScale {
    fn default() -> Self {
        TimeScale::new()
    }
}

/// Iterations whose scores make the reference a new score is compared with.
const SCORE_HISTORY: usize = 3;

impl TimeScale {
    /// The scale before any iteration: 1.
    pub fn new() -> TimeScale {
        TimeScale {
            best: None,
            stable: 0,
            changes: 0.0,
            scores: Vec::with_capacity(SCORE_HISTORY + 1),
            factor: 1.0,
        }
    }

    /// The current factor on the optimum time.
    pub fn factor(&self) -> f64 {
        self.factor
    }

    /// Takes in a completed iteration to `depth` with best move `best` and score `score`
    /// (from the side to move's view), and `best_nodes`, the share of that iteration's root
    /// nodes spent on the best move when known; returns the new factor.
    pub fn update(&mut self, depth: u32, best: Move, score: Value, best_nodes: Option<f64>) -> f64 {
        let changed = self.best.is_some_and(|b| b != best);
        self.best = Some(best);
        self.stable = if changed { 0 } else { self.stable + 1 };
        self.changes = self.changes / 2.0 + changed as u32 as f64;
        let reference = (!self.scores.is_empty())
            .then(|| self.scores.iter().sum::<Value>() / self.scores.len() as Value);
        if self.scores.len() == SCORE_HISTORY {
            self.scores.remove(0);
        }
        self.scores.push(score);
        if depth < SCALE_FROM_DEPTH {
            return self.factor;
        }
        // A move kept for many iterations will most likely stay: up to a fifth less time. A
        // move that just changed, or changes often, may change again: up to twice as much.
        let stability = 1.25 - 0.075 * self.stable.min(6) as f64;
        let instability = 1.0 + 0.5 * self.changes;
        // A score falling below the last iterations' is a threat being found: look further.
        // A rising one is a gain that will not go away: save time. Mates are left out (their
        // scores jump by design), and so is a position without a reference yet.
        let trend = match reference {
            Some(r) if score.abs() < MATE_BOUND && r.abs() < MATE_BOUND => {
                (1.0 + (r - score) as f64 / 100.0).clamp(0.8, 1.5)
            }
            _ => 1.0,
        };
        // A best move that takes most of the nodes is far ahead of the others (they were
        // refuted quickly); one that takes few has rivals.
        let effort = best_nodes.map_or(1.0, |f| (1.5 - f).clamp(0.6, 1.4));
        self.factor = (stability * instability * trend * effort).clamp(MIN_SCALE, MAX_SCALE);
        self.factor
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveKind, Square};

    fn mv(n: u16) -> Move {
        Move {
            from: Square(n),
            to: Square(n + 1),
            aux: Square::NONE,
            kind: MoveKind::Normal,
            piece: Move::NO_PIECE,
        }
    }

    fn clock(time: u64, inc: u64, mtg: Option<u32>) -> TimeBudget {
        let l = Limits {
            wtime: Some(time),
            winc: Some(inc),
            btime: Some(1),
            movestogo: mtg,
            ..Limits::default()
        };
        TimeBudget::new(&l, Color::White, 30)
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for (time, inc, mtg) in [
            (10, 0, None),
            (1000, 100, None),
            (60_000, 0, Some(1)),
            (0, 0, None),
            (200, 5000, None),
            (100_000, 0, Some(3)),
        ] {
            let b = clock(time, inc, mtg);
            let hard = b.hard.unwrap();
            assert!(
                hard.as_millis() as u64 <= time.saturating_sub(30).max(1),
                "{time} {inc}: {hard:?}"
            );
            assert!(b.soft.unwrap() <= hard && b.optimum.unwrap() <= hard);
            assert!(!b.soft.unwrap().is_zero() && !b.optimum.unwrap().is_zero());
            // Whatever the scale, the limit stays within the hard stop and above zero.
            for factor in [0.0, 1.0, 100.0] {
                let s = TimeScale {
                    factor,
                    ..TimeScale::new()
                };
                let t = b.iteration_limit(&s).unwrap();
                assert!(t <= hard && !t.is_zero(), "{time} {inc} {factor}: {t:?}");
            }
        }
    }

    #[test]
    fn budget_from_the_clock() {
        // 10 s + 0.1 s, sudden death: a 32nd of the clock and the coming increments.
        let b = clock(10_000, 100, None);
        assert_eq!(b.optimum, Some(Duration::from_millis((9970 + 3100) / 32)));
        assert_eq!(b.hard, Some(Duration::from_millis(4 * 408)));
        // More increment, more time; more clock, more time.
        assert!(clock(10_000, 500, None).optimum > b.optimum);
        assert!(clock(20_000, 100, None).optimum > b.optimum);
        // Moves to go: fewer moves left to the control, a larger share of it.
        let m10 = clock(10_000, 0, Some(10)).optimum.unwrap();
        let m40 = clock(10_000, 0, Some(40)).optimum.unwrap();
        assert_eq!(m10, Duration::from_millis(9970 / 10));
        assert!(m10 > m40);
        // The last move before the control may use most of the clock, less the margin.
        assert_eq!(
            clock(10_000, 0, Some(1)).hard,
            Some(Duration::from_millis(9970 * 3 / 4))
        );
    }

    #[test]
    fn fixed_limits_are_not_adapted() {
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let b = TimeBudget::new(&l, Color::White, 50);
        let ms = Duration::from_millis(950);
        assert_eq!((b.soft, b.hard, b.optimum), (Some(ms), Some(ms), None));
        let s = TimeScale {
            factor: 2.0,
            ..TimeScale::new()
        };
        assert_eq!(b.iteration_limit(&s), Some(ms));
        for l in [
            Limits {
                depth: Some(5),
                ..Limits::default()
            },
            Limits {
                infinite: true,
                wtime: Some(1000),
                ..Limits::default()
            },
        ] {
            let b = TimeBudget::new(&l, Color::White, 50);
            assert_eq!(b.iteration_limit(&s), None);
            assert_eq!(b.hard, None);
        }
    }

    /// The factor after iterations 1..=n with these best moves and scores.
    fn run(moves: &[u16], scores: &[Value]) -> f64 {
        let mut s = TimeScale::new();
        for (d, (&m, &v)) in moves.iter().zip(scores).enumerate() {
            s.update(d as u32 + 1, mv(m), v, None);
        }
        s.factor()
    }

    #[test]
    fn instability_takes_more_time_and_stability_less() {
        let flat = [20; 12];
        let stable = run(&[1; 12], &flat);
        let changed_last = run(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2], &flat);
        let flip_flop = run(&[1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2], &flat);
        assert!(stable < 1.0, "{stable}");
        assert!(changed_last > 1.0, "{changed_last}");
        assert!(flip_flop > changed_last, "{flip_flop} {changed_last}");
    }

    #[test]
    fn a_falling_score_takes_more_time_and_a_rising_one_less() {
        let moves = [1; 8];
        let flat = run(&moves, &[30; 8]);
        let falling = run(&moves, &[30, 30, 30, 30, 30, 30, 30, -20]);
        let rising = run(&moves, &[30, 30, 30, 30, 30, 30, 30, 80]);
        assert!(falling > flat && flat > rising, "{falling} {flat} {rising}");
        // Mate scores do not count as a trend.
        let mate = run(&moves, &[30, 30, 30, 30, 30, 30, 30, MATE_BOUND + 5]);
        assert_eq!(mate, flat);
    }

    #[test]
    fn the_best_moves_node_share_scales_the_time() {
        let at = |share| {
            let mut s = TimeScale::new();
            for d in 1..=8 {
                s.update(d, mv(1), 0, Some(share));
            }
            s.factor()
        };
        assert!(at(0.95) < at(0.5) && at(0.5) < at(0.1));
    }

    #[test]
    fn the_scale_is_bounded() {
        let mut s = TimeScale::new();
        for d in 1..=30 {
            // Everything says "more": a new best move each time, a collapsing score, rivals.
            let f = s.update(d, mv(d as u16 % 2), -40 * d as Value, Some(0.0));
            assert!((MIN_SCALE..=MAX_SCALE).contains(&f), "{f}");
        }
        let mut s = TimeScale::new();
        for d in 1..=30 {
            let f = s.update(d, mv(1), 40 * d as Value, Some(1.0));
            assert!((MIN_SCALE..=MAX_SCALE).contains(&f), "{f}");
        }
        // Shallow iterations leave the scale alone.
        let mut s = TimeScale::new();
        s.update(1, mv(1), 0, None);
        assert_eq!(s.update(2, mv(2), -500, Some(0.0)), 1.0);
    }
}
