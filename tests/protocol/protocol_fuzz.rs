//! Fuzzing both GUI dialects in process: batches of random and mutated input lines (any bytes:
//! invalid UTF-8, NUL, huge numbers, endless searches, impossible table sizes, files that never
//! end) are sent as a hostile GUI would, without waiting for what they start. After each batch
//! every job is stopped, and the engine must still answer (`isready`, `ping`), play chess from
//! the start with the right move count (`go perft 3` = 8902), and must not have panicked,
//! neither in the dialect nor in a search thread. The seed is fixed; the time is bounded.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use chimera_engine::registry::Registry;
use chimera_protocol::dialect::Dialect;
use chimera_protocol::driver::Driver;
use chimera_protocol::state::{Capture, EngineState, Output};
use chimera_protocol::uci::Uci;
use chimera_protocol::xboard::Xboard;

/// Lines per batch, between two health checks.
const BATCH: usize = 40;
/// Lines fed per dialect at most, and the time allowed for them.
const MAX_LINES: usize = 12_000;
const MAX_TIME: Duration = Duration::from_secs(25);

const UCI_LINES: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "debug on",
    "register later",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5",
    "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves c7c5",
    "position fen 4k3/8/8/8/8/8/8/3K1r2 w - - 0 1 {M@d}",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1",
    "go depth 3",
    "go depth 60",
    "go nodes 3000",
    "go movetime 30",
    "go mate 2",
    "go infinite",
    "go ponder wtime 500 btime 500",
    "ponderhit",
    "go wtime 1000 btime 1000 winc 10 binc 10",
    "go movestogo 5 wtime 100 btime 100",
    "go depth 2 searchmoves e2e4 d2d4",
    "go perft 2",
    "go perft 33",
    "stop",
    "setoption name Hash value 32",
    "setoption name Hash value 65536",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name Ponder value true",
    "setoption name UCI_Chess960 value true",
    "setoption name Move Overhead value 5000",
    "setoption name Clear Hash",
    "setoption name UCI_Variant value capablanca",
    "setoption name UCI_Variant value seirawan",
    "setoption name UCI_Variant value pawnvault",
    "setoption name UCI_Variant value pioneer",
    "setoption name UCI_Variant value alice",
    "setoption name UCI_Variant value aliceguard",
    "setoption name UCI_Variant value vanguard",
    "setoption name UCI_Variant value grand",
    "setoption name VariantPath value /dev/zero",
    "setoption name VariantPath value tests/data/variants/ok/zoo.ini",
];

const XBOARD_LINES: &[&str] = &[
    "xboard",
    "protover 2",
    "new",
    "force",
    "go",
    "playother",
    "?",
    "undo",
    "remove",
    "variant capablanca",
    "variant seirawan",
    "variant pawnvault",
    "variant pioneer",
    "variant alice",
    "variant vanguard",
    "setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "setboard 4k3/8/8/8/8/8/8/3K1r2 w - - 0 1 {M@d}",
    "usermove e2e4",
    "e7e5",
    "level 40 5 0",
    "level 0 0:30 1",
    "st 1",
    "sd 4",
    "sd 80",
    "time 10000",
    "otim 10000",
    "post",
    "nopost",
    "analyze",
    "exit",
    ".",
    "hard",
    "easy",
    "memory 64",
    "memory 99999999",
    "cores 2",
    "cores 100000",
    "option MultiPV=2",
    "option VariantPath=/dev/zero",
    "result 1-0 {White wins}",
    "ping 3",
    "hint",
    "bk",
    "exclude e2e4",
    "include all",
    "lift e2",
    "put e4",
];

/// Tokens that replace a number or a word of a line.
const ODD_TOKENS: &[&str] = &[
    "0",
    "-1",
    "4294967296",
    "18446744073709551616",
    "-9223372036854775808",
    "1e400",
    "NaN",
    "0x10",
    "+5",
    "\u{663}",
    "é",
    "\u{FFFD}",
    "",
    "moves",
    "fen",
    "value",
    "name",
    "infinite",
    "perft",
    "searchmoves",
    "{",
    "}",
    "[",
    "@",
    "/",
    "|",
];

