//! Prints positions reached by seeded random games, one FEN per line, for cross-checking perft
//! against another engine: `cargo run --release --example random_fens -- VARIANT COUNT [SEED]`.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use chimera_engine::registry::builtin;
use chimera_engine::Position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args.first().map_or("chess", String::as_str);
    let count: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let Some(v) = builtin(variant) else {
        eprintln!("unknown variant '{variant}'");
        std::process::exit(2);
    };
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut printed = 0;
    while printed < count {
        let mut pos = Position::startpos(&v);
        let plies = rng.gen_range(4..80);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        if !pos.legal_moves().is_empty() {
            println!("{}", pos.fen());
            printed += 1;
        }
    }
}
