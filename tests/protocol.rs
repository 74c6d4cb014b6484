//! Transcript tests of the GUI protocols: whole UCI and XBoard conversations replayed
//! in-process through `input::Driver`, with the engine's lines captured and checked. Searches
//! are bounded by depth or stopped explicitly, so nothing depends on timing.

mod session;
use session::{talk, uci, xboard};

use chimera_engine::registry::Registry;
use chimera_engine::Position;
use chimera_protocol::xboard::present;
use chimera_protocol::xboard::translate::{shift_ranks, xboard_knows};

/// The engine's move in XBoard output: a multi-leg move comes one leg per `move` line, every
/// leg but the last ending with a comma, and is joined back into one token here.
fn xboard_move(lines: &[String]) -> Option<String> {
    let mut text = String::new();
    for l in lines {
        if let Some(leg) = l.strip_prefix("move ") {
            text.push_str(leg);
            if !leg.ends_with(',') {
                return Some(text);
            }
        }
    }
    None
}

fn bestmoves(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("bestmove")).collect()
}

#[test]
fn uci_handshake_lists_options_and_variants() {
    let (mut d, cap) = uci();
    let out = talk(&mut d, &cap, &["uci", "isready"]);
    assert!(out[0].starts_with("id name Chimera"), "{out:?}");
    for opt in [
        "option name Hash type spin",
        "option name Threads type spin",
        "option name MultiPV type spin",
        "option name Ponder type check",
        "option name Move Overhead type spin",
        "option name VariantPath type string",
    ] {
        assert!(out.iter().any(|l| l.starts_with(opt)), "{opt}: {out:?}");
    }
    let combo = out
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo default chess"))
        .expect("UCI_Variant");
    for v in Registry::new().names() {
        assert!(combo.contains(&format!(" var {v}")), "{v}");
    }
    assert!(combo.contains(" var standard"));
    // Fairy-Stockfish's names of its chess-like built-ins.
    for name in [
        " var normal",
        " var fischerandom",
        " var atomic",
        " var spartan",
    ] {
        assert!(combo.contains(name), "{name}");
    }
    assert_eq!(&out[out.len() - 2..], ["uciok", "readyok"]);
}

#[test]
fn uci_go_depth_gives_exactly_one_legal_bestmove() {
    let (mut d, cap) = uci();
    let out = talk(
        &mut d,
        &cap,
        &["uci", "position startpos moves e2e4 e7e5", "go depth 3"],
    );
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty());
    assert!(infos[0].contains(" score cp ") || infos[0].contains(" score mate "));
    assert!(infos[0].contains(" pv "));
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1, "{out:?}");
    let mv = best[0].split_whitespace().nth(1).unwrap();
    let v = Registry::new().get("chess").unwrap();
    let mut pos = Position::startpos(&v);
    pos.try_play("e2e4").unwrap();
    pos.try_play("e7e5").unwrap();
    assert!(pos.parse_move(mv).is_ok(), "{mv}");
}

#[test]
fn uci_bad_input_gets_info_string_and_keeps_the_state() {
    let (mut d, cap) = uci();
    talk(&mut d, &cap, &["uci", "position startpos moves e2e4"]);
    let fen = d.dialect.state.position.fen();
    for bad in [
        "position fen 8/8/8 w - - 0 1",
        "position startpos moves e2e4 e2e4",
        "position startpos moves z9z9",
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name UCI_Variant value nosuchvariant",
        "setoption name NoSuchOption value 1",
        "frobnicate",
    ] {
        let out = talk(&mut d, &cap, &[bad]);
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("info string error"), "{bad}: {out:?}");
        assert_eq!(d.dialect.state.position.fen(), fen, "{bad}");
    }
    assert_eq!(d.dialect.state.variant.name(), "chess");
    assert_eq!(d.dialect.state.options.hash_mb, 16);
    let out = talk(&mut d, &cap, &["isready"]);
    assert_eq!(out, ["readyok"]);
}

#[test]
fn uci_go_with_bad_values_reports_them_and_still_answers_with_a_move() {
    let (mut d, cap) = uci();
    talk(&mut d, &cap, &["uci", "position startpos moves e2e4"]);
    let fen = d.dialect.state.position.fen();
    // Black to move: the bad white increment leaves Black's clock to plan with; the bad depth
    // leaves nothing, so the search goes to depth 1 rather than waiting for a `stop`.
    for (bad, errors) in [
        ("go wtime 5000 btime 5000 winc zz binc 0", 1),
        ("go depth x", 2),
        ("go btime -x", 2),
        ("go frob depth 2", 1),
    ] {
        let out = talk(&mut d, &cap, &[bad]);
        let reported = out
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count();
        assert_eq!(reported, errors, "{bad}: {out:?}");
        let best = bestmoves(&out);
        assert_eq!(best.len(), 1, "{bad}: {out:?}");
        let mv = best[0].split_whitespace().nth(1).unwrap();
        let mut pos = d.dialect.state.position.clone();
        assert!(pos.parse_move(mv).is_ok(), "{bad}: {mv}");
        assert_eq!(d.dialect.state.position.fen(), fen, "{bad}");
    }
}

