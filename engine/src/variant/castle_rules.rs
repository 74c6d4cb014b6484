//! Fairy-Stockfish's castling rules beyond the castling move itself: castling that wins the game
//! (`castlingWins`, castle chess) and castling barred on the wing the opponent took
//! (`oppositeCastling`). The rules are data here; make/unmake and the game-end test apply them.

/// The castling rights bits of [`crate::board::position::CASTLE_BITS`]' layout: White kingside,
/// White queenside, Black kingside, Black queenside.
const RIGHTS_LETTERS: [(char, u8); 4] = [('K', 1), ('Q', 2), ('k', 4), ('q', 8)];

/// The rights of one colour (White's bits 1 and 2, Black's 4 and 8).
pub(crate) const COLOR_RIGHTS: [u8; 2] = [1 | 2, 4 | 8];

/// What castling does besides moving the king and the rook.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CastleRules {
    /// Castling rights (as bits) whose castling wins (`castlingWins`): a side that castles
    /// one of them wins, and a side that had some of them and has lost them all loses.
    pub wins: u8,
    /// A side that castles takes the opponent's right on the same wing (`oppositeCastling`).
    pub opposite: bool,
}

impl CastleRules {
    /// True when either rule applies (make and the game-end test look only then).
    pub fn any(&self) -> bool {
        self.wins != 0 || self.opposite
    }
}

/// Reads a set of castling rights written as in a FEN (`KQkq`, `-` for none), Fairy-Stockfish's
/// `castlingWins = q` (Black's queenside castling only). Returns the rights as bits.
pub(crate) fn parse_rights(value: &str) -> Result<u8, String> {
    let mut bits = 0;
    for c in value.trim().chars() {
        if c == '-' {
            break;
        }
        match RIGHTS_LETTERS.iter().find(|(l, _)| *l == c) {
            Some((_, bit)) => bits |= bit,
            None => {
                return Err(format!(
                    "'{c}' is not a castling right (K, Q, k, q, or - for none)"
                ))
            }
        }
    }
    Ok(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_read_as_fen_letters() {
        assert_eq!(parse_rights("q"), Ok(8));
        assert_eq!(parse_rights("KQkq"), Ok(15));
        assert_eq!(parse_rights("Kk"), Ok(5));
        assert_eq!(parse_rights("-"), Ok(0));
        assert!(parse_rights("x").is_err());
    }
}
