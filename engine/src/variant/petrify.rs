//! Rule data of Fairy-Stockfish's petrification (`petrifyOnCaptureTypes`,
//! `petrifyBlastPieces`): a man of the listed types that captures turns into a wall where he
//! lands. The board applies it (`board::petrify`), legality reads it (`movegen::chesslike`).

use super::resolve::letter_set;
use super::spec::{or, VariantError, VariantSpec};
use super::tables::PieceMask;
use super::walls::{WallRules, WallingRule};
use super::PieceDef;

/// Capturers that turn into walls.
#[derive(Clone, Debug)]
pub struct PetrifyRules {
    /// The types whose capturing men become walls (`petrifyOnCaptureTypes`).
    pub types: PieceMask,
    /// With explosions, the men a blast removes around the capture become walls too
    /// (`petrifyBlastPieces`).
    pub blast_pieces: bool,
}

/// Petrification (`petrifyOnCaptureTypes`, `petrifyBlastPieces`). Refused where
/// Fairy-Stockfish leaves it undefined: a true king that would turn into a wall (a man of the
/// types that is royal while the variant has no pseudo-royal men), and the duck, whose move
/// lifts every wall.
pub(crate) fn conclude_petrify(
    spec: &VariantSpec,
    pieces: &[PieceDef],
    walls: Option<&WallRules>,
    pseudo_royal: bool,
    errs: &mut Vec<VariantError>,
) -> Option<PetrifyRules> {
    let given = spec.petrify_on_capture_types.as_ref()?;
    let types = letter_set(&spec.petrify_on_capture_types, 0, pieces, errs);
    if types == 0 {
        return None;
    }
    let royal_king = pieces
        .iter()
        .enumerate()
        .any(|(i, p)| p.royal && types & (1 << i) != 0 && !pseudo_royal);
    if royal_king {
        errs.push(
            given
                .at
                .error("a royal man may not turn into a wall (petrifyOnCaptureTypes)"),
        );
    }
    if walls.is_some_and(|w| w.rule == WallingRule::Duck) {
        errs.push(given.at.error(
            "petrifyOnCaptureTypes together with wallingRule = duck is not supported \
             (the duck's move lifts every wall)",
        ));
    }
    Some(PetrifyRules {
        types,
        blast_pieces: or(&spec.petrify_blast_pieces, false),
    })
}
