//! XBoard's engine-driven highlighting (docs/protocols.md §5.4): the answer to `lift SQ` is a
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
/// A destination reached only with one suffix (a forced promotion, a compulsory gate): the
/// GUI waits for the engine's `choice`.
const FORCED: char = 'B';

/// Where a move of the lifted man ends as the user enters it.
enum Ending {
    /// A square the move passes through (a leg ends there).
    Leg(Square),
    /// A final square, with the suffix the move carries there (promotion, gate) and whether
    /// it captures.
    Final(Square, String, bool),
}

/// The ends of the legal moves of the man on `from` (through `via`, once the user has put
/// him there), judged by their wire text.
fn endings(
    pos: &Position,
    from: Square,
    via: Option<Square>,
    wire: &dyn Fn(&Position, Move) -> String,
) -> Vec<Ending> {
    let g = &pos.variant().geometry();
    let square = |s: &str| g.parse_square(s);
    let mut out = Vec::new();
    let mut probe = pos.clone();
    let moves = probe.legal_moves();
    for &mv in moves.iter() {
        if matches!(mv.kind, MoveKind::Drop | MoveKind::Pass) {
            continue;
        }
        let text = wire(pos, mv);
        let capture = pos.is_capture(mv);
        let suffix = |t: &str| {
            let tail: String = t
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_alphabetic() || *c == '+')
                .collect();
            tail.chars().rev().collect::<String>()
        };
        if text.split(',').count() > 2 {
            // A move of three legs in Chimera's notation: every leg's end is a leg square.
            if mv.from != from || via.is_some() {
                continue;
            }
            let legs: Vec<&str> = text.split(',').collect();
            for leg in &legs[..legs.len() - 1] {
                if let Some(sq) = leg_end(leg).and_then(square) {
                    out.push(Ending::Leg(sq));
                }
            }
            out.push(Ending::Final(mv.to, suffix(&text), capture));
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
        match (via, passed) {
            (None, Some(p)) => out.push(Ending::Leg(p)),
            (None, None) => out.push(Ending::Final(end, suffix, capture)),
            (Some(v), Some(p)) if v == p => out.push(Ending::Final(end, suffix, capture)),
            _ => {}
        }
    }
    out
}

/// The one suffix every move to a square carries, if they all carry the same one.
fn forced_suffix(here: &[&Ending]) -> Option<String> {
    let mut suffixes = here.iter().filter_map(|e| match e {
        Ending::Final(_, s, _) => Some(s.as_str()),
        Ending::Leg(_) => None,
    });
    let first = suffixes.next()?;
    (!first.is_empty() && suffixes.all(|s| s == first)).then(|| first.to_string())
}

/// The `choice` line for a user who put the man from `from` (through `via`) on `to`, when
/// every move there carries the same suffix (a forced promotion, a compulsory gate): the GUI
/// marked the square blue and waits for it.
pub fn choice_line(
    pos: &Position,
    from: Square,
    via: Option<Square>,
    to: Square,
    wire: &dyn Fn(&Position, Move) -> String,
) -> Option<String> {
    let ends = endings(pos, from, via, wire);
    let here: Vec<&Ending> = ends
        .iter()
        .filter(|e| matches!(e, Ending::Final(s, ..) if *s == to))
        .collect();
    forced_suffix(&here).map(|s| format!("choice {}", s.to_ascii_uppercase()))
}

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
        // A final destination outranks a leg square.
        Some((_, old)) if *old == LEG => *old = c,
        Some(_) => {}
        None => marks.push((sq, c)),
    };
    let ends = endings(pos, from, via, wire);
    for e in &ends {
        match e {
            Ending::Leg(sq) => mark(*sq, LEG),
            Ending::Final(sq, ..) => {
                let here: Vec<&Ending> = ends
                    .iter()
                    .filter(|x| matches!(x, Ending::Final(s, ..) if s == sq))
                    .collect();
                let plain = here
                    .iter()
                    .any(|x| matches!(x, Ending::Final(_, suffix, _) if suffix.is_empty()));
                let capture = here.iter().any(|x| matches!(x, Ending::Final(_, _, true)));
                let colour = if plain && capture {
                    CAPTURE
                } else if plain {
                    PLAIN
                } else if forced_suffix(&here).is_some() {
                    FORCED
                } else {
                    PROMOTION
                };
                mark(*sq, colour);
            }
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
    super::present::readings(text).into_iter().next()
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
