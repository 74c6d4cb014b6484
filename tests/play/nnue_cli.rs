//! The two commands a user trains a net with, run as the binary: `chimera datagen` writes a
//! data file (and adds to it when run again), `chimera train` makes a net of it, and the net
//! loads with `--net` (a search says so by finishing with a best move and no warning); bad
//! arguments end with a message and a non-zero exit code.

use std::process::Command;

fn chimera(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(args)
        .output()
        .expect("the chimera binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A short Capablanca search with the net in `net`.
fn analyze_capablanca(net: &str) -> (bool, String, String) {
    chimera(&[
        "analyze",
        "--variant",
        "capablanca",
        "--depth",
        "2",
        "--net",
        net,
    ])
}

#[test]
fn datagen_then_train_then_load() {
    let dir = std::env::temp_dir().join(format!("chimera-nnue-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("chess.data").to_string_lossy().into_owned();
    let net = dir.join("chess.nnue").to_string_lossy().into_owned();
    let _ = std::fs::remove_file(&data);
    let gen = [
        "datagen",
        "--nodes",
        "200",
        "--games",
        "2",
        "--threads",
        "1",
        "--out",
        &data,
    ];
    let (ok, _, err) = chimera(&gen);
    assert!(ok, "{err}");
    assert!(err.contains("2 games"), "{err}");
    let (ok, _, err) = chimera(&gen);
    assert!(ok && err.contains("2 games there before"), "{err}");
    let text = std::fs::read_to_string(&data).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("#game ")).count(), 4);

    let (ok, _, err) = chimera(&[
        "train", "--data", &data, "--out", &net, "--hidden", "16", "--epochs", "2",
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("epoch 2/2"), "{err}");
    // Chess's start is alike for both sides mirrored: a new net sees Black's side so.
    assert!(err.contains("Black's view mirrored"), "{err}");
    let (ok, out, err) = chimera(&["analyze", "--depth", "3", "--net", &net]);
    assert!(ok && out.contains("bestmove"), "{out}{err}");
    assert!(!err.contains("--net"), "{err}");
    // Trained on as turned, the net records its view, and the engine reads it so.
    let turned = dir.join("chess-turned.nnue").to_string_lossy().into_owned();
    let (ok, _, err) = chimera(&[
        "train", "--data", &data, "--out", &turned, "--epochs", "1", "--init", &net, "--view",
        "turned",
    ]);
    assert!(ok && err.contains("Black's view turned"), "{err}");
    let (ok, out, err) = chimera(&["analyze", "--depth", "3", "--net", &turned]);
    assert!(ok && out.contains("bestmove"), "{out}{err}");
    assert!(!err.contains("--net"), "{err}");
    let (ok, _, err) = chimera(&["train", "--data", &data, "--out", &turned, "--view", "x"]);
    assert!(!ok && err.contains("--view"), "{err}");
    // The net is for chess: in another variant the hand-made evaluation plays, with a note.
    let (ok, out, err) = analyze_capablanca(&net);
    assert!(ok && out.contains("bestmove"), "{out}{err}");
    assert!(err.contains("not for 'capablanca'"), "{err}");
    // Data of one variant does not train another.
    let (ok, _, err) = chimera(&[
        "train",
        "--data",
        &data,
        "--out",
        &net,
        "--variant",
        "grand",
    ]);
    assert!(!ok && err.contains("grand"), "{err}");

    // A chess net starts a Capablanca net: its men and the compounds of them carry over.
    let capa_data = dir.join("capa.data").to_string_lossy().into_owned();
    let capa_net = dir.join("capa.nnue").to_string_lossy().into_owned();
    let _ = std::fs::remove_file(&capa_data);
    let (ok, _, err) = chimera(&[
        "datagen",
        "--variant",
        "capablanca",
        "--nodes",
        "200",
        "--games",
        "1",
        "--threads",
        "1",
        "--out",
        &capa_data,
    ]);
    assert!(ok, "{err}");
    let (ok, _, err) = chimera(&[
        "train", "--data", &capa_data, "--out", &capa_net, "--epochs", "1", "--init", &net,
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("starting from chess's net"), "{err}");
    assert!(err.contains("A=B+N C=R+N"), "{err}");
    assert!(err.contains("hidden 16"), "{err}");
    let (ok, out, err) = analyze_capablanca(&capa_net);
    assert!(ok && out.contains("bestmove"), "{out}{err}");
    assert!(!err.contains("--net"), "{err}");
}

#[test]
fn bad_arguments_are_refused() {
    for args in [
        &["datagen"][..],
        &["datagen", "--out", "x", "--games", "many"],
        &["datagen", "--out", "x", "--variant", "nosuchvariant"],
        &["datagen", "--out", "x", "--frobnicate", "1"],
        &["train"],
        &["train", "--data", "/no/such/file", "--out", "x"],
        &["analyze", "--depth", "1", "--net"],
    ] {
        let (ok, _, err) = chimera(args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.starts_with("chimera:"), "{args:?}: {err}");
    }
}
