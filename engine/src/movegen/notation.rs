//! Move text in the coordinate notation of docs/protocols.md §2.2, the one place every move is
//! written: `e2e4`, `e7e8q`, `N@e4` drops, `b1c3h` gating, `e1g1` castling (or `e1h1`, king
//! takes rook, in the [`CastlingStyle`] UCI's Chess960 mode uses; both are read), `h1e1h`
//! castling that gates on the rook's square, multi-leg moves one leg at a time (`e5g9,g9f7`),
//! a pass as Fairy-Stockfish writes it, the king's move to his own square (`e2e2`; `0000`
//! and `@@@@` are read too); in a variant whose turns have parts, `a,b` is one turn (its parts in
//! order, see `rules::turns`). Text is turned into a move only by matching it against the legal
//! moves, so a parsed move is always legal.

use std::fmt;

use crate::board::position::Position;
use crate::types::{split_square, Move, MoveKind, Square};

/// Why a move text was not accepted.
///
/// `Syntax` means the text is not a move of this variant at all (bad shape, a square off the
/// board, a letter that names no piece); `Illegal` means it is, but not a legal one here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in any notation we read.
    Syntax(String),
    /// The text is well formed but names no legal move here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(m) => write!(f, "malformed move '{m}'"),
            MoveError::Illegal(m) => write!(f, "illegal move '{m}'"),
        }
    }
}

impl std::error::Error for MoveError {}

/// How castling moves are written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum CastlingStyle {
    /// The king's destination (`e1g1`), as in orthodox chess; where the king moves one file or
    /// none, the rook's square instead, so that the text still names the move.
    #[default]
    KingToTarget,
    /// The king's square, then its rook's (`e1h1`), for UCI_Chess960.
    KingTakesRook,
}

impl Position {
    /// The text of `mv` in this position.
    pub fn move_text(&self, mv: Move) -> String {
        self.move_text_in(mv, CastlingStyle::KingToTarget)
    }

    /// The text of `mv` in this position, castling written in `style`.
    pub fn move_text_in(&self, mv: Move, style: CastlingStyle) -> String {
        let mut s = self.move_text_plain(mv, style);
        if self.variant.walls().is_some_and(|w| w.or_move)
            && !matches!(mv.kind, MoveKind::Pass | MoveKind::Drop | MoveKind::Walled)
        {
            // Fairy-Stockfish writes a move that places no wall, where a wall may be placed
            // instead, with a wall leg to the board's first square (`a1b1,b1a1`).
            let g = &self.variant.geometry();
            s.push_str(&format!(",{}{}", g.name(mv.to), g.name(g.square(0, 0, 0))));
        }
        s
    }

