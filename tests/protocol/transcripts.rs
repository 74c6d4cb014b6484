//! Whole conversations for both dialects, replayed in-process through `driver::Driver` and
//! checked line by line: the handshakes, `go` and its limits, exactly one `bestmove` per `go`,
//! bad input answered in the protocol's form, whole games in the seed variants, a real
//! python-chess client over pipes; root move filters (`searchmoves`, `exclude`/`include`), MultiPV lines, pondering (UCI
//! `go ponder`/`ponderhit`, XBoard `hard` with a correct and a wrong guess), `go mate`,
//! Chess960 castling, `?` while thinking, `playother`, `undo`/`remove`, `hint`, `bk`,
//! `memory`/`cores`, highlighting, multi-leg and 0-based moves on the XBoard wire, and variant
//! switches. Searches are bounded by depth or stopped explicitly; where a search must run in
//! the background (analysis, pondering), the test waits for the lines it needs, with a
//! generous time limit.

use crate::session;
use session::{talk, uci, xboard, xboard_move};

use std::time::{Duration, Instant};

use chimera_engine::registry::Registry;
use chimera_engine::Position;
use chimera_protocol::driver::Driver;
use chimera_protocol::state::Capture;
use chimera_protocol::wire::xboard_move_lines;
use chimera_protocol::xboard::present;
use chimera_protocol::xboard::translate::{cecp_text, shift_ranks, xboard_betza, xboard_knows};
use chimera_protocol::xboard::Xboard;

/// Collects output until a line satisfies `want` (searches running in the background write
/// on their own thread); panics after 20 s.
fn until(cap: &Capture, got: &mut Vec<String>, want: impl Fn(&str) -> bool) {
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        got.extend(cap.take());
        if got.iter().any(|l| want(l)) {
            return;
        }
        assert!(Instant::now() < end, "timed out; got {got:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn bestmove(lines: &[String]) -> String {
    let b: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(b.len(), 1, "{lines:?}");
    b[0].split_whitespace().nth(1).unwrap().to_string()
}

/// The field after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut w = line.split_whitespace();
    w.by_ref().find(|x| *x == key)?;
    w.next()
}

/// The first move of an `info` line's PV.
fn pv_first(line: &str) -> Option<&str> {
    field(line, "pv")
}

fn chess_after(moves: &[&str]) -> Position {
    let v = Registry::new().get("chess").unwrap();
    let mut pos = Position::startpos(&v);
    for m in moves {
        pos.try_play(m).unwrap();
    }
    pos
}

// ---------------------------------------------------------------------------------------
// UCI

#[test]
fn uci_searchmoves_restricts_every_line_and_the_bestmove() {
    let (mut d, cap) = uci();
    let out = talk(
        &mut d,
        &cap,
        &[
            "uci",
            "position startpos",
            "go depth 4 searchmoves a2a3 h2h3",
        ],
    );
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 4, "{out:?}");
    for i in &infos {
        assert!(matches!(pv_first(i), Some("a2a3" | "h2h3")), "{i}");
    }
    assert!(matches!(bestmove(&out).as_str(), "a2a3" | "h2h3"));
    // The next search has no filter again.
    let out = talk(&mut d, &cap, &["go depth 3"]);
    assert!(!out.iter().any(|l| l.contains("error")), "{out:?}");
    // An illegal searchmoves move is an error with the protocol's reply, not a crash.
    let out = talk(&mut d, &cap, &["go depth 2 searchmoves e2e5"]);
    assert!(out[0].starts_with("info string error"), "{out:?}");
    assert_eq!(bestmove(&out), "(none)");
}

#[test]
fn uci_multipv_gives_k_lines_per_depth_and_the_first_is_played() {
    let (mut d, cap) = uci();
    let out = talk(
        &mut d,
        &cap,
        &[
            "uci",
            "setoption name MultiPV value 3",
            "position startpos moves e2e4",
            "go depth 3",
        ],
    );
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 9, "{out:?}");
    for (n, i) in infos.iter().enumerate() {
        assert_eq!(
            field(i, "depth"),
            Some((n / 3 + 1).to_string().as_str()),
            "{i}"
        );
        assert_eq!(
            field(i, "multipv"),
            Some((n % 3 + 1).to_string().as_str()),
            "{i}"
        );
    }
    let last: Vec<&str> = infos[6..].iter().map(|i| pv_first(i).unwrap()).collect();
    assert!(last[0] != last[1] && last[1] != last[2] && last[0] != last[2]);
    assert_eq!(bestmove(&out), last[0]);
    // MultiPV with searchmoves: only the listed moves, at most as many lines as moves.
    let out = talk(&mut d, &cap, &["go depth 2 searchmoves e7e5 c7c5"]);
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 4, "{out:?}");
    assert!(infos
        .iter()
        .all(|i| matches!(pv_first(i), Some("e7e5" | "c7c5"))));
}

