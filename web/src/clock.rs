//! The web board's time: a time per move for the engine, or a clock for both sides (a base and
//! an increment, in ms). The clock of the side to move runs from the start of its turn; the
//! session asks [`Clocks::flag`] every few milliseconds, so that a flag falls on a clock nobody
//! moves against. Nothing here knows the rules: the session says who moved and who is to move.

use std::time::Instant;

use chimera_engine::search::Limits;
use chimera_engine::Color;
use serde_json::{json, Value};

/// How the game is timed.
#[derive(Clone, Copy, Debug)]
pub enum TimeControl {
    /// A fixed time per move for the engine, in ms; no clocks.
    PerMove(u64),
    /// A clock: base and increment in ms; both sides' clocks run.
    Clock { base: u64, inc: u64 },
}

/// The time control and, with a clock, each side's time left at the start of the turn.
pub struct Clocks {
    tc: TimeControl,
    /// White's and Black's time left, in ms, when the running turn started.
    left: [i64; 2],
    /// When the running turn started.
    since: Instant,
}

impl Clocks {
    /// A second per move, the board's default.
    pub fn new() -> Clocks {
        Clocks {
            tc: TimeControl::PerMove(1000),
            left: [0, 0],
            since: Instant::now(),
        }
    }

    /// A new time control: full clocks, the turn's time from now.
    pub fn set(&mut self, tc: TimeControl) {
        self.tc = tc;
        self.restart();
    }

    /// A new game: full clocks, the turn's time from now.
    pub fn restart(&mut self) {
        if let TimeControl::Clock { base, .. } = self.tc {
            self.left = [base as i64; 2];
        }
        self.since = Instant::now();
    }

    /// The turn starts again now (after a take-back): the time since is not charged.
    pub fn turn_restarts(&mut self) {
        self.since = Instant::now();
    }

    fn spent(&self) -> i64 {
        self.since.elapsed().as_millis() as i64
    }

    /// `mover`'s turn is over: his time is charged and his increment added. Returns true when
    /// his clock had run out before he finished.
    pub fn turn_done(&mut self, mover: Color) -> bool {
        let mut flagged = false;
        if let TimeControl::Clock { inc, .. } = self.tc {
            let spent = self.spent();
            let c = &mut self.left[mover.index()];
            *c -= spent;
            flagged = *c < 0;
            *c += inc as i64;
        }
        self.since = Instant::now();
        flagged
    }

    /// True, once, when the clock of `to_move` has just run out: it then shows zero.
    pub fn flag(&mut self, to_move: Color) -> bool {
        if !matches!(self.tc, TimeControl::Clock { .. }) {
            return false;
        }
        if self.left[to_move.index()] - self.spent() >= 0 {
            return false;
        }
        self.left[to_move.index()] = 0;
        self.since = Instant::now();
        true
    }

    /// The engine's time for a move by `side`: the time per move, or both clocks as they stand.
    pub fn limits(&self, side: Color, limits: &mut Limits) {
        match self.tc {
            TimeControl::PerMove(ms) => limits.movetime = Some(ms),
            TimeControl::Clock { inc, .. } => {
                let mine = (self.left[side.index()] - self.spent()).max(1) as u64;
                let theirs = self.left[side.opposite().index()].max(1) as u64;
                let (w, b) = if side == Color::White {
                    (mine, theirs)
                } else {
                    (theirs, mine)
                };
                limits.wtime = Some(w);
                limits.btime = Some(b);
                limits.winc = Some(inc);
                limits.binc = Some(inc);
            }
        }
    }

    /// The state's `tc` and `clocks` (each side's time left now, `to_move`'s running unless
    /// the game is over; `null` without a clock).
    pub fn describe(&self, to_move: Color, running: bool) -> (Value, Value) {
        match self.tc {
            TimeControl::PerMove(ms) => (json!({ "movetime": ms }), Value::Null),
            TimeControl::Clock { base, inc } => {
                let mut c = self.left;
                if running {
                    c[to_move.index()] -= self.spent();
                }
                (json!({ "base": base, "inc": inc }), json!(c))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_clock_runs_for_the_side_to_move_and_falls() {
        let mut c = Clocks::new();
        assert!(!c.flag(Color::White), "no clock, no flag");
        c.set(TimeControl::Clock { base: 30, inc: 5 });
        assert!(!c.turn_done(Color::White), "White moved in time");
        let (_, left) = c.describe(Color::Black, false);
        assert!(left[0].as_i64().unwrap() > 30, "the increment: {left}");
        std::thread::sleep(Duration::from_millis(40));
        assert!(c.flag(Color::Black), "Black's 30 ms are gone");
        assert!(!c.flag(Color::Black), "a flag falls once");
        let (_, left) = c.describe(Color::Black, true);
        assert_eq!(left[1], 0);
    }
}
