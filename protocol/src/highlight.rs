//! XBoard's engine-driven highlighting (PROTOCOLS.md §5.4): the answer to `lift SQ` is a
//! board-shaped colour FEN marking where the lifted man can go, so that XBoard can guide a
//! user through moves it cannot generate itself (engine-defined variants, multi-leg moves).
//! The colour FEN is positional, so unlike moves it never shifts ranks on 10-rank boards.

use chimera_engine::{Move, MoveKind, Position, Square};

/// A legal destination.
const PLAIN: char = 'Y';
/// A destination that captures.
const CAPTURE: char = 'R';
/// A destination where the GUI must ask for a promotion choice.
const PROMOTION: char = 'M';
/// A square where one leg of a multi-leg move ends and the next begins.
const LEG: char = 'C';

/// The `highlight` line for the man on `from`, or `None` when no legal move starts there
/// (the GUI then keeps its own idea of the move). Moves are judged by the text `wire` gives
/// them, the way XBoard reads it: a move through a square (`e4f5,f5g6`, a capture through
/// the victim's square) marks that square as a leg; once the user has put the man there
/// (`via`), the moves through it mark their final squares.
pub fn highlight_line(
    pos: &Position,
    from: Square,
    via: Option<Square>,
    wire: &dyn Fn(&Position, Move) -> String,
) -> Option<String> {
    let g = &pos.variant().geometry();
    let mut marks: Vec<(Square, char)> = Vec::new();
    let mut mark = |sq: Square, c: char| match marks.iter_mut().find(|(s, _)| *s == sq) {
        // A final destination outranks a leg square; a promotion or capture a plain one.
        Some((_, old)) if *old == LEG || c == PROMOTION => *old = c,
        Some(_) => {}
        None => marks.push((sq, c)),
    };
    let mut probe = pos.clone();
    let moves = probe.legal_moves();
    let square = |s: &str| g.parse_square(s);
    for &mv in moves.iter() {
        if matches!(mv.kind, MoveKind::Drop | MoveKind::Pass) {
            continue;
        }
        let text = wire(pos, mv);
        if text == pos.move_text(mv) {
            // Chimera's own notation: every leg's end is a leg square, the last the move's end.
            if mv.from != from || via.is_some() || mv.kind == MoveKind::Place {
                continue;
            }
            let legs: Vec<&str> = text.split(',').collect();
            for leg in &legs[..legs.len() - 1] {
                if let Some(sq) = leg_end(leg).and_then(|s| g.parse_square(s)) {
                    mark(sq, LEG);
                }
            }
            // A gate is chosen like a promotion: the GUI asks which man comes in.
            let colour = if mv.promotion().is_some() || mv.gated().is_some() {
                PROMOTION
            } else if pos.is_capture(mv) {
                CAPTURE
            } else {
                PLAIN
            };
            mark(mv.to, colour);
            continue;
        }
        let Some((start, passed, end, suffix)) = first_reading(&text) else {
            continue;
        };
        if square(&start) != Some(from) {
            continue;
        }
        let passed = passed.and_then(|p| square(&p));
        let Some(end) = square(&end) else {
            continue;
        };
        let colour = if mv.promotion().is_some() || !suffix.is_empty() {
            PROMOTION
        } else if pos.is_capture(mv) {
            CAPTURE
        } else {
            PLAIN
        };
        match (via, passed) {
            (None, Some(p)) => mark(p, LEG),
            (None, None) => mark(end, colour),
            (Some(v), Some(p)) if v == p => mark(end, colour),
            _ => {}
        }
    }
    if marks.is_empty() {
        return None;
    }
    let mut rows = Vec::with_capacity(g.ranks as usize);
    for rank in (0..g.ranks as usize).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..g.display_files() {
            let c = g
                .display_square(file, rank)
                .and_then(|sq| marks.iter().find(|(s, _)| *s == sq))
                .map(|(_, c)| *c);
            match c {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    Some(format!("highlight {}", rows.join("/")))
}

/// How XBoard first reads a move text: (from, square passed, to, suffix letters).
fn first_reading(text: &str) -> Option<(String, Option<String>, String, String)> {
    crate::xboard::present::readings(text).into_iter().next()
}

/// The destination square's name in one leg `e4f5` (a promotion letter may follow).
fn leg_end(leg: &str) -> Option<&str> {
    let b = leg.as_bytes();
    let mut i = 1;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let start = i;
    i += 1;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    (start < b.len() && b[start].is_ascii_lowercase()).then(|| &leg[start..i])
}
