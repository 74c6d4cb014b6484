//! Loading a net through the protocols (UCI `EvalFile`, XBoard `option EvalFile=`): a net
//! made for the variant evaluates (a net that scores every position +775 for the side to
//! move makes a one-ply search say -775), a file that is not a net and a net for another
//! variant are refused with an error line and the hand-made evaluation plays on, and an empty
//! value goes back to it.

mod session;
use session::{talk, uci, xboard};

use chimera_engine::registry::builtin;
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
    // A net for another variant than the current one is an error line.
    let capa = constant_net("capablanca", 555, "uci-capablanca.nnue");
    let lines = talk(
        &mut d,
        &cap,
        &[&format!("setoption name EvalFile value {capa}")],
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error") && l.contains("capablanca")),
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