#[test]
fn uci_go_mate_and_every_limit() {
    let (mut d, cap) = uci();
    let out = talk(
        &mut d,
        &cap,
        &[
            "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "go mate 1",
        ],
    );
    assert_eq!(bestmove(&out), "a1a8");
    assert!(out.iter().any(|l| l.contains(" score mate 1 ")), "{out:?}");
    for go in [
        "go depth 2",
        "go nodes 500",
        "go movetime 50",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go wtime 500 btime 500 movestogo 1",
        "go btime 1000 wtime -5",
    ] {
        let out = talk(&mut d, &cap, &["position startpos", go]);
        let mv = bestmove(&out);
        assert!(chess_after(&[]).parse_move(&mv).is_ok(), "{go}: {mv}");
    }
}

#[test]
fn uci_ponder_hit_and_ponder_miss() {
    let (mut d, cap) = uci();
    // Ponder hit: the clock starts at ponderhit, and the search stops by its time.
    let mut got = talk(
        &mut d,
        &cap,
        &[
            "uci",
            "setoption name Ponder value true",
            "position startpos moves e2e4 e7e5",
            "go ponder wtime 2000 btime 2000",
        ],
    );
    until(&cap, &mut got, |l| l.starts_with("info depth 3 "));
    assert!(!got.iter().any(|l| l.starts_with("bestmove")), "{got:?}");
    let t = Instant::now();
    let out = talk(&mut d, &cap, &["ponderhit"]);
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    let mv = bestmove(&out);
    assert!(chess_after(&["e2e4", "e7e5"]).parse_move(&mv).is_ok());
    // Ponder miss: the GUI stops the search and sends the real position.
    talk(&mut d, &cap, &["position startpos", "go ponder depth 30"]);
    let out = talk(&mut d, &cap, &["stop", "isready"]);
    bestmove(&out);
    assert_eq!(out.last().unwrap(), "readyok");
    // A ponder search that reached its depth holds its bestmove until ponderhit.
    let out = talk(&mut d, &cap, &["go ponder depth 1", "isready"]);
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    let out = talk(&mut d, &cap, &["ponderhit"]);
    bestmove(&out);
}

#[test]
fn uci_stop_sent_right_after_go_always_ends_the_search() {
    let (mut d, cap) = uci();
    talk(&mut d, &cap, &["position startpos"]);
    for _ in 0..50 {
        d.send("go infinite");
        d.feed("stop");
        bestmove(&cap.take());
    }
}

#[test]
fn uci_chess960_castling_is_king_takes_rook() {
    let (mut d, cap) = uci();
    let fen = "position fen 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
    let out = talk(
        &mut d,
        &cap,
        &["setoption name UCI_Chess960 value true", fen, "go perft 1"],
    );
    assert!(out.contains(&"e1g1: 1".to_string()), "{out:?}");
    assert!(out.contains(&"e1b1: 1".to_string()), "{out:?}");
    let out = talk(&mut d, &cap, &["go depth 2 searchmoves e1b1"]);
    assert_eq!(bestmove(&out), "e1b1");
    let out = talk(
        &mut d,
        &cap,
        &[&format!("{fen} moves e1g1"), "go depth 1 searchmoves e8b8"],
    );
    assert_eq!(bestmove(&out), "e8b8");
    // In standard chess notation the same castling is written by the king's target.
    let out = talk(
        &mut d,
        &cap,
        &[
            "setoption name UCI_Chess960 value false",
            fen,
            "go depth 1 searchmoves e1b1",
        ],
    );
    assert_eq!(bestmove(&out), "e1c1");
    // The chess960 variant name is chess with Chess960 castling.
    let out = talk(
        &mut d,
        &cap,
        &[
            "setoption name UCI_Variant value chess960",
            fen,
            "go perft 1",
        ],
    );
    assert!(out[0].starts_with("info string variant chess "), "{out:?}");
    assert!(out.contains(&"e1b1: 1".to_string()), "{out:?}");
    // Fairy-Stockfish's fischerandom is its own variant, whose castling is written so without
    // the option.
    let out = talk(
        &mut d,
        &cap,
        &[
            "setoption name UCI_Chess960 value false",
            "setoption name UCI_Variant value fischerandom",
            fen,
            "go perft 1",
        ],
    );
    assert!(
        out[0].starts_with("info string variant fischerandom "),
        "{out:?}"
    );
    assert!(out.contains(&"e1b1: 1".to_string()), "{out:?}");
    assert!(out.contains(&"e1g1: 1".to_string()), "{out:?}");
}

// ---------------------------------------------------------------------------------------
// XBoard

