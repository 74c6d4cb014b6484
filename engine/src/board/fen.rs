//! FEN in and out, for every geometry. Reading is two-stage: [`Setup::parse`] checks the syntax
//! alone (fields, runs of empty squares with one or two digits, holdings in `[...]`), then
//! [`Position::from_setup`] gives it meaning for a variant (piece letters, board size, rights,
//! e.p., legality of the placement). Every error names the field and the bad token. Whatever
//! the text (any Unicode, any length), reading it gives a position or an error, never a panic.
//! A position the variant's rules cannot play is an error: more royal men than the start
//! position has (see [`Variant::royal_limit`]), men in hand that no drop, gate or capture puts
//! there ([`Variant::may_hold_in_hand`]), a castling right given twice or for a man marked as
//! moved, two men on one square, more men than the counters hold. A position that is only
//! unlikely is read, and [`Position::oddities`] says what is odd about it.
//!
//! Dialect (that of Fairy-Stockfish, so positions can be exchanged both ways):
//! `<board>[<hand>] <side> <castling> <ep> <halfmove> <fullmove>`, where the castling field of a
//! gating variant (S-Chess) also lists the files whose first-rank men may still gate
//! (`KQBCDFGkqbcdfg`), and the e.p. field may be two squares, the square passed over followed by
//! the double step's landing square (`c3d4`, needed for Berolina pawns). The move counters may
//! be left out. Multi-board variants are written as one wide board (Chimera writes this form:
//! `rnbqkbnr8/.../RNBQKBNR8` for Alice); on reading, a `|` before a letter also puts the man on
//! the second board at the same coordinates (Fairy-Stockfish's Alice notation), and a rank may
//! then be written 8 squares long. In a variant whose turns have parts, the side to move may
//! carry the turn phase as a digit (`w1`: White, second part; see `rules::turns`); phase 0 is
//! written as the bare letter.

use std::fmt;

use super::position::{Position, CASTLE_BITS, RESERVE_NONE, RESERVE_PENDING};
use crate::types::{split_square, Cell, Color, Piece, PieceId, Square};
use crate::variant::{Variant, VariantRef};

/// The FEN field an error is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    /// The whole text (wrong number of fields).
    Fields,
    /// The piece placement.
    Board,
    /// The holdings `[...]`.
    Hand,
    /// The side to move.
    Side,
    /// Castling and gating rights.
    Castling,
    /// The e.p. square(s).
    EnPassant,
    /// The halfmove clock.
    Halfmove,
    /// The move number.
    Fullmove,
    /// The position as a whole (legality of the placement).
    Position,
    /// The reserve men waiting behind a file (`{...}`).
    Reserves,
}

/// A FEN that could not be read, naming the field and the offending token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// Which field is wrong.
    pub field: FenField,
    /// The offending token.
    pub token: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FenError {
    fn new(field: FenField, token: impl Into<String>, reason: impl Into<String>) -> FenError {
        FenError {
            field,
            token: token.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = match self.field {
            FenField::Fields => "FEN",
            FenField::Board => "board",
            FenField::Hand => "holdings",
            FenField::Side => "side to move",
            FenField::Castling => "castling field",
            FenField::EnPassant => "en passant field",
            FenField::Halfmove => "halfmove clock",
            FenField::Fullmove => "move number",
            FenField::Position => "position",
            FenField::Reserves => "reserve field",
        };
        write!(f, "bad {field} '{}': {}", self.token, self.reason)
    }
}

impl std::error::Error for FenError {}

/// One item of a rank in the placement field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardToken {
    /// A run of empty squares.
    Empty(usize),
    /// A man: his letter (case gives the colour), on the second board (`|`), promoted (`+`).
    Man {
        /// The FEN letter.
        letter: char,
        /// Written with a `|` in front: on board B.
        second_board: bool,
        /// Written with a `+` in front.
        promoted: bool,
        /// Written with a `*` after: the man has moved (for a man standing where the start
        /// position has such a man, who would otherwise be read as never moved).
        moved: bool,
    },
}

/// A FEN checked for syntax only: no variant needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Ranks from the top (last rank first), each a list of tokens.
    pub ranks: Vec<Vec<BoardToken>>,
    /// Letters in hand, if a `[...]` was given.
    pub hand: Option<Vec<char>>,
    /// `w` or `b`.
    pub side: Color,
    /// The turn phase written after the side (`w1`), 0 when none is given.
    pub phase: u8,
    /// The castling/gating field as written (`-` for none).
    pub castling: String,
    /// The e.p. squares as written: none, one or two (display file, rank) pairs.
    pub ep: Vec<(usize, usize)>,
    /// The halfmove clock.
    pub halfmove: u16,
    /// The move number.
    pub fullmove: u32,
    /// The reserve field `{M@g m?}` as tokens, if given (Pioneer's men waiting behind a file).
    pub reserves: Option<Vec<String>>,
}

