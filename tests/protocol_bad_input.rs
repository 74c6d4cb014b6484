//! Bad input to both dialects: every kind (unknown command, bad FEN, illegal and malformed
//! moves, unknown variant, bad option values, bad numbers) gets the protocol's own reply
//! (`info string error ...` in UCI; `Error (...)` or `Illegal move ...` in XBoard) and leaves
//! the engine state exactly as it was; and thousands of random lines never panic.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use chimera_engine::registry::Registry;
use chimera_protocol::dialect::Dialect;
use chimera_protocol::driver::Driver;
use chimera_protocol::state::{Capture, EngineState, Options, Output};
use chimera_protocol::uci::Uci;
use chimera_protocol::xboard::Xboard;

/// What bad input must not change.
#[derive(Debug, PartialEq)]
struct Snapshot {
    fen: String,
    variant: String,
    options: Options,
}

fn snapshot(s: &EngineState) -> Snapshot {
    Snapshot {
        fen: s.position.fen(),
        variant: s.variant.name().to_string(),
        options: s.options.clone(),
    }
}

/// Feeds each bad line after `setup`; its reply must satisfy `ok` and the state must stay.
fn check<D: Dialect>(
    d: &mut Driver<D>,
    cap: &Capture,
    cases: &[(&str, &str)],
    reply_ok: impl Fn(&[String], &str) -> bool,
) {
    let mut failures = Vec::new();
    for &(line, expected) in cases {
        let before = snapshot(d.dialect.state());
        d.feed(line);
        let out = cap.take();
        if !reply_ok(&out, expected) {
            failures.push(format!("{line:?}: expected {expected:?}, got {out:?}"));
        }
        if snapshot(d.dialect.state()) != before {
            failures.push(format!("{line:?} changed the state"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn uci_bad_input_of_every_kind() {
    let (out, cap) = Output::capture();
    let mut d = Driver::new(Registry::new(), out, Uci::new);
    for l in [
        "uci",
        "setoption name UCI_Variant value capablanca",
        "position startpos moves e2e4",
    ] {
        d.feed(l);
    }
    cap.take();
    let error = "info string error";
    check(
        &mut d,
        &cap,
        &[
            ("frobnicate", error),
            ("position", error),
            ("position fen", error),
            ("position fen 8/8/8 w - - 0 1", error),
            (
                "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                error,
            ),
            ("position startpos moves e2e4 e2e4", error),
            ("position startpos moves e2e4 zz9", error),
            ("position startpos junk", error),
            ("setoption", error),
            ("setoption name", error),
            ("setoption name UCI_Variant value nosuchvariant", error),
            ("setoption name UCI_Variant", error),
            ("setoption name Hash value -5", error),
            ("setoption name Hash value 99999999", error),
            ("setoption name Threads value many", error),
            ("setoption name MultiPV value 0", error),
            ("setoption name Ponder value maybe", error),
            ("setoption name UCI_Chess960 value 2", error),
            ("setoption name Move Overhead value 1e9", error),
            ("setoption name VariantPath value /no/such/file.ini", error),
            ("setoption name NoSuchOption value 1", error),
            ("go depth x", error),
            ("go nodes -1", error),
            ("go wtime", error),
            ("go frobnicate 3", error),
            ("go perft x", error),
        ],
        |out, expected| !out.is_empty() && out[0].starts_with(expected),
    );
    // A bad searchmoves move still owes the GUI a bestmove.
    d.feed("go depth 1 searchmoves e2e4 zz");
    let out = cap.take();
    assert!(out[0].starts_with("info string error"), "{out:?}");
    assert_eq!(out.last().unwrap(), "bestmove (none)");
    d.feed("isready");
    assert_eq!(cap.take(), ["readyok"]);
}

#[test]
fn xboard_bad_input_of_every_kind() {
    let (out, cap) = Output::capture();
    let mut d = Driver::new(Registry::new(), out, Xboard::new);
    // Force mode after a move: D9's silent acceptance of a first bad move no longer applies.
    for l in [
        "xboard",
        "protover 2",
        "new",
        "variant grand",
        "force",
        "usermove e2e4",
    ] {
        d.feed(l);
    }
    cap.take();
    check(
        &mut d,
        &cap,
        &[
            ("frobnicate", "Error (unknown command): frobnicate"),
            ("setboard 8/8/8 w - - 0 1", "Error (bad FEN)"),
            ("setboard", "Error (bad FEN)"),
            (
                "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "Error",
            ),
            ("usermove e2e4", "Illegal move: e2e4"),
            ("usermove a0a9", "Illegal move"),
            ("usermove e7", "Illegal move (malformed): e7"),
            ("usermove zz99zz", "Illegal move (malformed)"),
            ("usermove", "Error"),
            ("variant nosuch", "Error (unknown variant): nosuch"),
            ("variant", "Error"),
            ("option MultiPV=abc", "Error"),
            ("option MultiPV=0", "Error"),
            ("option RankBase=7", "Error"),
            ("option Move Overhead=-1", "Error"),
            ("option NoSuchOption=1", "Error"),
            ("option VariantPath=/no/such/file.ini", "Error"),
            ("memory lots", "Error"),
            ("cores -1", "Error"),
            ("sd x", "Error"),
            ("st x", "Error"),
            ("level 40 x 0", "Error"),
            ("level 40", "Error"),
            ("time x", "Error"),
            ("otim", "Error"),
            ("protover two", "Error"),
            ("exclude z9z9", "Error"),
            ("exclude", "Error"),
            ("lift", "Error"),
        ],
        |out, expected| out.iter().any(|l| l.starts_with(expected)),
    );
    let out = {
        d.feed("ping 9");
        cap.take()
    };
    assert_eq!(out, ["pong 9"]);
    // Every reply above was of the protocol's form.
    d.feed("frobnicate");
    assert_eq!(cap.take(), ["Error (unknown command): frobnicate"]);
}

/// Random lines: known command words with random arguments, and junk. Commands that start
/// unbounded searches are left out (the driver would wait for them); nothing may panic.
fn random_line(rng: &mut SmallRng, words: &[&str]) -> String {
    const JUNK: &[&str] = &[
        "",
        " ",
        "e2e4",
        "e7e8q",
        "N@e4",
        "a10b12,b12c13",
        "0000",
        "@@@@",
        "all",
        "-1",
        "1e99",
        "99999999999999999999",
        "name",
        "value",
        "fen",
        "moves",
        "startpos",
        "=",
        "x=y",
        "é",
        "\u{0}",
        "8/8/8",
        "[",
        "{",
        "w",
        "KQkq",
        "p16",
        "O-O",
        "1/2-1/2",
        ":;<=>?@",
    ];
    let mut line = if rng.gen_bool(0.9) {
        words[rng.gen_range(0..words.len())].to_string()
    } else {
        JUNK[rng.gen_range(0..JUNK.len())].to_string()
    };
    for _ in 0..rng.gen_range(0..6) {
        line.push(' ');
        line.push_str(JUNK[rng.gen_range(0..JUNK.len())]);
    }
    line
}

#[test]
fn random_lines_never_panic() {
    let mut rng = SmallRng::seed_from_u64(5);
    let (out, cap) = Output::capture();
    let mut d = Driver::new(Registry::new(), out, Uci::new);
    let uci = [
        "uci",
        "isready",
        "setoption",
        "setoption name Hash value",
        "setoption name UCI_Variant value",
        "position",
        "position startpos moves",
        "position fen",
        "ucinewgame",
        "stop",
        "ponderhit",
        "debug",
        "go depth 1",
        "go nodes 50",
        "go perft 1",
        "go depth 1 searchmoves",
    ];
    for _ in 0..2000 {
        d.feed(&random_line(&mut rng, &uci));
        cap.take();
    }
    let (out, cap) = Output::capture();
    let mut d = Driver::new(Registry::new(), out, Xboard::new);
    d.feed("force");
    let xboard = [
        "xboard", "protover", "variant", "setboard", "usermove", "force", "undo", "remove",
        "level", "st", "sd", "time", "otim", "post", "nopost", "exit", ".", "easy", "memory",
        "cores", "option", "result", "ping", "hint", "bk", "exclude", "include", "lift", "put",
        "hover", "accepted", "rejected", "name", "computer",
    ];
    for _ in 0..2000 {
        d.feed(&random_line(&mut rng, &xboard));
        cap.take();
    }
    d.feed("ping 1");
    assert_eq!(cap.take(), ["pong 1"]);
}
