//! `chimera datagen`: self-play at a fixed node count from varied openings (a few random
//! plies, then the engine), on several threads, each game written whole to a data file
//! (`data`) as soon as it ends. Kept positions are the quiet ones: the side to move is not in
//! check, the best move is not a capture, and the score is not a mate (noisy labels
//! otherwise); in a variant whose turn has several parts, the positions between parts too.
//! Every game's openings come from the seed and the game's number, so a run that is cut
//! short and started again adds new games rather than repeats.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;

use chimera_engine::rules::result_token;
use chimera_engine::search::{Evaluator, Limits, Score, Searcher, Silent, SEARCH_STACK_BYTES};
use chimera_engine::types::Color;
use chimera_engine::{Position, VariantRef};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::{self, Sample};

/// What a generation run does.
pub struct DatagenConfig {
    /// The variant played.
    pub variant: VariantRef,
    /// The evaluation the games are played with (hand-made, or a net: data from net N
    /// trains net N + 1).
    pub eval: Arc<dyn Evaluator + Send + Sync>,
    /// Nodes per move.
    pub nodes: u64,
    /// Games to add to the file.
    pub games: u64,
    /// Threads, each playing its own games with its own searcher.
    pub threads: usize,
    /// Random plies at the start of each game.
    pub random_plies: usize,
    /// The seed of the openings.
    pub seed: u64,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: usize,
    /// Transposition table per thread, in megabytes.
    pub hash_mb: usize,
}

/// What a run added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games written.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Games the file held before.
    pub games_before: u64,
}

/// One finished game.
struct Game {
    index: u64,
    plies: usize,
    result: &'static str,
    samples: Vec<Sample>,
}

/// Plays one random legal move; `false` (and no move) when the game is already over.
pub(crate) fn random_move(pos: &mut Position, rng: &mut SmallRng) -> bool {
    if pos.outcome().is_some() {
        return false;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return false;
    }
    pos.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
    true
}

/// Plays random legal moves for the opening; `false` when the game ended during them.
fn random_opening(pos: &mut Position, plies: usize, rng: &mut SmallRng) -> bool {
    for _ in 0..plies {
        if !random_move(pos, rng) {
            return false;
        }
    }
    pos.outcome().is_none()
}

/// Plays game number `index`.
fn play_game(cfg: &DatagenConfig, searcher: &mut Searcher, index: u64) -> Game {
    let mut rng = SmallRng::seed_from_u64(cfg.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut pos = Position::startpos(&cfg.variant);
    // An opening that ends the game (or leaves no move) is drawn again, a few times.
    for _ in 0..16 {
        pos = Position::startpos(&cfg.variant);
        if random_opening(&mut pos, cfg.random_plies, &mut rng) {
            break;
        }
    }
    searcher.clear();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let mut kept: Vec<(Sample, Color)> = Vec::new();
    let mut plies = 0;
    let winner = loop {
        if let Some(end) = pos.outcome() {
            break end.winner;
        }
        if plies >= cfg.max_plies {
            break None;
        }
        let r = searcher.search(&pos, &limits, cfg.eval.as_ref(), &mut Silent);
        let Some(best) = r.best else {
            break None;
        };
        let turn = if r.turn.is_empty() {
            vec![best]
        } else {
            r.turn
        };
        // Every part of the turn the search chose is labelled with its score: inside a turn
        // the side to move stays the same and the rest of the principal variation holds the
        // root's value. Without the later parts, a net for a variant of multi-part turns
        // (Alice Guard) never sees a position between two parts, though half its search's
        // leaves are such positions, and their output bucket would keep its first weights.
        let root_side = pos.side_to_move();
        let root_cp = match r.score {
            Score::Cp(cp) => Some(cp),
            _ => None,
        };
        for mv in turn {
            if let Some(cp) = root_cp {
                if !pos.in_check() && !pos.is_capture(mv) {
                    let side = pos.side_to_move();
                    let sample = Sample {
                        fen: pos.fen(),
                        score: if side == root_side { cp } else { -cp },
                        result: 0.5,
                    };
                    kept.push((sample, side));
                }
            }
            pos.make_move(mv);
            plies += 1;
        }
    };
    let samples = kept
        .into_iter()
        .map(|(mut s, side)| {
            s.result = match winner {
                None => 0.5,
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
            };
            s
        })
        .collect();
    Game {
        index,
        plies,
        result: result_token(winner),
        samples,
    }
}

/// A progress line on standard error.
fn progress(done: u64, total: u64, positions: u64, start: Instant) {
    let width = 30;
    let filled = (done * width / total.max(1)) as usize;
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    eprint!(
        "\r[{}{}] {done}/{total} games, {positions} positions, {:.1} pos/s, {:.0} s ",
        "#".repeat(filled),
        ".".repeat(width as usize - filled),
        positions as f64 / secs,
        secs
    );
}

/// Runs the generation, appending to `path`; `show` draws the progress bar on stderr.
pub fn run(cfg: &DatagenConfig, path: &str, show: bool) -> Result<Summary, String> {
    let (mut file, before) = data::open_for_append(path, &cfg.variant)?;
    let next = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel::<Game>();
    let start = Instant::now();
    let mut summary = Summary {
        games_before: before,
        ..Summary::default()
    };
    let mut write_error = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            std::thread::Builder::new()
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut searcher = Searcher::new(cfg.hash_mb, 1);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= cfg.games {
                            break;
                        }
                        // A failed send means the writer gave up: stop.
                        if tx.send(play_game(cfg, &mut searcher, before + i)).is_err() {
                            break;
                        }
                    }
                })
                .expect("a datagen thread");
        }
        drop(tx);
        if show {
            progress(0, cfg.games, 0, start);
        }
        for game in rx {
            if write_error.is_some() {
                continue;
            }
            if let Err(e) = data::write_game(
                &mut file,
                game.index,
                game.plies,
                game.result,
                &game.samples,
            ) {
                write_error = Some(format!("{path}: {e}"));
                next.store(cfg.games, Ordering::Relaxed);
                continue;
            }
            summary.games += 1;
            summary.positions += game.samples.len() as u64;
            if show {
                progress(summary.games, cfg.games, summary.positions, start);
            }
        }
    });
    if show {
        eprintln!();
    }
    match write_error {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}
