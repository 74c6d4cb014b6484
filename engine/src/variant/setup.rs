//! A FEN's text read for a variant, before there is a position: the syntax of every field
//! ([`Setup::parse`]: runs of empty squares with one or two digits, holdings in `[...]`, the
//! reserve field in braces) and the men it places on the variant's board (`placement`). The
//! variant builder reads its start position with it (for the squares men start on), and the
//! board gives the rest of a FEN its meaning (`board::fen`). Every error names the field and
//! the bad token; any text gives a setup or an error, never a panic.

use std::fmt;

use super::Variant;
use crate::types::{split_square, Color, Piece, Square};

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
    /// The check counters (`3+3`).
    Checks,
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
    pub(crate) fn new(
        field: FenField,
        token: impl Into<String>,
        reason: impl Into<String>,
    ) -> FenError {
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
            FenField::Checks => "check counters",
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
        /// Written with a `~` after: a promoted man, who goes to hand as a pawn when captured
        /// (Fairy-Stockfish's crazyhouse mark).
        demotes: bool,
    },
    /// A wall (`*` where no man precedes it; Fairy-Stockfish's board games).
    Wall,
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
    /// A number in the e.p. field, followed by both clocks: Fairy-Stockfish's counting limit
    /// (makruk's counting rules), whose count of plies then stands in the halfmove field.
    pub count_limit: Option<u16>,
    /// The move number.
    pub fullmove: u32,
    /// The reserve field `{M@g m?}` as tokens, if given (Pioneer's men waiting behind a file).
    pub reserves: Option<Vec<String>>,
    /// The checks each side (White, Black) still has to give, where written: the field `3+3`
    /// after the e.p. field, or Lichess's checks given (`+1+0`) after the move number.
    pub checks: Option<CheckCounters>,
}

/// Check counters as a FEN writes them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckCounters {
    /// Checks still to give, White's then Black's (Fairy-Stockfish's `3+3` field).
    Remaining(u8, u8),
    /// Checks given so far, White's then Black's (Lichess's `+1+0` after the move number).
    Given(u8, u8),
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
        // The board alone is a FEN only where it has ranks to tell it from any other word.
        if fields.len() > 7 || fields.len() == 1 && !fields[0].contains('/') {
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
        // Fields after the board may be left out, as Fairy-Stockfish reads FEN: the side
        // (White), then castling and e.p. ('-'); a number where castling or e.p. would stand
        // starts the counters (`w 0 1`, `w - 0 1`).
        let side_field = fields.get(1).copied().unwrap_or("w");
        let bad_side = || FenError::new(FenField::Side, side_field, "expected 'w' or 'b'");
        // The side letter, then an optional turn-part digit (`w1`); the first character may
        // be any text, so split on a character boundary.
        let split = side_field.chars().next().map_or(0, char::len_utf8);
        let (side_text, phase_text) = side_field.split_at(split);
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
        // A check counter (`3+3`) may stand where castling or e.p. would (`w 7+7 0 1`).
        let is_number =
            |f: &&str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) || f.contains('+');
        let mut after = fields.iter().skip(2).copied().peekable();
        let castling = after.next_if(|f| !is_number(f)).unwrap_or("-").to_string();
        if castling != "-" && !castling.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(FenError::new(
                FenField::Castling,
                castling,
                "expected '-' or letters",
            ));
        }
        let ep = match after.next_if(|f| !is_number(f)).unwrap_or("-") {
            "-" => Vec::new(),
            t => parse_ep(t)?,
        };
        // Fairy-Stockfish puts check counters (`3+3`) before the clocks, Lichess its checks
        // given (`+1+0`) after them.
        let mut checks = None;
        let mut rest: Vec<&str> = Vec::new();
        for f in after {
            if f.contains('+') {
                checks = Some(parse_checks(f)?);
            } else {
                rest.push(f);
            }
        }
        // Three numbers: the first stands in the e.p. field, a counting limit.
        let count_limit = match rest.as_slice() {
            [limit, _, _] if ep.is_empty() && is_number(limit) => {
                let limit = limit.parse().map_err(|_| {
                    FenError::new(FenField::EnPassant, *limit, "counting limit out of range")
                })?;
                rest.remove(0);
                Some(limit)
            }
            _ => None,
        };
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
            count_limit,
            fullmove,
            reserves,
            checks,
        })
    }
}

