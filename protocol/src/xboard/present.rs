//! How a variant whose moves XBoard cannot apply by itself is shown to XBoard: a piece table,
//! parent and holdings that make XBoard's own board follow every move, and the wire form of
//! the moves that need it (docs/protocols.md §11). XBoard 4.9 applies a move to its board by the
//! parent variant's code (`ApplyMove` in its backend), so each form below is one that code
//! applies exactly as Chimera's rules do:
//!
//! - **Pawn gating off the first rank** (Pawn Vault's castellan): parent `seirawan`, whose
//!   gating puts the suffix piece from the holdings onto the vacated square (`e2e4t`). XBoard
//!   gates only with men that are not its Pawn type, so no pawn takes the Pawn slot.
//!   En passant goes out as two legs through the victim's square (`e5d5,d5d6`).
//! - **Reserve men** (Pioneer): the man waits in the holdings, parent `seirawan`; his entry
//!   is S-Chess gating (`g1f3m`, `e1g1m`, and `h1e1m` for castling that vacates the rook's
//!   square). The choice of file, which changes nothing on the board, is a move of the man
//!   on that file's first-rank square out to an empty square and back (`g1g4,g4g1`), which
//!   XBoard applies as no change and relays to the other engine unchanged.
//! - **Boards side by side** (Alice): a capture goes through the victim's square (`m5l6,l6d6`,
//!   so that XBoard removes the victim); castling is the rook's move through the king's square
//!   (`h1n1,e1o1`), which XBoard applies as castling that puts the king beside the rook; the
//!   King is described as a piece that never castles, so a king step across boards (`e8l8`)
//!   is not taken for castling; no man takes the Pawn slot, whose en-passant code would
//!   remove a man behind a pawn's landing square.
//!
//! Incoming moves are matched against the wire forms of the legal moves first, so every form
//! above is read back; a plain form that XBoard would apply differently from the rules is
//! refused with the form to use, so that XBoard's board never leaves the game.

use chimera_engine::{Color, Move, MoveKind, Position, Square, Variant};

use crate::xboard::slots::slot_table;

/// The kind of presentation a variant needs under XBoard.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// XBoard applies every move as written.
    Plain,
    /// Gating off the first rank (Pawn Vault).
    PawnGating,
    /// Reserve men waiting behind a chosen file (Pioneer).
    Reserve,
    /// Several boards side by side (Alice).
    Boards,
}

/// The presentation `v` needs.
pub fn style(v: &Variant) -> Style {
    if v.transfer().is_some() {
        Style::Boards
    } else if v.reserve().is_some() {
        Style::Reserve
    } else if v.gating().is_some_and(|g| g.rank != 0) {
        Style::PawnGating
    } else {
        Style::Plain
    }
}

/// The parent variant named in `setup` for a style, if it needs one of its own.
pub fn parent(style: Style) -> Option<&'static str> {
    match style {
        Style::PawnGating | Style::Reserve => Some("seirawan"),
        Style::Boards => Some("fairy"),
        Style::Plain => None,
    }
}

/// The parent for a variant that XBoard plays as written (`Style::Plain`) and that names no
/// template (or names `fairy`): `fairy`, or `courier` where a man can swap places with a friend (Vanguard's
/// Wizard, `udF`). XBoard takes a move onto a friend as a swap only in parents without
/// castling rights (its `nrCastlingRights` 0) and as a capture in the others, `fairy`
/// included, which would lose the friend from XBoard's board; `courier` is the plainest of
/// those parents (no palace, drops, e.p. field or special promotions beyond a default that
/// Chimera's promotion letters override).
pub fn plain_parent(v: &Variant) -> &'static str {
    let swaps = v
        .pieces()
        .iter()
        .any(|p| p.betza.contains("ud") || p.betza.contains("du"));
    if swaps {
        "courier"
    } else {
        "fairy"
    }
}

/// Whether XBoard's legality testing must be off for the style: XBoard cannot generate
/// gating off the first rank, a choice of file, or moves across boards.
pub fn needs_legality_off(style: Style) -> bool {
    style != Style::Plain
}

