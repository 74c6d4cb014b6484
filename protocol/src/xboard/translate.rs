//! Chimera's variants in XBoard's terms: which variants XBoard knows itself and their CECP
//! names, the piece-to-char table and the `setup` and `piece` lines for the others, XBetza as
//! XBoard reads it, and square numbering on the wire (shifted ranks, XBoard's `:` to `@`
//! ranks, passes as `@@@@`). Pure text in and out, so that it can be tested without a session.

use chimera_engine::Variant;

use crate::facts::holdings_slots;
use crate::xboard::present::{self, Style};
use crate::xboard::slots::slot_table;

/// Names XBoard takes as its own variants (docs/protocols.md §5.1): a variant whose name
/// matches is played by XBoard's rules, so `setup` is sent only for the others.
const XBOARD_PREFIXES: &[&str] = &[
    "shogi",
    "chu",
    "courier",
    "gothic",
    "capablanca",
    "knightmate",
    "fairy",
    "cylinder",
    "falcon",
    "caparandom",
    "berolina",
    "janus",
    "super",
    "great",
    "twilight",
    "makruk",
    "seirawan",
    "grand",
    "spartan",
    "xiangqi",
    "asean",
    "lion",
    "elven",
    "janggi",
    "duck",
];
const XBOARD_CONTAINED: &[&str] = &[
    "normal",
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "shatranj",
    "960",
    "frc",
];

/// Whether XBoard knows the variant `name` itself.
pub fn xboard_knows(name: &str) -> bool {
    let n = xboard_name(name);
    XBOARD_CONTAINED.iter().any(|c| n.contains(c))
        || XBOARD_PREFIXES.iter().any(|p| {
            n.strip_prefix(p)
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphabetic()))
        })
}

/// The name of a variant in CECP (`normal` for chess).
pub fn xboard_name(name: &str) -> String {
    match name {
        "chess" => "normal".into(),
        n => n.to_ascii_lowercase(),
    }
}

/// Turns XBoard's internal rank characters `:` to `@` (ranks 10 to 16) into decimal ranks:
/// XBoard writes `exclude` moves with them (docs/protocols.md §2.1).
pub fn decimal_ranks(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let mut after_file = false;
    for c in text.chars() {
        if after_file && (':'..='@').contains(&c) {
            out.push_str(&(c as u32 - '0' as u32).to_string());
        } else {
            out.push(c);
        }
        after_file = c.is_ascii_lowercase();
    }
    out
}

/// Shifts every square's rank number in `text` by `delta` (squares are a lower-case file
/// letter followed by digits). Used only on 10-rank boards, where CECP counts ranks from 0.
pub fn shift_ranks(text: &str, delta: i32) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        i += 1;
        if c.is_ascii_lowercase() && i < chars.len() && chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            match digits.parse::<i32>() {
                Ok(n) => out.push_str(&(n + delta).to_string()),
                Err(_) => out.push_str(&digits),
            }
        }
    }
    out
}

