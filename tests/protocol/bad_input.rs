//! Bad and hostile input to both dialects. Bad input of every kind (unknown command, bad FEN,
//! illegal and malformed moves, unknown variant, bad option values, bad numbers) gets the
//! protocol's own reply (`info string error ...` in UCI; `Error (...)` or `Illegal move ...` in
//! XBoard) and leaves the engine state exactly as it was; thousands of random lines never panic.
//! Hostile input, row by row, through the real binary: bytes that are not UTF-8, lines longer
//! than any command, tables larger than the machine, perft counts that never end, thread counts
//! and depths beyond any use, files that never end. Each gets a clear error in the protocol's
//! own form (or is taken within bounds, with a note), and the engine carries on answering.

use crate::session;
use chimera_engine::registry::Registry;
use chimera_protocol::dialect::Dialect;
use chimera_protocol::driver::Driver;
use chimera_protocol::input::MAX_LINE_BYTES;
use chimera_protocol::state::{Capture, EngineState, Options, Output};
use chimera_protocol::state::{DEFAULT_HASH_MB, MAX_THREADS};
use chimera_protocol::uci::Uci;
use chimera_protocol::xboard::Xboard;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use session::{uci, xboard};
use std::io::Write;
use std::process::{Command, Stdio};

// Bad input, in process: the reply and the state after it.

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
    // Force mode after a move: docs/protocols.md D9's silent acceptance of a first bad move no longer applies.
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

// Hostile input, through the binary.

const CHIMERA: &str = env!("CARGO_BIN_EXE_chimera");

/// Runs the binary with `args`, writes `input` to its standard input and closes it; returns
/// the exit code, standard output and standard error.
fn run(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(CHIMERA)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chimera binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("the engine reads its input");
    let out = child.wait_with_output().expect("the engine ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn lines_that_are_not_utf8_are_errors_and_the_uci_session_goes_on() {
    let input = b"uci\n\xff\n\x80\n\xc0\x80\nposition fen 4k3/8/8/8/8/8/8/4K3 w - \xe9 0 1\n\
go depth \xff\nisready\nposition startpos moves e2e4\ngo depth 1\n";
    let (code, out, _) = run(&[], input);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("option ")).collect();
    let errors: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: line is not UTF-8"))
        .collect();
    assert_eq!(errors.len(), 5, "{lines:?}");
    assert!(lines.contains(&"readyok"), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

#[test]
fn lines_that_are_not_utf8_are_errors_and_the_xboard_session_goes_on() {
    let input = b"xboard\nprotover 2\n\xff\nping 1\nsetboard 4k3/8/8/8/8/8/8/4K3 w - \xe9 0 1\n\
ping 2\nquit\n";
    let (code, out, _) = run(&[], input);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("feature ")).collect();
    assert_eq!(
        lines,
        [
            "Error (unreadable line): line is not UTF-8 (byte 0): \"\u{FFFD}\"",
            "pong 1",
            "Error (unreadable line): line is not UTF-8 (byte 33): \
             \"setboard 4k3/8/8/8/8/8/8/4K3 w - \u{FFFD} 0 1\"",
            "pong 2"
        ]
    );
}

/// Only the real end of input ends the session: a last line without a newline is still read.
#[test]
fn the_last_line_needs_no_newline() {
    let (code, out, _) = run(&["uci"], b"\xff\nisready");
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l == "readyok"), "{out}");
}

/// A non-ASCII character in a FEN field (here the e.p. field, once a panic in the FEN reader)
/// is a FEN error; the position stays.
#[test]
fn a_non_ascii_fen_is_a_fen_error_and_the_position_stays() {
    let (mut d, cap) = uci();
    d.feed("position startpos moves e2e4");
    let before = d.dialect.state.position.fen();
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - é 0 1",
        "4k3/8/8/8/8/8/8/4K3 é - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w é - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - é 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 é",
        "4k3/8/8/8/é/8/8/4K3 w - - 0 1",
    ] {
        d.feed(&format!("position fen {fen}"));
        let said = cap.take();
        assert!(
            said.len() == 1 && said[0].starts_with("info string error: bad "),
            "{fen}: {said:?}"
        );
        assert_eq!(d.dialect.state.position.fen(), before, "{fen}");
    }
}

