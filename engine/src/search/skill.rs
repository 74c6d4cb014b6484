//! Playing strength below the engine's best, for people to play against (the options
//! `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`).
//!
//! A weakened search is a normal search made smaller and a choice made less exact: the
//! search stops at a depth and a node count that grow with the level, finds several best
//! lines (MultiPV) instead of one, and the move played is the line whose score plus a random
//! allowance is highest. The allowance is drawn for each line from `0..=margin`, the margin
//! shrinking with the level, so that a weak level often prefers a move somewhat worse than the
//! best and now and then a much worse one, while a strong level only swaps moves of nearly the
//! same worth. Nothing sleeps or wastes time: a weak level answers sooner than a strong one.
//!
//! The random numbers come from a seed mixed with the position's hash, so that with a fixed
//! seed the same position always gets the same move (tests), and with a seed drawn at start-up
//! games differ. Level [`Skill::FULL`] is the unweakened search, bit for bit.
//!
//! The Elo of each level was measured by games against Fairy-Max and Sjaak II
//! (docs/results.md, "Skill levels"); [`level_for_elo`] turns `UCI_Elo` into a level by that
//! table.

use super::{Limits, Score, Value};

/// A playing strength: a level from 0 (weakest) to [`Skill::FULL`] (the engine's best), and
/// the seed of its random choices.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    /// 0 to [`Skill::FULL`]; values above are taken as full strength.
    pub level: u8,
    /// Mixed with each position's hash to draw that position's allowances.
    pub seed: u64,
}

impl Default for Skill {
    fn default() -> Self {
        Skill::full()
    }
}

/// The Elo of each level below full strength, levels 0 to 19, on the scale of docs/results.md
/// ("Skill levels": Fairy-Max 5.0b taken as 2000, chess at 3+0.03): levels 0, 4, 8, 12 and 16
/// measured by games, the others interpolated between them. `UCI_Elo` is read by this table.
pub const LEVEL_ELO: [i32; Skill::FULL as usize] = [
    1630, 1675, 1720, 1765, 1810, 1920, 2025, 2135, 2240, 2270, 2305, 2335, 2370, 2385, 2395, 2410,
    2420, 2465, 2505, 2550,
];

/// The least `UCI_Elo` accepted (level 0's).
pub const MIN_ELO: i32 = LEVEL_ELO[0];
/// The greatest `UCI_Elo` accepted (level 19's).
pub const MAX_ELO: i32 = LEVEL_ELO[Skill::FULL as usize - 1];

/// The level that plays at about `elo`: the strongest level whose Elo is at most `elo`
/// (level 0 below the table).
pub fn level_for_elo(elo: i32) -> u8 {
    LEVEL_ELO.iter().rposition(|&e| e <= elo).unwrap_or(0) as u8
}

impl Skill {
    /// The level of the engine's full strength.
    pub const FULL: u8 = 20;

    /// Full strength.
    pub const fn full() -> Skill {
        Skill {
            level: Skill::FULL,
            seed: 0,
        }
    }

    /// Whether this is full strength (the search is not touched).
    pub fn is_full(&self) -> bool {
        self.level >= Skill::FULL
    }

    /// How far below full strength, 1 (level 19) to 20 (level 0); 0 at full strength.
    fn weakness(&self) -> u32 {
        u32::from(Skill::FULL.saturating_sub(self.level))
    }

    /// How many best lines the search finds to choose from: 4 near full strength, up to 8 at
    /// level 0.
    pub fn lines(&self) -> u32 {
        4 + self.weakness() / 5
    }

    /// The deepest iteration: 1 at level 0, 19 at level 19.
    pub fn depth_cap(&self) -> u32 {
        let l = u32::from(self.level.min(Skill::FULL - 1));
        1 + l / 2 + l * l / 40
    }

    /// The most nodes a search may spend: 1,000 at level 0, growing by 60% a level (about
    /// 7.6 million at level 19).
    pub fn node_cap(&self) -> u64 {
        let l = i32::from(self.level.min(Skill::FULL - 1));
        (1000.0 * 1.6f64.powi(l)) as u64
    }

    /// The largest random allowance added to a line's score, in centipawns: 300 at level 0,
    /// falling with the square of the level's distance from full strength (75 at level 10,
    /// 3 at level 18).
    pub fn margin(&self) -> Value {
        let w = self.weakness() as Value;
        3 * w * w / 4
    }

