//! Game-end adjudication: whether the game is over in a position, who won and why
//! ([`GameEnd`], from [`Position::outcome`]), and the one wording of a result that every front
//! speaks: the result token (`1-0`) and the reason in words (`checkmate`), shown together as
//! `1-0 (checkmate)` by the web board and claimed as `1-0 {checkmate}` over XBoard; the match
//! runner writes the same words in its PGN and progress lines. The search scores the same
//! situations itself (it must do so cheaply, at every node); this module is the complete,
//! slower answer for a game manager, a protocol front-end or a test. The rules it applies are
//! `variant::ends`; the ends the position alone decides are found by `movegen::ends`, which
//! names every [`Termination`].

use std::fmt;

use crate::board::position::Position;
use crate::types::Color;
use crate::variant::ends::MaterialCounting;
use crate::variant::GameValue;

pub use crate::movegen::ends::Termination;

/// The end of a game: the winner (`None` for a draw) and the reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// What ended the game.
    pub reason: Termination,
}

/// The result token of a game won by `winner` (`None`: drawn), as PGN and both GUI protocols
/// write it: `1-0`, `0-1` or `1/2-1/2`.
pub fn result_token(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

impl GameEnd {
    /// The result token: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        result_token(self.winner)
    }

    /// Why the game ended, in words: `checkmate`, `repetition`, `flag reached` ...
    pub fn reason_text(&self) -> &'static str {
        match self.reason {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::RoyalCaptured => "royal piece captured",
            Termination::MoveRule => "move-count rule",
            Termination::Repetition => "repetition",
            Termination::MoveRepetition => "moves repeated",
            Termination::Extinction => "extinction",
            Termination::Flag => "flag reached",
            Termination::Connect => "men in a row",
            Termination::DoublePass => "both sides passed",
            Termination::Castling => "castling",
            Termination::Checks => "checks given",
            Termination::Bikjang => "bikjang",
            Termination::FullBoard => "the board is full",
            Termination::Counting => "counting rule",
        }
    }

    /// The result with its reason as a PGN comment, `1-0 {checkmate}`: XBoard's result claim.
    pub fn claim(&self) -> String {
        format!("{} {{{}}}", self.result(), self.reason_text())
    }
}

