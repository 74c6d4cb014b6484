//! XBoard's piece-to-char table laid out slot by slot: each letter in the slot whose image
//! XBoard draws it with, if still free, the others in the free slots, the King last. Both the
//! usual table (`translate`) and the one that keeps XBoard's Pawn slot empty (`present`) are
//! laid out here, so that neither of the two needs the other for it.

/// XBoard's Pawn and Lance slots (`ChessSquare` 0 and 18), moved by its pawn code.
pub(crate) const PAWN_LIKE_SLOTS: [usize; 2] = [0, 18];

/// Lays out a piece-to-char table of `len` slots from letters with the slot each wants and
/// whether it is the King: a letter gets its slot if still free, the others (and those that
/// want none) take the free slots from `first_free` on, in order; the King's letter comes
/// last, then the same table in lower case for Black. `trim` drops empty slots at the end.
pub(crate) fn slot_table(
    len: usize,
    first_free: usize,
    letters: impl IntoIterator<Item = (char, Option<usize>, bool)>,
    trim: bool,
) -> String {
    let mut slots = vec!['.'; len];
    let mut king = 'K';
    let mut rest = Vec::new();
    for (letter, wanted, is_king) in letters {
        if is_king {
            king = letter;
            continue;
        }
        match wanted {
            Some(s) if s < len && slots[s] == '.' => slots[s] = letter,
            _ => rest.push(letter),
        }
    }
    // Slots whose type XBoard's own move code treats specially take a letter that did not ask
    // for them only when no other slot is left: the Pawn (e.p., promotion) and the Lance,
    // which XBoard moves as a pawn in every parent but `super` and `chu` (a man there that
    // steps sideways or diagonally far enough is taken for an e.p. capture, and XBoard's
    // board loses a man: the Vanguard General's forfeits).
    let (plain, special): (Vec<usize>, Vec<usize>) = (first_free..len)
        .filter(|&s| slots[s] == '.')
        .partition(|s| !PAWN_LIKE_SLOTS.contains(s));
    let free: Vec<usize> = plain.into_iter().chain(special).collect();
    for (s, letter) in free.into_iter().zip(rest) {
        slots[s] = letter;
    }
    let end = if trim {
        slots.iter().rposition(|&c| c != '.').map_or(0, |i| i + 1)
    } else {
        len
    };
    let white: String = slots[..end].iter().chain(std::iter::once(&king)).collect();
    format!("{white}{}", white.to_ascii_lowercase())
}
