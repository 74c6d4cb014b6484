//! Time controls and chess clocks: `--tc BASE+INC` in seconds (`10+0.1`, `60`, or `inf` for no
//! clock), and the per-side clock the referee runs. An engine may overstep its clock by the
//! match's latency margin (default [`DEFAULT_MARGIN_MS`]) without losing: process start-up of a
//! pipe, thread wake-ups and a busy machine cost a few milliseconds that are not the engine's
//! fault. An overstep within the margin leaves the clock at zero before the increment is added.

use std::fmt;
use std::time::Duration;

/// How far past zero a clock may run before the move counts as a time forfeit, in ms.
pub const DEFAULT_MARGIN_MS: u64 = 100;

/// A time control: sudden death plus increment, or no clock at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Each side starts with `base_ms` and gains `inc_ms` after every move.
    Increment {
        /// Starting time per side.
        base_ms: u64,
        /// Added after each move.
        inc_ms: u64,
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
        let bad = || format!("bad time control '{text}' (want BASE+INC in seconds, e.g. 10+0.1)");
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let base_ms = seconds_to_ms(base).filter(|&b| b > 0).ok_or_else(bad)?;
        let inc_ms = seconds_to_ms(inc).ok_or_else(bad)?;
        Ok(TimeControl::Increment { base_ms, inc_ms })
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag value: seconds, `+` increment.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unlimited => write!(f, "-"),
            TimeControl::Increment { base_ms, inc_ms } => {
                let secs = |ms: u64| {
                    let s = format!("{:.3}", ms as f64 / 1000.0);
                    s.trim_end_matches('0').trim_end_matches('.').to_string()
                };
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
    /// The increment.
    pub inc_ms: u64,
    /// The overstep forgiven.
    pub margin_ms: u64,
    /// The least time each side had left after a move, before its increment (negative for
    /// a forgiven overstep).
    pub closest_ms: [Option<i64>; 2],
    /// Oversteps forgiven per side.
    pub forgiven: [u32; 2],
}

impl Clocks {
    /// Both clocks at the start of a game.
    pub fn new(tc: TimeControl, margin_ms: u64) -> Clocks {
        match tc {
            TimeControl::Increment { base_ms, inc_ms } => Clocks {
                left_ms: Some([base_ms as i64; 2]),
                inc_ms,
                margin_ms,
                closest_ms: [None; 2],
                forgiven: [0; 2],
            },
            TimeControl::Unlimited => Clocks {
                left_ms: None,
                inc_ms: 0,
                margin_ms,
                closest_ms: [None; 2],
                forgiven: [0; 2],
            },
        }
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
        left[side] = after.max(0) + self.inc_ms as i64;
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
                inc_ms: 100
            })
        );
        assert_eq!(
            "1".parse(),
            Ok(TimeControl::Increment {
                base_ms: 1000,
                inc_ms: 0
            })
        );
        assert_eq!("inf".parse(), Ok(TimeControl::Unlimited));
        for bad in ["", "x", "0+1", "1+x", "-1+0", "1+-2"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            "1+0.05".parse::<TimeControl>().unwrap().to_string(),
            "1+0.05"
        );
    }

    #[test]
    fn the_clock_forgives_the_margin_only() {
        let tc = "1+0.1".parse().unwrap();
        let mut c = Clocks::new(tc, 50);
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
}
