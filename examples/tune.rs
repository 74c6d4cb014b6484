//! Tunes the evaluation's weights on game results (the Texel method): every quiet position of
//! the given PGN games is scored by the static evaluation, the score is turned into an expected
//! result by a logistic curve, and the knobs of `chimera_eval::tuning::Params` are moved one at
//! a time while the mean squared error against the games' results falls.
//!
//! `cargo run --release --example tune -- [--variant V] [--rounds N] [--freeze K1,K2] GAMES.pgn...`
//!
//! Knobs named by `--freeze` keep their values (the material knobs, say, to keep the
//! evaluation's scale where the search's margins expect it).
//!
//! The games come from `chimera match ... --pgn FILE` (self-play at a fast time control serves).
//! A position counts when it is past the opening's random moves, its side to move is not in
//! check and the move played from it is neither a capture nor a promotion: the engine that
//! played it found nothing to take, so the static evaluation is close to the searched one.
//! One game in ten is held out; its error is printed too, to show the fit is no overfit.
//! Prints the knobs after every round as `name value` lines.

use rayon::prelude::*;

use chimera_engine::movegen::san::parse_san;
use chimera_engine::registry::builtin;
use chimera_engine::search::Evaluator;
use chimera_engine::types::Color;
use chimera_engine::{Position, VariantRef};
use chimera_eval::tuning::Params;
use chimera_eval::VariantEval;

/// A quiet position and the result of its game for White (1, 0.5 or 0).
struct Sample {
    pos: Position,
    result: f64,
    /// The game's number among all games read.
    game: usize,
}

/// Plies after the opening's random moves that are skipped too: the first moves of the engines
/// still repair what the random moves did.
const SETTLE_PLIES: usize = 4;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut variant = "chess".to_string();
    let mut rounds = 30usize;
    let mut files = Vec::new();
    let mut frozen: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--variant" => {
                i += 1;
                variant = args.get(i).cloned().unwrap_or_default();
            }
            "--freeze" => {
                i += 1;
                let names = args.get(i).cloned().unwrap_or_default();
                frozen.extend(names.split(',').map(str::to_string));
            }
            "--rounds" => {
                i += 1;
                rounds = args.get(i).and_then(|s| s.parse().ok()).unwrap_or(rounds);
            }
            file => files.push(file.to_string()),
        }
        i += 1;
    }
    let Some(v) = builtin(&variant) else {
        eprintln!("unknown variant '{variant}'");
        std::process::exit(2);
    };
    if files.is_empty() {
        eprintln!("usage: tune [--variant V] [--rounds N] [--freeze K1,K2] GAMES.pgn...");
        std::process::exit(2);
    }
    let mut samples = Vec::new();
    let mut games = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
            eprintln!("{file}: {e}");
            std::process::exit(2);
        });
        let before = samples.len();
        read_games(&v, &text, &mut games, &mut samples);
        eprintln!("{file}: {} positions", samples.len() - before);
    }
    let (train, test): (Vec<Sample>, Vec<Sample>) =
        samples.into_iter().partition(|s| s.game % 10 != 0);
    eprintln!(
        "{} training positions, {} held out",
        train.len(),
        test.len()
    );

    let mut params = Params::default();
    let k = fit_scale(&v, &params, &train);
    let mut best = error(&v, &params, &train, k);
    eprintln!(
        "scale {k:.3}; error {best:.6}, held out {:.6}",
        error(&v, &params, &test, k)
    );
    let names: Vec<String> = params.knobs().into_iter().map(|(n, _)| n).collect();
    for name in &frozen {
        if !names.contains(name) {
            eprintln!("no knob '{name}'; the knobs are: {}", names.join(" "));
            std::process::exit(2);
        }
    }
    let count = names.len();
    // Per knob, the step in units of the knob: large at first, halved when neither direction
    // helps, so that far-off weights move quickly and near ones settle exactly.
    let mut steps = vec![8.0f64; count];
    for round in 1..=rounds {
        let mut moved = 0;
        for (i, step) in steps.iter_mut().enumerate() {
            if frozen.contains(&names[i]) {
                *step = 1.0;
                continue;
            }
            let unit = params.knobs()[i].1.unit();
            let mut improved = false;
            for dir in [1.0, -1.0] {
                loop {
                    let mut trial = params.clone();
                    {
                        let mut knobs = trial.knobs();
                        let knob = &mut knobs[i].1;
                        knob.set(knob.get() + dir * *step * unit);
                    }
                    let e = error(&v, &trial, &train, k);
                    if e < best {
                        best = e;
                        params = trial;
                        improved = true;
                    } else {
                        break;
                    }
                }
                if improved {
                    break;
                }
            }
            if improved {
                moved += 1;
            } else if *step > 1.0 {
                *step /= 2.0;
            }
        }
        eprintln!(
            "round {round}: {moved} knobs moved; error {best:.6}, held out {:.6}",
            error(&v, &params, &test, k)
        );
        println!("# round {round}\n{}", params.to_text());
        if moved == 0 && steps.iter().all(|&s| s <= 1.0) {
            break;
        }
    }
}

