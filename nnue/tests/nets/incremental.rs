//! The accumulators kept up to date from make/unmake's journal equal the ones computed from
//! scratch, at every position of random walks (moves made and taken back, evaluations skipped
//! so that several moves are replayed at once) in every built-in variant: gating, drops, reserve
//! entry, board transfers and turns in parts, multi-leg captures and succession included. The
//! net's evaluation through the search's `Evaluator` trait equals the one from scratch too,
//! at every evaluation of real searches, where nearly all are replays.

use std::collections::BTreeMap;
use std::sync::Arc;

use chimera_engine::registry::{builtin, builtin_names};
use chimera_engine::search::Evaluator;
use chimera_engine::{MoveKind, Position};
use chimera_nnue::accumulator::{full, Accumulators};
use chimera_nnue::eval::{stats_of, NetEval};
use chimera_nnue::features::Layout;
use chimera_nnue::netfile::{QuantNet, QA, QB, SCALE};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn random_net(name: &str, layout: &Layout, hidden: usize, seed: u64) -> QuantNet {
    let mut rng = SmallRng::seed_from_u64(seed);
    let n = layout.num_features();
    QuantNet {
        variant: name.to_string(),
        layout_hash: layout.hash(),
        inputs: n,
        hidden,
        buckets: layout.buckets(),
        scale: SCALE,
        qa: QA,
        qb: QB,
        w1: (0..n * hidden).map(|_| rng.gen_range(-60..60)).collect(),
        b1: (0..hidden).map(|_| rng.gen_range(0..200)).collect(),
        w2: (0..layout.buckets() * 2 * hidden)
            .map(|_| rng.gen_range(-300..300))
            .collect(),
        b2: (0..layout.buckets())
            .map(|_| rng.gen_range(-999..999))
            .collect(),
    }
}

/// Walks `steps` random steps; returns the move kinds made, by name.
fn walk(name: &str, seed: u64, steps: usize) -> BTreeMap<String, usize> {
    walk_with_layout(name, seed, steps, 1, false)
}

/// [`walk`] with a net of `royal` royal buckets that sees Black's side `turned` or not.
fn walk_with_layout(
    name: &str,
    seed: u64,
    steps: usize,
    royal: usize,
    turned: bool,
) -> BTreeMap<String, usize> {
    let v = builtin(name).unwrap();
    let layout = Layout::of(&v)
        .with_royal_buckets(royal)
        .unwrap()
        .with_turned_view(turned);
    let net = Arc::new(random_net(name, &layout, 16, seed));
    let eval = NetEval::new_unscaled(net.clone(), &v).unwrap();
    let mut cache = eval.new_cache();
    let mut acc = Accumulators::new(16);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Position::startpos(&v);
    let mut kinds = BTreeMap::new();
    for step in 0..steps {
        let moves = pos.legal_moves();
        let back = pos.game_ply() > 0 && (moves.is_empty() || rng.gen_bool(0.3));
        if back {
            pos.unmake_move();
        } else if !moves.is_empty() {
            let all = moves.as_slice();
            // Unusual moves are rarer than plain ones: pick them more often than by chance.
            let special: Vec<_> = all
                .iter()
                .copied()
                .filter(|&m| m.kind != MoveKind::Normal || pos.is_capture(m))
                .collect();
            // A capture of a side's last man of a type with an heir (succession) is rarer still.
            let them = pos.side_to_move().opposite();
            let succession: Vec<_> = all
                .iter()
                .copied()
                .filter(|&m| {
                    pos.captured_piece(m).is_some_and(|id| {
                        v.succession().iter().any(|&(lost, heir)| {
                            lost == id && pos.count(them, id) == 1 && pos.count(them, heir) > 0
                        })
                    })
                })
                .collect();
            let mv = if !succession.is_empty() && rng.gen_bool(0.9) {
                *kinds.entry("Succession".to_string()).or_insert(0) += 1;
                succession[rng.gen_range(0..succession.len())]
            } else if !special.is_empty() && rng.gen_bool(0.5) {
                special[rng.gen_range(0..special.len())]
            } else {
                all[rng.gen_range(0..all.len())]
            };
            let label = if pos.is_capture(mv) {
                format!("{:?}+capture", mv.kind)
            } else {
                format!("{:?}", mv.kind)
            };
            *kinds.entry(label).or_insert(0) += 1;
            pos.make_move(mv);
        }
        // Skipping some positions makes the next one replay several moves' edits.
        if rng.gen_bool(0.6) {
            let got = acc.update(&net, &layout, &pos).to_vec();
            assert_eq!(
                got,
                full(&net, &layout, &pos),
                "{name} seed {seed} step {step}: {}",
                pos.fen()
            );
            assert_eq!(
                eval.evaluate_with(&pos, &mut cache),
                eval.evaluate(&pos),
                "{name} seed {seed} step {step}: {}",
                pos.fen()
            );
        }
    }
    let stats = stats_of(&cache).unwrap();
    assert!(
        acc.stats.updates > acc.stats.refreshes,
        "{name}: {:?}",
        acc.stats
    );
    assert!(stats.updates > 0, "{name}: {stats:?}");
    kinds
}

#[test]
fn incremental_accumulators_equal_full_ones_in_every_builtin_variant() {
    for name in builtin_names() {
        let steps = if name == "vanguard" { 600 } else { 150 };
        let mut kinds = BTreeMap::new();
        for seed in 1..=3 {
            for (k, n) in walk(&name, seed, steps) {
                *kinds.entry(k).or_insert(0) += n;
            }
        }
        eprintln!("{name}: {kinds:?}");
        let has = |k: &str| kinds.keys().any(|x| x.starts_with(k));
        match name.as_str() {
            "seirawan" => assert!(has("Gate") || has("CastleGate"), "{kinds:?}"),
            "pawnvault" => assert!(has("Drop"), "{kinds:?}"),
            "pioneer" => assert!(has("Place"), "{kinds:?}"),
            "alice" | "aliceguard" => assert!(has("Transfer"), "{kinds:?}"),
            "vanguard" => assert!(has("Locust") && has("Succession"), "{kinds:?}"),
            _ => {}
        }
    }
}