/// A check counter field: `3+3` (checks to give) or `+1+0` (checks given).
fn parse_checks(text: &str) -> Result<CheckCounters, FenError> {
    let bad = || {
        FenError::new(
            FenField::Checks,
            text,
            "expected checks to give (3+3) or checks given (+1+0)",
        )
    };
    let (given, body) = match text.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (a, b) = body.split_once('+').ok_or_else(bad)?;
    let a: u8 = a.parse().map_err(|_| bad())?;
    let b: u8 = b.parse().map_err(|_| bad())?;
    if a > 99 || b > 99 {
        return Err(bad());
    }
    Ok(if given {
        CheckCounters::Given(a, b)
    } else {
        CheckCounters::Remaining(a, b)
    })
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
        if c == '*' {
            tokens.push(BoardToken::Wall);
            i += 1;
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
                // A trailing '~': a promoted man that demotes when captured.
                let demotes = chars.get(i) == Some(&'~');
                if demotes {
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
                    demotes,
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
pub(crate) type Placement = (Vec<(Square, Piece)>, Vec<Square>, Vec<Square>);

/// The men of the placement field, the squares of those marked as having moved (`*`) and the
/// walls. Where the variant reads `*` as a wall ([`Variant::fen_walls`]), a `*` after a man is
/// a wall on the next square, as Fairy-Stockfish reads it; elsewhere walls are refused.
pub(crate) fn placement(variant: &Variant, setup: &Setup) -> Result<Placement, FenError> {
    let g = &variant.geometry();
    if setup.ranks.len() != g.ranks as usize {
        return Err(FenError::new(
            FenField::Board,
            format!("{} ranks", setup.ranks.len()),
            format!("{} has {} ranks", variant.name(), g.ranks),
        ));
    }
    let wide = g.display_files();
    let mut men: Vec<(Square, Piece)> = Vec::new();
    let mut moved_marks = Vec::new();
    let mut walls = Vec::new();
    for (row, tokens) in setup.ranks.iter().enumerate() {
        let rank = g.ranks as usize - 1 - row;
        let mut file = 0usize;
        let mut wall_at = |file: usize, tokens: &[BoardToken]| {
            if !variant.fen_walls() {
                return Err(FenError::new(
                    FenField::Board,
                    rank_text(tokens),
                    "a '*' that follows no man (a wall) in a variant without walls",
                ));
            }
            match g.display_square(file, rank) {
                Some(sq) => {
                    walls.push(sq);
                    Ok(())
                }
                None => Err(FenError::new(
                    FenField::Board,
                    rank_text(tokens),
                    format!("rank {} is too long", rank + 1),
                )),
            }
        };
        for t in tokens {
            match *t {
                BoardToken::Empty(n) => file += n,
                BoardToken::Wall => {
                    wall_at(file, tokens)?;
                    file += 1;
                }
                BoardToken::Man {
                    letter,
                    second_board,
                    moved,
                    promoted,
                    ..
                } => {
                    let Piece { color, id } = piece_of_letter(variant, letter, FenField::Board)?;
                    // `+X`: the promoted form of X where he has one (Fairy-Stockfish ignores
                    // the `+` of a man who has none, and so does Chimera).
                    let id = if promoted {
                        variant.promoted_form(id)
                    } else {
                        id
                    };
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
                    file += 1;
                    if moved && variant.fen_walls() {
                        wall_at(file, tokens)?;
                        file += 1;
                    } else if moved {
                        moved_marks.push(sq);
                    }
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
    Ok((men, moved_marks, walls))
}

/// The men of the holdings field: each a piece of the variant that may be in a hand there
/// ([`Variant::may_hold_in_hand`]).
pub(crate) fn hand_men(v: &Variant, setup: &Setup) -> Result<Vec<Piece>, FenError> {
    let Some(letters) = &setup.hand else {
        return Ok(Vec::new());
    };
    if !v.has_hand() && !letters.is_empty() {
        return Err(FenError::new(
            FenField::Hand,
            letters.iter().collect::<String>(),
            format!("{} has no pieces in hand", v.name()),
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
                        v.pieces()[piece.id.index()].name,
                        v.name()
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
pub(crate) fn check_men_count(
    v: &Variant,
    men: &[(Square, Piece)],
    hand: &[Piece],
) -> Result<(), FenError> {
    let reserve = v.reserve().map_or(0, |r| r.count as usize);
    let mut n = [reserve; 2];
    for p in men.iter().map(|m| &m.1).chain(hand) {
        n[p.color.index()] += 1;
    }
    let (count, limit_for) = if v.captures_to_hand() {
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
            format!("no such piece in {}", variant.name()),
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
                demotes,
            } => {
                format!(
                    "{}{}{}{}{}",
                    if *second_board { "|" } else { "" },
                    if *promoted { "+" } else { "" },
                    letter,
                    if *demotes { "~" } else { "" },
                    if *moved { "*" } else { "" }
                )
            }
            BoardToken::Wall => "*".to_string(),
        })
        .collect()
}