#[test]
fn xboard_exclude_and_include_filter_analysis_and_play() {
    let (mut d, cap) = xboard();
    talk(
        &mut d,
        &cap,
        &["xboard", "protover 2", "new", "force", "post", "analyze"],
    );
    let mut got = talk(
        &mut d,
        &cap,
        &["exclude all", "include a2a3", "include h2h3"],
    );
    // Lines of the search before the exclusions may come first; once the restarted
    // analysis reports, every line starts with one of the two moves.
    let first_move = |l: &str| {
        let pv = l.split('\t').nth(1)?;
        pv.split_whitespace().next().map(str::to_string)
    };
    let depth = |l: &str| l.split(' ').next().and_then(|n| n.parse::<u32>().ok());
    let allowed = |l: &str| matches!(first_move(l).as_deref(), Some("a2a3" | "h2h3"));
    until(&cap, &mut got, |l| {
        depth(l).is_some_and(|n| n >= 4) && allowed(l)
    });
    talk(&mut d, &cap, &["ping 1"]);
    got.extend(cap.take());
    let start = got.iter().position(|l| allowed(l)).unwrap();
    for l in got[start..].iter().filter(|l| l.contains('\t')) {
        assert!(allowed(l), "{l}: {got:?}");
    }
    // A move is a new position: the exclusions end.
    talk(&mut d, &cap, &["usermove e2e4", "exit"]);
    assert!(d.dialect.state.position.fen().contains("4P3"));
    cap.take();
    // In play: only the included move is searched ...
    let out = talk(
        &mut d,
        &cap,
        &["force", "sd 3", "exclude all", "include d7d6", "go"],
    );
    assert_eq!(xboard_move(&out).as_deref(), Some("d7d6"), "{out:?}");
    // ... and with every move excluded the engine still moves.
    let out = talk(&mut d, &cap, &["force", "exclude all", "go"]);
    assert!(xboard_move(&out).is_some(), "{out:?}");
    // XBoard's own rank characters for ranks above 9 are read, and bad moves are errors.
    let out = talk(&mut d, &cap, &["exclude e2e5"]);
    assert!(out[0].starts_with("Error ("), "{out:?}");
}

#[test]
fn xboard_multipv_option_prints_several_lines_per_depth() {
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &[
            "xboard",
            "protover 2",
            "new",
            "option MultiPV=2",
            "post",
            "force",
            "sd 2",
            "go",
        ],
    );
    assert!(out.iter().any(|l| l.contains("MultiPV -spin")), "{out:?}");
    let depth1 = out.iter().filter(|l| l.starts_with("1 ")).count();
    let depth2 = out.iter().filter(|l| l.starts_with("2 ")).count();
    assert_eq!((depth1, depth2), (2, 2), "{out:?}");
    assert!(xboard_move(&out).is_some());
    let out = talk(&mut d, &cap, &["option MultiPV=0"]);
    assert!(out[0].starts_with("Error ("), "{out:?}");
}

#[test]
fn xboard_hard_ponders_on_the_expected_reply() {
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &[
            "xboard",
            "protover 2",
            "new",
            "hard",
            "sd 3",
            "usermove e2e4",
        ],
    );
    let reply = xboard_move(&out).expect("engine move");
    let hint = out
        .iter()
        .find_map(|l| l.strip_prefix("Hint: "))
        .expect("the expected reply is announced when pondering starts")
        .to_string();
    assert!(d.dialect.state.searching(), "pondering");
    // While pondering, ping is answered at once and hint repeats the guess.
    let out = talk(&mut d, &cap, &["ping 4", "hint"]);
    assert_eq!(out, ["pong 4".to_string(), format!("Hint: {hint}")]);
    // A correct guess: the engine answers from its ponder search.
    let out = talk(
        &mut d,
        &cap,
        &["time 1000", "otim 1000", &format!("usermove {hint}")],
    );
    let second = xboard_move(&out).expect("engine move after a ponder hit");
    let mut pos = chess_after(&["e2e4", &reply, &hint]);
    pos.try_play(&second).unwrap();
    // A wrong guess: the ponder search is dropped and a new one answers.
    let hint = out
        .iter()
        .find_map(|l| l.strip_prefix("Hint: "))
        .expect("pondering again")
        .to_string();
    let other = pos
        .clone()
        .legal_moves()
        .iter()
        .map(|&m| pos.move_text(m))
        .find(|t| *t != hint)
        .unwrap();
    let out = talk(&mut d, &cap, &[&format!("usermove {other}")]);
    pos.try_play(&other).unwrap();
    let third = xboard_move(&out).expect("engine move after a ponder miss");
    pos.try_play(&third).unwrap();
    // `easy` ends pondering; `force` stops everything.
    talk(&mut d, &cap, &["easy", "force"]);
    d.settle();
    assert!(!d.dialect.state.searching());
    assert_eq!(d.dialect.state.position.fen(), pos.fen());
}