#[test]
fn a_line_longer_than_any_command_is_an_error() {
    let (mut d, cap) = uci();
    let mut bytes = b"position fen ".to_vec();
    bytes.extend(vec![b'8'; MAX_LINE_BYTES + 10]);
    bytes.extend(b"\nisready\n");
    d.feed_bytes(&bytes);
    let said = cap.take();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].starts_with(&format!(
            "info string error: line of {} bytes is longer than",
            MAX_LINE_BYTES + 23
        )),
        "{said:?}"
    );
    assert_eq!(said[1], "readyok");
}

/// The largest table the option offers may be more than the machine has: then the error names
/// the size and the old table stays. (Where the system promises any amount of memory, the
/// table is taken, lazily; either way the engine answers on.)
#[test]
fn a_table_the_machine_cannot_give_is_an_error_and_the_old_one_stays() {
    let (mut d, cap) = uci();
    d.feed("setoption name Hash value 65536");
    d.feed("isready");
    let said = cap.take();
    match said.as_slice() {
        [error, ready] => {
            assert!(
                error.starts_with("info string error: table size 65536 MB: cannot allocate")
                    && error.ends_with(&format!("the table stays at {DEFAULT_HASH_MB} MB")),
                "{error}"
            );
            assert_eq!(ready, "readyok");
            assert_eq!(d.dialect.state.options.hash_mb, DEFAULT_HASH_MB);
        }
        [ready] => {
            eprintln!("note: this system gave 64 GB of address space; no error to see");
            assert_eq!(ready, "readyok");
            assert_eq!(d.dialect.state.options.hash_mb, 65536);
        }
        other => panic!("{other:?}"),
    }
    d.feed("go depth 3");
    assert!(cap.take().last().unwrap().starts_with("bestmove "));
}

#[test]
fn xboard_memory_beyond_the_machine_is_an_error() {
    let (mut d, cap) = xboard();
    d.feed("xboard");
    d.feed("memory 99999999");
    d.feed("ping 1");
    let said = cap.take();
    assert_eq!(said.last().map(String::as_str), Some("pong 1"), "{said:?}");
    if said.len() == 2 {
        assert!(
            said[0].starts_with("Error (table size 65536 MB: cannot allocate"),
            "{said:?}"
        );
    }
}

/// The resident memory of this process in bytes (Linux), to see that a table is taken lazily.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// A large table costs nothing until it is written, so `setoption` returns at once and
/// `isready` is answered: here 8 GB are asked for and the resident memory hardly grows.
#[test]
fn a_large_table_is_taken_lazily() {
    let Some(before) = resident_bytes() else {
        eprintln!("note: no /proc/self/statm; laziness not measured");
        return;
    };
    let (mut d, cap) = uci();
    d.feed("setoption name Hash value 8192");
    d.feed("ucinewgame");
    d.feed("isready");
    let said = cap.take();
    if said.len() > 1 {
        eprintln!("note: this system cannot give 8 GB of address space: {said:?}");
        return;
    }
    assert_eq!(said, ["readyok"]);
    let grown = resident_bytes().unwrap().saturating_sub(before);
    assert!(
        grown < 1 << 30,
        "the 8 GB table made {grown} bytes resident"
    );
    d.feed("go depth 4");
    assert!(cap.take().last().unwrap().starts_with("bestmove "));
}

/// `go perft` runs like a search: `isready` is answered while it counts, `stop` ends it (with
/// a line saying so), and the engine goes on; `quit` ends the session at once.
#[test]
fn perft_runs_like_a_search_and_stops() {
    let (mut d, cap) = uci();
    for depth in [7, 33] {
        d.send(&format!("go perft {depth}"));
        d.send("isready");
        assert_eq!(cap.take(), ["readyok"]);
        d.send("stop");
        d.settle();
        assert_eq!(cap.take(), [format!("info string perft {depth} stopped")]);
    }
    d.feed("go perft 2");
    assert_eq!(cap.take().last().unwrap(), "Nodes searched: 400");
    d.send("go perft 33");
    assert!(!d.send("quit"), "quit ends the session during perft");
}