/// The result and its reason, `1-0 (checkmate)`, as the web board shows them.
impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.reason_text())
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
    ///
    /// A position that the rules end by themselves (a flag reached, men extinct) has no legal
    /// move either: its value is that rule's.
    pub fn no_move_value(&mut self, in_check: bool) -> GameValue {
        if let Some((value, _)) = self.position_end() {
            return self.counted_if_drawn(value);
        }
        let v = self.variant();
        if in_check {
            return self.checkmate_value();
        }
        if v.bare_king_stalemate() != GameValue::None && self.has_bare_royal(self.side_to_move()) {
            return v.bare_king_stalemate();
        }
        let mut value = v.stalemate_value();
        if v.stalemate_piece_count() {
            // Fewer men than the opponent: the stalemate value; more: its opposite.
            let us = self.side_to_move();
            let (mine, theirs) = (
                self.squares_of(us).len(),
                self.squares_of(us.opposite()).len(),
            );
            value = match mine.cmp(&theirs) {
                std::cmp::Ordering::Equal => GameValue::Draw,
                std::cmp::Ordering::Less => value,
                std::cmp::Ordering::Greater => value.opposite(),
            };
        }
        self.counted_if_drawn(value)
    }

    /// The result for the side to move when it is checkmated: the variant's, or a win when the
    /// mate was given by a pawn drop where that is illegal (`shogiPawnDropMateIllegal`).
    /// Shatar's mating rules may change it too (`rules::shatar`).
    pub fn checkmate_value(&mut self) -> GameValue {
        if self.mated_by_pawn_drop() {
            GameValue::Win
        } else {
            self.mated_value()
        }
    }

    /// `value`, or when it is a draw and the variant counts material (`materialCounting`),
    /// the result of the count, for the side to move.
    pub fn counted_if_drawn(&self, value: GameValue) -> GameValue {
        let counting = self.variant().material_counting();
        if value != GameValue::Draw || counting == MaterialCounting::None {
            return value;
        }
        let white = match counting {
            MaterialCounting::None => GameValue::Draw,
            MaterialCounting::WhiteDrawOdds => GameValue::Win,
            MaterialCounting::BlackDrawOdds => GameValue::Loss,
            MaterialCounting::Unweighted => {
                let w = self.squares_of(Color::White).len();
                let b = self.squares_of(Color::Black).len();
                match w.cmp(&b) {
                    std::cmp::Ordering::Greater => GameValue::Win,
                    std::cmp::Ordering::Less => GameValue::Loss,
                    std::cmp::Ordering::Equal => GameValue::Draw,
                }
            }
            MaterialCounting::Janggi => {
                // Points by piece (Fairy-Stockfish's janggi pieces, found by name); Black's
                // 1.5 points for moving second break every tie.
                const POINTS: &[(&str, i32)] = &[
                    ("rook", 13),
                    ("janggiCannon", 7),
                    ("horse", 5),
                    ("janggiElephant", 3),
                    ("wazir", 3),
                    ("soldier", 2),
                ];
                let v = self.variant();
                let count = |color| -> i32 {
                    self.squares_of(color)
                        .iter()
                        .map(|&sq| {
                            let name = &v.pieces()[self.cell(sq).id().index()].name;
                            POINTS.iter().find(|(n, _)| n == name).map_or(0, |p| p.1)
                        })
                        .sum()
                };
                if count(Color::White) - count(Color::Black) - 1 > 0 {
                    GameValue::Win
                } else {
                    GameValue::Loss
                }
            }
        };
        if self.side_to_move() == Color::White {
            white
        } else {
            white.opposite()
        }
    }

    /// The result of the repetition that has just occurred, for the side to move: the
    /// variant's `nFoldValue`, unless a side checked on each of its moves of the cycle where
    /// perpetual check is illegal (that side loses; both: a draw), or, where the variant judges
    /// chases (`chasingRule`), a side chased one man on each of its moves (judged the same
    /// way, after checks); a draw may then be decided by material counting.
    pub(crate) fn repetition_value(&mut self) -> GameValue {
        let v = self.variant().clone();
        let rules = v.repetition();
        let mut value = self.nfold_value();
        if rules.perpetual_check_illegal || rules.chasing.is_some() {
            // The cycle reaches back to the earliest occurrence that makes the repetition.
            let window = (self.halfmove_clock() as usize).min(self.game_ply());
            let key = self.hash();
            let mut found = 0;
            let mut end = 0;
            for i in (2..=window).step_by(2) {
                if self.key_before(i) == Some(key) {
                    found += 1;
                    end = i;
                    if found + 1 >= v.n_fold_rule() as usize {
                        break;
                    }
                }
            }
            if end > 0 {
                if let Some(judged) = self.judge_cycle(end) {
                    value = judged;
                }
            }
        }
        self.counted_if_drawn(value)
    }

    /// The variant's `nFoldValue` for the side to move (`nFoldValueAbsolute`: for White).
    fn nfold_value(&self) -> GameValue {
        let rules = self.variant().repetition();
        if rules.absolute && self.side_to_move() == Color::Black {
            rules.value.opposite()
        } else {
            rules.value
        }
    }

    /// The result of a repetition by `nFoldValue` and material counting alone, without
    /// looking back for perpetual checks (a search line through a null move).
    pub(crate) fn plain_repetition_value(&self) -> GameValue {
        self.counted_if_drawn(self.nfold_value())
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
        if let Some((value, reason)) = self.position_end() {
            return Some(GameEnd {
                winner: winner_for(side, self.counted_if_drawn(value)),
                reason,
            });
        }
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
        if self.count_over() {
            return Some(GameEnd {
                winner: None,
                reason: Termination::Counting,
            });
        }
        if v.n_move_rule() > 0
            && self.halfmove_clock() as u32 >= v.n_move_rule()
            && self.halfmove_clock() as usize
                >= v.n_move_rule() as usize + self.move_rule_extension()
        {
            return Some(GameEnd {
                winner: winner_for(side, self.counted_if_drawn(GameValue::Draw)),
                reason: Termination::MoveRule,
            });
        }
        if v.n_fold_rule() > 0 && self.moved_back_and_forth(usize::MAX) {
            return Some(GameEnd {
                winner: Some(side),
                reason: Termination::MoveRepetition,
            });
        }
        if v.n_fold_rule() > 0 && self.repetitions(usize::MAX) + 1 >= v.n_fold_rule() as usize {
            return Some(GameEnd {
                winner: winner_for(side, self.repetition_value()),
                reason: Termination::Repetition,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_wording_in_both_forms() {
        let mate = GameEnd {
            winner: Some(Color::White),
            reason: Termination::Checkmate,
        };
        assert_eq!(mate.to_string(), "1-0 (checkmate)");
        assert_eq!(mate.claim(), "1-0 {checkmate}");
        let repeated = GameEnd {
            winner: None,
            reason: Termination::Repetition,
        };
        assert_eq!(repeated.claim(), "1/2-1/2 {repetition}");
        assert_eq!(result_token(Some(Color::Black)), "0-1");
    }
}