/// Byte sequences that are not UTF-8, or are awkward in other ways.
const ODD_BYTES: &[&[u8]] = &[
    b"\xff",
    b"\x80",
    b"\xc0\x80",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xe9",
    b"\0",
    b"\r",
    b"\t",
    b"\x1b[2J",
];

/// One line: a known command, mutated at the word or byte level, or random bytes.
fn fuzz_line(rng: &mut SmallRng, corpus: &[&str]) -> Vec<u8> {
    let pick = |rng: &mut SmallRng| corpus[rng.gen_range(0..corpus.len())];
    let mut line: Vec<u8> = match rng.gen_range(0..10) {
        0 => (0..rng.gen_range(0..40)).map(|_| rng.gen()).collect(),
        1 => format!("{} {}", pick(rng), pick(rng)).into_bytes(),
        2..=4 => pick(rng).as_bytes().to_vec(),
        _ => {
            let mut words: Vec<String> = pick(rng).split(' ').map(str::to_string).collect();
            for _ in 0..rng.gen_range(1..3) {
                let i = rng.gen_range(0..words.len());
                let odd = ODD_TOKENS[rng.gen_range(0..ODD_TOKENS.len())].to_string();
                match rng.gen_range(0..3) {
                    0 => words[i] = odd,
                    1 => words.insert(i, odd),
                    _ if words.len() > 1 => {
                        words.remove(i);
                    }
                    _ => {}
                }
            }
            words.join(" ").into_bytes()
        }
    };
    for _ in 0..rng.gen_range(0..3) {
        let at = rng.gen_range(0..=line.len());
        match rng.gen_range(0..3) {
            0 => {
                let odd = ODD_BYTES[rng.gen_range(0..ODD_BYTES.len())];
                line.splice(at..at, odd.iter().copied());
            }
            1 if at < line.len() => {
                line.remove(at);
            }
            _ => line.insert(at, rng.gen()),
        }
    }
    // A newline inside would make two lines; the splitter is tested with those elsewhere.
    line.retain(|&b| b != b'\n');
    line
}

/// A batch of lines as one byte stream; now and then one line far longer than any command.
fn fuzz_batch(rng: &mut SmallRng, corpus: &[&str]) -> (Vec<u8>, usize) {
    let mut bytes = Vec::new();
    for _ in 0..BATCH {
        bytes.extend(fuzz_line(rng, corpus));
        bytes.push(b'\n');
    }
    if rng.gen_ratio(1, 50) {
        bytes.extend(vec![b'x'; 3 << 20]);
        bytes.push(b'\n');
    }
    (bytes, BATCH)
}

/// Stops whatever the batch left running: `stops` are sent until nothing runs any more.
/// Up to 30 s: one batch (after `cores 100000`, Vanguard, `analyze`, `new`) took 3-5 s to
/// settle on two cores beside a self-play run, and sometimes more than 10 s, with and
/// without the built-in net alike.
fn stop_everything<D: Dialect>(d: &mut Driver<D>, stops: &[&str], batch: &[u8]) {
    for _ in 0..600 {
        for s in stops {
            d.send(s);
        }
        if d.settle_for(Duration::from_millis(50)) {
            return;
        }
    }
    panic!(
        "still searching after 600 stops; batch:\n{}",
        String::from_utf8_lossy(batch)
    );
}

/// Lines that show a defect: a panic caught in a search or perft thread.
fn failures(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.contains("internal error") || l.contains(" failed: "))
        .collect()
}

/// True for a line of the UCI dialect's forms.
fn uci_form(line: &str) -> bool {
    const STARTS: &[&str] = &[
        "id ",
        "option ",
        "uciok",
        "readyok",
        "info ",
        "bestmove ",
        "Nodes searched: ",
    ];
    line.is_empty()
        || STARTS.iter().any(|s| line.starts_with(s))
        || line
            .rsplit_once(": ")
            .is_some_and(|(m, n)| !m.contains(' ') && n.parse::<u64>().is_ok())
}

/// How one dialect is fuzzed: its lines, how a session starts, how every job is stopped, the
/// forms its lines must have, and the health check after each batch (given the check's
/// number).
struct Fuzzed<D: Dialect> {
    name: &'static str,
    corpus: &'static [&'static str],
    make: fn(EngineState) -> D,
    handshake: &'static [&'static str],
    stops: &'static [&'static str],
    form: fn(&str) -> bool,
    check: fn(&mut Driver<D>, &Capture, usize, &str),
}

