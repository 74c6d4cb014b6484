//! Weights for men attacked by enemy men worth less or attacked and not defended (hanging), and for orthogonal riders (rook-like men)
//! on files free of their own pawn-type men.

/// Bonus for each attack by a pawn-type man on an enemy man worth more than a pawn: the victim
/// must move or be lost, and the attacker is cheap to give.
pub const THREAT_BY_PAWN: (i32, i32) = (55, 35);
/// Bonus for each attack by any other man on an enemy man worth clearly more than the attacker.
pub const THREAT_BY_LESSER: (i32, i32) = (30, 25);
/// How much more (centipawns, middlegame value) the victim must be worth than its attacker for
/// the attack to count: trading knight for bishop is no threat.
pub const THREAT_MARGIN: i32 = 60;
/// Bonus for each enemy man (not pawn-type, not royal) attacked and not defended at all.
pub const HANGING: (i32, i32) = (40, 22);
/// Bonus for an orthogonal file rider on a file with no own pawn-type man but an enemy one.
pub const ROOK_HALF_OPEN: (i32, i32) = (15, 8);
/// Bonus for an orthogonal file rider on a file with no pawn-type man at all.
pub const ROOK_OPEN: (i32, i32) = (38, 12);
/// Bonus for an orthogonal file rider on the rank before the enemy's last while the enemy royal
/// man stands on the last.
pub const ROOK_SEVENTH: (i32, i32) = (12, 28);

/// The bonus for `attacker` hitting a man worth `victim` (middlegame values), if it counts.
#[inline]
pub fn threat(attacker: i32, attacker_is_pawn: bool, victim: i32) -> Option<(i32, i32)> {
    if victim <= attacker + THREAT_MARGIN {
        None
    } else if attacker_is_pawn {
        Some(THREAT_BY_PAWN)
    } else {
        Some(THREAT_BY_LESSER)
    }
}