#[test]
fn royal_buckets_are_kept_incrementally_as_from_scratch() {
    // Kings crossing into other buckets (castling, marching up), captured (extinction),
    // or several of them (a side with none or two reads the first bucket).
    for (name, royal) in [
        ("chess", 4),
        ("chess", 2),
        ("capablanca", 4),
        ("crazyhouse", 4),
        ("pioneer", 2),
        ("aliceguard", 4),
        ("vanguard", 2),
        ("atomic", 4),
    ] {
        let steps = if name == "vanguard" { 600 } else { 300 };
        for seed in 1..=3 {
            walk_with_layout(name, seed, steps, royal, false);
        }
    }
}

#[test]
fn a_turned_net_is_read_turned_and_kept_incrementally() {
    for (name, royal) in [("shogi", 1), ("makruk", 2), ("crazyhouse", 4)] {
        for seed in 1..=2 {
            walk_with_layout(name, seed, 300, royal, true);
        }
        // The engine reads the net the way its hash says: at a start alike for both sides
        // turned, the side to move does not change what the net says.
        let v = builtin(name).unwrap();
        let layout = Layout::of(&v)
            .with_royal_buckets(royal)
            .unwrap()
            .with_turned_view(true);
        let net = Arc::new(random_net(name, &layout, 16, 9));
        let eval = NetEval::new_unscaled(net, &v).unwrap();
        let start = Position::startpos(&v);
        let black_fen = start.fen().replacen(" w ", " b ", 1);
        let black = Position::from_fen(&v, &black_fen).unwrap();
        if name != "crazyhouse" {
            assert_eq!(eval.evaluate(&start), eval.evaluate(&black), "{name}");
        }
    }
}

#[test]
fn a_net_for_another_variant_is_refused() {
    let chess = builtin("chess").unwrap();
    let capa = builtin("capablanca").unwrap();
    let net = Arc::new(random_net("chess", &Layout::of(&chess), 16, 1));
    assert!(NetEval::new(net.clone(), &chess).is_ok());
    let err = NetEval::new(net, &capa).unwrap_err();
    assert!(err.contains("chess") && err.contains("capablanca"), "{err}");
}

/// An evaluator that checks, at every evaluation a search makes, the net's incremental
/// evaluation against one from scratch.
struct Checked(
    NetEval,
    std::sync::Mutex<Option<chimera_nnue::accumulator::Stats>>,
);

impl Evaluator for Checked {
    fn new_cache(&self) -> chimera_engine::search::EvalCache {
        self.0.new_cache()
    }

    fn evaluate_with(
        &self,
        pos: &Position,
        cache: &mut chimera_engine::search::EvalCache,
    ) -> chimera_engine::search::Value {
        let v = self.0.evaluate_with(pos, cache);
        assert_eq!(v, self.0.evaluate(pos), "{}", pos.fen());
        *self.1.lock().unwrap() = stats_of(cache);
        v
    }

    fn piece_value(&self, id: chimera_engine::PieceId) -> chimera_engine::search::Value {
        self.0.piece_value(id)
    }
}

#[test]
fn searches_with_a_net_evaluate_incrementally_as_from_scratch() {
    // On a thread with the stack the engine gives its search threads: a test thread's 2 MB
    // is too little for the deepest lines of some variants.
    std::thread::Builder::new()
        .stack_size(chimera_engine::search::SEARCH_STACK_BYTES)
        .spawn(search_every_builtin_with_a_net)
        .expect("a search thread")
        .join()
        .expect("the searches");
}

fn search_every_builtin_with_a_net() {
    use chimera_engine::search::{Limits, Searcher, Silent};
    for name in builtin_names() {
        let v = builtin(&name).unwrap();
        let layout = Layout::of(&v);
        let net = Arc::new(random_net(&name, &layout, 16, 5));
        let eval = Checked(NetEval::new_unscaled(net, &v).unwrap(), Default::default());
        let mut searcher = Searcher::new(1, 1);
        let mut pos = Position::startpos(&v);
        let limits = Limits {
            nodes: Some(1500),
            ..Limits::default()
        };
        // A few moves of a game, each found by a search (null moves, captures, the whole
        // search's make/unmake order), so that later searches start deeper in the game.
        for _ in 0..6 {
            if pos.outcome().is_some() {
                break;
            }
            let r = searcher.search(&pos, &limits, &eval, &mut Silent);
            let Some(best) = r.best else { break };
            let turn = if r.turn.is_empty() {
                vec![best]
            } else {
                r.turn
            };
            for mv in turn {
                pos.make_move(mv);
            }
        }
        // In a search nearly every evaluation replays a move or two (1,500 nodes a search:
        // the root's children refresh once for their parent, which is not evaluated; joust,
        // whose every move is a knight's leap, has about 10 updates a refresh).
        let stats = eval.1.lock().unwrap().unwrap();
        eprintln!("{name}: {stats:?}");
        // Reversi's first moves are four drops with four or fewer choices each: the root's
        // children (a refresh each) are a large part of such a search.
        let narrow = Position::startpos(&v).legal_moves().len() <= 4;
        assert!(
            stats.updates > 8 * stats.refreshes || narrow && stats.updates > 5 * stats.refreshes,
            "{name}: {stats:?}"
        );
    }
}
