//! Game-end adjudication: whether the game is over in a position, who won and why. The search
//! scores the same situations itself (it must do so cheaply, at every node); this module is the
//! complete, slower answer for a game manager, a protocol front-end or a test.

use std::fmt;

use crate::board::position::Position;
use crate::types::Color;
use crate::variant::GameValue;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move has no legal move and is in check.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The side to move has lost its (last) royal man (variants without check rules).
    RoyalCaptured,
    /// The variant's move-count rule (`nMoveRule`) ran out.
    MoveRule,
    /// The position occurred the variant's number of times (`nFoldRule`).
    Repetition,
}

/// The end of a game: the winner (`None` for a draw) and the reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// What ended the game.
    pub reason: Termination,
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let result = match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        };
        let why = match self.reason {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::RoyalCaptured => "royal piece captured",
            Termination::MoveRule => "move-count rule",
            Termination::Repetition => "repetition",
        };
        write!(f, "{result} ({why})")
    }
}

/// Turns a [`GameValue`] seen from `side` into a winner. `None` (the rule does not end the
/// game) cannot be applied to a position without moves, so it reads as a draw there.
fn winner_for(side: Color, value: GameValue) -> Option<Color> {
    match value {
        GameValue::Win => Some(side),
        GameValue::Loss => Some(side.opposite()),
        GameValue::Draw | GameValue::None => None,
    }
}

impl Position {
    /// The result for the side to move when it has no legal move: checkmate, or stalemate,
    /// which the variant may score differently for a side left with a bare royal man
    /// (`bareKingStalemateValue`: stalemating a bare king wins in Pawn Vault).
    pub fn no_move_value(&self, in_check: bool) -> GameValue {
        let v = self.variant();
        if in_check {
            return v.checkmate_value();
        }
        if v.bare_king_stalemate() != GameValue::None && self.has_bare_royal(self.side_to_move()) {
            return v.bare_king_stalemate();
        }
        v.stalemate_value()
    }

    /// True when `color` has nothing but royal men on the board and nothing in hand.
    pub fn has_bare_royal(&self, color: Color) -> bool {
        let v = self.variant();
        self.squares_of(color)
            .iter()
            .all(|&s| v.is_royal(self.cell(s).id()))
            && (0..v.num_pieces())
                .all(|id| self.in_hand(color, crate::types::PieceId(id as u8)) == 0)
    }

    /// The end of the game in this position, if it is over.
    ///
    /// A position without legal moves is decided first (a mate on the move that reaches the
    /// move-count limit still counts); then the move-count rule and repetition, counting the
    /// positions since the setup that had the same side to move and hash.
    pub fn outcome(&mut self) -> Option<GameEnd> {
        let side = self.side_to_move();
        let v = self.variant().clone();
        if v.royal_mask() != 0
            && (!v.checking() || v.extinction_royals())
            && self.royal_count(side) == 0
        {
            return Some(GameEnd {
                winner: Some(side.opposite()),
                reason: Termination::RoyalCaptured,
            });
        }
        if self.legal_moves().is_empty() {
            let in_check = self.in_check();
            let value = self.no_move_value(in_check);
            let reason = if in_check {
                Termination::Checkmate
            } else {
                Termination::Stalemate
            };
            return Some(GameEnd {
                winner: winner_for(side, value),
                reason,
            });
        }
        if v.n_move_rule() > 0 && self.halfmove_clock() as u32 >= v.n_move_rule() {
            return Some(GameEnd {
                winner: None,
                reason: Termination::MoveRule,
            });
        }
        if v.n_fold_rule() > 0 && self.repetitions(usize::MAX) + 1 >= v.n_fold_rule() as usize {
            return Some(GameEnd {
                winner: None,
                reason: Termination::Repetition,
            });
        }
        None
    }
}
