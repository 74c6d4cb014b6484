//! Time controls and chess clocks: `--tc BASE+INC` in seconds (`10+0.1`, `60`, or `inf` for no
//! clock), `--tc MOVES/BASE+INC` for a control of MOVES moves that starts again with BASE added
//! (`40/60`, XBoard's `level 40 1 0`), and the per-side clock the referee runs. Each side's clock runs with its own control,
//! so an engine given time odds (`tc=` in its `--engine` spec) keeps its own base and increment. An engine may overstep its clock by the
//! match's latency margin (default [`DEFAULT_MARGIN_MS`]) without losing: process start-up of a
//! pipe, thread wake-ups and a busy machine cost a few milliseconds that are not the engine's
//! fault. An overstep within the margin leaves the clock at zero before the increment is added.

use std::fmt;
use std::time::Duration;

/// How far past zero a clock may run before the move counts as a time forfeit, in ms.
pub const DEFAULT_MARGIN_MS: u64 = 100;

/// A time control: a base plus increment, for the whole game or per MOVES moves, or no clock
/// at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Each side starts with `base_ms` and gains `inc_ms` after every move; with `moves` > 0,
    /// `base_ms` again after every `moves` moves of its own (0: sudden death).
    Increment {
        /// Starting time per side.
        base_ms: u64,
        /// Added after each move.
        inc_ms: u64,
        /// Moves per control (0: the whole game).
        moves: u32,
    },
    /// No clock; the engines need a depth or node limit instead.
    Unlimited,
}

/// Seconds with an optional fraction (`1`, `0.05`) as milliseconds.
fn seconds_to_ms(text: &str) -> Option<u64> {
    let secs: f64 = text.parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        if matches!(text, "inf" | "infinite" | "none") {
            return Ok(TimeControl::Unlimited);
        }
        let bad = || {
            format!(
                "bad time control '{text}' (want [MOVES/]BASE+INC in seconds, e.g. 10+0.1 or 40/60)"
            )
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (
                m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(bad)?,
                rest,
            ),
            None => (0, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base_ms = seconds_to_ms(base).filter(|&b| b > 0).ok_or_else(bad)?;
        let inc_ms = seconds_to_ms(inc).ok_or_else(bad)?;
        Ok(TimeControl::Increment {
            base_ms,
            inc_ms,
            moves,
        })
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag value: seconds, `+` increment, after `MOVES/` for a control
    /// of so many moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unlimited => write!(f, "-"),
            TimeControl::Increment {
                base_ms,
                inc_ms,
                moves,
            } => {
                let secs = |ms: u64| {
                    let s = format!("{:.3}", ms as f64 / 1000.0);
                    s.trim_end_matches('0').trim_end_matches('.').to_string()
                };
                if *moves > 0 {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}+{}", secs(*base_ms), secs(*inc_ms))
            }
        }
    }
}

/// The clocks of one game, in milliseconds left per side (index 0 = White).
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    /// Time left per side; `None` without a clock.
    pub left_ms: Option<[i64; 2]>,
    /// The increment per side.
    pub inc_ms: [u64; 2],
    /// Per side: the moves of a control (0: the whole game) and the time each control adds.
    pub control: [(u32, u64); 2],
    /// Moves each side has made.
    pub moves_made: [u32; 2],
    /// The overstep forgiven.
    pub margin_ms: u64,
    /// The least time each side had left after a move, before its increment (negative for
    /// a forgiven overstep).
    pub closest_ms: [Option<i64>; 2],
    /// Oversteps forgiven per side.
    pub forgiven: [u32; 2],
}

impl Clocks {
    /// Both clocks at the start of a game, each side (index 0 = White) with its own control.
    /// No clock runs unless both sides have one (the match's options never mix the two).
    pub fn new(tc: [TimeControl; 2], margin_ms: u64) -> Clocks {
        let mut clocks = Clocks {
            left_ms: None,
            inc_ms: [0; 2],
            control: [(0, 0); 2],
            moves_made: [0; 2],
            margin_ms,
            closest_ms: [None; 2],
            forgiven: [0; 2],
        };
        if let [TimeControl::Increment {
            base_ms: w,
            inc_ms: wi,
            moves: wm,
        }, TimeControl::Increment {
            base_ms: b,
            inc_ms: bi,
            moves: bm,
        }] = tc
        {
            clocks.left_ms = Some([w as i64, b as i64]);
            clocks.inc_ms = [wi, bi];
            clocks.control = [(wm, w), (bm, b)];
        }
        clocks
    }

    /// Moves `side` has left to make before its control adds time again; `None` in a game
    /// without controls of so many moves.
    pub fn moves_to_go(&self, side: usize) -> Option<u32> {
        let (moves, _) = self.control[side];
        (self.left_ms.is_some() && moves > 0).then(|| moves - self.moves_made[side] % moves)
    }