#[test]
fn uci_infinite_search_answers_isready_and_stops_with_one_bestmove() {
    let (mut d, cap) = uci();
    let out = talk(
        &mut d,
        &cap,
        &["position startpos", "go infinite", "isready"],
    );
    assert!(out.contains(&"readyok".to_string()));
    assert!(
        bestmoves(&out).is_empty(),
        "no bestmove before stop: {out:?}"
    );
    let out = talk(&mut d, &cap, &["stop", "isready"]);
    assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
    assert_eq!(out.last().unwrap(), "readyok");
    assert!(!d.dialect.state.searching());
}

#[test]
fn uci_ponder_then_ponderhit_ends_with_one_bestmove() {
    let (mut d, cap) = uci();
    let out = talk(
        &mut d,
        &cap,
        &["position startpos", "go ponder depth 2", "ponderhit"],
    );
    assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
}

#[test]
fn uci_variant_switch_announces_and_perft_counts() {
    let (mut d, cap) = uci();
    let out = talk(
        &mut d,
        &cap,
        &[
            "setoption name uci_variant value capablanca",
            "position startpos",
            "go perft 1",
        ],
    );
    assert!(
        out[0].starts_with("info string variant capablanca files 10 ranks 8 pocket 0 template"),
        "{out:?}"
    );
    assert!(out[0].contains("startpos rnabqkbcnr/"), "{out:?}");
    assert_eq!(out.last().unwrap(), "Nodes searched: 28");
    assert_eq!(out[out.len() - 2], "");
    assert_eq!(out.len(), 1 + 28 + 2);
    let out = talk(
        &mut d,
        &cap,
        &["setoption name UCI_Variant value standard", "go perft 2"],
    );
    assert_eq!(out.last().unwrap(), "Nodes searched: 400");
}

#[test]
fn uci_commands_sent_during_a_search_wait_for_its_bestmove() {
    let (mut d, cap) = uci();
    let out = talk(
        &mut d,
        &cap,
        &[
            "position startpos",
            "go infinite",
            "position startpos moves e2e4",
            "stop",
            "go depth 1",
        ],
    );
    let best = bestmoves(&out);
    assert_eq!(best.len(), 2, "{out:?}");
    // The second search ran in the position after e2e4: Black's reply.
    let mv = best[1].split_whitespace().nth(1).unwrap();
    assert!(mv.ends_with('6') || mv.ends_with('5'), "{mv}");
}

#[test]
fn uci_mated_side_gets_bestmove_none() {
    let (mut d, cap) = uci();
    let out = talk(
        &mut d,
        &cap,
        &["position startpos moves f2f3 e7e5 g2g4 d8h4", "go depth 2"],
    );
    assert_eq!(bestmoves(&out), ["bestmove (none)"]);
}

#[test]
fn xboard_handshake_and_pong_ordering() {
    let (mut d, cap) = xboard();
    let out = talk(&mut d, &cap, &["xboard", "protover 2"]);
    assert_eq!(out.first().unwrap(), "feature done=0");
    assert_eq!(out.last().unwrap(), "feature done=1");
    let all = out.join(" ");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "playother=1",
        "colors=0",
        "time=1",
        "reuse=1",
        "analyze=1",
        "san=0",
        "sigint=0",
        "sigterm=0",
        "memory=1",
        "smp=1",
        "exclude=1",
        "myname=\"Chimera",
    ] {
        assert!(all.contains(f), "{f}: {all}");
    }
    assert!(all.contains("variants=\"normal,capablanca,grand,"), "{all}");
    // Fairy-Stockfish's chess-like built-ins are offered under their names.
    for name in [",fischerandom,", ",atomic,", ",coregal,", ",shako,"] {
        assert!(all.contains(name), "{name}: {all}");
    }
    // The engine plays Black after `new`; its move comes before the pong that follows it.
    let out = talk(
        &mut d,
        &cap,
        &[
            "accepted done",
            "new",
            "sd 2",
            "post",
            "usermove e2e4",
            "ping 7",
        ],
    );
    let mv = out
        .iter()
        .position(|l| l.starts_with("move "))
        .expect("move");
    let pong = out.iter().position(|l| l == "pong 7").expect("pong");
    assert!(mv < pong, "{out:?}");
    assert!(
        out[..mv].iter().any(|l| l.contains('\t')),
        "thinking output: {out:?}"
    );
}