    /// [`Position::move_text_in`] without the wall leg of `wallOrMove` variants.
    fn move_text_plain(&self, mv: Move, style: CastlingStyle) -> String {
        let g = &self.variant.geometry();
        let lower = |id: u8| {
            self.variant.pieces()[id as usize]
                .letter
                .to_ascii_lowercase()
        };
        match mv.kind {
            MoveKind::Pass => match self.pass_square() {
                Some(sq) => format!("{}{}", g.name(sq), g.name(sq)),
                None => "0000".to_string(),
            },
            MoveKind::Place => {
                // The reserve man's letter, `@`, the file: `M@g`, or `M@b,M@g` for two.
                let letter = self.variant.pieces()[mv.piece as usize].letter;
                let file = |sq: Square| (b'a' + g.file_of(sq) as u8) as char;
                if mv.to == mv.from {
                    format!("{letter}@{}", file(mv.from))
                } else {
                    format!("{letter}@{},{letter}@{}", file(mv.from), file(mv.to))
                }
            }
            MoveKind::Drop => {
                // A man dropped promoted is written `+P@e3`, as Fairy-Stockfish writes him.
                let def = &self.variant.pieces()[mv.piece as usize];
                let plus = if def.promoted_from.is_some() { "+" } else { "" };
                format!("{plus}{}@{}", def.letter, g.name(mv.to))
            }
            MoveKind::Castle | MoveKind::CastleGateKing => self.castling_move_text(mv, style),
            MoveKind::Locust => {
                // Two legs: to the victim, then on to the destination (XBoard's Lion notation).
                let mut s = format!(
                    "{}{},{}{}",
                    g.name(mv.from),
                    g.name(mv.aux),
                    g.name(mv.aux),
                    g.name(mv.to)
                );
                if mv.piece != Move::NO_PIECE {
                    s.push(lower(mv.piece));
                }
                s
            }
            MoveKind::Sweep => {
                // One leg to each victim in turn, then to the destination.
                let mut stops: Vec<Square> =
                    self.sweep_victims(mv.from, mv.to).into_iter().collect();
                stops.push(mv.to);
                let mut s = String::new();
                let mut at = mv.from;
                for (i, stop) in stops.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    s.push_str(&format!("{}{}", g.name(at), g.name(*stop)));
                    at = *stop;
                }
                if mv.piece != Move::NO_PIECE {
                    s.push(lower(mv.piece));
                }
                s
            }
            MoveKind::Walled
            | MoveKind::WalledDoubleStep
            | MoveKind::WalledEnPassant
            | MoveKind::WalledCastle => {
                // Fairy-Stockfish's form: the move, then a leg from its destination to the wall.
                let base = Move {
                    kind: match mv.kind {
                        MoveKind::WalledCastle => MoveKind::Castle,
                        _ => MoveKind::Normal,
                    },
                    aux: if mv.kind == MoveKind::WalledCastle {
                        self.castle_rook_of(mv)
                    } else {
                        Square::NONE
                    },
                    ..mv
                };
                format!(
                    "{},{}{}",
                    self.move_text_plain(base, style),
                    g.name(mv.to),
                    g.name(mv.aux)
                )
            }
            MoveKind::CastleGateRook => {
                format!("{}{}{}", g.name(mv.aux), g.name(mv.from), lower(mv.piece))
            }
            _ => {
                let mut s = format!("{}{}", g.name(mv.from), g.name(mv.to));
                if mv.piece != Move::NO_PIECE {
                    s.push(self.promotion_suffix(mv));
                }
                s
            }
        }
    }

    /// The square a pass is written from, as Fairy-Stockfish writes it: the mover's royal man's
    /// (the lowest, if several), or with none, his lowest man's; `None` with no man at all.
    fn pass_square(&self) -> Option<Square> {
        let g = &self.variant.geometry();
        let us = self.side_to_move();
        let order = |&sq: &Square| (g.board_of(sq), g.rank_of(sq), g.file_of(sq));
        let royal = self.royal_squares(us).into_iter().min_by_key(order);
        royal.or_else(|| self.squares_of(us).iter().copied().min_by_key(order))
    }

    /// The letter after a promoting board move: the new type's, or as Fairy-Stockfish writes
    /// shogi promotions, `+` for a promotion to a promoted type and `-` for a demotion.
    fn promotion_suffix(&self, mv: Move) -> char {
        let pieces = self.variant.pieces();
        let new = &pieces[mv.piece as usize];
        if new.promoted_from.is_some() {
            return '+';
        }
        let mover = self.cell(mv.from).id();
        if pieces[mover.index()].promoted_from == Some(crate::types::PieceId(mv.piece)) {
            return '-';
        }
        new.letter.to_ascii_lowercase()
    }

    /// The text of a castling move (the king's part, with the man it gates, if any) in `style`.
    fn castling_move_text(&self, mv: Move, style: CastlingStyle) -> String {
        let g = &self.variant.geometry();
        let to = match style {
            CastlingStyle::KingTakesRook => mv.aux,
            CastlingStyle::KingToTarget if g.file_of(mv.from).abs_diff(g.file_of(mv.to)) <= 1 => {
                mv.aux
            }
            CastlingStyle::KingToTarget => mv.to,
        };
        let mut s = format!("{}{}", g.name(mv.from), g.name(to));
        if mv.kind == MoveKind::CastleGateKing {
            s.push(
                self.variant.pieces()[mv.piece as usize]
                    .letter
                    .to_ascii_lowercase(),
            );
        }
        s
    }

    /// The legal move that `text` names.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim().trim_end_matches('=');
        if let Some(mv) = self.castling_by_side(t) {
            return mv;
        }
        if !self.well_formed(t) {
            return Err(MoveError::Syntax(text.to_string()));
        }
        let wanted = t.to_ascii_lowercase();
        let moves = self.legal_moves();
        for &mv in moves.iter() {
            if self.move_text(mv).to_ascii_lowercase() == wanted {
                return Ok(mv);
            }
            if self.variant.walls().is_some_and(|w| w.or_move)
                && self
                    .move_text_plain(mv, CastlingStyle::KingToTarget)
                    .to_ascii_lowercase()
                    == wanted
            {
                return Ok(mv);
            }
            let alternative = match mv.kind {
                MoveKind::Castle | MoveKind::CastleGateKing => {
                    Some(self.castling_move_text(mv, CastlingStyle::KingTakesRook))
                }
                _ => None,
            };
            if alternative.is_some_and(|a| a == wanted) {
                return Ok(mv);
            }
            if mv.kind == MoveKind::Pass && self.names_a_pass(&wanted) {
                return Ok(mv);
            }
        }
        Err(MoveError::Illegal(text.to_string()))
    }

    /// The castling `t` names in the form XBoard uses in Chess960 (`O-O`, `O-O-O`, also with
    /// zeros and a check mark): the castling with the rook on the king's right or left.
    /// `None` when `t` is not that form.
    fn castling_by_side(&mut self, t: &str) -> Option<Result<Move, MoveError>> {
        let kingside = match t.trim_end_matches(['+', '#']) {
            "O-O" | "0-0" => true,
            "O-O-O" | "0-0-0" => false,
            _ => return None,
        };
        let g = self.variant.geometry().clone();
        let found = self.legal_moves().iter().copied().find(|mv| {
            matches!(mv.kind, MoveKind::Castle)
                && (g.file_of(mv.aux) > g.file_of(mv.from)) == kingside
        });
        Some(found.ok_or_else(|| MoveError::Illegal(t.to_string())))
    }

    /// Parses and makes a move; on error the position is unchanged.
    pub fn try_play(&mut self, text: &str) -> Result<Move, MoveError> {
        if self.variant.turns().is_some() && text.contains(',') {
            return self.try_play_turn(text);
        }
        let mv = self.parse_move(text)?;
        self.make_move(mv);
        Ok(mv)
    }
}