    /// How long to wait for side `side`'s move before calling it a forfeit; `None` without a
    /// clock.
    pub fn wait_limit(&self, side: usize) -> Option<Duration> {
        self.left_ms
            .map(|t| Duration::from_millis((t[side].max(0) as u64) + self.margin_ms + 1))
    }

    /// Charges `side` for a move that took `elapsed`. Returns `false` when the flag fell (the
    /// clock ran more than the margin below zero).
    pub fn charge(&mut self, side: usize, elapsed: Duration) -> bool {
        let Some(left) = self.left_ms.as_mut() else {
            return true;
        };
        let after = left[side] - elapsed.as_millis() as i64;
        let closest = &mut self.closest_ms[side];
        *closest = Some(closest.map_or(after, |c| c.min(after)));
        if after < 0 {
            self.forgiven[side] += 1;
        }
        if after < -(self.margin_ms as i64) {
            self.forgiven[side] -= 1;
            left[side] = after;
            return false;
        }
        left[side] = after.max(0) + self.inc_ms[side] as i64;
        self.moves_made[side] += 1;
        let (moves, base) = self.control[side];
        if moves > 0 && self.moves_made[side].is_multiple_of(moves) {
            left[side] += base as i64;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            "10+0.1".parse(),
            Ok(TimeControl::Increment {
                base_ms: 10_000,
                inc_ms: 100,
                moves: 0
            })
        );
        assert_eq!(
            "1".parse(),
            Ok(TimeControl::Increment {
                base_ms: 1000,
                inc_ms: 0,
                moves: 0
            })
        );
        assert_eq!(
            "40/60".parse(),
            Ok(TimeControl::Increment {
                base_ms: 60_000,
                inc_ms: 0,
                moves: 40
            })
        );
        assert_eq!("inf".parse(), Ok(TimeControl::Unlimited));
        for bad in [
            "", "x", "0+1", "1+x", "-1+0", "1+-2", "0/60", "x/60", "/60", "40/",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            "1+0.05".parse::<TimeControl>().unwrap().to_string(),
            "1+0.05"
        );
        assert_eq!("40/5".parse::<TimeControl>().unwrap().to_string(), "40/5+0");
    }

    #[test]
    fn a_control_of_so_many_moves_adds_its_base_again() {
        let tc = "3/1".parse().unwrap();
        let mut c = Clocks::new([tc; 2], 50);
        assert_eq!(c.moves_to_go(0), Some(3));
        assert!(c.charge(0, Duration::from_millis(300)));
        assert!(c.charge(0, Duration::from_millis(300)));
        assert_eq!((c.left_ms.unwrap()[0], c.moves_to_go(0)), (400, Some(1)));
        // The third move reaches the control: the base comes again.
        assert!(c.charge(0, Duration::from_millis(350)));
        assert_eq!((c.left_ms.unwrap()[0], c.moves_to_go(0)), (1050, Some(3)));
        assert_eq!(c.moves_to_go(1), Some(3), "each side counts its own moves");
        let sudden = Clocks::new(["1+0.1".parse().unwrap(); 2], 50);
        assert_eq!(sudden.moves_to_go(0), None);
    }

    #[test]
    fn the_clock_forgives_the_margin_only() {
        let tc = "1+0.1".parse().unwrap();
        let mut c = Clocks::new([tc; 2], 50);
        assert!(c.charge(0, Duration::from_millis(400)));
        assert_eq!(c.left_ms.unwrap()[0], 700);
        assert!(c.charge(0, Duration::from_millis(740)));
        assert_eq!(
            c.left_ms.unwrap()[0],
            100,
            "overstep forgiven, then the increment"
        );
        assert!(!c.charge(0, Duration::from_millis(151)));
        assert_eq!(c.wait_limit(1), Some(Duration::from_millis(1051)));
    }

    #[test]
    fn each_side_runs_on_its_own_control() {
        let white: TimeControl = "10+0.1".parse().unwrap();
        let black: TimeControl = "1.25+0.0125".parse().unwrap();
        assert_eq!(
            black,
            TimeControl::Increment {
                base_ms: 1250,
                inc_ms: 13,
                moves: 0
            },
            "rounded to the millisecond"
        );
        let mut c = Clocks::new([white, black], 100);
        assert_eq!(c.left_ms, Some([10_000, 1250]));
        assert_eq!(c.inc_ms, [100, 13]);
        assert!(c.charge(0, Duration::from_millis(500)));
        assert!(c.charge(1, Duration::from_millis(500)));
        assert_eq!(c.left_ms, Some([9600, 763]));
        assert_eq!(c.wait_limit(1), Some(Duration::from_millis(864)));
        // 1 s more is nothing to White and a fallen flag for Black.
        assert!(c.charge(0, Duration::from_millis(1000)));
        assert!(!c.charge(1, Duration::from_millis(1000)));
        // A side without a clock means no clock at all.
        let none = Clocks::new([white, TimeControl::Unlimited], 100);
        assert_eq!((none.left_ms, none.wait_limit(0)), (None, None));
    }
}
