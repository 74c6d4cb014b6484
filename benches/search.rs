//! Criterion benchmarks of the search: fixed-depth searches of a chess middlegame and of the
//! Capablanca start position (one thread, fresh table each time), and the evaluation alone.

use criterion::{black_box, criterion_group, criterion_main, Criterion};

use chimera_engine::registry::builtin;
use chimera_engine::search::{Evaluator, Limits, Searcher, Silent};
use chimera_engine::Position;
use chimera_eval::VariantEval;

const CASES: &[(&str, &str, &str, u32)] = &[
    (
        "chess-middlegame-d8",
        "chess",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        8,
    ),
    (
        "capablanca-start-d6",
        "capablanca",
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        6,
    ),
];

fn search(c: &mut Criterion) {
    for &(name, variant, fen, depth) in CASES {
        let v = builtin(variant).unwrap();
        let pos = Position::from_fen(&v, fen).unwrap();
        let eval = VariantEval::new(&v);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        c.bench_function(name, |b| {
            b.iter(|| {
                let mut s = Searcher::new(16, 1);
                black_box(s.search(&pos, &limits, &eval, &mut Silent).nodes)
            })
        });
    }
    let v = builtin("chess").unwrap();
    let pos = Position::from_fen(&v, CASES[0].2).unwrap();
    let eval = VariantEval::new(&v);
    // With a thread's cache, as the search evaluates.
    let mut cache = eval.new_cache();
    c.bench_function("evaluate-chess-middlegame", |b| {
        b.iter(|| black_box(eval.evaluate_with(black_box(&pos), &mut cache)))
    });
}

criterion_group!(benches, search);
criterion_main!(benches);