/// A session of the dialect, after its handshake.
fn session<D: Dialect>(f: &Fuzzed<D>) -> (Driver<D>, Capture) {
    let (out, cap) = Output::capture();
    let mut d = Driver::new(Registry::new(), out, f.make);
    for line in f.handshake {
        d.feed(line);
    }
    cap.take();
    (d, cap)
}

/// Feeds batches until the line or time budget is spent; returns the lines fed.
fn fuzz<D: Dialect>(f: &Fuzzed<D>, seed: u64) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut d, mut cap) = session(f);
    let start = Instant::now();
    let (mut lines, mut checks) = (0, 0);
    while lines < MAX_LINES && start.elapsed() < MAX_TIME {
        let (batch, n) = fuzz_batch(&mut rng, f.corpus);
        lines += n;
        let text = String::from_utf8_lossy(&batch).into_owned();
        let sent = catch_unwind(AssertUnwindSafe(|| {
            if !d.send_bytes(&batch) {
                return false;
            }
            stop_everything(&mut d, f.stops, &batch);
            true
        }));
        match sent {
            Err(_) => panic!("the {} dialect panicked on this batch:\n{text}", f.name),
            // A mutated line said `quit`: a new session, as a GUI would start.
            Ok(false) => (d, cap) = session(f),
            Ok(true) => {}
        }
        let said = cap.take();
        assert!(
            failures(&said).is_empty(),
            "{:?}\nbatch:\n{text}",
            failures(&said)
        );
        let odd: Vec<&String> = said.iter().filter(|l| !(f.form)(l)).collect();
        assert!(
            odd.is_empty(),
            "lines not of {}'s forms: {odd:?}\nbatch:\n{text}",
            f.name
        );
        checks += 1;
        (f.check)(&mut d, &cap, checks, &text);
    }
    lines
}

/// The UCI engine answers and still counts chess right.
fn check_uci(d: &mut Driver<Uci>, cap: &Capture, _: usize, batch: &str) {
    d.feed("isready");
    assert_eq!(cap.take(), ["readyok"], "batch:\n{batch}");
    d.feed("setoption name UCI_Variant value chess");
    d.feed("position startpos");
    d.feed("go perft 3");
    let said = cap.take();
    assert_eq!(
        said.last().map(String::as_str),
        Some("Nodes searched: 8902"),
        "batch:\n{batch}"
    );
}

/// The XBoard engine answers `ping` and, after `new`, holds chess with the right count.
fn check_xboard(d: &mut Driver<Xboard>, cap: &Capture, n: usize, batch: &str) {
    d.feed("new");
    d.feed("force");
    d.feed(&format!("ping {n}"));
    let said = cap.take();
    assert_eq!(said.last(), Some(&format!("pong {n}")), "batch:\n{batch}");
    let state = d.dialect.state();
    assert_eq!(state.variant.name(), "chess", "batch:\n{batch}");
    assert_eq!(state.position.clone().perft(3), 8902, "batch:\n{batch}");
}

#[test]
fn uci_survives_random_and_mutated_lines() {
    let uci = Fuzzed {
        name: "UCI",
        corpus: UCI_LINES,
        make: Uci::new,
        handshake: &["uci"],
        stops: &["stop"],
        form: uci_form,
        check: check_uci,
    };
    let lines = fuzz(&uci, 0x5eed_0034);
    eprintln!("UCI: {lines} fuzzed lines");
    assert!(
        lines >= 10 * BATCH,
        "only {lines} lines in the time allowed"
    );
}

#[test]
fn xboard_survives_random_and_mutated_lines() {
    let xboard = Fuzzed {
        name: "XBoard",
        corpus: XBOARD_LINES,
        make: Xboard::new,
        handshake: &["xboard", "protover 2"],
        stops: &["force", "exit", "?"],
        // Its replies vary more (thinking lines, `move`, results, `setup`): any form, as
        // long as nothing failed.
        form: |_| true,
        check: check_xboard,
    };
    let lines = fuzz(&xboard, 0x5eed_0035);
    eprintln!("XBoard: {lines} fuzzed lines");
    assert!(
        lines >= 10 * BATCH,
        "only {lines} lines in the time allowed"
    );
}