#[test]
fn xboard_ponder_hit_turns_the_running_ponder_search_into_the_move() {
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &[
            "xboard",
            "protover 2",
            "new",
            "hard",
            "st 1",
            "usermove d2d4",
        ],
    );
    let hint = out
        .iter()
        .find_map(|l| l.strip_prefix("Hint: "))
        .expect("pondering")
        .to_string();
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    let out = talk(&mut d, &cap, &[&format!("usermove {hint}")]);
    assert!(xboard_move(&out).is_some(), "{out:?}");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[test]
fn xboard_move_now_playother_undo_remove_hint_bk_memory_cores() {
    let (mut d, cap) = xboard();
    talk(&mut d, &cap, &["xboard", "protover 2", "new", "st 60"]);
    // `?` while thinking: the move comes at once.
    let t = Instant::now();
    d.send("usermove e2e4");
    std::thread::sleep(Duration::from_millis(50));
    d.feed("?");
    let out = cap.take();
    assert!(xboard_move(&out).is_some(), "{out:?}");
    assert!(t.elapsed() < Duration::from_secs(10));
    // `remove` takes back both plies, `undo` one.
    talk(&mut d, &cap, &["force", "remove"]);
    assert_eq!(d.dialect.state.position.fen(), chess_after(&[]).fen());
    let out = talk(&mut d, &cap, &["undo"]);
    assert!(out[0].starts_with("Error ("), "{out:?}");
    talk(&mut d, &cap, &["usermove e2e4", "usermove e7e5", "undo"]);
    assert_eq!(d.dialect.state.position.fen(), chess_after(&["e2e4"]).fen());
    // `playother`: the engine takes the side not on move (White), and moves after Black.
    let out = talk(&mut d, &cap, &["sd 2", "playother", "ping 1"]);
    assert_eq!(out, ["pong 1"]);
    let out = talk(&mut d, &cap, &["usermove e7e5"]);
    let mv = xboard_move(&out).expect("White's move");
    chess_after(&["e2e4", "e7e5"]).try_play(&mv).unwrap();
    let out = talk(&mut d, &cap, &["hint", "bk"]);
    assert!(out[0].starts_with("Hint: "), "{out:?}");
    assert!(out[1].starts_with(' ') && out[2].is_empty(), "{out:?}");
    talk(&mut d, &cap, &["memory 32", "cores 2"]);
    assert_eq!(d.dialect.state.options.hash_mb, 32);
    assert_eq!(d.dialect.state.options.threads, 2);
}

#[test]
fn xboard_lift_is_answered_with_highlight() {
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &["xboard", "protover 2", "new", "force", "lift e2"],
    );
    assert!(out.iter().any(|l| l.contains("highlight=1")));
    assert_eq!(out.last().unwrap(), "highlight 8/8/8/8/4Y3/4Y3/8/8");
    // Promotions are magenta (a capture that promotes too), captures red; an empty square
    // gets no answer.
    let out = talk(
        &mut d,
        &cap,
        &[
            "setboard 1n5k/P7/8/8/8/8/8/Rb5K w - - 0 1",
            "lift a7",
            "lift d4",
            "lift a1",
        ],
    );
    assert_eq!(
        out,
        [
            "highlight MM6/8/8/8/8/8/8/8",
            "highlight 8/8/Y7/Y7/Y7/Y7/Y7/1R6"
        ]
    );
    // A 16x16 board: sixteen rows.
    let out = talk(
        &mut d,
        &cap,
        &["new", "variant vanguard", "force", "lift a3"],
    );
    let h = out.last().unwrap();
    assert!(h.starts_with("highlight "), "{out:?}");
    assert_eq!(h.split('/').count(), 16, "{h}");
}

#[test]
fn xboard_multi_leg_moves_go_one_leg_per_line_and_come_back_as_one_token() {
    assert_eq!(
        xboard_move_lines("d11c12,c12d11"),
        ["move d11c12,", "move c12d11"]
    );
    assert_eq!(xboard_move_lines("e2e4"), ["move e2e4"]);
    // Find a multi-leg move in Vanguard by playing legal moves, then send it as usermove.
    let v = Registry::new().get("vanguard").unwrap();
    let mut pos = Position::startpos(&v);
    let mut played = Vec::new();
    let mut multi = None;
    for _ in 0..60 {
        let moves = pos.legal_moves();
        if let Some(&m) = moves.iter().find(|&&m| pos.move_text(m).contains(',')) {
            multi = Some(pos.move_text(m));
            break;
        }
        let m = moves[played.len() * 7 % moves.len()];
        played.push(pos.move_text(m));
        pos.make_move(m);
    }
    let multi = multi.expect("Vanguard has multi-leg moves");
    let (mut d, cap) = xboard();
    talk(
        &mut d,
        &cap,
        &["xboard", "protover 2", "new", "variant vanguard", "force"],
    );
    for m in &played {
        let out = talk(&mut d, &cap, &[&format!("usermove {m}")]);
        assert!(out.is_empty(), "{m}: {out:?}");
    }
    let out = talk(&mut d, &cap, &[&format!("usermove {multi}"), "ping 1"]);
    assert_eq!(out, ["pong 1"], "{multi}");
    pos.try_play(&multi).unwrap();
    assert_eq!(d.dialect.state.position.fen(), pos.fen());
}