impl Setup {
    /// Reads the syntax of a FEN.
    pub fn parse(text: &str) -> Result<Setup, FenError> {
        // The reserve field, in braces at the end, may hold spaces: take it off first.
        let (text, reserves) = match text.find('{') {
            None => (text, None),
            Some(open) => {
                let Some(close) = text[open..].find('}').map(|c| c + open) else {
                    return Err(FenError::new(
                        FenField::Reserves,
                        &text[open..],
                        "'{' without '}'",
                    ));
                };
                if !text[close + 1..].trim().is_empty() {
                    return Err(FenError::new(
                        FenField::Reserves,
                        &text[close + 1..],
                        "text after the reserve field",
                    ));
                }
                let tokens = text[open + 1..close]
                    .split_whitespace()
                    .filter(|t| *t != "-")
                    .map(str::to_string)
                    .collect();
                (&text[..open], Some(tokens))
            }
        };
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::new(FenField::Fields, text, "empty FEN"));
        }
        if fields.len() < 2 || fields.len() > 7 {
            return Err(FenError::new(
                FenField::Fields,
                text,
                "expected board, side, castling, e.p. and counters",
            ));
        }
        let (placement, hand) = split_hand(fields[0])?;
        let ranks = placement
            .split('/')
            .map(parse_rank)
            .collect::<Result<Vec<_>, _>>()?;
        let bad_side = || FenError::new(FenField::Side, fields[1], "expected 'w' or 'b'");
        // The side letter, then an optional turn-part digit (`w1`); the first character may
        // be any text, so split on a character boundary.
        let split = fields[1].chars().next().map_or(0, char::len_utf8);
        let (side_text, phase_text) = fields[1].split_at(split);
        let side = match side_text {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(bad_side()),
        };
        let phase = match phase_text {
            "" => 0,
            t if t.len() == 1 && t.as_bytes()[0].is_ascii_digit() => t.as_bytes()[0] - b'0',
            _ => return Err(bad_side()),
        };
        let castling = fields.get(2).copied().unwrap_or("-").to_string();
        if castling != "-" && !castling.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(FenError::new(
                FenField::Castling,
                castling,
                "expected '-' or letters",
            ));
        }
        let ep = match fields.get(3).copied().unwrap_or("-") {
            "-" => Vec::new(),
            t => parse_ep(t)?,
        };
        // Fairy-Stockfish may put check counters (`3+3`) before the clocks; skip them.
        let rest: Vec<&str> = fields
            .iter()
            .skip(4)
            .copied()
            .filter(|f| !f.contains('+'))
            .collect();
        let halfmove = match rest.first() {
            None => 0,
            Some(t) => t
                .parse()
                .map_err(|_| FenError::new(FenField::Halfmove, *t, "expected a number"))?,
        };
        let fullmove = match rest.get(1) {
            None => 1,
            Some(t) => match t.parse::<u32>() {
                Ok(n) => n.max(1),
                Err(_) => return Err(FenError::new(FenField::Fullmove, *t, "expected a number")),
            },
        };
        Ok(Setup {
            ranks,
            hand,
            side,
            phase,
            castling,
            ep,
            halfmove,
            fullmove,
            reserves,
        })
    }
}

fn split_hand(field: &str) -> Result<(&str, Option<Vec<char>>), FenError> {
    let Some(open) = field.find('[') else {
        if field.contains(']') {
            return Err(FenError::new(FenField::Hand, field, "']' without '['"));
        }
        return Ok((field, None));
    };
    let inner = &field[open + 1..];
    let Some(inner) = inner.strip_suffix(']') else {
        return Err(FenError::new(
            FenField::Hand,
            &field[open..],
            "holdings must end with ']'",
        ));
    };
    let mut letters = Vec::new();
    for c in inner.chars() {
        match c {
            '-' => {}
            c if c.is_ascii_alphabetic() => letters.push(c),
            c => {
                return Err(FenError::new(
                    FenField::Hand,
                    c.to_string(),
                    "not a piece letter",
                ))
            }
        }
    }
    Ok((&field[..open], Some(letters)))
}

