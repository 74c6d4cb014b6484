//! Time management: turns the limits of one search into two deadlines. The soft deadline is
//! checked between iterations (do not start one that will not finish); the hard deadline stops
//! the search wherever it is. Both keep a safety margin for the protocol's latency.

use std::time::Duration;

use super::Limits;
use crate::types::Color;

/// The default margin, in milliseconds, kept for the time it takes a move to reach the GUI.
pub const DEFAULT_OVERHEAD_MS: u64 = 50;

/// Moves assumed to remain in a sudden-death game.
const DEFAULT_MOVES_TO_GO: u64 = 40;

/// The deadlines of one search; `None` means no time limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop searching at this.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// The deadlines for `side` to move under `limits`, keeping `overhead_ms` in reserve.
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64) -> TimeBudget {
        let ms = Duration::from_millis;
        if limits.infinite {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        }
        if let Some(t) = limits.movetime {
            let t = t.saturating_sub(overhead_ms).max(1);
            return TimeBudget {
                soft: Some(ms(t)),
                hard: Some(ms(t)),
            };
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        };
        let inc = inc.unwrap_or(0);
        let usable = time.saturating_sub(overhead_ms).max(1);
        let mtg = limits
            .movestogo
            .map_or(DEFAULT_MOVES_TO_GO, |m| (m as u64).clamp(1, 50));
        // Spend an even share of the clock plus most of the increment. An iteration is not
        // started after 45% of the share (the next one usually takes about twice as long as
        // everything before it), and the hard stop, at two and a half shares, is for the rare
        // iteration that explodes; so the average move costs about one share and the clock
        // never drains faster than the increment refills it. The hard stop never takes more
        // than a quarter of what is left (all of it on the last move before a time control,
        // less the margin).
        let share = usable / mtg + inc * 3 / 4;
        let cap = if mtg == 1 { usable } else { usable / 4 };
        let hard = (share * 5 / 2).min(cap).max(1);
        let soft = (share * 45 / 100).min(hard).max(1);
        TimeBudget {
            soft: Some(ms(soft)),
            hard: Some(ms(hard)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_plans_beyond_the_clock() {
        for (time, inc, mtg) in [(10, 0, None), (1000, 100, None), (60_000, 0, Some(1))] {
            let l = Limits {
                wtime: Some(time),
                winc: Some(inc),
                movestogo: mtg,
                ..Limits::default()
            };
            let b = TimeBudget::new(&l, Color::White, 30);
            let hard = b.hard.unwrap().as_millis() as u64;
            assert!(
                hard <= time.saturating_sub(30).max(1),
                "{time} {inc}: {hard}"
            );
            assert!(b.soft.unwrap() <= b.hard.unwrap());
        }
    }
}