#[test]
fn xboard_rank_base_zero_numbers_ranks_from_zero() {
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &[
            "xboard",
            "protover 2",
            "option RankBase=0",
            "new",
            "variant vanguard",
            "force",
            "usermove a2a5",
            "ping 1",
        ],
    );
    assert!(out.iter().any(|l| l.contains("RankBase -spin")), "{out:?}");
    assert_eq!(out.last().unwrap(), "pong 1");
    assert!(
        d.dialect.state.position.fen().contains("/P15/"),
        "a3a6 internally"
    );
    // Black's pawn on a14 is lifted from a13 on the wire and may go up to four ranks.
    let out = talk(&mut d, &cap, &["lift a13"]);
    assert_eq!(
        out[0],
        "highlight 16/16/16/Y15/Y15/Y15/Y15/16/16/16/16/16/16/16/16/16"
    );
    let out = talk(&mut d, &cap, &["option RankBase=2"]);
    assert!(out[0].starts_with("Error ("), "{out:?}");
    // Passes are written @@@@; piece lines use range 0 for riders XBoard reads as leapers.
    assert_eq!(
        cecp_text("e2e4 0000 e10e10 a9a10", -1),
        "e1e3 @@@@ @@@@ a8a9"
    );
    assert_eq!(xboard_betza("NN"), "N0");
    assert_eq!(xboard_betza("BnDD"), "BnD0");
    assert_eq!(xboard_betza("fmWfcFifmR4"), "fmWfcFifmR4");
}

#[test]
fn xboard_variant_switches_and_new_returns_to_chess() {
    let (mut d, cap) = xboard();
    talk(&mut d, &cap, &["xboard", "protover 2"]);
    for (variant, setup) in [
        ("vanguard", true),
        ("grand", false),
        ("pawnvault", true),
        ("capablanca", false),
        ("pioneer", true),
    ] {
        let out = talk(
            &mut d,
            &cap,
            &["new", &format!("variant {variant}"), "ping 1"],
        );
        assert_eq!(
            out.iter().any(|l| l.starts_with("setup (")),
            setup,
            "{out:?}"
        );
        assert_eq!(out.last().unwrap(), "pong 1", "{variant}");
        assert_eq!(d.dialect.state.variant.name(), variant);
        if setup {
            // One piece line per piece type, before the pong.
            let pieces = out.iter().filter(|l| l.starts_with("piece ")).count();
            assert_eq!(pieces, d.dialect.state.variant.pieces().len(), "{variant}");
        }
        if variant == "pawnvault" {
            // S-Chess gating for the castellan; holdings up to the dragon's slot (XBoard's
            // PieceToNumber: the number of taking-part types before it), no man in the
            // Pawn slot.
            assert!(out[0].starts_with("setup (.NBRQPTDHOK."), "{out:?}");
            assert!(out[0].contains(" 8x8+7_seirawan "), "{out:?}");
        }
    }
    talk(&mut d, &cap, &["new"]);
    assert_eq!(d.dialect.state.variant.name(), "chess");
    assert_eq!(d.dialect.state.position.fen(), chess_after(&[]).fen());
}

