//! Positions the rules can play but no game from the variant's start position reaches: more
//! men of a type than the start position's men can ever become, a hand that grew where hands
//! only shrink, a move-count rule already spent. The FEN reader accepts them (a study, a
//! handicap, a test position may want them), so they are warnings, not errors: the front-ends
//! show them (`info string warning: ...`, XBoard `# warning: ...`) and play on.

use super::position::Position;
use crate::types::{Color, PieceId, MAX_PIECE_TYPES};
use crate::variant::tables::PieceMask;
use crate::variant::Variant;

/// Men per colour and type.
type Counts = [[usize; MAX_PIECE_TYPES]; 2];

impl Position {
    /// What is odd about this position although it can be played, one sentence each; empty for
    /// every position a game from the variant's start position can reach. The checks:
    ///
    /// - a side holds more men of a type in hand than its start position's hand, in a variant
    ///   whose captures do not go to hand (there a hand only ever shrinks): 22 hawks in an
    ///   S-Chess hand;
    /// - a side has more men of a type, on the board, in hand and in reserve together, than the
    ///   start position's men can ever become: its own men of that type, the pawns that may
    ///   promote to it, the heirs that may succeed to it and, where captures go to hand, the
    ///   other side's men of those types too (nine pawns or ten queens in chess);
    /// - the halfmove clock is past the move-count rule, so the game is already drawn.
    ///
    /// The FEN reader rejects what the rules cannot play (see [`Position::from_setup`]); this
    /// list is for the front-ends to pass on as warnings.
    pub fn oddities(&self) -> Vec<String> {
        let v = &self.variant;
        let mut out = Vec::new();
        let start = Position::startpos(v);
        let have = men_by_type(self);
        let bound = reachable_bound(v, &men_by_type(&start));
        for color in Color::ALL {
            let c = color.index();
            let side = if color == Color::White {
                "White"
            } else {
                "Black"
            };
            for t in 0..v.num_pieces() {
                let id = PieceId(t as u8);
                let what = format!(
                    "{} ({})",
                    v.letter(id, color),
                    v.pieces()[t].name.to_ascii_lowercase()
                );
                let (held, start_held) = (self.in_hand(color, id), start.in_hand(color, id));
                if !v.captures_to_hand() && held > start_held {
                    out.push(format!(
                        "{side} holds {held} {what} in hand, but the start position of {} gives \
                         it {start_held} and nothing adds to a hand there",
                        v.name()
                    ));
                } else if have[c][t] > bound[c][t]
                    // Men turned over (reversi, ataxx) or dropped from no hand change side
                    // and number: no bound holds.
                    && v.enclosing().is_none()
                    && !v.free_drops()
                {
                    out.push(format!(
                        "{side} has {} {what} on the board and in hand, more than the {} that \
                         a game of {} can give it",
                        have[c][t],
                        bound[c][t],
                        v.name()
                    ));
                }
            }
        }
        let clock = self.halfmove_clock() as u32;
        if v.n_move_rule() > 0 && clock > v.n_move_rule() {
            out.push(format!(
                "the halfmove clock {clock} is past the move-count rule ({} plies): the game \
                 is already drawn",
                v.n_move_rule()
            ));
        }
        out
    }
}

/// Each side's men per type: on the board, in hand, and waiting in reserve.
fn men_by_type(pos: &Position) -> Counts {
    let v = pos.variant();
    let mut n = [[0; MAX_PIECE_TYPES]; 2];
    for color in Color::ALL {
        for (t, slot) in n[color.index()].iter_mut().enumerate().take(v.num_pieces()) {
            let id = PieceId(t as u8);
            *slot = pos.count(color, id) as usize + pos.in_hand(color, id) as usize;
        }
        if let Some(r) = &v.reserve() {
            n[color.index()][r.piece.index()] += pos.reserves_waiting(color);
        }
    }
    n
}

/// The most men of each type each side can have in a game that starts with `start` men. A man
/// is one man for the whole game: he changes type only by promotion or succession, and sides
/// only by a capture into a hand. So a side can have no more men of a type than there are men
/// of every type that can turn into it, through any chain of promotions and successions (a
/// cycle included), itself included: its own, and where captures go to hand the other side's
/// too.
fn reachable_bound(v: &Variant, start: &Counts) -> Counts {
    let types = v.num_pieces();
    let mut bound = [[0; MAX_PIECE_TYPES]; 2];
    for color in Color::ALL {
        let c = color.index();
        // reach[s]: the types a man of type s may become, in any number of steps.
        let mut reach: Vec<PieceMask> = (0..types).map(|s| 1 << s).collect();
        for (s, r) in reach.iter_mut().enumerate() {
            if v.promotion().promotes(PieceId(s as u8), color) {
                for &into in v.promotion().choices_for(PieceId(s as u8), color) {
                    *r |= 1 << into.0;
                }
            }
        }
        for &(kind, heir) in v.succession() {
            reach[heir.index()] |= 1 << kind.0;
        }
        // A shogi man becomes his promoted type, and that type becomes him again (demoted,
        // or captured back to a hand).
        let shogi = v.shogi();
        for (s, r) in reach.iter_mut().enumerate() {
            for other in [shogi.promoted[s], shogi.unpromoted[s]]
                .into_iter()
                .flatten()
            {
                *r |= 1 << other.0;
            }
        }
        loop {
            let mut changed = false;
            for s in 0..types {
                let via = (0..types)
                    .filter(|&t| reach[s] & (1 << t) != 0)
                    .fold(reach[s], |m, t| m | reach[t]);
                changed |= via != reach[s];
                reach[s] = via;
            }
            if !changed {
                break;
            }
        }
        for (s, &r) in reach.iter().enumerate() {
            let men = start[c][s]
                + if v.captures_to_hand() {
                    start[1 - c][s]
                } else {
                    0
                };
            for (t, b) in bound[c].iter_mut().enumerate().take(types) {
                if r & (1 << t) != 0 {
                    *b += men;
                }
            }
        }
    }
    bound
}
