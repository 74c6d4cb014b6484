//! Seeded fuzzing of the two texts a user hands the engine: FENs and variant files. Random
//! edits of valid inputs (and wholly random texts), with characters no FEN or file uses (`é`,
//! U+FFFD, non-ASCII digits and spaces), go through the readers of every built-in variant. The
//! readers must never panic; what they accept must be usable: a FEN prints to a fixed point,
//! generates moves, and perft(1) counts the moves listed; a variant file's variants set up their
//! start position. Each failure names the input. The seeds are fixed, so a run is the same on
//! every machine; debug builds feed fewer cases than release builds, where each test takes a
//! few seconds. `FUZZ_SCALE=<n>` multiplies the cases and `FUZZ_SEED=<n>` changes the seeds, for
//! a longer hunt.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use chimera_engine::registry::BUILTIN_INI;
use chimera_engine::registry::{builtin, builtin_names, Registry};
use chimera_engine::{Position, VariantRef};

/// Cases per test: fewer in debug builds, which run the same code some ten times slower; the
/// environment variable `FUZZ_SCALE` multiplies them for a longer hunt.
fn cases(release: usize) -> usize {
    let scale = std::env::var("FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(1);
    scale
        * if cfg!(debug_assertions) {
            release / 10
        } else {
            release
        }
}

/// The seed of a test's random number generator: its own, or the environment variable
/// `FUZZ_SEED` mixed in, for a hunt beyond the cases the test suite runs.
fn rng(own: u64) -> SmallRng {
    let extra = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(0);
    SmallRng::seed_from_u64(own ^ extra.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// What a panic carried, as text.
fn panic_text(panic: Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// Runs `f`, turning a panic into an error.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|p| Err(format!("panicked: {}", panic_text(p))))
}

/// Fails with the first failures, if any.
fn report(what: &str, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{what}: {} failure(s), first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

/// Characters the edits draw from: every character a FEN of some variant uses, and some that
/// none does, among them characters of two and three bytes in UTF-8 (a reader that cuts text
/// by bytes panics on those), a non-ASCII digit and a non-ASCII space.
const CHARS: &[char] = &[
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '/', '[', ']', '{', '}', '@', '+', '*', '|',
    '~', '-', '?', ' ', ' ', 'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', 'a', 'h',
    'e', 'c', 'd', 't', 'o', 'm', 'w', 'A', 'H', 'E', 'C', 'D', 'T', 'O', 'M', 'W', 'x', 'z', 'é',
    'É', '\u{FFFD}', 'ß', '³', '١', '\u{3000}', '\u{0}', '\t', 'ﬀ',
];

fn random_char(rng: &mut SmallRng) -> char {
    CHARS[rng.gen_range(0..CHARS.len())]
}

/// One random edit of `s`, a text cut into characters: replace, insert or delete one, repeat a
/// slice, swap two, cut the text short, put in a huge number, or put a field of `donor` in
/// place of one of `s`.
fn mutate(rng: &mut SmallRng, s: &mut Vec<char>, donor: &str) {
    if s.is_empty() {
        s.push(random_char(rng));
        return;
    }
    let i = rng.gen_range(0..s.len());
    match rng.gen_range(0..9) {
        0 | 1 => s[i] = random_char(rng),
        2 | 3 => s.insert(i, random_char(rng)),
        4 => {
            s.remove(i);
        }
        5 => {
            let end = (i + rng.gen_range(1..8)).min(s.len());
            let slice = s[i..end].to_vec();
            s.splice(i..i, slice);
        }
        6 => {
            let j = rng.gen_range(0..s.len());
            s.swap(i, j);
        }
        7 => {
            let huge = ["99999999999999999999", "65536", "256", "4294967296", "-1"];
            s.splice(i..i, huge[rng.gen_range(0..huge.len())].chars());
        }
        _ => {
            let text: String = s.iter().collect();
            let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
            let theirs: Vec<&str> = donor.split(' ').collect();
            let f = rng.gen_range(0..fields.len());
            fields[f] = theirs[rng.gen_range(0..theirs.len())].to_string();
            *s = fields.join(" ").chars().collect();
        }
    }
}

/// An edit that keeps most of a FEN's shape, so that many edited FENs are still valid and the
/// checks after reading get exercised too: swap two men or squares of the board field, put
/// another piece letter of the variant (`letters`) in place of a letter, or another digit in
/// place of a digit.
fn gentle_mutate(rng: &mut SmallRng, s: &mut [char], letters: &[char]) {
    let board_end = s.iter().position(|&c| c == ' ').unwrap_or(s.len());
    if board_end < 2 {
        return;
    }
    let i = rng.gen_range(0..board_end);
    match rng.gen_range(0..3) {
        0 => {
            let j = rng.gen_range(0..board_end);
            if s[i] != '/' && s[j] != '/' {
                s.swap(i, j);
            }
        }
        1 if s[i].is_ascii_alphabetic() && !letters.is_empty() => {
            let l = letters[rng.gen_range(0..letters.len())];
            s[i] = if rng.gen_bool(0.5) {
                l
            } else {
                l.to_ascii_lowercase()
            };
        }
        _ => {
            let digits: Vec<usize> = (0..s.len()).filter(|&k| s[k].is_ascii_digit()).collect();
            if !digits.is_empty() {
                let k = digits[rng.gen_range(0..digits.len())];
                s[k] = char::from(b'0' + rng.gen_range(0..10u8));
            }
        }
    }
}

/// The FENs of tests/data/fen/valid.txt (second column) with their variant.
fn valid_fens() -> Vec<(String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fen/valid.txt");
    let text = std::fs::read_to_string(&path).expect("tests/data/fen/valid.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| {
            let line = format!("{l} ");
            let mut columns = line.split(" | ").map(|c| c.trim().to_string());
            let name = columns.next().unwrap_or_default();
            (name, columns.next().unwrap_or_default())
        })
        .collect()
}

/// Reads `text` as a FEN of `v` and, when it is accepted, uses the position as a game would:
/// checks it, prints it and reads the print back to the same text, lists its moves, counts
/// them with perft(1), asks for its oddities, and plays each move out and back. `Ok(true)`
/// when the FEN was accepted.
fn exercise_fen(v: &VariantRef, text: &str) -> Result<bool, String> {
    guarded(|| {
        let Ok(mut pos) = Position::from_fen(v, text) else {
            return Ok(false);
        };
        pos.validate()?;
        let written = pos.fen();
        let back = Position::from_fen(v, &written)
            .map_err(|e| format!("own FEN '{written}' rejected: {e}"))?;
        if back.fen() != written {
            return Err(format!("'{written}' is written again as '{}'", back.fen()));
        }
        let moves = pos.legal_moves();
        let counted = pos.perft(1);
        if counted != moves.len() as u64 {
            return Err(format!(
                "'{written}': perft(1) is {counted}, legal_moves lists {}",
                moves.len()
            ));
        }
        let _ = pos.oddities();
        for &mv in moves.iter() {
            pos.make_move(mv);
            let _ = pos.fen();
            pos.unmake_move();
        }
        if pos.fen() != written {
            return Err(format!("make/unmake did not restore '{written}'"));
        }
        Ok(true)
    })
}

/// The files of tests/data/variants/ok, as texts.
fn ok_files() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/variants/ok");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/variants/ok")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ini"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable"))
        .collect()
}

