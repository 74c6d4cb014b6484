//! `chimera bench`: a fixed set of positions from several variants searched to a fixed depth
//! with one thread and a 16 MB table, each after a fresh start. The total node count is the
//! search's signature: it changes only when the search (or the evaluation) changes.

use std::io::Write;
use std::time::{Duration, Instant};

use chimera_engine::registry::Registry;
use chimera_engine::search::{Limits, Searcher, Silent};
use chimera_engine::Position;

use crate::net::Nets;

/// The depth `chimera bench` searches to by default.
pub const DEFAULT_DEPTH: u32 = 11;
/// The table size of a bench run, in megabytes.
pub const BENCH_HASH_MB: usize = 16;

/// One bench position: its variant, its FEN, and how many plies shallower than the bench
/// depth it is searched.
pub struct BenchPosition {
    /// The variant's registry name.
    pub variant: &'static str,
    /// The position, in the variant's FEN.
    pub fen: &'static str,
    /// Plies taken off the bench depth (never below depth 1).
    pub shallower: u32,
}

const fn at(variant: &'static str, fen: &'static str) -> BenchPosition {
    BenchPosition {
        variant,
        fen,
        shallower: 0,
    }
}

/// Every bench position: the orthodox and the classic large-board games, then the seed
/// variants (Pawn Vault's drops and gating, a Pioneer game whose entry files are chosen,
/// Alice Guard's two-part turns, Vanguard's 16x16 board).
pub const POSITIONS: &[BenchPosition] = &[
    at("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    at("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    at("chess", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"),
    at("chess", "2r2rk1/pp1bqppp/3p1n2/4p3/2B1P3/2NQ1P2/PPP3PP/2KR3R b - - 3 15"),
    at("chess", "8/5pk1/6p1/3R4/7P/6P1/r4P2/6K1 w - - 0 40"),
    at("chess", "4r1k1/1p3pp1/p1p4p/3n4/3P4/P1N1R2P/1P3PP1/6K1 b - - 1 28"),
    at("capablanca", "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"),
    at("capablanca", "r1abqkbcnr/ppp1pppppp/2n7/3p6/3P6/2N7/PPP1PPPPPP/R1ABQKBCNR w KQkq - 2 3"),
    at("grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"),
    at("berolina", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    at("seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1"),
    at("seirawan", "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R[HEhe] w KQBCDFGkqbcdfg - 4 4"),
    at(
        "pawnvault",
        "rnbqkbnr/popopopo/8/8/8/8/POPOPOPO/RNBQKBNR[DTdt] w KQkq - 0 1",
    ),
    at(
        "pioneer",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4 {M@e m@d}",
    ),
    at(
        "aliceguard",
        "8tsldglstrnbqkbnr/8ffffffffpppppppp/24/24/24/24/PPPPPPPPFFFFFFFF8/RNBQKBNRTSLDGLST8 w2 - - 0 1",
    ),
    // On its 16x16 board Vanguard searches about a third as many nodes a second as chess and
    // branches far more: at the common depth it alone would outlast the rest of the bench.
    BenchPosition {
        variant: "vanguard",
        fen: "huyfbwaqkjcbfyuh/rnzlttoggottlznr/ppppssseessspppp/16/16/16/16/16/16/16/16/16/16/PPPPSSSEESSSPPPP/RNZLTTOGGOTTLZNR/HUYFBWAQKJCBFYUH w - - 0 1",
        shallower: 3,
    },
];

/// The result of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched, all positions together.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Searches every bench position to `depth` with `threads` threads and the engine's own
/// evaluation (the built-in nets where there are, the hand-made evaluation elsewhere), writing
/// one line per position and then `<nodes> nodes <nps> nps`.
pub fn run(
    registry: &Registry,
    depth: u32,
    threads: usize,
    out: &mut impl Write,
) -> Result<BenchResult, String> {
    run_with_nets(registry, depth, threads, &Nets::default(), out)
}

/// Like [`run`], evaluating with `nets` (a user's net, or the hand-made evaluation only).
pub fn run_with_nets(
    registry: &Registry,
    depth: u32,
    threads: usize,
    nets: &Nets,
    out: &mut impl Write,
) -> Result<BenchResult, String> {
    let mut total = 0;
    let mut time = Duration::ZERO;
    let mut searcher = Searcher::new(BENCH_HASH_MB, threads);
    for (i, position) in POSITIONS.iter().enumerate() {
        let variant = position.variant;
        let v = registry
            .get(variant)
            .ok_or_else(|| format!("bench: unknown variant '{variant}'"))?;
        let pos = Position::from_fen(&v, position.fen)
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        let eval = nets.evaluator(&v);
        searcher.clear();
        let limits = Limits {
            depth: Some(depth.saturating_sub(position.shallower).max(1)),
            ..Limits::default()
        };
        let start = Instant::now();
        let r = searcher.search(&pos, &limits, eval.as_ref(), &mut Silent);
        let elapsed = start.elapsed();
        time += elapsed;
        total += r.nodes;
        let best = r.best.map_or("(none)".to_string(), |m| pos.move_text(m));
        writeln!(
            out,
            "{:>2} {:<11} {:>10} nodes {:>7} ms  {} {}",
            i + 1,
            variant,
            r.nodes,
            elapsed.as_millis(),
            best,
            r.score
        )
        .map_err(|e| e.to_string())?;
    }
    let nps = (total as f64 / time.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "{total} nodes {nps} nps").map_err(|e| e.to_string())?;
    Ok(BenchResult { nodes: total, time })
}