impl Position {
    /// Checks that `t` is a move token of this variant: its squares exist on this board and
    /// its piece letters name pieces of this variant, whatever the position.
    fn well_formed(&self, t: &str) -> bool {
        if t == "0000" || t == "@@@@" {
            return true;
        }
        let g = &self.variant.geometry();
        let is_piece =
            |c: char| c.is_ascii_alphabetic() && self.variant.piece_by_letter(c).is_some();
        if self.variant.reserve().is_some() && t.contains('@') {
            // A file choice for reserve men: `M@g` or `M@b,M@g`.
            let files = self.variant.geometry().files;
            let choice = t.split(',').all(|part| {
                let b = part.as_bytes();
                b.len() == 3
                    && is_piece(b[0] as char)
                    && b[1] == b'@'
                    && b[2].is_ascii_lowercase()
                    && b[2] - b'a' < files
            });
            if choice {
                return true;
            }
        }
        if let Some((piece, square)) = t.split_once('@') {
            let mut letters = piece.trim_start_matches('+').chars();
            return matches!((letters.next(), letters.next()), (Some(c), None) if is_piece(c))
                && g.parse_square(square).is_some();
        }
        // One leg `e2e4`, or several joined by commas (`e4f5,f5g6`); only the last leg may
        // carry a promotion or gating letter.
        let legs: Vec<&str> = t.split(',').collect();
        legs.iter().enumerate().all(|(i, leg)| {
            let Some((first, rest)) = split_leading_square(leg) else {
                return false;
            };
            let Some((second, tail)) = split_leading_square(rest) else {
                return false;
            };
            if g.parse_square(first).is_none() || g.parse_square(second).is_none() {
                return false;
            }
            let mut suffix = tail.chars();
            match (suffix.next(), suffix.next()) {
                (None, _) => true,
                // A move that places a wall writes its promotion before the wall's leg.
                (Some(c), None) => {
                    (i + 1 == legs.len() || self.variant.walls().is_some())
                        && (c == '+' || c == '-' || is_piece(c))
                }
                _ => false,
            }
        })
    }

    /// True when `t` is a way of writing a pass: `0000`, `@@@@`, or a man of the side to move
    /// going to his own square (`h8h8`).
    fn names_a_pass(&self, t: &str) -> bool {
        if t == "0000" || t == "@@@@" {
            return true;
        }
        let g = &self.variant.geometry();
        let Some((first, rest)) = split_leading_square(t) else {
            return false;
        };
        first == rest
            && g.parse_square(first)
                .is_some_and(|sq| self.cell(sq).is_color(self.side_to_move()))
    }
}

/// Splits a square name (a letter and one or two digits) off the front of `t`.
fn split_leading_square(t: &str) -> Option<(&str, &str)> {
    let b = t.as_bytes();
    if b.is_empty() || !b[0].is_ascii_lowercase() {
        return None;
    }
    let digits = b[1..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count()
        .min(2);
    if digits == 0 {
        return None;
    }
    let (sq, rest) = t.split_at(1 + digits);
    split_square(sq).map(|_| (sq, rest))
}
