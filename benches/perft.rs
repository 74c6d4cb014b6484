//! Criterion benchmarks of move generation through perft: the chess start position and
//! Kiwipete, the Capablanca and Grand start positions, and small positions that isolate one
//! kind of move (leapers only, riders only, S-Chess gating from the hand), and Vanguard Chess
//! (16x16, multi-leg moves) from the start and from a crowded middlegame.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use chimera_engine::registry::builtin;
use chimera_engine::Position;

/// (benchmark name, variant, FEN, depth)
const CASES: &[(&str, &str, &str, u32)] = &[
    (
        "chess-start-d4",
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "kiwipete-d3",
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
    ),
    (
        "capablanca-start-d3",
        "capablanca",
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        3,
    ),
    (
        "grand-start-d3",
        "grand",
        "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
        3,
    ),
    (
        "leapers-d4",
        "chess",
        "1n2k1n1/8/3n4/8/8/4N3/8/1N2K1N1 w - - 0 1",
        4,
    ),
    (
        "riders-d3",
        "chess",
        "q2rk2b/8/8/3r4/2R5/8/8/B2RK2Q w - - 0 1",
        3,
    ),
    (
        "vanguard-start-d3",
        "vanguard",
        "huyfbwaqkjcbfyuh/rnzlttoggottlznr/ppppssseessspppp/16/16/16/16/16/16/16/16/16/16/PPPPSSSEESSSPPPP/RNZLTTOGGOTTLZNR/HUYFBWAQKJCBFYUH w - - 0 1",
        3,
    ),
    // A crowded Vanguard middlegame (a seeded random game, 30 moves in): multi-leg movers,
    // sweeps, swaps and rifle captures everywhere.
    (
        "vanguard-middlegame-d2",
        "vanguard",
        "h1y1bkaq1jcbfyuh/r3ttow1otzl2r/pp1ps1sg2tspp1p/4l1e1e4n2/2p7s5/1zf2s3s5g/11H2p1/1n14/11S1L2/1P3S10/4G11/1N5u6N1/4S2L4P3/P1PP1ZTEESS2PPP/2R1T1OWGOTT1Z1R/1UYFB1AQKJCBFYUH w - - 0 30",
        2,
    ),
    (
        "seirawan-gating-d3",
        "seirawan",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1",
        3,
    ),
];

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for &(name, variant, fen, depth) in CASES {
        let v = builtin(variant).expect("built-in variant");
        let mut pos = Position::from_fen(&v, fen).expect("valid FEN");
        let nodes = pos.perft(depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| black_box(pos.perft(black_box(depth)))));
    }
    group.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
