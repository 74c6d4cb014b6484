//! The rule data of turns made of several parts (Alice Guard: a Home-set move, then a Guard-set
//! move; White's first turn a single Guard-set move). A part is one ply in which only men of the
//! part's types may move; the side to move changes only after the last part of a turn. Playing
//! turns on a position is `rules::turns`.
//!
//! Phases number the parts of an ordinary turn from 0, then the parts of White's opening turn
//! (`firstTurnParts`) after them; every turn after the opening starts at phase 0.

use super::resolve::{letter_ids, mask_of};
use super::spec::{Given, VariantError, VariantSpec};
use super::tables::PieceMask;
use super::PieceDef;

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

/// The parts of a turn (`turnParts`, `firstTurnParts`), if a turn has parts.
pub(crate) fn conclude_turns(
    spec: &VariantSpec,
    pieces: &[PieceDef],
    errs: &mut Vec<VariantError>,
) -> Option<TurnRules> {
    let parts = spec.turn_parts.as_ref()?;
    // Parts are separated by spaces, so each is read as its own letter set.
    let masks = |given: &Given<Vec<Vec<char>>>, errs: &mut Vec<VariantError>| -> Vec<PieceMask> {
        let Some(words) = given else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for word in &words.value {
            let mut mask = 0;
            for l in word {
                match letter_ids(pieces, &[*l]) {
                    Ok(ids) => mask |= mask_of(&ids),
                    Err(reason) => errs.push(words.at.error(reason)),
                }
            }
            out.push(mask);
        }
        out
    };
    let every = masks(&spec.turn_parts, errs);
    let opening = masks(&spec.first_turn_parts, errs);
    TurnRules::new(every, opening)
        .map_err(|r| errs.push(parts.at.error(r)))
        .ok()
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