/// The setup of the three seed games XBoard cannot play by its own rules, as XBoard 4.9 needs
/// it (docs/protocols.md §11): holdings that hold every man in hand, a parent whose move code
/// applies the moves, no man in XBoard's Pawn slot where its Pawn code would interfere.
#[test]
fn xboard_setup_of_pawnvault_pioneer_and_alice() {
    let (mut d, cap) = xboard();
    let out = talk(&mut d, &cap, &["xboard", "protover 2"]);
    let variants = out.iter().find(|l| l.contains("variants=")).unwrap();
    assert!(
        variants.contains(",pioneer,") && variants.contains(",alice,"),
        "{variants}"
    );
    // Two reserve men: no XBoard move names two files.
    assert!(!variants.contains("pioneer-two"), "{variants}");
    let setup = |d: &mut Driver<Xboard>, v: &str| {
        talk(d, &cap, &["new", &format!("variant {v}"), "ping 1"])
    };
    let out = setup(&mut d, "pawnvault");
    assert_eq!(
        out[0],
        "setup (.NBRQPTDHOK.nbrqptdhok) 8x8+7_seirawan \
         rnbqkbnr/popopopo/8/8/8/8/POPOPOPO/RNBQKBNR[DTdt] w KQkq - 0 1"
    );
    let out = setup(&mut d, "pioneer");
    assert_eq!(
        out[0],
        "setup (PNBRQ.....M..........Kpnbrq.....m..........k) 8x8+6_seirawan \
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Mm] w KQkq - 0 1"
    );
    // The King without XBoard's castling atom (castling stays XBoard's own two-step rule).
    assert!(out.contains(&"piece K& K".to_string()), "{out:?}");
    let out = setup(&mut d, "alice");
    assert!(
        out[0].starts_with("setup (.NBRQPK.nbrqpk) 16x8+0_fairy "),
        "{out:?}"
    );
    assert!(out.contains(&"piece K& KiK".to_string()), "{out:?}");
    assert!(out.contains(&"piece R& RO".to_string()), "{out:?}");
    // XBoard's own FEN back (second engine): holdings, S-Chess virginity letters, `Ee`.
    let out = talk(
        &mut d,
        &cap,
        &[
            "new",
            "variant pioneer",
            "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Mm] w KQBCDFGkqbcdfg - 0 1",
            "new",
            "variant alice",
            "setboard rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w Ee - 0 1",
            "new",
            "variant pawnvault",
            "setboard rnbqkbnr/popopopo/8/8/8/8/POPOPOPO/RNBQKBNR[TDtd] w KQkq - 0 1",
            "ping 2",
        ],
    );
    assert!(!out.iter().any(|l| l.contains("rror")), "{out:?}");
    assert_eq!(
        d.dialect.state.position.fen(),
        Position::startpos(&Registry::new().get("pawnvault").unwrap()).fen()
    );
}

/// Each wire form goes out as XBoard applies it and is read back in both ways XBoard relays
/// it; a plain form XBoard would apply differently is refused with the form to use.
#[test]
fn xboard_wire_forms_of_gating_reserve_and_boards() {
    let (mut d, cap) = xboard();
    talk(&mut d, &cap, &["xboard", "protover 2"]);
    // Pioneer: the choice of file as the man there going out and back (Black's relayed in
    // XBoard's other form), the entry as gating; the plain form of an entry is refused.
    let out = talk(
        &mut d,
        &cap,
        &[
            "new",
            "variant pioneer",
            "force",
            "usermove g1g4,g4g1",
            "usermove e8e8,e5d8",
            "usermove g1f3",
            "usermove g1f3m",
            "usermove g8f6",
            "usermove e2e4",
            "usermove e7e5",
            "usermove f1c4",
            "usermove f8c5",
            "usermove d2d3",
            "usermove e8g8m",
            "ping 3",
        ],
    );
    let replies: Vec<&String> = out
        .iter()
        .filter(|l| !l.starts_with("setup") && !l.starts_with("piece"))
        .collect();
    assert_eq!(
        replies,
        [
            "Illegal move (the reserve man enters with this move; enter it as g1f3m): g1f3",
            "pong 3"
        ]
    );
    assert!(
        d.dialect.state.position.fen().ends_with("{-}"),
        "both men entered"
    );
    // The engine's own choice goes out as two legs, one `move` line each.
    let mut out = talk(&mut d, &cap, &["new", "variant pioneer", "sd 1", "go"]);
    until(&cap, &mut out, |l| {
        l.starts_with("move ") && !l.ends_with(',')
    });
    let mv = xboard_move(&out).unwrap();
    let legs: Vec<&str> = mv.split(',').collect();
    assert_eq!(legs.len(), 2, "{mv}");
    assert_eq!(&legs[0][..2], &legs[1][2..4], "out and back: {mv}");
    assert!(legs[0].ends_with('4'), "White's man goes to rank 4: {mv}");

    // Pawn Vault: en passant through the victim's square; the plain form is refused.
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &[
            "xboard",
            "protover 2",
            "new",
            "variant pawnvault",
            "force",
            "lift e2",
            "usermove c2c4",
            "usermove g8f6",
            "usermove g1f3",
            "usermove f6d5",
            "usermove c4d5",
            "usermove e7e5",
            "usermove d5e6",
            "usermove d5e5,e5e6",
            "usermove c7c5t",
            "usermove D@g4",
            "setboard 4k3/P7/8/8/8/8/8/4K3[] w - - 0 1",
            "lift a7",
            "put a8",
            "ping 4",
        ],
    );
    let out: Vec<&String> = out
        .iter()
        .filter(|l| !l.starts_with("setup") && !l.starts_with("piece") && !l.starts_with("feature"))
        .collect();
    assert_eq!(
        out,
        [
            // e2e3/e2e4 may also bring the castellan in (typed e2e4t): plain squares.
            "highlight 8/8/8/8/4Y3/4Y3/8/8",
            "Illegal move (enter it as d5e5,e5e6, so that the board follows): d5e6",
            // The pawn's one promotion (to the hero): blue, and the engine's choice on `put`.
            "highlight B7/8/8/8/8/8/8/8",
            "choice H",
            "pong 4"
        ]
    );

    // Alice: a capture and castling through a square, read back in both relay forms, a king
    // step across boards, and the highlight that leads a person through the legs.
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &[
            "xboard",
            "protover 2",
            "new",
            "variant alice",
            "force",
            "usermove e2m4",
            "usermove d7l5",
            "lift m4",
            "put l5",
            "lift l5",
            "usermove m4d5",
            "usermove m4l5,l5d5",
            "usermove g8n6",
            "usermove g1n3",
            "usermove g7o6",
            "usermove g2o3",
            "usermove f8o7",
            "usermove f1o2",
            "usermove h8n8,e8o8",
            "lift h1",
            "put e1",
            "lift e1",
            "usermove e1o1",
            "usermove h1n1,e1o1",
            "usermove o8h8",
            "ping 5",
        ],
    );
    let out: Vec<&String> = out
        .iter()
        .filter(|l| !l.starts_with("setup") && !l.starts_with("piece") && !l.starts_with("feature"))
        .collect();
    assert_eq!(
        out,
        [
            // From m4: straight on (crossing to e5 of board A) or through the victim on l5.
            "highlight 16/16/16/4Y6C4/16/16/16/16",
            // Through l5: the capture lands on d5 of board A.
            "highlight 16/16/16/3R12/16/16/16/16",
            "Illegal move (enter it as m4l5,l5d5, so that the board follows): m4d5",
            "highlight 16/16/16/16/16/16/16/4C8YY1",
            "highlight 16/16/16/16/16/16/16/13Y2",
            "Illegal move (enter it as h1n1,e1o1, so that the board follows): e1o1",
            "pong 5"
        ]
    );
    let fen = d.dialect.state.position.fen();
    // Black's king stepped from o8 across to h8 (the rook he castled with is on n8).
    assert!(fen.starts_with("rnbq3k5r2/"), "{fen}");
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

