//! Loading a net through the protocols (UCI `EvalFile`, XBoard `option EvalFile=`): a net
//! made for the variant evaluates (a net that scores every position +775 for the side to
//! move makes a one-ply search say -775), a file that is not a net and a net for another
//! variant are refused with an error line and the hand-made evaluation plays on, and an empty
//! value goes back to it. The built-in chess net plays chess (and only chess) unless
//! `Use NNUE` is off.

use crate::session;
use session::{talk, uci, xboard};

use chimera_engine::registry::builtin;
use chimera_engine::search::{Evaluator, Limits, Searcher, Silent};
use chimera_engine::Position;
use chimera_eval::VariantEval;
use chimera_nnue::builtin::Source;
use chimera_nnue::eval::NetEval;
use chimera_nnue::features::Layout;
use chimera_nnue::netfile::{QuantNet, QA, QB, SCALE};

/// A net for `name` that scores every position `cp` for the side to move (a multiple of 5,
/// so that the output bias is a whole number: QA x QB / SCALE = 163.2).
fn constant_net(name: &str, cp: i32, file: &str) -> String {
    let layout = Layout::of(&builtin(name).unwrap());
    let hidden = 16;
    let net = QuantNet {
        variant: name.into(),
        layout_hash: layout.hash(),
        inputs: layout.num_features(),
        hidden,
        buckets: layout.buckets(),
        scale: SCALE,
        qa: QA,
        qb: QB,
        w1: vec![0; layout.num_features() * hidden],
        b1: vec![0; hidden],
        w2: vec![0; layout.buckets() * 2 * hidden],
        b2: vec![cp * QA * QB / SCALE; layout.buckets()],
    };
    let dir = std::env::temp_dir().join(format!("chimera-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file);
    net.save(path.to_str().unwrap()).unwrap();
    path.to_string_lossy().into_owned()
}

fn scores(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.split(" score ").nth(1))
        .map(|s| s.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn uci_evalfile_loads_refuses_and_falls_back() {
    let net = constant_net("chess", 775, "uci-chess.nnue");
    let (mut d, cap) = uci();
    let lines = talk(&mut d, &cap, &["uci", "isready"]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name EvalFile type string")),
        "{lines:?}"
    );

    let bad = std::env::temp_dir().join(format!("chimera-bad-{}.nnue", std::process::id()));
    std::fs::write(&bad, b"not a net at all").unwrap();
    let set_bad = format!("setoption name EvalFile value {}", bad.display());
    let lines = talk(&mut d, &cap, &[&set_bad, "position startpos", "go depth 1"]);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error") && l.contains("magic")),
        "{lines:?}"
    );
    assert!(
        !scores(&lines).contains(&"cp -775".to_string()),
        "{lines:?}"
    );

    let set = format!("setoption name EvalFile value {net}");
    let lines = talk(&mut d, &cap, &[&set, "position startpos", "go depth 1"]);
    assert_eq!(
        scores(&lines).last().map(String::as_str),
        Some("cp -775"),
        "{lines:?}"
    );

    // Another variant: the net does not fit, the hand-made evaluation plays.
    let lines = talk(
        &mut d,
        &cap,
        &[
            "setoption name UCI_Variant value capablanca",
            "position startpos",
            "go depth 1",
        ],
    );
    assert!(
        !scores(&lines).contains(&"cp -775".to_string()),
        "{lines:?}"
    );
    // Back to chess: the net plays again.
    let lines = talk(
        &mut d,
        &cap,
        &[
            "setoption name UCI_Variant value chess",
            "position startpos",
            "go depth 1",
        ],
    );
    assert_eq!(
        scores(&lines).last().map(String::as_str),
        Some("cp -775"),
        "{lines:?}"
    );
    // A net for another variant than the current one is an error line, and chess goes to
    // its built-in net.
    let capa = constant_net("capablanca", 555, "uci-capablanca.nnue");
    let lines = talk(
        &mut d,
        &cap,
        &[&format!("setoption name EvalFile value {capa}")],
    );
    assert!(
        lines.iter().any(|l| l.contains("error")
            && l.contains("capablanca")
            && l.contains("the built-in net plays chess")),
        "{lines:?}"
    );
    // Empty: the hand-made evaluation.
    let lines = talk(
        &mut d,
        &cap,
        &[
            "setoption name EvalFile value <empty>",
            "position startpos",
            "go depth 1",
        ],
    );
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert!(
        !scores(&lines).contains(&"cp -775".to_string()),
        "{lines:?}"
    );
}

#[test]
fn xboard_option_evalfile_loads_a_net() {
    let net = constant_net("chess", 775, "xboard-chess.nnue");
    let (mut d, cap) = xboard();
    let lines = talk(&mut d, &cap, &["xboard", "protover 2"]);
    assert!(
        lines.iter().any(|l| l.contains("option=\"EvalFile -file")),
        "{lines:?}"
    );
    let set = format!("option EvalFile={net}");
    let lines = talk(&mut d, &cap, &[&set, "new", "post", "sd 1", "go"]);
    assert!(!lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
    // Thinking output: depth, score, time, nodes, PV.
    let thinking: Vec<&String> = lines.iter().filter(|l| l.starts_with("1 ")).collect();
    assert!(
        thinking
            .iter()
            .any(|l| l.split_whitespace().nth(1) == Some("-775")),
        "{lines:?}"
    );
    let lines = talk(&mut d, &cap, &["option EvalFile=/no/such/file.nnue"]);
    assert!(lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
}

/// The score a one-thread search of `variant`'s start position to `depth` gives with `eval`,
/// as the protocols print it.
fn expected_score(variant: &str, depth: u32, eval: &dyn Evaluator) -> String {
    let v = builtin(variant).unwrap();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = Searcher::new(16, 1).search(&Position::startpos(&v), &limits, eval, &mut Silent);
    r.score.to_string()
}

#[test]
fn the_chess_net_is_built_in_and_use_nnue_turns_it_off() {
    let chess = builtin("chess").unwrap();
    let net = chimera_nnue::builtin::net_for("chess").expect("a built-in chess net");
    let with_net = expected_score("chess", 3, &NetEval::new(net, &chess).unwrap());
    let by_hand = expected_score("chess", 3, &VariantEval::new(&chess));
    assert_ne!(with_net, by_hand, "the two evaluations must be told apart");

    let (mut d, cap) = uci();
    let lines = talk(&mut d, &cap, &["uci"]);
    assert!(
        lines.contains(&"option name Use NNUE type check default true".to_string()),
        "{lines:?}"
    );
    let search = ["ucinewgame", "position startpos", "go depth 3"];
    let lines = talk(&mut d, &cap, &search);
    assert_eq!(scores(&lines).last(), Some(&with_net), "{lines:?}");
    let lines = talk(&mut d, &cap, &["setoption name Use NNUE value false"]);
    assert!(lines.is_empty(), "{lines:?}");
    let lines = talk(&mut d, &cap, &search);
    assert_eq!(scores(&lines).last(), Some(&by_hand), "{lines:?}");
    let lines = talk(&mut d, &cap, &["setoption name Use NNUE value perhaps"]);
    assert!(lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let lines = talk(&mut d, &cap, &["setoption name Use NNUE value true"]);
    assert!(lines.is_empty(), "{lines:?}");
    let lines = talk(&mut d, &cap, &search);
    assert_eq!(scores(&lines).last(), Some(&with_net), "{lines:?}");
}

#[test]
fn the_chess_net_plays_chess_only() {
    // King of the hill has chess's pieces and board, so the chess net would fit its inputs;
    // the built-in nets go by name, and the hill is left to the hand-made evaluation.
    let koth = builtin("kingofthehill").unwrap();
    let by_hand = expected_score("kingofthehill", 3, &VariantEval::new(&koth));
    let (mut d, cap) = uci();
    let lines = talk(
        &mut d,
        &cap,
        &[
            "setoption name UCI_Variant value kingofthehill",
            "position startpos",
            "go depth 3",
        ],
    );
    assert_eq!(scores(&lines).last(), Some(&by_hand), "{lines:?}");
    let choice = chimera_nnue::builtin::choose(&koth, None, true);
    assert_eq!(choice.source, Source::Hand);
    let chess = builtin("chess").unwrap();
    assert_eq!(
        chimera_nnue::builtin::choose(&chess, None, true).source,
        Source::BuiltinNet
    );
    assert_eq!(
        chimera_nnue::builtin::choose(&chess, None, false).source,
        Source::Hand
    );
}

#[test]
fn xboard_use_nnue_is_a_check_option() {
    let chess = builtin("chess").unwrap();
    let by_hand = expected_score("chess", 2, &VariantEval::new(&chess));
    let (mut d, cap) = xboard();
    let lines = talk(&mut d, &cap, &["xboard", "protover 2"]);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("option=\"Use NNUE -check 1\"")),
        "{lines:?}"
    );
    let lines = talk(
        &mut d,
        &cap,
        &["option Use NNUE=0", "new", "post", "sd 2", "go"],
    );
    assert!(!lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
    let cp = by_hand.strip_prefix("cp ").expect("a centipawn score");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("2 ") && l.split_whitespace().nth(1) == Some(cp)),
        "{lines:?}"
    );
    let lines = talk(&mut d, &cap, &["option Use NNUE=maybe"]);
    assert!(lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
}
