//! The names a variant definition writes, resolved against its pieces and board: piece
//! letters into piece ids (`*` for every piece, as Fairy-Stockfish's sets write it) and square
//! lists into region tables. Every stage of concluding a definition reads them, so they live
//! below each rule family's conclusion and the dispatcher (`conclude`) alike.

use super::config::parse_square_list;
use super::spec::{Located, VariantError};
use super::PieceDef;
use crate::types::{Geometry, PieceId};

/// The piece ids of `letters` (`*` is every piece, as in Fairy-Stockfish's piece sets), or the
/// first letter that names no piece.
pub(crate) fn letter_ids(pieces: &[PieceDef], letters: &[char]) -> Result<Vec<PieceId>, String> {
    let mut out = Vec::new();
    for &l in letters {
        if l == '*' {
            out.extend((0..pieces.len()).map(|i| PieceId(i as u8)));
            continue;
        }
        let i = pieces
            .iter()
            .position(|p| p.letter == l.to_ascii_uppercase())
            .ok_or_else(|| format!("no piece '{l}'"))?;
        out.push(PieceId(i as u8));
    }
    Ok(out)
}

/// A region of squares (`flagRegionWhite = d4 e4`) as a per-cell table, the same on every
/// board; an error at the key when a square is off the board.
pub(crate) fn region_table(
    given: &Located<String>,
    g: &Geometry,
    errs: &mut Vec<VariantError>,
) -> Vec<bool> {
    let mut zone = vec![false; g.num_cells()];
    match parse_square_list(&given.value, g.files as usize, g.ranks as usize) {
        Ok(squares) => {
            for (f, r) in squares {
                for b in 0..g.boards as usize {
                    zone[g.square(b, f, r).index()] = true;
                }
            }
        }
        Err(r) => errs.push(given.at.error(r)),
    }
    zone
}
