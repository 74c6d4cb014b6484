//! `chimera bench`: a fixed set of positions from several variants searched to a fixed depth
//! with one thread and a 16 MB table, each after a fresh start. The total node count is the
//! search's signature: it changes only when the search (or the evaluation) changes.

use std::io::Write;
use std::time::{Duration, Instant};

use chimera_engine::search::{Limits, Searcher, Silent};
use chimera_engine::variant::Registry;
use chimera_engine::Position;
use chimera_eval::VariantEval;

/// The depth `chimera bench` searches to by default.
pub const DEFAULT_DEPTH: u32 = 11;
/// The table size of a bench run, in megabytes.
pub const BENCH_HASH_MB: usize = 16;

/// (variant, FEN) of every bench position.
pub const POSITIONS: &[(&str, &str)] = &[
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "chess",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    ),
    (
        "chess",
        "2r2rk1/pp1bqppp/3p1n2/4p3/2B1P3/2NQ1P2/PPP3PP/2KR3R b - - 3 15",
    ),
    ("chess", "8/5pk1/6p1/3R4/7P/6P1/r4P2/6K1 w - - 0 40"),
    (
        "chess",
        "4r1k1/1p3pp1/p1p4p/3n4/3P4/P1N1R2P/1P3PP1/6K1 b - - 1 28",
    ),
    (
        "capablanca",
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    ),
    (
        "capablanca",
        "r1abqkbcnr/ppp1pppppp/2n7/3p6/3P6/2N7/PPP1PPPPPP/R1ABQKBCNR w KQkq - 2 3",
    ),
    (
        "grand",
        "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
    ),
    (
        "berolina",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "seirawan",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1",
    ),
    (
        "seirawan",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R[HEhe] w KQBCDFGkqbcdfg - 4 4",
    ),
];

/// The result of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched, all positions together.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Searches every bench position to `depth` with `threads` threads, writing one line per
/// position and then `<nodes> nodes <nps> nps`.
pub fn run(
    registry: &Registry,
    depth: u32,
    threads: usize,
    out: &mut impl Write,
) -> Result<BenchResult, String> {
    let mut total = 0;
    let mut time = Duration::ZERO;
    let mut searcher = Searcher::new(BENCH_HASH_MB, threads);
    for (i, (variant, fen)) in POSITIONS.iter().enumerate() {
        let v = registry
            .get(variant)
            .ok_or_else(|| format!("bench: unknown variant '{variant}'"))?;
        let pos =
            Position::from_fen(&v, fen).map_err(|e| format!("bench position {}: {e}", i + 1))?;
        let eval = VariantEval::new(&v);
        searcher.clear();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let start = Instant::now();
        let r = searcher.search(&pos, &limits, &eval, &mut Silent);
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