/// The piece-to-char table for a style that keeps every man out of XBoard's Pawn slot (its
/// Pawn code would undo gating or remove men on moves across boards): pawn-like men take
/// the Ferz and Alfil slots (pawn-shaped images), a bishop-knight the Archbishop's, a
/// rook-knight the Chancellor's, the other usual letters their own, the rest the free slots.
pub fn pawnless_table(v: &Variant) -> String {
    const USUAL: &[(char, usize)] = &[('N', 1), ('B', 2), ('R', 3), ('Q', 4), ('M', 10)];
    let mut pawn_slots = vec![5usize, 6, 9].into_iter();
    let pawns = v.pawn_like(Color::White) | v.pawn_like(Color::Black);
    // The pawn first (the most pawn-like image), then men that start in the hand, so that
    // they get low holdings slots (XBoard's holdings are at most a board's height).
    let hand = hand_of(v.start_fen());
    let mut order: Vec<usize> = (0..v.pieces().len()).collect();
    order.sort_by_key(|&i| {
        let l = v.pieces()[i].letter.to_ascii_uppercase();
        (l != 'P', !hand.contains(&l))
    });
    let letters = order.into_iter().map(|i| {
        let p = &v.pieces()[i];
        let l = p.letter.to_ascii_uppercase();
        let is_king = p.royal && l == 'K';
        let wanted = if is_king {
            None
        } else if i < 32 && pawns & (1 << i) != 0 {
            pawn_slots.next()
        } else {
            match p.betza.as_str() {
                "BN" | "NB" => Some(7),
                "RN" | "NR" => Some(8),
                _ => USUAL.iter().find(|(c, _)| *c == l).map(|&(_, s)| s),
            }
        };
        (l, wanted, is_king)
    });
    // Slot 0 is XBoard's Pawn, left empty on purpose.
    slot_table(22, 1, letters, true)
}

/// The upper-case letters in the holdings field of `fen`.
pub fn hand_of(fen: &str) -> Vec<char> {
    fen.split_whitespace()
        .next()
        .and_then(|b| b.split_once('['))
        .map(|(_, h)| {
            h.chars()
                .take_while(|&c| c != ']')
                .map(|c| c.to_ascii_uppercase())
                .collect()
        })
        .unwrap_or_default()
}

/// XBoard's holdings slot for `letter` under `table`: the number of taking-part types before
/// it (XBoard's `PieceToNumber`).
pub fn holdings_index(table: &str, letter: char) -> Option<usize> {
    let half: Vec<char> = table.chars().take(table.chars().count() / 2).collect();
    let at = half
        .iter()
        .position(|&c| c == letter.to_ascii_uppercase())?;
    Some(half[..at].iter().filter(|&&c| c != '.' && c != '+').count())
}

/// The holdings size XBoard needs so that every letter of `hand` has its slot.
pub fn holdings_size(table: &str, hand: impl IntoIterator<Item = char>) -> usize {
    hand.into_iter()
        .filter_map(|c| holdings_index(table, c))
        .map(|i| i + 1)
        .max()
        .unwrap_or(0)
}

/// The `piece` line's XBetza for piece `letter` in a style, when it differs from the
/// piece's own: under `Boards` the King never castles by XBoard's rules (a virgin-only step
/// and no `O`) and the Rook carries `O`, which makes XBoard read the rook's move through the
/// king's square as castling.
pub fn betza_override(style: Style, letter: char, royal: bool) -> Option<&'static str> {
    match (style, letter.to_ascii_uppercase()) {
        (Style::Boards, 'K') if royal => Some("KiK"),
        (Style::Boards, 'R') => Some("RO"),
        _ => None,
    }
}

/// Whether the King's `piece` line gets XBoard's castling atom (`isO2`). Not under
/// `Reserve`: XBoard applies a two-leg move of a piece with `O` as castling, which would
/// turn the Black King's out-and-back file choice into a king swap; without it XBoard still
/// castles a king's two-square move by its own rule.
pub fn king_castles_by_betza(style: Style) -> bool {
    matches!(style, Style::Plain | Style::PawnGating)
}

/// The reserve man's upper-case letter and how many wait per side, where the variant has a
/// reserve (Pioneer).
fn reserve_man(v: &Variant) -> Option<(char, usize)> {
    let rules = v.reserve()?;
    let letter = v.pieces()[rules.piece.0 as usize]
        .letter
        .to_ascii_uppercase();
    Some((letter, rules.count as usize))
}