/// Reads every game of a PGN text and keeps its quiet positions.
/// `games` counts the games read so far, over all files, and numbers each sample's game.
fn read_games(v: &VariantRef, text: &str, games: &mut usize, out: &mut Vec<Sample>) {
    let mut result = None;
    let mut fen = None;
    let mut movetext = String::new();
    let mut flush = |result: &mut Option<f64>, fen: &mut Option<String>, movetext: &mut String| {
        let fen = fen.take();
        if let Some(r) = result.take() {
            replay(v, fen.as_deref(), movetext, r, *games, out);
            *games += 1;
        }
        movetext.clear();
    };
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[') {
            if tag.starts_with("Event ") {
                flush(&mut result, &mut fen, &mut movetext);
            }
            let value = tag.split('"').nth(1).unwrap_or("");
            if tag.starts_with("Result ") {
                result = match value {
                    "1-0" => Some(1.0),
                    "0-1" => Some(0.0),
                    "1/2-1/2" => Some(0.5),
                    _ => None,
                };
            } else if tag.starts_with("FEN ") {
                fen = Some(value.to_string());
            } else if tag.starts_with("Termination ") && value != "normal" {
                // Forfeits say nothing about the position; adjudicated draws are kept out
                // too, since a move limit ends games that were not drawn.
                result = None;
            }
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    flush(&mut result, &mut fen, &mut movetext);
}

/// Replays one game's moves and keeps the positions from which a quiet move was played.
fn replay(
    v: &VariantRef,
    fen: Option<&str>,
    movetext: &str,
    result: f64,
    game: usize,
    out: &mut Vec<Sample>,
) {
    let mut pos = match fen {
        Some(f) => match Position::from_fen(v, f) {
            Ok(p) => p,
            Err(_) => return,
        },
        None => Position::startpos(v),
    };
    // The plies of the opening end at the "end of opening" comment; without one, none are
    // skipped but the settling plies.
    let opening = movetext
        .find("{end of opening}")
        .map(|at| tokens(&movetext[..at]).len())
        .unwrap_or(0);
    for (ply, token) in tokens(movetext).into_iter().enumerate() {
        let Some(mv) = parse_san(&mut pos, token) else {
            return;
        };
        let quiet = !pos.in_check() && !pos.is_capture(mv) && mv.promotion().is_none();
        if ply >= opening + SETTLE_PLIES && quiet {
            if let Ok(fresh) = Position::from_fen(v, &pos.fen()) {
                out.push(Sample {
                    pos: fresh,
                    result,
                    game,
                });
            }
        }
        pos.make_move(mv);
    }
}

/// The move tokens of a movetext: comments, move numbers and the result left out.
fn tokens(movetext: &str) -> Vec<&str> {
    let mut plain = Vec::new();
    let mut rest = movetext;
    while let Some(open) = rest.find('{') {
        plain.push(&rest[..open]);
        rest = rest[open..]
            .find('}')
            .map_or("", |close| &rest[open + close + 1..]);
    }
    plain.push(rest);
    plain
        .into_iter()
        .flat_map(str::split_whitespace)
        .filter(|t| {
            !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*")
                && !t.starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

/// The static evaluation of every sample for White.
fn white_scores(v: &VariantRef, params: &Params, samples: &[Sample]) -> Vec<f64> {
    let eval = VariantEval::with_weights(v, &params.weights, &params.terms);
    samples
        .par_iter()
        // One evaluation cache per worker, as a search thread has (pawn formations repeat).
        .map_init(
            || eval.new_cache(),
            |cache, s| {
                let e = eval.evaluate_with(&s.pos, cache) as f64;
                if s.pos.side_to_move() == Color::White {
                    e
                } else {
                    -e
                }
            },
        )
        .collect()
}

/// The expected result for White of an evaluation of `e` centipawns.
fn expected(e: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error between the expected results of `scores` and the actual results.
fn mean_error(scores: &[f64], samples: &[Sample], k: f64) -> f64 {
    let sum: f64 = scores
        .par_iter()
        .zip(samples.par_iter())
        .map(|(&e, s)| (s.result - expected(e, k)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// Mean squared error of the evaluation weighed by `params`.
fn error(v: &VariantRef, params: &Params, samples: &[Sample], k: f64) -> f64 {
    mean_error(&white_scores(v, params, samples), samples, k)
}

/// The logistic scale that fits the untuned evaluation best (golden-section search).
fn fit_scale(v: &VariantRef, params: &Params, samples: &[Sample]) -> f64 {
    let scores = white_scores(v, params, samples);
    let err = |k: f64| mean_error(&scores, samples, k);
    let (mut lo, mut hi) = (0.05f64, 3.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if err(a) < err(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}