fn parse_rank(text: &str) -> Result<Vec<BoardToken>, FenError> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let run: String = chars[i..j].iter().collect();
            let n: usize = run.parse().unwrap_or(0);
            if j - i > 2 || n == 0 {
                return Err(FenError::new(
                    FenField::Board,
                    run,
                    "empty-square counts are 1 to 99",
                ));
            }
            tokens.push(BoardToken::Empty(n));
            i = j;
            continue;
        }
        let mut second_board = false;
        let mut promoted = false;
        let mut k = i;
        while k < chars.len() && (chars[k] == '|' || chars[k] == '+') {
            if chars[k] == '|' {
                second_board = true;
            } else {
                promoted = true;
            }
            k += 1;
        }
        match chars.get(k) {
            Some(&l) if l.is_ascii_alphabetic() => {
                i = k + 1;
                // A trailing '~' (promoted man that demotes when captured) is read and ignored.
                if chars.get(i) == Some(&'~') {
                    i += 1;
                }
                let moved = chars.get(i) == Some(&'*');
                if moved {
                    i += 1;
                }
                tokens.push(BoardToken::Man {
                    letter: l,
                    second_board,
                    promoted,
                    moved,
                });
            }
            _ => {
                let bad: String = chars[i..(k + 1).min(chars.len())].iter().collect();
                return Err(FenError::new(
                    FenField::Board,
                    bad,
                    "expected a piece letter or a digit",
                ));
            }
        }
    }
    Ok(tokens)
}

fn parse_ep(text: &str) -> Result<Vec<(usize, usize)>, FenError> {
    let bad = || {
        FenError::new(
            FenField::EnPassant,
            text,
            "expected '-', a square, or two squares",
        )
    };
    // A square is one character (its file) and the digits after it. Cut by characters, not
    // bytes: the field is whatever the user typed, and `é3` must be an error, not a cut
    // inside a character.
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(file) = rest.chars().next() {
        let after = &rest[file.len_utf8()..];
        let digits = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        let end = file.len_utf8() + digits;
        out.push(split_square(&rest[..end]).ok_or_else(bad)?);
        rest = &rest[end..];
    }
    if out.is_empty() || out.len() > 2 {
        return Err(bad());
    }
    Ok(out)
}

/// The men of a placement field, and the squares of those marked as having moved (`*`).
pub(crate) type Placement = (Vec<(Square, Piece)>, Vec<Square>);

/// The men of the placement field, and the squares of those marked as having moved (`*`).
pub(crate) fn placement(variant: &Variant, setup: &Setup) -> Result<Placement, FenError> {
    let g = &variant.geometry;
    if setup.ranks.len() != g.ranks as usize {
        return Err(FenError::new(
            FenField::Board,
            format!("{} ranks", setup.ranks.len()),
            format!("{} has {} ranks", variant.name, g.ranks),
        ));
    }
    let wide = g.display_files();
    let mut men: Vec<(Square, Piece)> = Vec::new();
    let mut moved_marks = Vec::new();
    for (row, tokens) in setup.ranks.iter().enumerate() {
        let rank = g.ranks as usize - 1 - row;
        let mut file = 0usize;
        for t in tokens {
            match *t {
                BoardToken::Empty(n) => file += n,
                BoardToken::Man {
                    letter,
                    second_board,
                    moved,
                    ..
                } => {
                    let Piece { color, id } = piece_of_letter(variant, letter, FenField::Board)?;
                    let display_file = if second_board && g.boards > 1 {
                        file + g.files as usize
                    } else {
                        file
                    };
                    if second_board && g.boards < 2 {
                        return Err(FenError::new(
                            FenField::Board,
                            format!("|{letter}"),
                            "this variant has one board",
                        ));
                    }
                    let Some(sq) = g.display_square(display_file, rank) else {
                        return Err(FenError::new(
                            FenField::Board,
                            rank_text(tokens),
                            format!("rank {} is too long", rank + 1),
                        ));
                    };
                    // A `|` man in a rank written as wide as all the boards lands on a square
                    // the rank may fill again later.
                    if men.iter().any(|m| m.0 == sq) {
                        return Err(FenError::new(
                            FenField::Board,
                            rank_text(tokens),
                            format!("two men on {}", g.name(sq)),
                        ));
                    }
                    men.push((sq, Piece { color, id }));
                    if moved {
                        moved_marks.push(sq);
                    }
                    file += 1;
                }
            }
        }
        // A rank is as wide as all the boards together, or (Fairy-Stockfish's Alice form,
        // with `|` marking the second board's men) as wide as one board.
        if file != g.files as usize && file != wide {
            return Err(FenError::new(
                FenField::Board,
                rank_text(tokens),
                format!("rank {} has {} squares, expected {}", rank + 1, file, wide),
            ));
        }
    }
    Ok((men, moved_marks))
}