/// The start FEN for `setup` in a style: under `Reserve` the waiting men are in the
/// holdings and the reserve field (which XBoard cannot read) is left out.
pub fn setup_fen(v: &Variant, style: Style, fen: &str) -> String {
    if style != Style::Reserve {
        return fen.to_string();
    }
    let Some((letter, count)) = reserve_man(v) else {
        return fen.to_string();
    };
    let core = fen.split('{').next().unwrap_or(fen).trim_end();
    let hand: String = std::iter::repeat_n(letter, count)
        .chain(std::iter::repeat_n(letter.to_ascii_lowercase(), count))
        .collect();
    let mut fields: Vec<String> = core.split_whitespace().map(str::to_string).collect();
    if let Some(board) = fields.first_mut() {
        if !board.contains('[') {
            board.push_str(&format!("[{hand}]"));
        }
    }
    fields.join(" ")
}

/// A FEN from XBoard in Chimera's terms: under `Reserve` the men in XBoard's holdings are
/// men whose file is still to be chosen (XBoard keeps no record of a choice).
pub fn fen_from_wire(v: &Variant, style: Style, fen: &str) -> String {
    if style == Style::Boards {
        return boards_castling(fen);
    }
    if style != Style::Reserve || fen.contains('{') {
        return fen.to_string();
    }
    let Some((letter, _)) = reserve_man(v) else {
        return fen.to_string();
    };
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    let Some(board) = fields.first_mut() else {
        return fen.to_string();
    };
    let (white, black) = match board.split_once('[') {
        Some((b, hand)) => {
            let hand = hand.trim_end_matches(']');
            let w = hand.chars().filter(|&c| c == letter).count();
            let bl = hand
                .chars()
                .filter(|&c| c == letter.to_ascii_lowercase())
                .count();
            *board = b.to_string();
            (w, bl)
        }
        None => (0, 0),
    };
    // XBoard writes S-Chess virginity letters into the castling field: only KQkq are ours.
    if let Some(castling) = fields.get_mut(2) {
        let kept: String = castling.chars().filter(|c| "KQkq".contains(*c)).collect();
        *castling = if kept.is_empty() { "-".into() } else { kept };
    }
    let mut reserve: Vec<String> = Vec::new();
    reserve.extend(std::iter::repeat_n(format!("{letter}?"), white));
    reserve.extend(std::iter::repeat_n(
        format!("{}?", letter.to_ascii_lowercase()),
        black,
    ));
    let field = if reserve.is_empty() {
        "{-}".to_string()
    } else {
        format!("{{{}}}", reserve.join(" "))
    };
    format!("{} {field}", fields.join(" "))
}

/// Under `Boards` XBoard writes castling rights by file letters of its own (`Ee` for a King
/// it is told never castles): the rights are read back from the board instead, each
/// orthodox right kept while its king and rook stand on their start squares of board A.
fn boards_castling(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if fields.len() < 3 || fields[2].chars().all(|c| "KQkq-".contains(c)) {
        return fen.to_string();
    }
    let ranks: Vec<Vec<char>> = fields[0]
        .split('[')
        .next()
        .unwrap_or("")
        .split('/')
        .map(|r| {
            let mut cells = Vec::new();
            let mut run = 0usize;
            for c in r.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as usize;
                    continue;
                }
                cells.extend(std::iter::repeat_n('.', run));
                run = 0;
                cells.push(c);
            }
            cells.extend(std::iter::repeat_n('.', run));
            cells
        })
        .collect();
    let at = |rank_from_top: usize, file: usize| {
        ranks
            .get(rank_from_top)
            .and_then(|r| r.get(file))
            .copied()
            .unwrap_or('.')
    };
    let last = ranks.len().saturating_sub(1);
    let mut rights = String::new();
    for (flag, row, king, rook) in [
        ('K', last, 'K', 'R'),
        ('Q', last, 'K', 'R'),
        ('k', 0, 'k', 'r'),
        ('q', 0, 'k', 'r'),
    ] {
        let rook_file = if flag.eq_ignore_ascii_case(&'K') {
            7
        } else {
            0
        };
        if at(row, 4) == king && at(row, rook_file) == rook {
            rights.push(flag);
        }
    }
    fields[2] = if rights.is_empty() {
        "-".into()
    } else {
        rights
    };
    fields.join(" ")
}

