//! Turns made of several parts (Alice Guard: a Home-set move, then a Guard-set move; White's
//! first turn a single Guard-set move). A part is one ply in which only men of the part's
//! types may move; the side to move changes only after the last part of a turn. The position
//! records the next part as its turn phase (`State::phase`, part of the hash and of the FEN).
//!
//! Phases number the parts of an ordinary turn from 0, then the parts of White's opening turn
//! (`firstTurnParts`) after them; every turn after the opening starts at phase 0.

use crate::board::position::Position;
use crate::movegen::MoveError;
use crate::types::Move;
use crate::variant::tables::PieceMask;

/// The most phases a variant may have (ordinary parts plus opening parts): the hash has a key
/// for each.
pub const MAX_PHASES: usize = 4;

/// The parts of a turn, each the set of types that may move in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRules {
    /// The parts of every ordinary turn (`turnParts`).
    pub parts: Vec<PieceMask>,
    /// The parts of White's first turn (`firstTurnParts`); empty when it is an ordinary turn.
    pub opening: Vec<PieceMask>,
}

impl TurnRules {
    /// Checks the number of parts.
    pub fn new(parts: Vec<PieceMask>, opening: Vec<PieceMask>) -> Result<TurnRules, String> {
        if parts.is_empty() {
            return Err("a turn needs at least one part".into());
        }
        if parts.len() + opening.len() > MAX_PHASES {
            return Err(format!(
                "at most {MAX_PHASES} parts in all (turn and first turn)"
            ));
        }
        Ok(TurnRules { parts, opening })
    }

    /// The phase a game starts in: the opening turn's first part, if there is an opening turn.
    pub fn start_phase(&self) -> u8 {
        if self.opening.is_empty() {
            0
        } else {
            self.parts.len() as u8
        }
    }

    /// The number of phases (ordinary and opening parts).
    pub fn num_phases(&self) -> usize {
        self.parts.len() + self.opening.len()
    }

    /// The types that may move in `phase`.
    #[inline]
    pub fn types(&self, phase: u8) -> PieceMask {
        let p = phase as usize;
        match self.parts.get(p) {
            Some(&m) => m,
            None => self.opening.get(p - self.parts.len()).copied().unwrap_or(0),
        }
    }

    /// The phase after a part made in `phase`, or `None` when that part ends the turn.
    #[inline]
    pub fn next(&self, phase: u8) -> Option<u8> {
        let p = phase as usize + 1;
        let ends = p == self.parts.len() || p == self.num_phases();
        (!ends).then_some(p as u8)
    }
}

impl Position {
    /// The turn phase: which part of the side to move's turn is next (0 without turn rules).
    #[inline]
    pub fn turn_phase(&self) -> u8 {
        self.st.phase
    }

    /// The types of men that may move now: all, unless the variant's turns have parts.
    #[inline]
    pub fn movable_types(&self) -> PieceMask {
        match &self.variant.turns {
            Some(t) => t.types(self.st.phase),
            None => PieceMask::MAX,
        }
    }

    /// True when a move made now leaves the same side to move (a part that is not the last).
    #[inline]
    pub fn turn_continues(&self) -> bool {
        self.variant
            .turns
            .as_ref()
            .is_some_and(|t| t.next(self.st.phase).is_some())
    }

    /// Advances the turn after a move, keeping the hash in step: the next phase, or (returning
    /// true) the end of the turn, when the caller hands the move to the other side.
    #[inline(always)]
    pub(crate) fn advance_turn(&mut self) -> bool {
        let Some(turns) = &self.variant.turns else {
            return true;
        };
        let old = self.st.phase;
        let next = turns.next(old);
        let new = next.unwrap_or(0);
        let z = &self.variant.zobrist;
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
    /// (PROTOCOLS.md D3: one token per turn, `i2a3` or `e2e3,l2d4`).
    pub fn turn_text(&self, parts: &[Move]) -> String {
        let mut pos = self.clone();
        let mut words = Vec::with_capacity(parts.len());
        for &mv in parts {
            words.push(pos.move_text(mv));
            pos.make_move(mv);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_run_through_the_parts_and_the_opening() {
        let t = TurnRules::new(vec![1, 2], vec![2]).unwrap();
        assert_eq!(t.start_phase(), 2);
        assert_eq!(t.next(2), None);
        assert_eq!(t.next(0), Some(1));
        assert_eq!(t.next(1), None);
        assert_eq!((t.types(0), t.types(1), t.types(2)), (1, 2, 2));
        assert!(TurnRules::new(vec![], vec![]).is_err());
        assert!(TurnRules::new(vec![1, 2, 3], vec![1, 2]).is_err());
    }
}