/// The men of the holdings field: each a piece of the variant that may be in a hand there
/// ([`Variant::may_hold_in_hand`]).
fn hand_men(v: &Variant, setup: &Setup) -> Result<Vec<Piece>, FenError> {
    let Some(letters) = &setup.hand else {
        return Ok(Vec::new());
    };
    if !v.has_hand && !letters.is_empty() {
        return Err(FenError::new(
            FenField::Hand,
            letters.iter().collect::<String>(),
            format!("{} has no pieces in hand", v.name),
        ));
    }
    letters
        .iter()
        .map(|&letter| {
            let piece = piece_of_letter(v, letter, FenField::Hand)?;
            if !v.may_hold_in_hand(piece.id) {
                return Err(FenError::new(
                    FenField::Hand,
                    letter.to_string(),
                    format!(
                        "a {} can never be in a hand in {}: it is not dropped, gated or \
                         captured into one",
                        v.pieces[piece.id.index()].name,
                        v.name
                    ),
                ));
            }
            Ok(piece)
        })
        .collect()
}

/// The most men a position's counters hold (they are bytes): per side, or both sides together
/// where captures go to hand, since one hand may then collect every man of a type.
const MAX_MEN: usize = u8::MAX as usize;

/// Rejects more men (on the board, in hand and waiting in reserve) than the counters hold: no
/// game has that many, and counting them would overflow.
fn check_men_count(v: &Variant, men: &[(Square, Piece)], hand: &[Piece]) -> Result<(), FenError> {
    let reserve = v.reserve.as_ref().map_or(0, |r| r.count as usize);
    let mut n = [reserve; 2];
    for p in men.iter().map(|m| &m.1).chain(hand) {
        n[p.color.index()] += 1;
    }
    let (count, limit_for) = if v.captures_to_hand {
        (n[0] + n[1], "both sides together")
    } else {
        (n[0].max(n[1]), "one side")
    };
    if count > MAX_MEN {
        return Err(FenError::new(
            FenField::Position,
            format!("{count} men"),
            format!("Chimera counts at most {MAX_MEN} men for {limit_for}"),
        ));
    }
    Ok(())
}

/// The man a FEN letter stands for: the variant's piece, White's in upper case.
fn piece_of_letter(variant: &Variant, letter: char, field: FenField) -> Result<Piece, FenError> {
    let Some(id) = variant.piece_by_letter(letter) else {
        return Err(FenError::new(
            field,
            letter.to_string(),
            format!("no such piece in {}", variant.name),
        ));
    };
    let color = if letter.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    Ok(Piece { color, id })
}

fn rank_text(tokens: &[BoardToken]) -> String {
    tokens
        .iter()
        .map(|t| match t {
            BoardToken::Empty(n) => n.to_string(),
            BoardToken::Man {
                letter,
                second_board,
                promoted,
                moved,
            } => {
                format!(
                    "{}{}{}{}",
                    if *second_board { "|" } else { "" },
                    if *promoted { "+" } else { "" },
                    letter,
                    if *moved { "*" } else { "" }
                )
            }
        })
        .collect()
}

impl Position {
    /// The start position of `variant`.
    pub fn startpos(variant: &VariantRef) -> Position {
        Position::from_fen(variant, &variant.start_fen)
            .expect("built variants have a valid start FEN")
    }

    /// Reads a FEN for `variant`.
    pub fn from_fen(variant: &VariantRef, fen: &str) -> Result<Position, FenError> {
        Position::from_setup(variant, &Setup::parse(fen)?)
    }

    /// Gives a syntactically valid setup its meaning for `variant`, rejecting what its rules
    /// cannot play (see the module documentation); [`Position::oddities`] lists what is merely
    /// unlikely in what it accepts.
    pub fn from_setup(variant: &VariantRef, setup: &Setup) -> Result<Position, FenError> {
        let v = variant.as_ref();
        let g = &v.geometry;
        let mut pos = Position::empty(variant);
        let (men, moved_marks) = placement(v, setup)?;
        let hand = hand_men(v, setup)?;
        check_men_count(v, &men, &hand)?;

        let castling = parse_castling(v, &men, &moved_marks, &setup.castling)?;
        for &(sq, piece) in &men {
            let fen_gates = v.gating.as_ref().is_some_and(|g| g.rights_in_fen());
            let virgin = if fen_gates && pos.virgin_is_gate_right(sq, Cell::new(piece, true)) {
                castling.gates[piece.color.index()].contains(&g.file_of(sq))
                    || castling.implied_virgin.contains(&sq)
            } else {
                v.starts_on_any_board(sq, piece) || castling.implied_virgin.contains(&sq)
            };
            let virgin = virgin && !moved_marks.contains(&sq);
            pos.put(sq, Cell::new(piece, virgin));
        }
        for &Piece { color, id } in &hand {
            pos.hand_add(color, id);
        }
        pos.side = setup.side;
        if setup.side == Color::Black {
            pos.st.hash ^= v.zobrist.side;
        }
        pos.set_phase_from_setup(setup)?;
        pos.castle_king = castling.king;
        pos.castle_rook = castling.rook;
        pos.st.castling = castling.rights;
        pos.st.hash ^= v.zobrist.castling(castling.rights);
        pos.rebuild_castling();
        pos.st.halfmove = setup.halfmove;
        pos.fullmove = setup.fullmove;
        pos.set_ep_from_setup(setup)?;
        pos.set_reserves_from_setup(setup)?;
        pos.check_placement()?;
        Ok(pos)
    }