/// A move of three legs (`b7e7,e7h7,h7l7`: a man taking two men on his way) in the one-token
/// form XBoard's move parser reads as such, the first leg and then each later leg's square
/// (`b7e7xh7-l7`). XBoard 4.9 takes an engine's legs sent as `move a,` lines as one move only
/// for two legs: with three it plays the man to the first leg's square and relays a move that
/// no engine can read. `None` for other moves.
pub fn three_legs_in_one(text: &str) -> Option<String> {
    let legs: Vec<&str> = text.split(',').collect();
    let [first, second, third] = legs[..] else {
        return None;
    };
    // A leg's destination: what follows its first square (letters, then digits).
    let dest = |leg: &str| {
        let letters = leg.bytes().take_while(u8::is_ascii_lowercase).count();
        let digits = leg[letters..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        (letters == 1 && digits > 0).then(|| leg[letters + digits..].to_string())
    };
    Some(format!("{first}x{}-{}", dest(second)?, dest(third)?))
}

/// The move `mv` in `pos` as written on XBoard's wire (before any rank shift).
pub fn wire_move(pos: &Position, style: Style, mv: Move) -> String {
    let g = pos.variant().geometry();
    let name = |sq: Square| g.name(sq);
    let text = pos.move_text(mv);
    match style {
        Style::Plain => text,
        Style::PawnGating => match mv.kind {
            MoveKind::EnPassant => {
                format!(
                    "{}{},{}{}",
                    name(mv.from),
                    name(mv.aux),
                    name(mv.aux),
                    name(mv.to)
                )
            }
            _ => text,
        },
        Style::Reserve => reserve_move(pos, mv, text),
        Style::Boards => match mv.kind {
            MoveKind::Castle => {
                let (kf, tf) = (g.display_file(mv.from), g.display_file(mv.to));
                let rook_file = if g.display_file(mv.aux) > kf {
                    tf - 1
                } else {
                    tf + 1
                };
                let rook_to = g
                    .display_square(rook_file, g.rank_of(mv.to))
                    .map_or_else(String::new, name);
                format!("{}{rook_to},{}{}", name(mv.aux), name(mv.from), name(mv.to))
            }
            _ => match pos.capture_square(mv) {
                Some(victim) if victim != mv.to => {
                    let promo = text
                        .chars()
                        .rev()
                        .take_while(|c| c.is_ascii_alphabetic())
                        .collect::<Vec<_>>();
                    let promo: String = if mv.promotion().is_some() {
                        promo.into_iter().rev().collect()
                    } else {
                        String::new()
                    };
                    format!(
                        "{}{},{}{}{promo}",
                        name(mv.from),
                        name(victim),
                        name(victim),
                        name(mv.to)
                    )
                }
                _ => text,
            },
        },
    }
}

/// Pioneer's forms: the choice of file as a there-and-back move, an entry as gating.
fn reserve_move(pos: &Position, mv: Move, text: String) -> String {
    let v = pos.variant();
    let g = v.geometry();
    let Some(rules) = v.reserve() else {
        return text;
    };
    let letter = v.pieces()[rules.piece.0 as usize]
        .letter
        .to_ascii_lowercase();
    if mv.kind == MoveKind::Place {
        let home = mv.from;
        return match free_square_on_file(pos, home) {
            Some(out) => format!(
                "{}{},{}{}",
                g.name(home),
                g.name(out),
                g.name(out),
                g.name(home)
            ),
            None => text,
        };
    }
    let us = pos.side_to_move();
    let mut after = pos.clone();
    after.make_move(mv);
    let entered = |sq: Square| {
        after
            .piece_at(sq)
            .is_some_and(|p| p.color == us && p.id == rules.piece)
    };
    if mv.is_castle() {
        if entered(mv.aux) {
            return format!("{}{}{letter}", g.name(mv.aux), g.name(mv.from));
        }
        if entered(mv.from) {
            return format!("{text}{letter}");
        }
        return text;
    }
    if mv.kind != MoveKind::Drop && entered(mv.from) {
        return format!("{text}{letter}");
    }
    text
}

/// An empty square on the file of `home`, nearest the middle of the board: where the man on
/// `home` "goes and comes back" when his side chooses the file.
fn free_square_on_file(pos: &Position, home: Square) -> Option<Square> {
    let g = pos.variant().geometry();
    let (board, file, _) = g.coords(home);
    let ranks = g.ranks as usize;
    let white = pos.side_to_move() == Color::White;
    let order: Vec<usize> = if white {
        (0..ranks).rev().collect()
    } else {
        (0..ranks).collect()
    };
    // Nearest the middle, from the mover's side first.
    let mut by_distance: Vec<usize> = order;
    by_distance.sort_by_key(|&r| {
        let d = (2 * r as i32 - (ranks as i32 - 1)).abs();
        (d, if white { r as i32 } else { -(r as i32) })
    });
    by_distance
        .into_iter()
        .map(|r| g.square(board, file, r))
        .find(|&sq| sq != home && pos.cell(sq).is_empty())
}

/// Why a move read in a plain form is refused under a style, with the form to use: XBoard
/// has applied the plain form to its own board differently from the rules.
pub fn plain_form_refusal(pos: &Position, style: Style, mv: Move) -> Option<String> {
    let wire = wire_move(pos, style, mv);
    let plain = pos.move_text(mv);
    if wire == plain {
        return None;
    }
    match style {
        Style::Reserve if mv.kind != MoveKind::Place => Some(format!(
            "the reserve man enters with this move; enter it as {wire}"
        )),
        Style::Boards => Some(format!("enter it as {wire}, so that the board follows")),
        Style::PawnGating => Some(format!("enter it as {wire}, so that the board follows")),
        _ => None,
    }
}

/// The move of `pos` whose wire form is `text`, if any. XBoard relays a two-leg move in
/// one of two ways (`F K,K T` when the square passed is empty or enemy, `F T,K T±1` when it
/// holds a friend), so both readings of the text are tried.
pub fn match_wire(pos: &Position, style: Style, text: &str) -> Option<Move> {
    if style == Style::Plain {
        return None;
    }
    let text = text.to_ascii_lowercase();
    let heard = readings(&text);
    let mut probe = pos.clone();
    let moves = probe.legal_moves();
    moves.iter().copied().find(|&mv| {
        let sent = wire_move(pos, style, mv).to_ascii_lowercase();
        sent == text
            || readings(&sent)
                .first()
                .is_some_and(|canonical| heard.contains(canonical))
    })
}

/// A move text as XBoard can read it: from, the square passed (a second leg's start), to,
/// and suffix letters.
pub type Reading = (String, Option<String>, String, String);

/// How XBoard can read a move text, the way XBoard applies it first: a two-leg text whose
/// legs meet is one move through the meeting square; otherwise the first leg is the move and
/// the second leg's start the square passed. Drops and malformed texts have none.
pub fn readings(text: &str) -> Vec<Reading> {
    let legs: Vec<&str> = text.split(',').collect();
    let mut out = Vec::new();
    let Some((a, b, s1)) = legs.first().and_then(|l| split_leg(l)) else {
        return out;
    };
    if legs.len() == 1 {
        out.push((a, None, b, s1));
        return out;
    }
    let Some((c, d, s2)) = legs.get(1).and_then(|l| split_leg(l)) else {
        return out;
    };
    if legs.len() > 2 {
        return out;
    }
    if b == c {
        out.push((a.clone(), Some(c.clone()), d, s2.clone()));
    }
    let suffix = if s1.is_empty() { s2 } else { s1 };
    out.push((a, Some(c), b, suffix));
    out
}

/// `e2e4q` as (`e2`, `e4`, `q`); `None` for drops and anything else.
fn split_leg(leg: &str) -> Option<(String, String, String)> {
    let b = leg.as_bytes();
    if b.is_empty() || !b[0].is_ascii_lowercase() {
        return None;
    }
    let mut i = 1;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mid = i;
    if mid < 2 || mid >= b.len() || !b[mid].is_ascii_lowercase() {
        return None;
    }
    i += 1;
    let to_digits = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == to_digits {
        return None;
    }
    Some((
        leg[..mid].to_string(),
        leg[mid..i].to_string(),
        leg[i..].to_string(),
    ))
}
