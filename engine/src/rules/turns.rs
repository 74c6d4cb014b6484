//! Turns made of several parts, played on a position (the rule data is `variant::turns`): the
//! position records the next part as its turn phase (`State::phase`, part of the hash and of
//! the FEN), which advances after each part; moves group into turns, and a turn is written and
//! read as one token (`a,b`).

use crate::board::position::Position;
use crate::movegen::MoveError;
use crate::types::Move;
use crate::variant::tables::PieceMask;

impl Position {
    /// The turn phase: which part of the side to move's turn is next (0 without turn rules).
    #[inline]
    pub fn turn_phase(&self) -> u8 {
        self.st.phase
    }

    /// The types of men that may move now: all, unless the variant's turns have parts.
    #[inline]
    pub fn movable_types(&self) -> PieceMask {
        match &self.variant.turns() {
            Some(t) => t.types(self.st.phase),
            None => PieceMask::MAX,
        }
    }

    /// True when a move made now leaves the same side to move (a part that is not the last).
    #[inline]
    pub fn turn_continues(&self) -> bool {
        self.variant
            .turns()
            .as_ref()
            .is_some_and(|t| t.next(self.st.phase).is_some())
    }

    /// Advances the turn after a move, keeping the hash in step: the next phase, or (returning
    /// true) the end of the turn, when the caller hands the move to the other side.
    #[inline(always)]
    pub(crate) fn advance_turn(&mut self) -> bool {
        let Some(turns) = &self.variant.turns() else {
            return true;
        };
        let old = self.st.phase;
        let next = turns.next(old);
        let new = next.unwrap_or(0);
        let z = &self.variant.zobrist();
        self.st.hash ^= z.phase(old) ^ z.phase(new);
        self.st.phase = new;
        if next.is_some() {
            // The side does not change: undo the side key that every move toggles.
            self.st.hash ^= z.side;
        }
        next.is_none()
    }
}

impl Position {
    /// Groups moves played one after another from this position into turns: a turn ends where
    /// the side to move changes. The last group is an unfinished turn when the moves stop
    /// mid-turn. The moves must be legal in sequence.
    pub fn group_turns(&self, moves: &[Move]) -> Vec<Vec<Move>> {
        let mut pos = self.clone();
        let mut turns = Vec::new();
        let mut current = Vec::new();
        for &mv in moves {
            let us = pos.side;
            pos.make_move(mv);
            current.push(mv);
            if pos.side != us {
                turns.push(std::mem::take(&mut current));
            }
        }
        if !current.is_empty() {
            turns.push(current);
        }
        turns
    }

    /// The text of the moves `parts`, played in sequence from this position, joined by commas
    /// (docs/protocols.md D3: one token per turn, `i2a3` or `e2e3,l2d4`).
    pub fn turn_text(&self, parts: &[Move]) -> String {
        match parts {
            // One part needs no copy of the position, whose history grows with the game.
            [mv] => self.move_text(*mv),
            _ => self.clone().play_turn_text(parts),
        }
    }

    /// Writes the turn `parts` as [`turn_text`](Self::turn_text) does and plays it: the way
    /// to write a whole game, turn after turn, without a copy of the position (and its history)
    /// per turn, which made writing a long game quadratic.
    pub fn play_turn_text(&mut self, parts: &[Move]) -> String {
        let mut words = Vec::with_capacity(parts.len());
        for &mv in parts {
            words.push(self.move_text(mv));
            self.make_move(mv);
        }
        words.join(",")
    }

    /// Plays the parts of a turn written as one token, `a,b`: every part but the last must
    /// leave the same side to move. All or nothing: on an error the position is unchanged.
    /// Returns the last part's move.
    pub(crate) fn try_play_turn(&mut self, text: &str) -> Result<Move, MoveError> {
        let parts: Vec<&str> = text.trim().split(',').collect();
        let mut made = 0;
        let mut result = Err(MoveError::Syntax(text.to_string()));
        for (i, part) in parts.iter().enumerate() {
            let us = self.side;
            match self.parse_move(part) {
                Ok(mv) => {
                    self.make_move(mv);
                    made += 1;
                    if i + 1 < parts.len() && self.side != us {
                        result = Err(MoveError::Illegal(text.to_string()));
                        break;
                    }
                    result = Ok(mv);
                }
                Err(MoveError::Syntax(_)) => {
                    result = Err(MoveError::Syntax(text.to_string()));
                    break;
                }
                Err(MoveError::Illegal(_)) => {
                    result = Err(MoveError::Illegal(text.to_string()));
                    break;
                }
            }
        }
        if result.is_err() {
            for _ in 0..made {
                self.unmake_move();
            }
        }
        result
    }
}