    /// The turn phase: 0 without turn parts; otherwise one of the variant's phases, the opening
    /// turn's only for White.
    fn set_phase_from_setup(&mut self, setup: &Setup) -> Result<(), FenError> {
        let token = || format!("{}{}", setup.side.fen_char(), setup.phase);
        let bad = |why: &str| FenError::new(FenField::Side, token(), why.to_string());
        let phase = setup.phase;
        match &self.variant.turns {
            None if phase != 0 => return Err(bad("this variant has no turn parts")),
            None => return Ok(()),
            Some(t) if phase as usize >= t.num_phases() => {
                return Err(bad("no such part of a turn"))
            }
            Some(t) if phase as usize >= t.parts.len() && setup.side != Color::White => {
                return Err(bad("only White plays the opening turn"))
            }
            Some(_) => {}
        }
        self.st.hash ^= self.variant.zobrist.phase(0) ^ self.variant.zobrist.phase(phase);
        self.st.phase = phase;
        Ok(())
    }

    fn set_ep_from_setup(&mut self, setup: &Setup) -> Result<(), FenError> {
        if setup.ep.is_empty() {
            return Ok(());
        }
        let g = self.variant.geometry.clone();
        let text: String = setup
            .ep
            .iter()
            .map(|&(f, r)| format!("{}{}", (b'a' + f as u8) as char, r + 1))
            .collect();
        let bad = |why: &str| FenError::new(FenField::EnPassant, text.clone(), why.to_string());
        let squares = setup
            .ep
            .iter()
            .map(|&(f, r)| {
                g.display_square(f, r)
                    .ok_or_else(|| bad("not a square of this board"))
            })
            .collect::<Result<Vec<Square>, FenError>>()?;
        // Two squares may come in either order (Fairy-Stockfish writes them in board order):
        // the empty one is the square passed over.
        let passed = match squares.as_slice() {
            [a, b] if !self.cell(*a).is_empty() && self.cell(*b).is_empty() => *b,
            [a, ..] => *a,
            [] => return Ok(()),
        };
        if !self.cell(passed).is_empty() {
            return Err(bad("the square passed over is not empty"));
        }
        let mover = self.side.opposite();
        // With straight double steps only, the man is straight beyond the square passed;
        // otherwise any pawn diagonally beyond it may have made the double step.
        let forward = if mover == Color::White { 1 } else { -1 };
        let sideways: &[i32] = if self.variant.ep_two_squares {
            &[0, -1, 1]
        } else {
            &[0]
        };
        let beyond: Vec<Square> = sideways
            .iter()
            .map(|&dx| passed.offset(g.delta(dx, forward)))
            .collect();
        let victim = match squares.iter().find(|&&s| s != passed) {
            // A landing square elsewhere describes no double step over `passed`; the single
            // square written back would then name another man, or none.
            Some(landing) if !beyond.contains(landing) => {
                return Err(bad(
                    "the landing square is not just beyond the square passed over",
                ))
            }
            Some(&landing) => landing,
            None => {
                let candidates: Vec<Square> = beyond
                    .into_iter()
                    .filter(|&s| {
                        let c = self.cell(s);
                        c.is_color(mover) && self.variant.ep_types & (1 << c.id().0) != 0
                    })
                    .collect();
                match candidates.as_slice() {
                    [one] => *one,
                    [] => return Err(bad("no pawn stands beyond the square passed over")),
                    _ => return Err(bad("ambiguous: give the landing square too")),
                }
            }
        };
        let c = self.cell(victim);
        if !c.is_color(mover) || self.variant.ep_types & (1 << c.id().0) == 0 {
            return Err(bad(
                "no pawn of the side that just moved on the landing square",
            ));
        }
        // As Fairy-Stockfish does, keep the e.p. square only when a capture there is possible.
        if self.ep_capture_possible(passed, self.side) {
            self.st.ep = passed;
            self.st.ep_victim = victim;
            let z = &self.variant.zobrist;
            self.st.hash ^= z.ep(passed) ^ z.ep(victim);
        }
        Ok(())
    }