#[test]
fn perft_deeper_than_any_use_is_refused() {
    let (mut d, cap) = uci();
    d.feed("go perft 429967296");
    assert_eq!(
        cap.take(),
        ["info string error: perft depth 429967296 is more than 64"]
    );
    let (code, _, err) = run(&["perft", "100000"], b"");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad depth '100000'"), "{err}");
}

#[test]
fn thread_counts_are_bounded_with_a_note() {
    let (code, out, err) = run(&["perft", "1", "--threads", "100000"], b"");
    assert_eq!(code, 0, "{err}");
    assert!(out.trim_end().ends_with("Nodes searched: 20"), "{out}");
    assert!(
        err.contains(&format!("--threads 100000 is more than {MAX_THREADS}")),
        "{err}"
    );
    let (mut d, cap) = uci();
    d.feed("setoption name Threads value 100000");
    assert!(cap.take()[0].starts_with("info string error: bad value '100000'"));
    assert_eq!(d.dialect.state.options.threads, 1);
}

/// A variant path that names something other than a file (a device that never ends, a
/// directory) is an error, not a read that fills the memory or blocks.
#[test]
fn a_variant_path_that_is_not_a_file_is_an_error() {
    let (mut d, cap) = uci();
    for path in ["/dev/zero", "/", "no/such/file.ini"] {
        d.feed(&format!("setoption name VariantPath value {path}"));
        let said = cap.take();
        assert!(
            said.len() == 1 && said[0].starts_with("info string error: ") && said[0].contains(path),
            "{path}: {said:?}"
        );
    }
    d.feed("isready");
    assert_eq!(cap.take(), ["readyok"]);
}

/// Positions the variant's rules cannot play are FEN errors (the position stays); positions
/// that are only odd are set up with a warning, in each dialect's form.
#[test]
fn impossible_positions_are_errors_and_odd_ones_warnings() {
    let (mut d, cap) = uci();
    for (variant, fen, why) in [
        (
            "chess",
            "kkkkkkkk/kkkkkkkk/8/8/8/8/KKKKKKKK/KKKKKKKK w - - 0 1",
            "royal men",
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqKQkq - 0 1",
            "repeated",
        ),
        (
            "pawnvault",
            "rnbqkbnr/popopopo/8/8/8/8/POPOPOPO/RNBQKBNR[DTdtK] w KQkq - 0 1",
            "in a hand",
        ),
        (
            "pawnvault",
            "rnbqkbnr/popopopo/8/8/8/8/POPOPOPO/RNBQKBNR[DTdtP] w KQkq - 0 1",
            "in a hand",
        ),
    ] {
        d.feed(&format!("setoption name UCI_Variant value {variant}"));
        cap.take();
        let before = d.dialect.state.position.fen();
        d.feed(&format!("position fen {fen}"));
        let said = cap.take();
        assert!(
            said.len() == 1
                && said[0].starts_with("info string error: bad ")
                && said[0].contains(why),
            "{fen}: {said:?}"
        );
        assert_eq!(d.dialect.state.position.fen(), before);
    }
    // Written in Fairy-Stockfish's hand order (E before H), so that the text reads back.
    let hawks = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHHHHHHHHHHHHHHHHHHHHHHeh] w \
                 KQBCDFGkqbcdfg - 0 1";
    d.feed("setoption name UCI_Variant value seirawan");
    cap.take();
    d.feed(&format!("position fen {hawks}"));
    let said = cap.take();
    assert!(
        said.len() == 1 && said[0].starts_with("info string warning: White holds 22 H"),
        "{said:?}"
    );
    let board = hawks.split(' ').next().unwrap();
    assert!(d.dialect.state.position.fen().starts_with(board));
    let (mut d, cap) = xboard();
    d.feed("xboard");
    d.feed("variant seirawan");
    cap.take();
    d.feed(&format!("setboard {hawks}"));
    let said = cap.take();
    assert!(
        said.len() == 1 && said[0].starts_with("# warning: White holds 22 H"),
        "{said:?}"
    );
}
