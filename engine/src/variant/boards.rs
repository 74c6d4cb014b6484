//! Several boards (Alice Chess, Alice Guard Chess): where a man goes after his move on his own
//! board (`boardTransfer`), and the capture restrictions that come with Alice Guard (which types
//! may capture, and the support a capture needs on the destination board). Generation and
//! legality that use these rules live in `movegen::boards`.

use super::resolve::letter_set;
use super::spec::{VariantError, VariantSpec};
use super::tables::PieceMask;
use super::PieceDef;
use crate::types::{Geometry, PieceId, MAX_BOARDS};

/// The transfer map of a multi-board variant: from each board, the boards a man may end his
/// move on (the same square, which must be empty). With several, the mover chooses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransferRules {
    /// Per origin board, a bit per destination board.
    pub destinations: [u8; MAX_BOARDS],
}

impl TransferRules {
    /// Reads `boardTransfer`: space-separated `origin:destinations` items with boards numbered
    /// from 1 (leftmost in the wide view): Alice `1:2 2:1`, Alice Guard `1:2 2:13 3:2`. Every
    /// board needs an item, and a board never transfers to itself.
    pub fn parse(value: &str, boards: usize) -> Result<TransferRules, String> {
        let mut destinations = [0u8; MAX_BOARDS];
        let mut seen = [false; MAX_BOARDS];
        let board = |c: char| -> Result<usize, String> {
            match c.to_digit(10) {
                Some(d) if (1..=boards as u32).contains(&d) => Ok(d as usize - 1),
                _ => Err(format!("'{c}' is not a board number 1..{boards}")),
            }
        };
        for item in value.split_whitespace() {
            let Some((from, to)) = item.split_once(':') else {
                return Err(format!("'{item}' is not origin:destinations"));
            };
            let mut chars = from.chars();
            let origin = match (chars.next(), chars.next()) {
                (Some(c), None) => board(c)?,
                _ => return Err(format!("'{from}' is not one board number")),
            };
            if seen[origin] {
                return Err(format!("board {} is given twice", origin + 1));
            }
            seen[origin] = true;
            if to.is_empty() {
                return Err(format!("'{item}' names no destination"));
            }
            for c in to.chars() {
                let d = board(c)?;
                if d == origin {
                    return Err(format!("board {} transfers to itself", d + 1));
                }
                destinations[origin] |= 1 << d;
            }
        }
        if let Some(b) = (0..boards).find(|&b| !seen[b]) {
            return Err(format!("board {} has no destination", b + 1));
        }
        Ok(TransferRules { destinations })
    }

    /// The destination boards (a bit each) of a man on `board`.
    #[inline(always)]
    pub fn destinations_from(&self, board: usize) -> u8 {
        self.destinations[board]
    }
}

/// Who may capture, and with what support (Alice Guard: only Guard-set men capture, and only
/// onto a square that a Home-set man of the same player defends on the destination board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureRules {
    /// Types that may capture (`captureTypes`; all by default).
    pub capturers: PieceMask,
    /// When not empty, a capture must land on a square attacked by a friendly man of one of
    /// these types standing on the landing board (`captureSupportTypes`), by his ordinary move.
    pub supporters: PieceMask,
}

impl Default for CaptureRules {
    fn default() -> CaptureRules {
        CaptureRules {
            capturers: PieceMask::MAX,
            supporters: 0,
        }
    }
}

impl CaptureRules {
    /// True when a man of type `id` may capture at all.
    #[inline(always)]
    pub fn may_capture(&self, id: PieceId) -> bool {
        self.capturers & (1 << id.0) != 0
    }

    /// True when the rules restrict anything (so that generation must look at captures).
    pub fn restricted(&self) -> bool {
        self.capturers != PieceMask::MAX || self.supporters != 0
    }
}

/// The transfer map of a multi-board variant (`boardTransfer`), required with several boards
/// and meaningless with one.
pub(crate) fn conclude_transfer(
    spec: &VariantSpec,
    g: &Geometry,
    errs: &mut Vec<VariantError>,
) -> Option<TransferRules> {
    match (&spec.board_transfer, g.boards) {
        (None, 1) => None,
        (None, _) => {
            errs.push(spec.header.error("several boards need boardTransfer"));
            None
        }
        (Some(t), 1) => {
            errs.push(t.at.error("one board: there is nowhere to transfer to"));
            None
        }
        (Some(t), n) => TransferRules::parse(&t.value, n as usize)
            .map_err(|r| errs.push(t.at.error(r)))
            .ok(),
    }
}

/// Who may capture (`captureTypes`) and the support a capture needs (`captureSupportTypes`).
pub(crate) fn conclude_captures(
    spec: &VariantSpec,
    pieces: &[PieceDef],
    errs: &mut Vec<VariantError>,
) -> CaptureRules {
    CaptureRules {
        capturers: letter_set(&spec.capture_types, PieceMask::MAX, pieces, errs),
        supporters: letter_set(&spec.capture_support_types, 0, pieces, errs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfer_maps_parse_and_reject_junk() {
        assert_eq!(
            TransferRules::parse("1:2 2:1", 2).unwrap().destinations,
            [0b10, 0b01, 0]
        );
        assert_eq!(
            TransferRules::parse("1:2 2:13 3:2", 3)
                .unwrap()
                .destinations,
            [0b010, 0b101, 0b010]
        );
        for bad in [
            "1:2",
            "1:1 2:1",
            "1:3 2:1",
            "1:2 1:2 2:1",
            "12:1",
            "x:1 2:1",
            "1: 2:1",
        ] {
            assert!(TransferRules::parse(bad, 2).is_err(), "{bad}");
        }
    }
}