/// An XBoard session in `variant` that plays the knights out and back twice, so that the start
/// position stands for the third time with White to move, and then asks for a move: the
/// session, its capture and what it wrote so far.
fn knights_back_and_forth(
    variant: &str,
    white: [&str; 2],
    black: [&str; 2],
) -> (Driver<Xboard>, Capture, Vec<String>) {
    let (mut d, cap) = xboard();
    d.feed("new");
    d.feed(&format!("variant {variant}"));
    d.feed("force");
    for _ in 0..2 {
        for m in [white[0], black[0], white[1], black[1]] {
            d.feed(&format!("usermove {m}"));
        }
    }
    let out = talk(&mut d, &cap, &["sd 2", "go"]);
    (d, cap, out)
}

#[test]
fn xboard_claims_no_optional_draw_where_the_count_ends_draws() {
    // Chess: the third occurrence is claimed, and no move is made.
    let (_, _, out) = knights_back_and_forth("normal", ["g1f3", "f3g1"], ["g8f6", "f6g8"]);
    assert!(out.iter().any(|l| l == "1/2-1/2 {repetition}"), "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("move ")), "{out:?}");
    // Makruk: its federation's rules have no repetition draw (Cute Chess refuses the claim),
    // so the engine plays on.
    let (_d, cap, mut out) = knights_back_and_forth("makruk", ["b1d2", "d2b1"], ["b8d7", "d7b8"]);
    until(&cap, &mut out, |l| l.starts_with("move "));
    assert!(!out.iter().any(|l| l.starts_with("1/2-1/2")), "{out:?}");
    // Nor a count that has run out (Cute Chess's ai-wok counts by the fifty-move rule).
    let (mut d, cap) = xboard();
    let mut out = talk(
        &mut d,
        &cap,
        &[
            "new",
            "variant makruk",
            "force",
            "setboard 4k3/8/8/8/8/3R4/8/3K4 b - 32 31 40",
            "usermove e8f8",
            "usermove d3d4",
            "sd 2",
            "go",
        ],
    );
    until(&cap, &mut out, |l| l.starts_with("move "));
    assert!(!out.iter().any(|l| l.starts_with("1/2-1/2")), "{out:?}");
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

#[test]
fn vanguard_under_xboard_keeps_xboard_s_board_in_step() {
    // XBoard's Lance slot is moved by its pawn code (a man there that steps sideways far
    // enough is taken for an e.p. capture), and its `fairy` parent takes a move onto a friend
    // for a capture: the General keeps out of the Lance slot, and the Wizard's swaps need a
    // parent without castling rights (`courier`).
    let (mut d, cap) = xboard();
    let out = talk(
        &mut d,
        &cap,
        &[
            "xboard",
            "protover 2",
            "option RankBase=0",
            "variant vanguard",
            "ping 1",
        ],
    );
    let setup = out.iter().find(|l| l.starts_with("setup ")).expect("setup");
    let table = &setup[7..setup.find(')').unwrap()];
    let white: Vec<char> = table.chars().take(table.len() / 2).collect();
    assert_eq!(white[0], 'P', "{setup}");
    assert_eq!(white[18], '.', "the Lance slot is left empty: {setup}");
    assert!(setup.contains(" 16x16+0_courier "), "{setup}");
    // Chess keeps its plain parent.
    assert_eq!(present::three_legs_in_one("e2e4"), None);
    // Three legs go out as one token that XBoard reads as one move; two as legs.
    assert_eq!(
        present::three_legs_in_one("b7e7,e7h7,h7l7").as_deref(),
        Some("b7e7xh7-l7")
    );
    assert_eq!(present::three_legs_in_one("e5g9,g9f7"), None);
    assert_eq!(present::three_legs_in_one("a4c4,c4e4,e4f4,f4h4"), None);
    // A Helepolis on c1 that can sweep four Black knights along the first rank
    // (`c1e1,e1g1,g1i1,i1j1`, four legs after the first): under XBoard it takes at most two
    // (XBoard cannot take a move of more than three legs from an engine).
    let out = talk(
        &mut d,
        &cap,
        &[
            "force",
            "setboard k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K1H1n1n1n1n5 w - - 0 1",
            "sd 3",
            "go",
        ],
    );
    let mut out = out;
    let end = Instant::now() + Duration::from_secs(20);
    while xboard_move(&out).is_none() {
        assert!(Instant::now() < end, "{out:?}");
        out.extend(cap.take());
        std::thread::sleep(Duration::from_millis(5));
    }
    let mv = xboard_move(&out).unwrap();
    assert!(
        mv.matches(',').count() <= 1 && mv.matches('x').count() <= 1,
        "{mv}"
    );
    assert!(
        mv.starts_with("c0"),
        "the Helepolis sweeps what it can: {mv}"
    );
}

/// In the Chess960 variants castling is read in either form wherever the text names one move
/// only, in UCI whatever `UCI_Chess960` says and in XBoard, which also sends `O-O`/`O-O-O`:
/// the king's target (`e1c1`) or the king taking his rook (`e1b1`). How the engine writes it
/// stays as the option says (`uci_chess960_castling_is_king_takes_rook`).
#[test]
fn chess960_castling_is_read_in_both_forms() {
    // White castles on the queen's side, Black on the king's, each in every written form.
    let cases = [
        (
            "fischerandom",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            ["e1c1", "e1b1", "O-O-O"],
            ["e8g8", "e8g8", "O-O"],
        ),
        (
            "caparandom",
            "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1",
            ["e1c1", "e1a1", "O-O-O"],
            ["e8i8", "e8j8", "O-O"],
        ),
    ];
    for (variant, fen, white, black) in cases {
        let v = Registry::new().get(variant).unwrap();
        let mut want = Position::from_fen(&v, fen).unwrap();
        want.try_play(white[1]).unwrap();
        want.try_play(black[1]).unwrap();
        let want = want.fen();
        for chess960 in ["false", "true"] {
            for w in &white[..2] {
                for b in &black[..2] {
                    let (mut d, cap) = uci();
                    let out = talk(
                        &mut d,
                        &cap,
                        &[
                            &format!("setoption name UCI_Chess960 value {chess960}"),
                            &format!("setoption name UCI_Variant value {variant}"),
                            &format!("position fen {fen} moves {w} {b}"),
                        ],
                    );
                    assert!(!out.iter().any(|l| l.contains("rror")), "{out:?}");
                    assert_eq!(d.dialect.state.position.fen(), want, "{variant} {w} {b}");
                }
            }
        }
        for w in white {
            for b in black {
                let (mut d, cap) = xboard();
                let out = talk(
                    &mut d,
                    &cap,
                    &[
                        "xboard",
                        "protover 2",
                        &format!("variant {variant}"),
                        "force",
                        &format!("setboard {fen}"),
                        &format!("usermove {w}"),
                        &format!("usermove {b}"),
                    ],
                );
                assert!(
                    !out.iter()
                        .any(|l| l.starts_with("Illegal") || l.starts_with("Error")),
                    "{variant} {w} {b}: {out:?}"
                );
                assert_eq!(d.dialect.state.position.fen(), want, "{variant} {w} {b}");
            }
        }
    }
}
