//! Puts a net's output on the hand-made evaluation's scale. The search's margins (futility,
//! razoring, ProbCut, aspiration windows, the correction history's cap) and the piece values
//! it orders and prunes captures with are all in the hand-made evaluation's centipawns; a net
//! learns its own scale from its data (the blend of search scores and game results), and
//! chess's net came out about 1.4 times as wide: a pawn 118, a queen 1,600, where the
//! hand-made evaluation says 87 and 1,130. Every pruning margin then meant less than it was
//! tuned for, and a capture's value from the piece table did not match the net's idea of it.
//!
//! The factor is fitted once per net and variant, when the evaluator is made: the slope of
//! the hand-made value against the net's over positions from seeded random games (random play
//! reaches every kind of material imbalance, which is what the scale is about), so the same
//! net always gets the same factor.

use chimera_engine::search::Evaluator;
use chimera_engine::{Position, VariantRef};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::datagen::random_move;

/// The factor is a fixed-point number with this many fractional bits.
pub const SHIFT: u32 = 10;
/// The factor 1.
pub const ONE: i32 = 1 << SHIFT;

/// Random games played, their longest, and which of their positions are sampled.
const GAMES: u64 = 24;
const MAX_PLIES: usize = 64;
const FIRST_SAMPLE: usize = 4;
const SAMPLE_EVERY: usize = 4;

/// Values beyond this (either evaluation) are left out: a hopeless position says little
/// about the scale, and a few of them would outweigh the rest in a least-squares fit.
const MAX_VALUE: i32 = 3000;

/// A net is never scaled by more than this factor either way (in `ONE`s): a net that barely
/// varies (untrained, or a random one in the tests) would otherwise be blown up.
const MAX_FACTOR: i32 = 4;

/// The factor (in `1 / ONE`) that brings `net`'s values to `hand`'s scale in `variant`: the
/// [`slope`] over the [`samples`] of a fixed seed, within `1 / MAX_FACTOR ..= MAX_FACTOR`;
/// `ONE` when there is nothing to fit on.
pub fn factor(variant: &VariantRef, net: &dyn Evaluator, hand: &dyn Evaluator) -> i32 {
    match slope(&samples(variant, 0xCA11_B8A7, net, hand)) {
        Some(s) => ((s * ONE as f64).round() as i32).clamp(ONE / MAX_FACTOR, ONE * MAX_FACTOR),
        None => ONE,
    }
}

/// `(net, hand)` value pairs over positions of `GAMES` random games from `variant`'s start,
/// game `g` played from the seed `seed ^ g`: not in check, both values within `MAX_VALUE`.
pub fn samples(
    variant: &VariantRef,
    seed: u64,
    net: &dyn Evaluator,
    hand: &dyn Evaluator,
) -> Vec<(f64, f64)> {
    let mut samples = Vec::new();
    let mut net_cache = net.new_cache();
    let mut hand_cache = hand.new_cache();
    for game in 0..GAMES {
        let mut rng = SmallRng::seed_from_u64(seed ^ game);
        let mut pos = Position::startpos(variant);
        for ply in 0..MAX_PLIES {
            if !random_move(&mut pos, &mut rng) {
                break;
            }
            if ply < FIRST_SAMPLE || ply % SAMPLE_EVERY != 0 || pos.in_check() {
                continue;
            }
            let n = net.evaluate_with(&pos, &mut net_cache);
            let h = hand.evaluate_with(&pos, &mut hand_cache);
            if n.abs() <= MAX_VALUE && h.abs() <= MAX_VALUE {
                samples.push((n as f64, h as f64));
            }
        }
    }
    samples
}

/// The slope of the least-squares line of the second values on the first. A line, not a
/// ratio: the scale is about how the values move together, and a net that adds a constant
/// (a bias toward the side to move, or a test's net that scores every position alike) must
/// not have that constant read as a scale. `None` when the first values hardly vary (less
/// than a centipawn of spread per sample) or the two do not rise together.
pub fn slope(samples: &[(f64, f64)]) -> Option<f64> {
    let count = samples.len() as f64;
    let (sum_x, sum_y) = samples
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let (mean_x, mean_y) = (sum_x / count, sum_y / count);
    let (mut covariance, mut variance) = (0.0, 0.0);
    for &(x, y) in samples {
        covariance += (x - mean_x) * (y - mean_y);
        variance += (x - mean_x) * (x - mean_x);
    }
    (samples.len() >= 2 && variance >= count && covariance > 0.0).then(|| covariance / variance)
}

/// `value` scaled by `factor` (in `1 / ONE`), rounded to nearest.
pub fn apply(value: i32, factor: i32) -> i32 {
    ((value as i64 * factor as i64 + (ONE as i64 >> 1)) >> SHIFT) as i32
}