#[test]
fn xboard_capablanca_game_moves_and_rejects_illegal_moves() {
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &[
            "xboard",
            "protover 2",
            "new",
            "variant capablanca",
            "sd 2",
            "ping 1",
        ],
    );
    assert!(
        !out.iter().any(|l| l.starts_with("setup")),
        "XBoard knows capablanca"
    );
    assert_eq!(out.last().unwrap(), "pong 1");
    let out = talk(&mut d, &cap, &["usermove e2e4"]);
    let mv = out.iter().find(|l| l.starts_with("move ")).expect("move");
    let mv = mv.strip_prefix("move ").unwrap();
    assert!(d.dialect.state.position.fen().contains(" w "), "{mv}");
    let out = talk(&mut d, &cap, &["usermove e2e4"]);
    assert_eq!(out, ["Illegal move: e2e4"]);
    let out = talk(&mut d, &cap, &["usermove zz"]);
    assert!(out[0].starts_with("Illegal move"), "{out:?}");
    let fen = d.dialect.state.position.fen();
    let out = talk(&mut d, &cap, &["setboard 8/8/8 w - - 0 1"]);
    assert!(out.iter().any(|l| l.starts_with("Error")), "{out:?}");
    assert_eq!(d.dialect.state.position.fen(), fen);
    let out = talk(&mut d, &cap, &["frobnicate", "memory 32", "ping 2"]);
    assert_eq!(out, ["Error (unknown command): frobnicate", "pong 2"]);
}

#[test]
fn xboard_force_mode_takes_the_dummy_move_silently_then_setboard() {
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &[
            "new",
            "force",
            "usermove b2b3",
            "setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "usermove g1f3",
            "undo",
            "usermove d2d4",
            "ping 3",
        ],
    );
    assert_eq!(out, ["pong 3"]);
    assert!(d
        .dialect
        .state
        .position
        .fen()
        .starts_with("rnbqkbnr/pppp1ppp/8/4p3/3PP3/"));
}

#[test]
fn xboard_game_to_the_end_claims_the_result() {
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &[
            "new",
            "force",
            "usermove f2f3",
            "usermove e7e5",
            "usermove g2g4",
            "sd 3",
            "go",
        ],
    );
    assert!(out.iter().any(|l| l == "move d8h4"), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("0-1 {")), "{out:?}");
    let out = talk(&mut d, &cap, &["result 0-1 {Black mates}", "new", "ping 4"]);
    assert_eq!(out, ["pong 4"]);
}

#[test]
fn xboard_analyze_exit_and_engine_defined_setup() {
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &["new", "post", "analyze", "usermove e2e4", "exit", "ping 5"],
    );
    assert!(!out.iter().any(|l| l.starts_with("move ")), "{out:?}");
    assert_eq!(out.last().unwrap(), "pong 5");
    let out = talk(&mut d, &cap, &["new", "variant vanguard", "ping 6"]);
    assert!(out[0].starts_with("setup ("), "{out:?}");
    assert!(out[0].contains(" 16x16+0_"), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("piece P& ")), "{out:?}");
    assert_eq!(out.last().unwrap(), "pong 6");
    let out = talk(&mut d, &cap, &["variant nosuch"]);
    assert_eq!(out, ["Error (unknown variant): nosuch"]);
}

#[test]
fn xboard_grand_uses_zero_based_ranks() {
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &["new", "variant grand", "force", "usermove e2e4", "ping 1"],
    );
    assert_eq!(out, ["pong 1"], "e2e4 on the wire is e3e5 in Grand");
    assert!(d.dialect.state.position.fen().contains("4P5"));
    assert_eq!(shift_ranks("a10b9,c0d1q", 1), "a11b10,c1d2q");
    assert!(xboard_knows("grand") && xboard_knows("chess") && !xboard_knows("vanguard"));
}

/// The client script: a few depth-limited moves and an analysis through python-chess, in
/// each protocol; it prints one `ok <protocol>` line per protocol that worked.
const PYTHON_CLIENT: &str = r#"
import sys, chess, chess.engine
for proto in ("uci", "xboard"):
    popen = chess.engine.SimpleEngine.popen_uci if proto == "uci" else chess.engine.SimpleEngine.popen_xboard
    eng = popen([sys.argv[1]])
    board = chess.Board()
    for ply in range(6):
        # Pondering between moves from the second move on (hard / go ponder).
        result = eng.play(board, chess.engine.Limit(depth=2), ponder=ply >= 2)
        assert result.move in board.legal_moves, result.move
        board.push(result.move)
    info = eng.analyse(board, chess.engine.Limit(depth=2))
    assert info.get("score") is not None
    if proto == "uci":
        lines = eng.analyse(board, chess.engine.Limit(depth=3), multipv=3)
        assert len(lines) == 3, lines
        assert len({l["pv"][0] for l in lines}) == 3, lines
        only = list(board.legal_moves)[:2]
        info = eng.analyse(board, chess.engine.Limit(depth=3), root_moves=only)
        assert info["pv"][0] in only, info
    eng.quit()
    print("ok", proto)
