//! Opening positions for the games: the variant's start position, the lines of an EPD (or FEN)
//! file, or a few random legal plies from the start. Game pairs share an opening: games 2k
//! and 2k+1 both use opening k, with the colours swapped. Random openings are drawn from a
//! generator seeded by `--seed` and the pair number, so a match is reproducible whatever the
//! concurrency, and an opening whose random plies end the game is drawn again.

use chimera_engine::{Position, VariantRef};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::clock::TimeControl;
use crate::config::OpeningSource;
use crate::player::GameSetup;

/// Where the openings come from, ready to hand out.
pub struct Openings {
    variant: VariantRef,
    tc: TimeControl,
    source: Source,
}

enum Source {
    Start,
    Fens(Vec<String>),
    Random { plies: u32, seed: u64 },
}

/// The position of one EPD line: the longest prefix of its words that is a FEN of the
/// variant (EPD has four fields and then operations; FENs may carry move counters and
/// variant extras).
fn epd_position(variant: &VariantRef, line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    (1..=words.len().min(8)).rev().find_map(|n| {
        let fen = words[..n].join(" ");
        Position::from_fen(variant, &fen).ok().map(|p| p.fen())
    })
}

impl Openings {
    /// Prepares the openings; reads and checks an EPD file at once.
    pub fn new(
        source: &OpeningSource,
        variant: &VariantRef,
        tc: TimeControl,
        seed: u64,
    ) -> Result<Openings, String> {
        let source = match source {
            OpeningSource::StartPosition => Source::Start,
            OpeningSource::RandomPlies(plies) => Source::Random {
                plies: *plies,
                seed,
            },
            OpeningSource::Epd(file) => {
                let text = std::fs::read_to_string(file)
                    .map_err(|e| format!("{file}: cannot read: {e}"))?;
                let mut fens = Vec::new();
                for (n, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    let fen = epd_position(variant, line).ok_or_else(|| {
                        format!(
                            "{file}:{}: not a position of {}: {line}",
                            n + 1,
                            variant.name()
                        )
                    })?;
                    let mut pos = Position::from_fen(variant, &fen).map_err(|e| e.to_string())?;
                    if pos.outcome().is_some() {
                        return Err(format!("{file}:{}: the game is already over", n + 1));
                    }
                    fens.push(fen);
                }
                if fens.is_empty() {
                    return Err(format!("{file}: no positions"));
                }
                Source::Fens(fens)
            }
        };
        Ok(Openings {
            variant: variant.clone(),
            tc,
            source,
        })
    }

    /// The opening of game pair `pair`.
    pub fn for_pair(&self, pair: u32) -> GameSetup {
        let (fen, opening) = match &self.source {
            Source::Start => (None, Vec::new()),
            Source::Fens(fens) => (Some(fens[pair as usize % fens.len()].clone()), Vec::new()),
            Source::Random { plies, seed } => (None, self.random_line(*plies, *seed, pair)),
        };
        GameSetup {
            variant: self.variant.clone(),
            fen,
            opening,
            tc: self.tc,
            // The runner gives each game its colours' own controls.
            side_tc: [self.tc; 2],
        }
    }

    /// `plies` random legal moves from the start that leave a game still in progress.
    fn random_line(&self, plies: u32, seed: u64, pair: u32) -> Vec<String> {
        let mut rng =
            SmallRng::seed_from_u64(seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut best = Vec::new();
        for _attempt in 0..100 {
            let mut pos = Position::startpos(&self.variant);
            let mut line = Vec::new();
            // A ply is a whole turn: in variants whose turns have several parts, parts are
            // drawn until the move passes to the opponent.
            'plies: for _ in 0..plies {
                let before = pos.clone();
                let mut parts = Vec::new();
                loop {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break 'plies;
                    }
                    let mv = moves[rng.gen_range(0..moves.len())];
                    pos.make_move(mv);
                    parts.push(mv);
                    if pos.side_to_move() != before.side_to_move() || pos.outcome().is_some() {
                        break;
                    }
                }
                line.push(before.turn_text(&parts));
            }
            if pos.outcome().is_none() {
                return line;
            }
            if line.len() > best.len() {
                best = line;
            }
        }
        // Nearly impossible; fall back to the start position rather than a finished game.
        best.clear();
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_engine::registry::builtin;

    #[test]
    fn reads_epd_lines_and_random_lines() {
        let chess = builtin("chess").unwrap();
        let fen = epd_position(
            &chess,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id \"x\";",
        )
        .unwrap();
        assert!(fen.starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"));
        assert_eq!(epd_position(&chess, "not a fen"), None);
        let tc = TimeControl::Unlimited;
        let o = Openings::new(&OpeningSource::RandomPlies(6), &chess, tc, 7).unwrap();
        let a = o.for_pair(3);
        assert_eq!(a.opening.len(), 6);
        assert_eq!(a.opening, o.for_pair(3).opening, "reproducible");
        assert_ne!(a.opening, o.for_pair(4).opening);
        let missing = OpeningSource::Epd("/nonexistent.epd".into());
        assert!(Openings::new(&missing, &chess, tc, 1).is_err());
    }
}
