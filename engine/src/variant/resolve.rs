//! The names a variant definition writes, resolved against its pieces and board: piece
//! letters into piece ids and masks (`*` for every piece, as Fairy-Stockfish's sets write it),
//! pieces by their predefined names, and square lists into region tables. Every rule family's
//! conclusion reads them, so they live below the families and the dispatcher (`conclude`).

use super::config::parse_square_list;
use super::spec::{Given, Located, VariantError};
use super::tables::PieceMask;
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

/// The mask of the piece types `ids`.
pub(crate) fn mask_of(ids: &[PieceId]) -> PieceMask {
    ids.iter().fold(0, |m, id| m | 1 << id.0)
}

/// The pieces of a letter set. A set written in the file must name existing pieces (each
/// other letter is an error there); `default` keeps only the letters this variant has.
pub(crate) fn letter_set(
    given: &Given<Vec<char>>,
    default: PieceMask,
    pieces: &[PieceDef],
    errs: &mut Vec<VariantError>,
) -> PieceMask {
    let Some(set) = given else { return default };
    let mut mask = 0;
    for l in &set.value {
        match letter_ids(pieces, &[*l]) {
            Ok(ids) => mask |= mask_of(&ids),
            Err(reason) => errs.push(set.at.error(reason)),
        }
    }
    mask
}

/// Pairs of piece letters (`p:n s:h`) as pairs of piece ids.
pub(crate) fn letter_pairs(
    given: &Given<Vec<(char, char)>>,
    pieces: &[PieceDef],
    errs: &mut Vec<VariantError>,
) -> Vec<(PieceId, PieceId)> {
    let mut out = Vec::new();
    if let Some(pairs) = given {
        for &(a, b) in &pairs.value {
            match letter_ids(pieces, &[a, b]) {
                Ok(ids) => out.push((ids[0], ids[1])),
                Err(reason) => errs.push(pairs.at.error(reason)),
            }
        }
    }
    out
}

/// The pieces that pass `test`.
pub(crate) fn named(pieces: &[PieceDef], test: impl Fn(&PieceDef) -> bool) -> PieceMask {
    pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| test(p))
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// The pieces among `letters` that this variant has (for defaults, which never err).
pub(crate) fn present(pieces: &[PieceDef], letters: &str) -> PieceMask {
    letters
        .chars()
        .filter_map(|l| letter_ids(pieces, &[l]).ok())
        .fold(0, |m, ids| m | mask_of(&ids))
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