    fn set_reserves_from_setup(&mut self, setup: &Setup) -> Result<(), FenError> {
        let Some(tokens) = &setup.reserves else {
            return Ok(());
        };
        let v = self.variant.clone();
        let Some(rules) = &v.reserve else {
            if tokens.is_empty() {
                return Ok(());
            }
            return Err(FenError::new(
                FenField::Reserves,
                tokens.join(" "),
                format!("{} has no reserve men", v.name),
            ));
        };
        let mut used = [0usize; 2];
        for t in tokens {
            let bad = |why: &str| FenError::new(FenField::Reserves, t.clone(), why.to_string());
            if !t.is_ascii() {
                return Err(bad("expected a letter with @file or ?"));
            }
            let letter = t.as_bytes()[0] as char;
            if letter.to_ascii_uppercase() != v.pieces[rules.piece.index()].letter {
                return Err(bad("not the reserve piece's letter"));
            }
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let value = match &t[1..] {
                "?" => RESERVE_PENDING,
                f if f.len() == 2 && f.starts_with('@') => {
                    let file = f.as_bytes()[1].wrapping_sub(b'a');
                    if file >= v.geometry.files {
                        return Err(bad("no such file"));
                    }
                    let sq = self.reserve_square(color, file);
                    if !self.cell(sq).is_color(color) {
                        return Err(bad(
                            "no man of that side stands on the file's first-rank square",
                        ));
                    }
                    file
                }
                _ => return Err(bad("expected a letter with @file or ?")),
            };
            let slot = used[color.index()];
            if slot >= rules.count as usize {
                return Err(bad("more reserve men than the variant has"));
            }
            used[color.index()] += 1;
            self.set_reserve(color, slot, value);
        }
        Ok(())
    }

    fn check_placement(&self) -> Result<(), FenError> {
        let v = &self.variant;
        let g = &v.geometry;
        for color in Color::ALL {
            if v.checking && v.royal_mask != 0 && self.royal_count(color) == 0 {
                return Err(FenError::new(
                    FenField::Position,
                    color.to_string(),
                    "has no royal piece",
                ));
            }
            // More royal men than the game can ever have: the check rule would have to guard
            // men that no line of play puts on the board.
            let royals = self.royal_count(color) as usize;
            if let Some(limit) = v.royal_limit().filter(|&l| royals > l) {
                return Err(FenError::new(
                    FenField::Position,
                    color.to_string(),
                    format!("has {royals} royal men; {} allows at most {limit}", v.name),
                ));
            }
        }
        for sq in g.squares() {
            let c = self.cell(sq);
            let Some(color) = c.color() else { continue };
            let last = g.relative_rank(sq, color) == g.ranks as usize - 1;
            if last
                && v.promotion.pawn_types & (1 << c.id().0) != 0
                && v.in_promotion_zone(color, sq)
            {
                return Err(FenError::new(
                    FenField::Board,
                    g.name(sq),
                    "a pawn on its last rank",
                ));
            }
        }
        if self.royal_in_danger(self.side.opposite()) {
            return Err(FenError::new(
                FenField::Position,
                self.side.opposite().to_string(),
                "the side not to move is in check",
            ));
        }
        Ok(())
    }