/// Every prefix of every valid FEN (a text cut short, as a GUI's broken line would be), read by
/// every built-in variant: never a panic, and what is accepted plays (see [`exercise_fen`]).
#[test]
fn no_prefix_of_a_valid_fen_panics() {
    let variants: Vec<VariantRef> = builtin_names()
        .iter()
        .map(|n| builtin(n).expect("built in"))
        .collect();
    let mut failures = Vec::new();
    for (origin, fen) in valid_fens() {
        for (end, _) in fen.char_indices().chain(std::iter::once((fen.len(), ' '))) {
            let prefix = &fen[..end];
            for v in &variants {
                if let Err(e) = exercise_fen(v, prefix) {
                    failures.push(format!("{origin}: {} '{prefix}': {e}", v.name()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s), first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// Random and mutated FENs, read by every built-in variant and those of
/// tests/data/variants/ok (custom pieces, 12x12 and 16x16 boards): never a panic, and every
/// FEN that is accepted round-trips and counts its moves alike (see [`exercise_fen`]).
#[test]
fn fuzzed_fens_never_panic_and_what_is_accepted_plays() {
    let mut variants: Vec<VariantRef> = builtin_names()
        .iter()
        .map(|n| builtin(n).expect("built in"))
        .collect();
    for text in ok_files() {
        let mut r = Registry::new();
        let names = r
            .load_text(&text, "ok.ini", "ok")
            .into_result()
            .expect("ok/ files load");
        variants.extend(names.iter().map(|n| r.get(n).expect("loaded")));
    }
    // Seeds: every valid FEN of the data file, and every built-in start position.
    let mut seeds: Vec<(String, String)> = valid_fens();
    seeds.extend(
        variants
            .iter()
            .map(|v| (v.name().to_string(), v.start_fen().to_string())),
    );
    let mut rng = rng(0xf0e2_2024_5eed);
    let (mut texts, mut tries, mut accepted, mut own_tries, mut own_accepted) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for round in 0..cases(100_000) {
        // The variant the text came from (none for random text), and two others: a FEN of
        // one variant is hostile input for another board size or piece set.
        let mut chosen: Vec<usize> = Vec::new();
        let text: String = if round % 10 == 9 {
            let len = rng.gen_range(0..60);
            (0..len).map(|_| random_char(&mut rng)).collect()
        } else {
            let (name, fen) = &seeds[rng.gen_range(0..seeds.len())];
            let (_, donor) = &seeds[rng.gen_range(0..seeds.len())];
            chosen.extend(variants.iter().position(|v| v.name() == name));
            let mut chars: Vec<char> = fen.chars().collect();
            if rng.gen_bool(0.5) {
                let letters: Vec<char> = chosen
                    .first()
                    .map(|&i| variants[i].pieces().iter().map(|p| p.letter).collect())
                    .unwrap_or_default();
                for _ in 0..rng.gen_range(1..3) {
                    gentle_mutate(&mut rng, &mut chars, &letters);
                }
            } else {
                for _ in 0..rng.gen_range(1..4) {
                    mutate(&mut rng, &mut chars, donor);
                }
            }
            chars.into_iter().collect()
        };
        texts += 1;
        chosen.push(rng.gen_range(0..variants.len()));
        chosen.push(rng.gen_range(0..variants.len()));
        for (k, &i) in chosen.iter().enumerate() {
            let own = k == 0 && round % 10 != 9;
            tries += 1;
            own_tries += own as usize;
            match exercise_fen(&variants[i], &text) {
                Ok(true) => {
                    accepted += 1;
                    own_accepted += own as usize;
                }
                Ok(false) => {}
                Err(e) => failures.push(format!("{} {text:?}: {e}", variants[i].name())),
            }
        }
    }
    eprintln!(
        "fuzzed FENs: {texts} texts, {tries} readings over {} variants, {accepted} accepted \
         ({own_accepted} of {own_tries} by the variant they came from)",
        variants.len()
    );
    report("fuzzed FENs", &failures);
    // Edits that keep a FEN valid for its own variant (a changed counter, a swapped man) are
    // common; if few were accepted the fuzzer would only test the first error paths.
    assert!(
        own_accepted * 10 > own_tries,
        "only {own_accepted} of {own_tries} FENs accepted by their own variant"
    );
}

// ---------------------------------------------------------------------------------------------
// Variant files
// ---------------------------------------------------------------------------------------------

/// Values put in place of a key's value: right or wrong for the key, empty, huge, not ASCII.
const VALUES: &[&str] = &[
    "",
    "-",
    "0",
    "1",
    "2",
    "8",
    "16",
    "17",
    "255",
    "256",
    "65536",
    "4294967296",
    "99999999999999999999",
    "-1",
    "true",
    "false",
    "a",
    "p",
    "k",
    "kq",
    "qrbn",
    "*",
    "*1",
    "a1 h8",
    "p:1 k:2",
    "k:j",
    "p:q",
    "win",
    "loss",
    "none",
    "fairy",
    "shogi",
    "nosuch",
    "é",
    "\u{FFFD}",
    "ﬀ",
    "ké",
    "é:K",
    "x:é",
    "k:éK",
    "a:N\u{FFFD}",
    "m:KAD",
    "c:mRcpR",
    "u:NN",
    "z:KNADcaKmcabK",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3[Qq] w - - 0 1",
    "4k3/8/8/8/8/8/8/4Ké3 w - é 0 1",
    "k/K w",
    "KK6/8/8/8/8/8/8/6kk w - - 0 1",
];

/// The keys of every `key = value` line of `texts`, to put on other lines.
fn keys_of(texts: &[String]) -> Vec<String> {
    let mut keys: Vec<String> = texts
        .iter()
        .flat_map(|t| t.lines())
        .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim().to_string()))
        .filter(|k| !k.is_empty() && !k.starts_with('#'))
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// The sections of the built-in file, each as its own text.
fn builtin_sections() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in BUILTIN_INI.lines() {
        if line.starts_with('[') || out.is_empty() {
            out.push(String::new());
        }
        let last = out.last_mut().expect("pushed above");
        last.push_str(line);
        last.push('\n');
    }
    out.retain(|s| s.contains('['));
    out
}

/// One random edit of a variant file, line by line.
fn mutate_file(rng: &mut SmallRng, lines: &mut Vec<String>, keys: &[String], donors: &[String]) {
    if lines.is_empty() {
        lines.push("[x]".into());
    }
    let i = rng.gen_range(0..lines.len());
    match rng.gen_range(0..8) {
        0 => {
            lines.remove(i);
        }
        1 => {
            let copy = lines[i].clone();
            lines.insert(i, copy);
        }
        2 | 3 => {
            // Another value for the line's key.
            if let Some((k, _)) = lines[i].split_once('=') {
                let value = if rng.gen_bool(0.8) {
                    VALUES[rng.gen_range(0..VALUES.len())].to_string()
                } else {
                    let donor = &donors[rng.gen_range(0..donors.len())];
                    let other: Vec<&str> = donor.lines().filter(|l| l.contains('=')).collect();
                    other
                        .get(rng.gen_range(0..other.len().max(1)))
                        .and_then(|l| l.split_once('='))
                        .map_or(String::new(), |(_, v)| v.trim().to_string())
                };
                lines[i] = format!("{} = {value}", k.trim());
            }
        }
        4 => {
            let key = &keys[rng.gen_range(0..keys.len())];
            let value = VALUES[rng.gen_range(0..VALUES.len())];
            lines.insert(i, format!("{key} = {value}"));
        }
        5 => {
            let j = rng.gen_range(0..lines.len());
            lines.swap(i, j);
        }
        6 => {
            // A character edit inside the line (section headers and keys included).
            let mut chars: Vec<char> = lines[i].chars().collect();
            mutate(rng, &mut chars, "");
            lines[i] = chars.into_iter().collect();
        }
        _ => {
            // A line from another file.
            let donor = &donors[rng.gen_range(0..donors.len())];
            let other: Vec<&str> = donor.lines().collect();
            if !other.is_empty() {
                lines.insert(i, other[rng.gen_range(0..other.len())].to_string());
            }
        }
    }
}

/// Reads a variant file through `check_text` and `load_text`; each variant it defines must
/// set up its start position and play it as [`exercise_fen`] does. Returns the number of
/// variants loaded.
fn exercise_file(text: &str) -> Result<usize, String> {
    guarded(|| {
        let checked = Registry::new().check_text(text, "fuzz.ini").into_result();
        let mut r = Registry::new();
        let loaded = r.load_text(text, "fuzz.ini", "fuzz").into_result();
        if checked.is_ok() != loaded.is_ok() {
            return Err("check_text and load_text disagree".into());
        }
        let Ok(names) = loaded else { return Ok(0) };
        for name in &names {
            let v = r.get(name).ok_or("loaded but not found")?;
            Position::from_fen(&v, v.start_fen())
                .map_err(|e| format!("{name}: start position '{}': {e}", v.start_fen()))?;
            if !exercise_fen(&v, v.start_fen())? {
                return Err(format!("{name}: start position not accepted"));
            }
        }
        Ok(names.len())
    })
}

/// Mutated variant files (those of tests/data/variants/ok, sections of the built-in file, a
/// diagram line): loading never panics, and every variant that loads plays its start position.
#[test]
fn fuzzed_variant_files_never_panic_and_what_loads_plays() {
    let mut bases = ok_files();
    bases.extend(builtin_sections());
    bases.push(
        "[dia]\ndiagram = files=8 ranks=8 promoZone=1 royal=2 pawn:P:fmWfcF:pawn:a2,b2,,a7,b7 \
         morph=Q king:K:K:king:e1,,e8 queen:Q:Q:queen:d1,,d8 prince:Pr:FN:p:f1,,f8\n"
            .to_string(),
    );
    let keys = keys_of(&bases);
    let mut rng = rng(0x0f11_e5ee_d202);
    let (mut files, mut loaded) = (0usize, 0usize);
    let mut failures = Vec::new();
    for round in 0..cases(12_000) {
        let base = &bases[round % bases.len()];
        let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
        for _ in 0..rng.gen_range(1..4) {
            mutate_file(&mut rng, &mut lines, &keys, &bases);
        }
        let text = lines.join("\n");
        files += 1;
        match exercise_file(&text) {
            Ok(n) => loaded += n,
            Err(e) => failures.push(format!("{e}\n--- file ---\n{text}\n---")),
        }
    }
    eprintln!("fuzzed variant files: {files} files, {loaded} variants loaded and played");
    report("fuzzed variant files", &failures);
    assert!(
        loaded * 5 > files,
        "only {loaded} variants loaded from {files} files: the edits break nearly every file"
    );
}
