//! Compiling multi-leg XBetza elements (and single legs that land on a friend, like the swap
//! `udF`) into leg programs for the interpreter in `movegen::legs`.
//!
//! Semantics, as in the Interactive Diagram's dialect of XBetza:
//! - every leg of an element uses the element's atom and range; the first leg's directions are
//!   absolute (relative to the owner), later legs' directions are turns relative to the previous
//!   leg's direction: `f` straight on, `b` back, `l`/`r` a quarter turn, `fl`/`fr` (`fs`) an
//!   eighth turn forward, `bl`/`br` (`bs`) three eighths, `v` = f+b, `s` = l+r, `fh`/`bh`/`lh`/`rh`
//!   the half circles; no direction means every turn but straight back. Orthogonal and diagonal
//!   atoms turn round the eight king directions (an `F` leg turned by an eighth becomes a `W`
//!   step of the same length); oblique atoms turn only by quarter circles.
//! - `z` on a later leg: an eighth turn against the sense of the last eighth turn (zigzag);
//!   `q`: an eighth turn in the same sense (circling).
//! - where a leg may end: `m` empty, `c` enemy (a locust capture when more legs follow), `d`
//!   friend (lifted), `p` any man, who is hopped (`mp`: don't care). A non-final leg without
//!   modality must end on an empty square; a final one may move or capture.
//! - `u`: the lifted friend is put down on the square where this leg starts (`udF` swaps, in
//!   `daufmR` the friend stays where he was); `i` on the first leg: only for a man that has never
//!   moved; `i` on a later leg: exactly as many steps as the previous leg.

use super::betza::{Atom, Dir, Element, Hop, Range};
use super::tables::{LegProgram, LegSpec, Turn, LEG_EMPTY, LEG_ENEMY, LEG_FRIEND, LEG_HOP};

/// True when `element` needs the leg interpreter: several legs, or a leg that lands on a friend.
pub fn needs_program(element: &Element) -> bool {
    element.legs.len() > 1
        || element
            .legs
            .iter()
            .any(|l| l.modality.destroy || l.modality.unload)
}

/// Compiles an element into White's leg program. Black's is the same with every first-leg
/// vector turned through 180 degrees ([`for_black`]).
pub fn compile_program(element: &Element) -> Result<LegProgram, String> {
    let fail = |what: String| format!("XBetza element '{}': {what}", element.source);
    let n = element.legs.len();
    let mut legs = Vec::with_capacity(n);
    let mut lifted = false;
    for (i, leg) in element.legs.iter().enumerate() {
        let last = i + 1 == n;
        let bases = match &leg.atom {
            Atom::Step(b) => b.clone(),
            Atom::Castle(_) | Atom::Drop(_) => {
                return Err(fail("castling and drop atoms cannot be legs".into()))
            }
        };
        let m = leg.modality;
        if m.en_passant || m.spare_royal {
            return Err(fail(
                "e.p. (e) and royal-sparing (t) legs are not supported yet".into(),
            ));
        }
        if leg.lame
            || leg.jump > 0
            || leg.cylinder
            || leg.range_toggle
            || leg.induction
            || leg.royal
        {
            return Err(fail(
                "the modifiers n, j, o, y, x and k are not supported on multi-leg moves".into(),
            ));
        }
        if leg.hop == Some(Hop::Grasshopper) {
            return Err(fail(
                "the grasshopper (g) is not supported on multi-leg moves".into(),
            ));
        }
        if leg.initial > 1 {
            return Err(fail("doubled i is not supported".into()));
        }
        let mut modes = 0;
        if m.quiet {
            modes |= LEG_EMPTY;
        }
        if m.capture {
            modes |= LEG_ENEMY;
        }
        if m.destroy {
            modes |= LEG_FRIEND;
            lifted = true;
        }
        if leg.hop == Some(Hop::Cannon) {
            modes |= LEG_HOP;
        }
        if modes == 0 {
            modes = if last {
                LEG_EMPTY | LEG_ENEMY
            } else {
                LEG_EMPTY
            };
        }
        if last && modes & LEG_HOP != 0 && modes & !LEG_HOP == 0 {
            return Err(fail("the last leg cannot only hop".into()));
        }
        if m.unload {
            if !lifted {
                return Err(fail("u without a friend lifted by d".into()));
            }
            lifted = false;
        }
        let ring = king_ring_length(&bases);
        let max = match leg.range {
            Range::Leap => 1,
            Range::Ride { max: None } => 0,
            Range::Ride { max: Some(k) } => k.max(1),
        };
        let (vectors, turns) = if i == 0 {
            if leg.zigzag || leg.circular {
                return Err(fail("z and q need a previous leg".into()));
            }
            (leg.vectors().map_err(|e| fail(e.to_string()))?, Vec::new())
        } else {
            (
                Vec::new(),
                turns(&leg.directions, leg.zigzag, leg.circular, ring).map_err(fail)?,
            )
        };
        legs.push(LegSpec {
            vectors,
            turns,
            ring,
            max,
            same_range: i > 0 && leg.initial > 0,
            initial: i == 0 && leg.initial > 0,
            modes,
            unload: m.unload,
        });
    }
    if lifted {
        return Err(fail("a friend lifted by d must be put down by u".into()));
    }
    Ok(LegProgram { legs })
}