"#;

/// Runs `python3` with `args`; `None` when it cannot be started at all.
fn python(args: &[&str]) -> Option<std::process::Output> {
    std::process::Command::new("python3")
        .args(args)
        .output()
        .ok()
}

#[test]
fn python_chess_client_plays_both_protocols() {
    // Without Python there is no client to run: skip, saying so. With Python, python-chess
    // is installed here if it is missing (the test's own set-up); only a machine that cannot
    // reach the package index skips then. Once the client runs, any failure fails the test.
    if !python(&["--version"]).is_some_and(|o| o.status.success()) {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let has_chess = || python(&["-c", "import chess.engine"]).is_some_and(|o| o.status.success());
    if !has_chess() {
        let pip = python(&["-m", "pip", "install", "--quiet", "chess"]);
        if !has_chess() {
            let why = pip.map_or("pip did not start".to_string(), |o| {
                String::from_utf8_lossy(&o.stderr).into_owned()
            });
            eprintln!("skipped: python-chess is missing and 'pip install chess' failed: {why}");
            return;
        }
    }
    let out = std::process::Command::new("python3")
        .args(["-c", PYTHON_CLIENT, env!("CARGO_BIN_EXE_chimera")])
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.lines().collect::<Vec<_>>(), ["ok uci", "ok xboard"]);
}

/// Whole games through UCI in the seed variants with drops, gating, reserve men and multi-leg
/// moves: each `bestmove` is a legal move of the position the GUI holds, and is sent back in the
/// next `position ... moves ...` line, until the game ends or 60 plies are played.
#[test]
fn uci_plays_the_seed_variants_without_illegal_moves() {
    for variant in ["pawnvault", "pioneer", "pioneer-two", "vanguard"] {
        let (mut d, cap) = uci();
        talk(
            &mut d,
            &cap,
            &[
                "uci",
                &format!("setoption name UCI_Variant value {variant}"),
                "ucinewgame",
                "isready",
            ],
        );
        let v = Registry::new().get(variant).unwrap();
        let mut pos = Position::startpos(&v);
        let mut played: Vec<String> = Vec::new();
        for _ in 0..60 {
            let position = if played.is_empty() {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {}", played.join(" "))
            };
            let out = talk(&mut d, &cap, &[&position, "go nodes 1000"]);
            let best = bestmoves(&out);
            assert_eq!(best.len(), 1, "{variant}: {out:?}");
            let mv = best[0].split_whitespace().nth(1).unwrap().to_string();
            if mv == "(none)" {
                assert!(
                    pos.legal_moves().is_empty(),
                    "{variant}: (none) with legal moves"
                );
                break;
            }
            pos.try_play(&mv)
                .unwrap_or_else(|e| panic!("{variant}: engine played {mv}: {e} in {}", pos.fen()));
            assert!(
                out.iter().all(|l| !l.contains("error")),
                "{variant}: {out:?}"
            );
            played.push(mv);
        }
        assert!(played.len() >= 20, "{variant}: only {} plies", played.len());
    }
}

/// The same through XBoard: the engine, told `go` on each turn (with `force` in between), plays
/// both sides of Pawn Vault, Pioneer and Vanguard games; every `move` is legal.
#[test]
fn xboard_plays_the_seed_variants_without_illegal_moves() {
    for variant in ["pawnvault", "pioneer", "vanguard"] {
        let (mut d, cap) = xboard();
        talk(
            &mut d,
            &cap,
            &[
                "xboard",
                "protover 2",
                "new",
                &format!("variant {variant}"),
                "sd 1",
                "force",
            ],
        );
        let v = Registry::new().get(variant).unwrap();
        let mut pos = Position::startpos(&v);
        let mut plies = 0;
        for _ in 0..40 {
            let out = talk(&mut d, &cap, &["go", "force", "ping 1"]);
            let Some(mv) = xboard_move(&out) else {
                assert!(
                    pos.legal_moves().is_empty() || out.iter().any(|l| l.contains('{')),
                    "{variant}: no move: {out:?}"
                );
                break;
            };
            // The wire forms of present.rs (Pioneer's choice `g1g4,g4g1`, entries `g1f3m`)
            // first, then Chimera's own notation.
            let mv = mv.as_str();
            let parsed = match present::match_wire(&pos, present::style(&v), mv) {
                Some(m) => Ok(m),
                None => pos.clone().parse_move(mv),
            };
            let m = parsed
                .unwrap_or_else(|e| panic!("{variant}: engine played {mv}: {e} in {}", pos.fen()));
            pos.make_move(m);
            plies += 1;
        }
        assert!(plies >= 20, "{variant}: only {plies} plies");
    }
}
