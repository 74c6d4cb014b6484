//! Pawn-structure and passed-pawn weights, and the small geometric helpers they need. A "pawn"
//! here is any man of a promoting type; a "file" is a display file (boards side by side).

/// Penalty for each pawn-type man sharing its file with another of its side: the rear one
/// cannot advance past the front one, and neither defends the other.
pub const DOUBLED: (i32, i32) = (8, 18);
/// Penalty for a pawn-type man with no own pawn-type man on either neighbouring file: no pawn
/// can ever defend it, and the square in front of it is a hole for the enemy.
pub const ISOLATED: (i32, i32) = (8, 12);
/// Bonus for a pawn-type man defended by another or standing beside one (connected): the
/// base, and the gain at full progress (growing with the square of the progress).
pub const CONNECTED_BASE: (i32, i32) = (5, 2);
/// See [`CONNECTED_BASE`].
pub const CONNECTED_GAIN: (f64, f64) = (45.0, 30.0);
/// Share (percent) of the passed-pawn bonus kept when the square in front of the passer is
/// occupied: a blocked passer is far less of a threat.
pub const BLOCKED_PASSER_SHARE: i32 = 55;
/// Endgame bonus per square of distance (capped at [`KING_DISTANCE_CAP`]) between the enemy
/// royal man and the square in front of a passer, at full progress.
pub const PASSER_ENEMY_KING: f64 = 18.0;
/// Endgame penalty per square of distance between the own royal man and that square.
pub const PASSER_OWN_KING: f64 = 7.0;
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