/// Black's program: White's with the first leg's vectors turned through 180 degrees.
pub fn for_black(program: &LegProgram) -> LegProgram {
    let mut p = program.clone();
    if let Some(first) = p.legs.first_mut() {
        first.vectors = first.vectors.iter().map(|&(x, y)| (-x, -y)).collect();
    }
    p
}

/// The Chebyshev length shared by the atom's base vectors when all are orthogonal or diagonal
/// (so the legs turn round the eight king directions); 0 otherwise.
fn king_ring_length(bases: &[(i8, i8)]) -> u8 {
    let mut len = None;
    for &(x, y) in bases {
        let (ax, ay) = (x.unsigned_abs(), y.unsigned_abs());
        if !(ax == 0 || ay == 0 || ax == ay) {
            return 0;
        }
        let l = ax.max(ay);
        match len {
            None => len = Some(l),
            Some(prev) if prev != l => return 0,
            _ => {}
        }
    }
    len.unwrap_or(0)
}

/// The turns a later leg's direction tokens allow.
fn turns(dirs: &[Dir], zigzag: bool, circular: bool, ring: u8) -> Result<Vec<Turn>, String> {
    if zigzag || circular {
        if !dirs.iter().all(|d| *d == Dir::F) {
            return Err("z and q combine only with f".into());
        }
        if ring == 0 {
            return Err("z and q need an orthogonal or diagonal atom".into());
        }
        return Ok(vec![if zigzag { Turn::Zig } else { Turn::Circle }]);
    }
    let eighths: &[i8] = &[0, 1, -1, 2, -2, 3, -3];
    let mut out: Vec<i8> = Vec::new();
    if dirs.is_empty() {
        out.extend(eighths);
    }
    for d in dirs {
        let set: &[i8] = match d {
            Dir::F => &[0],
            Dir::B => &[4],
            Dir::L => &[2],
            Dir::R => &[-2],
            Dir::V => &[0, 4],
            Dir::S => &[2, -2],
            Dir::Fl | Dir::Lf => &[1],
            Dir::Fr | Dir::Rf => &[-1],
            Dir::Fs => &[1, -1],
            Dir::Bl | Dir::Lb => &[3],
            Dir::Br | Dir::Rb => &[-3],
            Dir::Bs => &[3, -3],
            Dir::Lv => &[1, 3],
            Dir::Rv => &[-1, -3],
            Dir::Fh => &[0, 1, -1],
            Dir::Bh => &[4, 3, -3],
            Dir::Lh => &[1, 2, 3],
            Dir::Rh => &[-1, -2, -3],
            Dir::H => &[0, 1, -1, 2, -2, 3, -3, 4],
            Dir::Hl | Dir::Hr => return Err(format!("'{d}' is not defined on a later leg")),
        };
        for &t in set {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    if ring == 0 {
        // Oblique atoms turn by quarter circles only.
        if out.iter().any(|t| t % 2 != 0) && !dirs.is_empty() {
            return Err("oblique atoms turn only by quarter circles (f, b, l, r, v, s)".into());
        }
        out.retain(|t| t % 2 == 0);
    }
    Ok(out.into_iter().map(Turn::By).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::betza::parse;

    fn program(text: &str) -> LegProgram {
        let els = parse(text).unwrap();
        compile_program(els.last().unwrap()).unwrap()
    }

    #[test]
    fn legs_get_their_modes_and_turns() {
        let p = program("caK");
        assert_eq!(p.legs.len(), 2);
        assert_eq!(p.legs[0].modes, LEG_ENEMY);
        assert_eq!(p.legs[1].modes, LEG_EMPTY | LEG_ENEMY);
        assert_eq!(p.legs[1].turns.len(), 7, "every turn but straight back");
        let p = program("mcabK");
        assert_eq!(p.legs[1].turns, vec![Turn::By(4)]);
        let p = program("afsafmpafzcabmpafzK");
        assert_eq!(p.legs.len(), 6);
        assert_eq!(p.legs[2].modes, LEG_EMPTY | LEG_HOP);
        assert_eq!(p.legs[3].turns, vec![Turn::Zig]);
        assert_eq!(p.legs[3].modes, LEG_ENEMY);
        let p = program("udF");
        assert_eq!(p.legs[0].modes, LEG_FRIEND);
        assert!(p.legs[0].unload);
        let p = program("caibN");
        assert!(p.legs[1].same_range);
        assert_eq!(p.legs[1].ring, 0);
    }

    #[test]
    fn unsupported_legs_are_named() {
        for bad in ["dafF", "caeK", "nafsK", "dK", "cafzN"] {
            let els = parse(bad).unwrap();
            let e = els.iter().find(|e| needs_program(e)).map(compile_program);
            assert!(matches!(e, Some(Err(_))), "{bad} should be rejected");
        }
    }
}