    /// The limits of a weakened search for `limits`: no deeper than [`Skill::depth_cap`], no
    /// more nodes than [`Skill::node_cap`], and at least [`Skill::lines`] lines. Full strength
    /// changes nothing.
    pub fn limits(&self, limits: &Limits) -> Limits {
        if self.is_full() {
            return limits.clone();
        }
        let mut weak = limits.clone();
        weak.depth = Some(
            limits
                .depth
                .map_or(self.depth_cap(), |d| d.min(self.depth_cap())),
        );
        weak.nodes = Some(
            limits
                .nodes
                .map_or(self.node_cap(), |n| n.min(self.node_cap())),
        );
        weak.multipv = limits.multipv.max(self.lines());
        // A weakened search ends by its own limits; one asked to run until stopped would
        // otherwise hold its move until the GUI's `stop` (pondering still works: the move is
        // held until the opponent has moved).
        weak.infinite = false;
        weak
    }

    /// Which of `lines` (their scores, best first) to play in the position whose hash is
    /// `key`: the line whose score plus its random allowance is highest (the first on ties).
    /// Full strength takes the first.
    pub fn choose(&self, scores: &[Score], key: u64) -> usize {
        if self.is_full() || scores.len() < 2 {
            return 0;
        }
        let mut rng = SplitMix(self.seed ^ key.rotate_left(17));
        let span = self.margin() as u64 + 1;
        let mut best = (0, Value::MIN);
        for (i, score) in scores.iter().enumerate() {
            let allowance = (rng.next() % span) as Value;
            let value = sortable(*score).saturating_add(allowance);
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }
}

/// A score as one number that orders like the scores: mates beyond every centipawn score,
/// sooner ones first.
fn sortable(score: Score) -> Value {
    match score {
        Score::Cp(v) => v,
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
    }
}

/// SplitMix64: a small, fast generator whose whole state is its seed, so that a choice can be
/// repeated from the seed alone.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_strength_leaves_the_limits_and_the_choice_alone() {
        let limits = Limits {
            depth: Some(30),
            multipv: 1,
            ..Limits::default()
        };
        assert_eq!(Skill::full().limits(&limits), limits);
        assert_eq!(Skill::full().choose(&[Score::Cp(0), Score::Cp(50)], 1), 0);
    }

    #[test]
    fn weaker_levels_search_less_and_allow_more() {
        for level in 1..Skill::FULL {
            let (weak, strong) = (
                Skill {
                    level: level - 1,
                    seed: 0,
                },
                Skill { level, seed: 0 },
            );
            assert!(weak.depth_cap() <= strong.depth_cap(), "level {level}");
            assert!(weak.node_cap() < strong.node_cap(), "level {level}");
            assert!(weak.margin() > strong.margin(), "level {level}");
            assert!(weak.lines() >= strong.lines(), "level {level}");
        }
        let zero = Skill { level: 0, seed: 0 };
        assert_eq!((zero.depth_cap(), zero.margin(), zero.lines()), (1, 300, 8));
        let l = zero.limits(&Limits {
            infinite: true,
            depth: Some(9),
            ..Limits::default()
        });
        assert_eq!(
            (l.depth, l.nodes, l.multipv, l.infinite),
            (Some(1), Some(1000), 8, false)
        );
    }

    #[test]
    fn the_choice_repeats_with_the_seed_and_varies_with_it() {
        let scores: Vec<Score> = (0..8).map(|i| Score::Cp(-20 * i)).collect();
        let zero = |seed| Skill { level: 0, seed };
        for key in 0..50 {
            assert_eq!(zero(7).choose(&scores, key), zero(7).choose(&scores, key));
        }
        let picks: std::collections::HashSet<usize> = (0..200)
            .map(|seed| zero(seed).choose(&scores, 99))
            .collect();
        assert!(picks.len() >= 4, "level 0 picks among the lines: {picks:?}");
        // Level 19 never gives up more than its margin (1 cp).
        let nineteen = Skill { level: 19, seed: 3 };
        for key in 0..200 {
            assert_eq!(nineteen.choose(&scores, key), 0);
        }
        // A mate is kept whatever the allowance.
        let mate = [Score::Cp(900), Score::Mate(2)];
        assert!((0..100).all(|s| zero(s).choose(&mate, 5) == 1));
    }

    #[test]
    fn elo_maps_to_the_strongest_level_not_above_it() {
        assert_eq!(level_for_elo(MIN_ELO - 500), 0);
        assert_eq!(level_for_elo(MIN_ELO), 0);
        assert_eq!(level_for_elo(MAX_ELO), Skill::FULL - 1);
        for level in 0..Skill::FULL {
            assert_eq!(level_for_elo(LEVEL_ELO[level as usize]), level);
        }
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
    }
}
