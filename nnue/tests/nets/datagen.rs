//! A tiny self-play run writes a data file that reads back: every position line parses and
//! is a legal position of the variant, the counts match the run's summary, a second run
//! appends games numbered on, a line cut short by an interrupted run is dropped, and a file of
//! another variant is refused.

use std::sync::Arc;

use chimera_engine::registry::builtin;
use chimera_eval::VariantEval;
use chimera_nnue::data;
use chimera_nnue::datagen::{run, DatagenConfig};

fn config(name: &str, games: u64, seed: u64) -> DatagenConfig {
    let v = builtin(name).unwrap();
    DatagenConfig {
        eval: Arc::new(VariantEval::new(&v)),
        variant: v,
        nodes: 300,
        games,
        threads: 2,
        random_plies: 6,
        seed,
        max_plies: 60,
        hash_mb: 1,
    }
}

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("chimera-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p.to_string_lossy().into_owned()
}

#[test]
fn a_tiny_run_reads_back_and_resumes() {
    let path = temp("chess.txt");
    let cfg = config("chess", 3, 5);
    let first = run(&cfg, &path, false).unwrap();
    assert_eq!(first.games, 3);
    assert_eq!(first.games_before, 0);
    let (positions, skipped) = data::read_file(&path, &cfg.variant).unwrap();
    assert_eq!(skipped, 0);
    assert_eq!(positions.len() as u64, first.positions);
    assert!(first.positions > 10, "{first:?}");
    for (pos, s) in &positions {
        assert!(pos.validate().is_ok());
        assert!([0.0, 0.5, 1.0].contains(&s.result));
        assert!(s.score.abs() < 20_000);
        assert!(!pos.clone().in_check(), "{}", s.fen);
    }
    // An interrupted run leaves half a line: the next run cuts it and goes on.
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}rnbqkbnr/pppp")).unwrap();
    let second = run(&config("chess", 2, 5), &path, false).unwrap();
    assert_eq!(second.games_before, 3);
    let text = std::fs::read_to_string(&path).unwrap();
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("#game ")).collect();
    assert_eq!(games.len(), 5);
    for (i, g) in games.iter().enumerate() {
        let index: u64 = g.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(index < 5, "{g}");
        assert!(
            games
                .iter()
                .filter(|h| h.split_whitespace().nth(1) == Some(&i.to_string()))
                .count()
                == 1
        );
    }
    let (positions, skipped) = data::read_file(&path, &cfg.variant).unwrap();
    assert_eq!(skipped, 0);
    assert_eq!(positions.len() as u64, first.positions + second.positions);
    // Another variant's file is refused, for writing and for reading.
    let err = run(&config("capablanca", 1, 1), &path, false).unwrap_err();
    assert!(err.contains("variant"), "{err}");
    assert!(data::read_file(&path, &builtin("grand").unwrap()).is_err());
}

#[test]
fn variants_with_hands_and_turn_parts_generate_data() {
    for name in ["seirawan", "aliceguard", "pioneer"] {
        let Some(_) = builtin(name) else { continue };
        let path = temp(&format!("{name}.txt"));
        let cfg = config(name, 1, 9);
        let s = run(&cfg, &path, false).unwrap();
        let (positions, skipped) = data::read_file(&path, &cfg.variant).unwrap();
        assert_eq!(skipped, 0, "{name}");
        assert_eq!(positions.len() as u64, s.positions, "{name}");
    }
}

#[test]
fn a_turn_of_two_parts_gives_positions_of_both() {
    // Alice Guard's turns are a Home-set move and then a Guard-set move by the same player;
    // a search evaluates positions of both parts, so the data must hold both.
    let path = temp("aliceguard-parts.txt");
    let cfg = config("aliceguard", 2, 7);
    let summary = run(&cfg, &path, false).unwrap();
    let (positions, skipped) = data::read_file(&path, &cfg.variant).unwrap();
    assert_eq!((skipped, positions.len() as u64), (0, summary.positions));
    let layout = chimera_nnue::features::Layout::of(&cfg.variant);
    assert_eq!(layout.parts(), 2);
    let mut per_part = [0; 2];
    for (pos, _) in &positions {
        per_part[layout.bucket(pos)] += 1;
    }
    assert!(per_part[0] > 5 && per_part[1] > 5, "{per_part:?}");
}