/// A piece's XBetza as XBoard reads it: a doubled atom (`NN`, the nightrider) is written
/// with range 0 (`N0`), because XBoard 4.9 takes `NN` for a plain knight and then refuses the
/// rider's longer moves as illegal.
pub fn xboard_betza(betza: &str) -> String {
    let mut out = String::with_capacity(betza.len());
    let mut prev: Option<char> = None;
    for c in betza.chars() {
        if c.is_ascii_uppercase() && prev == Some(c) {
            out.push('0');
            prev = None;
            continue;
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

/// Engine move text as CECP writes it: ranks shifted by `rank_shift`, a pass (which the engine
/// writes as Fairy-Stockfish does, the king's move to his own square, `e2e2`) as `@@@@`
/// (docs/protocols.md D6).
pub fn cecp_text(text: &str, rank_shift: i32) -> String {
    text.split(' ')
        .map(|w| {
            if is_pass_text(w) {
                "@@@@".to_string()
            } else if rank_shift == 0 {
                w.to_string()
            } else {
                shift_ranks(w, rank_shift)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// True when `w` is a pass: `0000`, or one square written twice (`e2e2`), a man's move to his
/// own square, which the engine's notation uses for nothing else.
fn is_pass_text(w: &str) -> bool {
    if w == "0000" {
        return true;
    }
    let square_len = |t: &str| {
        let letters = t.bytes().take_while(u8::is_ascii_lowercase).count();
        let digits = t[letters..].bytes().take_while(u8::is_ascii_digit).count();
        (letters == 1 && (1..=2).contains(&digits)).then_some(letters + digits)
    };
    match square_len(w) {
        Some(n) => w.len() == 2 * n && w[..n] == w[n..],
        None => false,
    }
}

/// The `setup` and `piece` lines that teach XBoard an engine-defined variant
/// (docs/protocols.md §5.2, §5.3), with squares numbered as `rank_shift` says; none for a
/// variant XBoard knows.
pub fn setup_lines(v: &Variant, rank_shift: i32) -> Vec<String> {
    let mut lines = Vec::new();
    if xboard_knows(v.name()) {
        return lines;
    }
    let style = present::style(v);
    let table = if matches!(style, Style::PawnGating | Style::Boards) {
        present::pawnless_table(v)
    } else {
        v.piece_to_char_table()
            .map_or_else(|| piece_to_char(v), str::to_string)
    };
    let template = match present::parent(style) {
        Some(p) => p,
        // `fairy` is also what a variant without `variantTemplate` has.
        None if v.template().is_empty() || v.template() == "fairy" => present::plain_parent(v),
        None => v.template(),
    };
    let fen = present::setup_fen(v, style, v.start_fen());
    let holdings = match style {
        Style::Plain => holdings_slots(v) as usize,
        _ => present::holdings_size(&table, present::hand_of(&fen)),
    };
    lines.push(format!(
        "setup ({table}) {}x{}+{holdings}_{template} {}",
        v.geometry().display_files(),
        v.geometry().ranks,
        wire_fen(&fen, rank_shift)
    ));
    for p in v.pieces() {
        let mut betza = match present::betza_override(style, p.letter, p.royal) {
            Some(b) => b.to_string(),
            None => xboard_betza(&p.betza),
        };
        if let Some(c) = &v.castling() {
            if present::king_castles_by_betza(style)
                && v.pieces()
                    .get(c.king.0 as usize)
                    .is_some_and(|k| k.letter == p.letter)
            {
                let reach = c.kingside_file.abs_diff(c.king_file);
                betza.push_str(&format!("isO{reach}"));
            }
        }
        // A promoted type is `+X` (docs/protocols.md §5.3).
        let plus = if p.promoted_from.is_some() { "+" } else { "" };
        lines.push(format!(
            "piece {plus}{}& {betza}",
            p.letter.to_ascii_uppercase()
        ));
    }
    lines
}

/// A FEN for the wire: only the e.p. field holds squares.
fn wire_fen(fen: &str, rank_shift: i32) -> String {
    let mut f: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if f.len() > 3 {
        f[3] = cecp_text(&f[3], rank_shift);
    }
    f.join(" ")
}

/// A piece-to-char table for XBoard (docs/protocols.md §5.2): the usual letters keep their images'
/// slots, other pieces take the free slots in order, the King's letter comes last.
fn piece_to_char(v: &Variant) -> String {
    const USUAL: &[(char, usize)] = &[
        ('P', 0),
        ('N', 1),
        ('B', 2),
        ('R', 3),
        ('Q', 4),
        ('F', 5),
        ('E', 6),
        ('A', 7),
        ('C', 8),
        ('W', 9),
        ('M', 10),
    ];
    // Promoted types (`+X`) have no slot of their own here.
    let letters = v
        .pieces()
        .iter()
        .filter(|p| p.promoted_from.is_none())
        .map(|p| {
            let l = p.letter.to_ascii_uppercase();
            let wanted = USUAL.iter().find(|(c, _)| *c == l).map(|&(_, s)| s);
            (l, wanted, l == 'K')
        });
    slot_table(21, 0, letters, false)
}
