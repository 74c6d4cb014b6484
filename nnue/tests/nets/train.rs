//! The trainer on tiny data: a small net's loss goes down over the epochs, its quantised form
//! evaluates within a tolerance of the float net, the net file reads back, and training goes
//! on from a saved net.

use std::sync::Arc;

use chimera_engine::registry::builtin;
use chimera_engine::Position;
use chimera_eval::VariantEval;
use chimera_nnue::data;
use chimera_nnue::datagen::{run, DatagenConfig};
use chimera_nnue::features::Layout;
use chimera_nnue::netfile::QuantNet;
use chimera_nnue::network::FloatNet;
use chimera_nnue::train::{mean_loss, train, Dataset, TrainConfig};

/// The positions of `games` self-play games of `name` at 400 nodes a move (openings by
/// `seed`), read back from their data file.
fn tiny_positions(name: &str, games: u64, seed: u64) -> Vec<(Position, data::Sample)> {
    let v = builtin(name).unwrap();
    let dir = std::env::temp_dir().join(format!("chimera-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A file of its own per call: tests run side by side and ask for the same games.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir
        .join(format!("{name}-{seed}-{call}.txt"))
        .to_string_lossy()
        .into_owned();
    let _ = std::fs::remove_file(&path);
    let cfg = DatagenConfig {
        eval: Arc::new(VariantEval::new(&v)),
        variant: v.clone(),
        nodes: 400,
        games,
        // One thread: the games come in the same order every run, so does the training.
        threads: 1,
        random_plies: 8,
        seed,
        max_plies: 120,
        hash_mb: 1,
    };
    run(&cfg, &path, false).unwrap();
    data::read_file(&path, &v).unwrap().0
}

fn tiny_data(name: &str, games: u64) -> (Layout, Dataset) {
    let layout = Layout::of(&builtin(name).unwrap());
    let d = Dataset::encode(&layout, &tiny_positions(name, games, 3));
    (layout, d)
}

#[test]
fn a_tiny_net_learns_and_quantises_faithfully() {
    let (layout, d) = tiny_data("chess", 6);
    assert!(d.len() > 100, "{}", d.len());
    let cfg = TrainConfig {
        hidden: 32,
        epochs: 12,
        lr: 0.003,
        batch: 64,
        ..TrainConfig::default()
    };
    let mut losses = Vec::new();
    let mut last_validation = None;
    let all: Vec<u32> = (0..d.len() as u32).collect();
    let net = train(&layout, &d, &cfg, |r, _| {
        losses.push(r.train_loss);
        last_validation = r.validation_loss;
        Ok(())
    })
    .unwrap();
    assert_eq!(losses.len(), 12);
    // The held-out positions are the last 5% read (the last games), not a sample of all.
    let held = (d.len() as f32 * cfg.validation) as usize;
    let tail: Vec<u32> = ((d.len() - held) as u32..d.len() as u32).collect();
    let expected = mean_loss(&net, &d, &tail, cfg.lambda);
    assert!(
        (last_validation.unwrap() - expected).abs() < 1e-9,
        "{last_validation:?} against {expected}"
    );
    assert!(
        losses[11] < 0.7 * losses[0],
        "the loss did not go down: {losses:?}"
    );
    let initial = FloatNet::new(&layout, 32, cfg.seed);
    assert!(mean_loss(&net, &d, &all, cfg.lambda) < mean_loss(&initial, &d, &all, cfg.lambda));

    let q = net.quantise("chess", &layout);
    let q = QuantNet::from_bytes(&q.to_bytes()).unwrap();
    q.check_layout("chess", &layout).unwrap();
    // Rounding the first layer to 1/255 moves each hidden sum by a few thousandths, the
    // output weights to 1/256 by less: a few centipawns on average, never far.
    let (mut worst, mut total) = (0.0f32, 0.0f32);
    for i in 0..d.len() {
        let (us, them, bucket) = d.position(i);
        let f = net.evaluate(us, them, bucket);
        let n = q.evaluate_features(us, them, bucket) as f32;
        worst = worst.max((f - n).abs());
        total += (f - n).abs();
        assert!(
            (f - n).abs() <= 15.0 + 0.03 * f.abs(),
            "position {i}: float {f}, quantised {n}"
        );
    }
    let mean = total / d.len() as f32;
    eprintln!("quantisation error: mean {mean:.2} cp, worst {worst:.2} cp");
    assert!(mean < 5.0, "mean quantisation error {mean} cp");
    // A net is refused for another variant's layout.
    let capa = Layout::of(&builtin("capablanca").unwrap());
    assert!(q.check_layout("capablanca", &capa).is_err());

    // A saved net goes on training where it stopped (`--init`): read back as floats it is
    // the same net, and a further epoch at a small step starts near its loss, well below a
    // random net's first epoch.
    let saved = FloatNet::from_quant(&q);
    assert_eq!(saved.quantise("chess", &layout), q);
    let more = TrainConfig {
        start: Some(saved.clone()),
        epochs: 1,
        lr: 0.0003,
        ..cfg.clone()
    };
    let mut resumed = Vec::new();
    train(&layout, &d, &more, |r, _| {
        resumed.push(r.train_loss);
        Ok(())
    })
    .unwrap();
    assert!(
        resumed[0] < 1.2 * losses[11] && resumed[0] < 0.8 * losses[0],
        "resumed at {resumed:?}, the first run went {losses:?}"
    );
    // A starting net for another layout is refused.
    let wrong = TrainConfig {
        start: Some(FloatNet::new(&capa, 32, 1)),
        ..more
    };
    assert!(train(&layout, &d, &wrong, |_, _| Ok(())).is_err());
}

#[test]
fn variants_with_several_boards_and_turn_parts_train() {
    for name in ["aliceguard", "seirawan"] {
        let (layout, d) = tiny_data(name, 1);
        let cfg = TrainConfig {
            hidden: 16,
            epochs: 2,
            batch: 32,
            // Seirawan's hands and Alice Guard's three boards mirror too.
            mirror: true,
            ..TrainConfig::default()
        };
        let net = train(&layout, &d, &cfg, |_, _| Ok(())).unwrap();
        let q = net.quantise(name, &layout);
        assert_eq!(q.buckets, layout.buckets(), "{name}");
        q.check_layout(name, &layout).unwrap();
    }
}

/// A small chess net without buckets, trained briefly, and the settings it was trained with
/// (for training on from it).
fn tiny_chess_net() -> (Layout, FloatNet, TrainConfig) {
    let (plain, d) = tiny_data("chess", 4);
    let cfg = TrainConfig {
        hidden: 16,
        epochs: 3,
        lr: 0.003,
        batch: 64,
        ..TrainConfig::default()
    };
    let net = train(&plain, &d, &cfg, |_, _| Ok(())).unwrap();
    (plain, net, cfg)
}

/// `start` trained on for `layout` (a chess layout) with `cfg`'s settings, and the net as
/// its file reads back.
fn train_on_and_save(
    layout: &Layout,
    data: &Dataset,
    start: FloatNet,
    cfg: TrainConfig,
) -> (FloatNet, QuantNet) {
    let more = TrainConfig {
        start: Some(start),
        ..cfg
    };
    let trained = train(layout, data, &more, |_, _| Ok(())).unwrap();
    let q = QuantNet::from_bytes(&trained.quantise("chess", layout).to_bytes()).unwrap();
    (trained, q)
}

#[test]
fn material_buckets_start_from_a_net_without_them_and_train() {
    let (plain, net, cfg) = tiny_chess_net();
    // Spread over 8 stages, the net says what it said before, position by position.
    let layout = plain.with_material_buckets(8);
    let spread = net.rebucketed(&plain, &layout);
    assert_eq!(spread.buckets, 8);
    // Positions of other games, ending with few men, to see the stages.
    let positions = tiny_positions("chess", 2, 5);
    let bucketed = Dataset::encode(&layout, &positions);
    let flat = Dataset::encode(&plain, &positions);
    let mut stages = std::collections::BTreeSet::new();
    for i in 0..bucketed.len() {
        let (us, them, b) = bucketed.position(i);
        let (_, _, b0) = flat.position(i);
        stages.insert(b);
        assert_eq!(b0, 0);
        let (a, n) = (net.evaluate(us, them, b0), spread.evaluate(us, them, b));
        assert!((a - n).abs() < 1e-3, "position {i}: {a} against {n}");
    }
    assert!(stages.len() > 1, "every position in one stage: {stages:?}");
    // Trained on, the stages part ways; the file keeps them and reads back for chess.
    let (trained, q) = train_on_and_save(&layout, &bucketed, spread, cfg);
    assert_eq!(q.buckets, 8);
    let read = q.layout_for("chess", &plain).unwrap();
    assert_eq!(read.material_buckets(), 8);
    assert_ne!(trained.w2[..32], trained.w2[7 * 32..8 * 32]);
    // A bucket count that no number of stages per part gives is refused.
    let odd = Layout::of(&builtin("aliceguard").unwrap());
    let mut wrong = FloatNet::new(&odd, 16, 1).quantise("aliceguard", &odd);
    wrong.buckets = odd.parts() * 2 + 1;
    assert!(wrong.layout_for("aliceguard", &odd).is_err());
}

#[test]
fn royal_buckets_start_from_a_net_without_them_and_train() {
    let (plain, net, cfg) = tiny_chess_net();
    // Copied into 4 regions of the king, the inputs say what they said, position by
    // position, though each position reads another copy of them.
    let layout = plain.with_royal_buckets(4).unwrap();
    let spread = net.rebucketed(&plain, &layout);
    assert_eq!(spread.inputs, 4 * 768);
    let positions = tiny_positions("chess", 3, 7);
    let bucketed = Dataset::encode(&layout, &positions);
    let flat = Dataset::encode(&plain, &positions);
    let mut regions = std::collections::BTreeSet::new();
    for i in 0..bucketed.len() {
        let (us, them, b) = bucketed.position(i);
        let (us0, them0, b0) = flat.position(i);
        regions.insert(us[0] as usize / 768);
        let (a, n) = (net.evaluate(us0, them0, b0), spread.evaluate(us, them, b));
        assert!((a - n).abs() < 1e-3, "position {i}: {a} against {n}");
    }
    assert!(regions.len() > 1, "every king in one region: {regions:?}");
    // Trained on, the copies part ways; the file's input count gives the buckets back.
    let (trained, q) = train_on_and_save(&layout, &bucketed, spread, cfg);
    let read = q.layout_for("chess", &plain).unwrap();
    assert_eq!(read.royal_buckets(), 4);
    assert_eq!(read.num_features(), 4 * 768);
    let h = trained.hidden;
    assert_ne!(trained.w1[..768 * h], trained.w1[768 * h..2 * 768 * h]);
    // Fewer again: each region takes the old bucket that covers it.
    let two = plain.with_royal_buckets(2).unwrap();
    let back = trained.rebucketed(&layout, &two);
    assert_eq!(back.inputs, 2 * 768);
    assert_eq!(back.w1[768 * h..], trained.w1[2 * 768 * h..3 * 768 * h]);
    // An input count that is no bucket choice is refused.
    let mut wrong = q.clone();
    wrong.inputs = 3 * 768;
    assert!(wrong.layout_for("chess", &plain).is_err());
}

#[test]
fn the_score_scale_follows_the_data_and_stays_with_the_net() {
    // Scores of every size from 1 to 1,000: the median size 500 or so sits at 0.75 of the
    // sigmoid's argument, so the scale is about 667.
    let v = builtin("chess").unwrap();
    let layout = Layout::of(&v);
    let pos = Position::startpos(&v);
    let samples: Vec<(Position, data::Sample)> = (1..=1000)
        .map(|i| {
            let s = data::Sample {
                fen: pos.fen(),
                score: if i % 2 == 0 { i } else { -i },
                result: 0.5,
            };
            (pos.clone(), s)
        })
        .collect();
    let mut d = Dataset::encode(&layout, &samples);
    assert_eq!(d.score_scale(), 400, "the default before any choice");
    let auto = d.auto_score_scale();
    assert!((660..=680).contains(&auto), "{auto}");
    assert_eq!(Dataset::default().auto_score_scale(), 400);
    // A scale changes the targets, so the loss of one net on the same data.
    let net = FloatNet::new(&layout, 16, 1);
    let all: Vec<u32> = (0..d.len() as u32).collect();
    let at_400 = mean_loss(&net, &d, &all, 0.0);
    d.set_score_scale(auto);
    assert_eq!(d.score_scale(), auto);
    let at_auto = mean_loss(&net, &d, &all, 0.0);
    assert!((at_400 - at_auto).abs() > 1e-4, "{at_400} {at_auto}");
    // The file keeps the scale; the engine's evaluation is the output times it.
    let q =
        QuantNet::from_bytes(&net.quantise_with_scale("chess", &layout, auto).to_bytes()).unwrap();
    assert_eq!(q.scale, auto);
    let plain = net.quantise("chess", &layout);
    let (us, them, bucket) = d.position(0);
    let (a, b) = (
        q.evaluate_features(us, them, bucket) as f64,
        plain.evaluate_features(us, them, bucket) as f64,
    );
    assert!(
        (a - b * auto as f64 / 400.0).abs() <= 2.0 + 0.01 * a.abs(),
        "{a} {b}"
    );
}
