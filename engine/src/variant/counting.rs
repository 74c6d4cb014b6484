//! The counting rules of makruk, Ouk Chatrang (cambodian) and ASEAN chess (`countingRule`), as
//! Fairy-Stockfish implements them: once the pawns are gone, the side being hunted counts its
//! moves, and the game is drawn when the count passes a limit. The board's honour counting
//! (64 moves; 63 in cambodian) starts when the last pawn goes; the pieces' honour counting
//! starts when the hunted side is left with its king alone, with a limit set by the hunter's
//! strongest men. This module holds the data and the limits; `board::counting` keeps the count
//! as moves are made.

use super::tables::PieceMask;

/// Which counting rule a variant plays (`countingRule`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum CountingRule {
    /// No counting.
    #[default]
    None,
    /// Thai makruk.
    Makruk,
    /// Cambodian Ouk Chatrang: the makruk rule one move shorter, and the board's honour
    /// counting only while the hunted side has at most three men.
    Cambodian,
    /// ASEAN chess: pieces' honour counting only, from zero.
    Asean,
}

impl CountingRule {
    /// Reads `makruk`, `cambodian`, `asean` or `none`.
    pub fn parse(value: &str) -> Result<CountingRule, String> {
        match value.trim() {
            "none" => Ok(CountingRule::None),
            "makruk" => Ok(CountingRule::Makruk),
            "cambodian" => Ok(CountingRule::Cambodian),
            "asean" => Ok(CountingRule::Asean),
            other => Err(format!(
                "unknown counting rule '{other}' (makruk, cambodian, asean, none)"
            )),
        }
    }
}

/// A variant's counting rule with the piece types it looks at (Fairy-Stockfish's pawn, rook,
/// khon and knight, found by their predefined names).
#[derive(Clone, Debug)]
pub struct CountingRules {
    /// The rule.
    pub rule: CountingRule,
    /// The pawn types: counting waits until none is left on the board.
    pub pawns: PieceMask,
    /// The rook types.
    pub rooks: PieceMask,
    /// The khon (silver) types.
    pub khons: PieceMask,
    /// The knight types.
    pub knights: PieceMask,
}

/// What the limits are computed from: the men on the board.
#[derive(Copy, Clone, Debug, Default)]
pub struct Material {
    /// All men per colour (the king included).
    pub men: [u32; 2],
    /// Pawns of both colours.
    pub pawns: u32,
    /// Rooks per colour.
    pub rooks: [u32; 2],
    /// Khons per colour.
    pub khons: [u32; 2],
    /// Knights per colour.
    pub knights: [u32; 2],
}

impl CountingRules {
    /// The counting limit in full moves for colour index `us` counting (0: no counting for it).
    pub fn limit(&self, m: &Material, us: usize) -> u32 {
        let them = 1 - us;
        // The pieces' honour limits, by the hunter's strongest men.
        let honour = |offset: u32| {
            if m.rooks[them] > 1 {
                8 - offset
            } else if m.rooks[them] == 1 {
                16 - offset
            } else if m.khons[them] > 1 {
                22 - offset
            } else if m.knights[them] > 1 {
                32 - offset
            } else if m.khons[them] == 1 {
                44 - offset
            } else {
                64 - offset
            }
        };
        match self.rule {
            CountingRule::None => 0,
            CountingRule::Makruk => {
                if m.pawns > 0 || m.men[them] == 1 {
                    0
                } else if m.men[us] > 1 {
                    64
                } else {
                    honour(0)
                }
            }
            CountingRule::Cambodian => {
                if m.men[us] > 3 || m.men[them] == 1 {
                    0
                } else if m.men[us] > 1 {
                    63
                } else if m.pawns > 0 {
                    0
                } else {
                    honour(1)
                }
            }
            CountingRule::Asean => {
                if m.pawns > 0 || m.men[us] > 1 {
                    0
                } else if m.rooks[them] > 0 {
                    16
                } else if m.khons[them] > 0 {
                    44
                } else if m.knights[them] > 0 {
                    64
                } else {
                    0
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(rule: CountingRule) -> CountingRules {
        CountingRules {
            rule,
            pawns: 1,
            rooks: 2,
            khons: 4,
            knights: 8,
        }
    }

    #[test]
    fn limits_follow_the_hunters_men() {
        // White: king alone; Black: king, two rooks.
        let mut m = Material {
            men: [1, 3],
            rooks: [0, 2],
            ..Material::default()
        };
        assert_eq!(rules(CountingRule::Makruk).limit(&m, 0), 8);
        assert_eq!(rules(CountingRule::Cambodian).limit(&m, 0), 7);
        assert_eq!(rules(CountingRule::Asean).limit(&m, 0), 16);
        // Black is not hunted: White is bare.
        assert_eq!(rules(CountingRule::Makruk).limit(&m, 1), 0);
        // One khon and a knight: the khon's 44.
        m.men = [1, 3];
        m.rooks = [0, 0];
        m.khons = [0, 1];
        m.knights = [0, 1];
        assert_eq!(rules(CountingRule::Makruk).limit(&m, 0), 44);
        // The board's honour: the hunted side has more than its king.
        m.men = [2, 3];
        assert_eq!(rules(CountingRule::Makruk).limit(&m, 0), 64);
        assert_eq!(rules(CountingRule::Cambodian).limit(&m, 0), 63);
        assert_eq!(rules(CountingRule::Asean).limit(&m, 0), 0);
        // A pawn on the board: no counting in makruk; cambodian's board's honour goes on.
        m.pawns = 1;
        assert_eq!(rules(CountingRule::Makruk).limit(&m, 0), 0);
        assert_eq!(rules(CountingRule::Cambodian).limit(&m, 0), 63);
    }
}
