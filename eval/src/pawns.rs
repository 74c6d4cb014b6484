//! The small geometric helpers of the pawn-structure and passed-pawn terms. A "pawn"
//! here is any man of a promoting type; a "file" is a display file (boards side by side).

/// Distances beyond this count as this: a royal man further away is out of play either way.
pub const KING_DISTANCE_CAP: i32 = 5;

/// Per display file, the number of one side's pawn-type men.
pub type FileCounts = [u8; 64];

/// True when neither neighbouring display file of `file` holds a pawn-type man of the side.
#[inline]
pub fn isolated(counts: &FileCounts, file: usize, files: usize) -> bool {
    let left = file > 0 && counts[file - 1] > 0;
    let right = file + 1 < files && counts[file + 1] > 0;
    !left && !right
}

/// Chebyshev distance between two (board, file, rank) cells, capped at [`KING_DISTANCE_CAP`];
/// men on different boards count as far apart.
#[inline]
pub fn king_distance(a: (u8, u8, u8), b: (u8, u8, u8)) -> i32 {
    if a.0 != b.0 {
        return KING_DISTANCE_CAP;
    }
    let df = (a.1 as i32 - b.1 as i32).abs();
    let dr = (a.2 as i32 - b.2 as i32).abs();
    df.max(dr).min(KING_DISTANCE_CAP)
}