    /// The FEN of this position.
    pub fn fen(&self) -> String {
        let v = &self.variant;
        let g = &v.geometry;
        let mut out = String::new();
        for rank in (0..g.ranks as usize).rev() {
            let mut empty = 0;
            for file in 0..g.display_files() {
                let Some(sq) = g.display_square(file, rank) else {
                    continue;
                };
                match self.cell(sq).piece() {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(v.letter(p.id, p.color));
                        if self.needs_moved_mark(sq) {
                            out.push('*');
                        }
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if v.has_hand {
            out.push('[');
            for color in Color::ALL {
                for id in 0..v.num_pieces() {
                    for _ in 0..self.hands[color.index()][id] {
                        out.push(v.letter(PieceId(id as u8), color));
                    }
                }
            }
            out.push(']');
        }
        out.push(' ');
        out.push(self.side.fen_char());
        if self.st.phase != 0 {
            out.push((b'0' + self.st.phase) as char);
        }
        out.push(' ');
        out.push_str(&self.castling_text());
        out.push(' ');
        if self.st.ep == Square::NONE {
            out.push('-');
        } else {
            if v.ep_two_squares {
                // Both squares, in board order (rank by rank from rank 1), as Fairy-Stockfish
                // writes them.
                let (a, b) = (self.st.ep, self.st.ep_victim);
                let key = |s: Square| (g.rank_of(s), g.display_file(s));
                let (first, second) = if key(a) <= key(b) { (a, b) } else { (b, a) };
                out.push_str(&g.name(first));
                out.push_str(&g.name(second));
            } else {
                out.push_str(&g.name(self.st.ep));
            }
        }
        out.push_str(&format!(" {} {}", self.st.halfmove, self.fullmove));
        if let Some(rules) = &v.reserve {
            let letter = v.pieces[rules.piece.index()].letter;
            let mut tokens = Vec::new();
            for color in Color::ALL {
                let l = if color == Color::White {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                };
                for &r in &self.st.reserves[color.index()] {
                    match r {
                        RESERVE_NONE => {}
                        RESERVE_PENDING => tokens.push(format!("{l}?")),
                        f => tokens.push(format!("{l}@{}", (b'a' + f) as char)),
                    }
                }
            }
            out.push_str(&format!(
                " {{{}}}",
                if tokens.is_empty() {
                    "-".to_string()
                } else {
                    tokens.join(" ")
                }
            ));
        }
        out
    }

    /// True when the man on `sq` has moved although FEN would read him as never moved (he
    /// stands where the start position has such a man) and it matters (his type has initial
    /// moves). Gating variants say it through the castling field instead.
    fn needs_moved_mark(&self, sq: Square) -> bool {
        let v = &self.variant;
        let c = self.cell(sq);
        let Some(piece) = c.piece() else { return false };
        !v.gating.as_ref().is_some_and(|g| g.rights_in_fen())
            && !c.is_virgin()
            && v.pieces[piece.id.index()].has_initial_moves
            && v.starts_on_any_board(sq, piece)
    }

    fn castling_text(&self) -> String {
        let v = &self.variant;
        let g = &v.geometry;
        let mut s = String::new();
        for color in Color::ALL {
            let case = |c: char| {
                if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            };
            for (side, &bit) in CASTLE_BITS[color.index()].iter().enumerate() {
                if self.st.castling & bit == 0 {
                    continue;
                }
                let rook = self.castle_rook[bit.trailing_zeros() as usize];
                let outermost = v
                    .castling
                    .as_ref()
                    .map(|r| outermost_rook(self, color, side == 0, r.rooks))
                    == Some(Some(rook));
                if outermost {
                    s.push(case(if side == 0 { 'k' } else { 'q' }));
                } else {
                    s.push(case((b'a' + g.display_file(rook) as u8) as char));
                }
            }
            // Gating rights matter only while there is something to gate; like
            // Fairy-Stockfish, leave them out when the hand is empty.
            let hand_empty = self.hands[color.index()].iter().all(|&n| n == 0);
            let in_fen = v.gating.as_ref().filter(|g| g.rights_in_fen());
            if let (Some(gating), false) = (in_fen, hand_empty) {
                for file in 0..g.files as usize {
                    let sq = g.square(
                        0,
                        file,
                        if color == Color::White {
                            gating.rank
                        } else {
                            g.ranks as usize - 1 - gating.rank
                        },
                    );
                    let c = self.cell(sq);
                    if c.is_color(color) && c.is_virgin() {
                        s.push(case((b'a' + file as u8) as char));
                    }
                }
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

/// The outermost castling rook of `color` on the given side of its castling king.
fn outermost_rook(pos: &Position, color: Color, kingside: bool, rooks: u32) -> Option<Square> {
    let g = &pos.variant.geometry;
    let king = pos.castle_king[color.index()];
    if king == Square::NONE {
        return None;
    }
    outermost(g, king, kingside, |s| {
        let c = pos.cell(s);
        c.is_color(color) && rooks & (1 << c.id().0) != 0
    })
}

/// The square farthest from `king` on its rank, towards the last file (`kingside`) or the
/// first, that satisfies `wanted`.
fn outermost(
    g: &crate::types::Geometry,
    king: Square,
    kingside: bool,
    wanted: impl Fn(Square) -> bool,
) -> Option<Square> {
    let (board, kfile, rank) = g.coords(king);
    let files: Vec<usize> = if kingside {
        (kfile + 1..g.files as usize).rev().collect()
    } else {
        (0..kfile).collect()
    };
    files
        .into_iter()
        .map(|f| g.square(board, f, rank))
        .find(|&s| wanted(s))
}

/// The meaning of the castling field.
struct Castling {
    rights: u8,
    king: [Square; 2],
    rook: [Square; 4],
    /// Gating files per colour (gating variants).
    gates: [Vec<usize>; 2],
    /// Squares whose men must be marked as never moved (castling partners).
    implied_virgin: Vec<Square>,
}

/// Reads the castling field for the men of the placement, `moved` being the squares of those
/// marked as having moved (`*`), who can hold no castling right.
fn parse_castling(
    v: &Variant,
    men: &[(Square, Piece)],
    moved: &[Square],
    field: &str,
) -> Result<Castling, FenError> {
    let g = &v.geometry;
    let mut out = Castling {
        rights: 0,
        king: [Square::NONE; 2],
        rook: [Square::NONE; 4],
        gates: [Vec::new(), Vec::new()],
        implied_virgin: Vec::new(),
    };
    let at = |sq: Square| men.iter().find(|m| m.0 == sq).map(|m| m.1);
    if let Some(rules) = &v.castling {
        for color in Color::ALL {
            let rank = if color == Color::White {
                rules.rank
            } else {
                g.ranks as usize - 1 - rules.rank
            };
            // On any board: an Alice king may castle from the second board.
            let kings: Vec<Square> = (0..g.boards as usize)
                .flat_map(|b| (0..g.files as usize).map(move |f| g.square(b, f, rank)))
                .filter(|&s| {
                    at(s)
                        == Some(Piece {
                            color,
                            id: rules.king,
                        })
                })
                .collect();
            out.king[color.index()] = match kings.as_slice() {
                [one] => *one,
                [] => Square::NONE,
                many => *many
                    .iter()
                    .find(|&&s| g.file_of(s) == rules.king_file)
                    .unwrap_or(&many[0]),
            };
        }
    }
    if field == "-" {
        return Ok(out);
    }
    // Each right is given once. A repeated letter, or a second letter for a right already
    // given (`KH` in chess names the h1 rook twice), says two things about one right: reject
    // it rather than let the last letter win.
    let mut seen: Vec<char> = Vec::new();
    let mut given_by: [Option<char>; 4] = [None; 4];
    for ch in field.chars() {
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let lower = ch.to_ascii_lowercase();
        let bad = |why: &str| FenError::new(FenField::Castling, ch.to_string(), why.to_string());
        if seen.contains(&ch) {
            return Err(bad("the letter is repeated"));
        }
        seen.push(ch);
        let file_letter =
            lower as usize >= 'a' as usize && (lower as usize - 'a' as usize) < g.files as usize;
        let is_side_letter = lower == 'k' || lower == 'q';
        let fen_gates = v.gating.as_ref().is_some_and(|g| g.rights_in_fen());
        if fen_gates && file_letter && !is_side_letter {
            out.gates[color.index()].push(lower as usize - 'a' as usize);
            continue;
        }
        let Some(rules) = &v.castling else {
            return Err(bad("this variant has no castling"));
        };
        let king = out.king[color.index()];
        if king == Square::NONE {
            return Err(bad("no castling king on its rank"));
        }
        let (board, kfile, rank) = g.coords(king);
        let rook_sq = if is_side_letter
            && !(file_letter && !fen_gates && !has_rook_on(v, men, color, board, rank, lower))
        {
            outermost(g, king, lower == 'k', |s| {
                at(s).is_some_and(|p| p.color == color && rules.rooks & (1 << p.id.0) != 0)
            })
            .ok_or_else(|| bad("no rook to castle with"))?
        } else if file_letter {
            let s = g.square(board, lower as usize - 'a' as usize, rank);
            if !at(s).is_some_and(|p| p.color == color && rules.rooks & (1 << p.id.0) != 0) {
                return Err(bad("no castling rook on that file"));
            }
            s
        } else {
            return Err(bad("not a castling letter"));
        };
        if moved.contains(&king) || moved.contains(&rook_sq) {
            return Err(bad("its king or rook is marked as having moved ('*')"));
        }
        let kingside = g.file_of(rook_sq) > kfile;
        let bit = CASTLE_BITS[color.index()][if kingside { 0 } else { 1 }];
        let slot = &mut given_by[bit.trailing_zeros() as usize];
        if let Some(first) = *slot {
            let side = if kingside { "kingside" } else { "queenside" };
            return Err(bad(&format!(
                "{color}'s {side} castling right is already given by '{first}'"
            )));
        }
        *slot = Some(ch);
        out.rights |= bit;
        out.rook[bit.trailing_zeros() as usize] = rook_sq;
        out.implied_virgin.push(king);
        out.implied_virgin.push(rook_sq);
    }
    Ok(out)
}

/// True when a Shredder-style file letter `letter` names a castling rook of `color`.
fn has_rook_on(
    v: &Variant,
    men: &[(Square, Piece)],
    color: Color,
    board: usize,
    rank: usize,
    letter: char,
) -> bool {
    let g = &v.geometry;
    let Some(rules) = &v.castling else {
        return false;
    };
    let file = letter as usize - 'a' as usize;
    if file >= g.files as usize {
        return false;
    }
    let s = g.square(board, file, rank);
    men.iter()
        .any(|m| m.0 == s && m.1.color == color && rules.rooks & (1 << m.1.id.0) != 0)
}
