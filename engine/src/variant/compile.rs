//! Compiling XBetza to move tables: each parsed single-leg element becomes mailbox steps for
//! White and for Black (Black's moves are White's turned through 180 degrees, so that `f`, `l`
//! and `r` are relative to the owner). Plain leaps and slides go to the fast tables; anything
//! with a condition becomes a general [`Ray`]. Elements the engine cannot execute yet are errors
//! that name the element.

use super::betza::{self, Atom, Element, Hop, Range};
use super::legs;
use arrayvec::ArrayVec;

use super::tables::{
    DoubleStep, HopKind, Leap, PieceMoves, Ray, Route, Slide, CAPTURE, EN_PASSANT, QUIET,
};
use crate::types::Geometry;

/// A piece's compiled moves.
#[derive(Clone, Debug)]
pub struct CompiledPiece {
    /// White's and Black's moves.
    pub moves: [PieceMoves; 2],
    /// True when some move is for a man that has never moved.
    pub has_initial_moves: bool,
}

/// One single-leg element, lowered from the parser's form.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SingleLeg {
    /// Leap vectors (dx, dy) from White's point of view.
    pub vectors: Vec<(i8, i8)>,
    /// 1 for a leaper, the range for a limited rider, 0 for an unlimited rider.
    pub max: u8,
    pub quiet: bool,
    pub capture: bool,
    pub en_passant: bool,
    pub initial: bool,
    pub lame: bool,
    pub jump: bool,
    pub hop: HopKind,
}

/// Compiles an XBetza description for a geometry.
/// How a lame (`n`) oblique leap is blocked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LameOblique {
    /// Blocked only when both routes (orthogonal steps first, diagonal steps first) are: the
    /// Interactive Diagram's reading, Chimera's own.
    EitherRoute,
    /// Blocked when the orthogonal-first route is (the xiangqi horse): Fairy-Stockfish's.
    OrthogonalFirst,
}

/// Compiles one piece's XBetza for the board, lame oblique leaps read as `lame` says.
pub fn compile_piece_in(
    text: &str,
    g: &Geometry,
    lame: LameOblique,
) -> Result<CompiledPiece, String> {
    // No moves at all: a man that never moves (Fairy-Stockfish's predefined `immobile`).
    if text.trim().is_empty() {
        return Ok(CompiledPiece {
            moves: [PieceMoves::default(), PieceMoves::default()],
            has_initial_moves: false,
        });
    }
    let elements = betza::parse(text).map_err(|e| format!("bad XBetza '{text}': {e}"))?;
    let mut moves = [PieceMoves::default(), PieceMoves::default()];
    let mut has_initial_moves = false;
    // (vector, range, modes) of every single-leg move, to find moves that can coincide.
    let mut parts: Vec<((i8, i8), u8, u8)> = Vec::new();
    for element in &elements {
        if legs::needs_program(element) {
            let white = legs::compile_program(element)?;
            has_initial_moves |= white.legs.first().is_some_and(|l| l.initial);
            moves[1].programs.push(legs::for_black(&white));
            moves[0].programs.push(white);
            continue;
        }
        let leg = lower(element)?;
        let mode = if leg.quiet { QUIET } else { 0 } | if leg.capture { CAPTURE } else { 0 };
        parts.extend(leg.vectors.iter().map(|&v| (v, leg.max, mode)));
        has_initial_moves |= leg.initial;
        for (color, m) in moves.iter_mut().enumerate() {
            add_leg(m, &leg, g, color == 1, lame)
                .map_err(|e| format!("XBetza element '{}': {e}", element.source))?;
        }
    }
    let overlap = !moves[0].programs.is_empty() || overlapping(&parts, g);
    for m in moves.iter_mut() {
        m.overlapping = overlap;
    }
    Ok(CompiledPiece {
        moves,
        has_initial_moves,
    })
}

/// True when two single-leg moves with a common mode reach a common square: k steps of one
/// equal j steps of the other (a step and a slide in one direction, say).
fn overlapping(parts: &[((i8, i8), u8, u8)], g: &Geometry) -> bool {
    let longest = g.files.max(g.ranks) as i32;
    let reach = |max: u8| {
        if max == 0 {
            longest
        } else {
            (max as i32).min(longest)
        }
    };
    parts.iter().enumerate().any(|(i, &(a, ra, ma))| {
        parts[i + 1..].iter().any(|&(b, rb, mb)| {
            ma & mb != 0
                && (1..=reach(ra)).any(|k| {
                    (1..=reach(rb)).any(|j| {
                        k * a.0 as i32 == j * b.0 as i32 && k * a.1 as i32 == j * b.1 as i32
                    })
                })
        })
    })
}

/// The squares, relative to the start, that a lame leap of (dx, dy) passes: one route for
/// straight and diagonal leaps, two for oblique ones (orthogonal steps first, or diagonal
/// steps first), of which one must be clear.
fn lame_routes(dx: i32, dy: i32) -> Vec<Vec<(i32, i32)>> {
    let (ax, ay) = (dx.abs(), dy.abs());
    let (sx, sy) = (dx.signum(), dy.signum());
    if ax == 0 || ay == 0 || ax == ay {
        let n = ax.max(ay);
        return vec![(1..n).map(|i| (i * sx, i * sy)).collect()];
    }
    // Oblique: the major axis has the larger component.
    let (major, minor) = if ax > ay { (ax, ay) } else { (ay, ax) };
    let orth_step = if ax > ay { (sx, 0) } else { (0, sy) };
    let diag_step = (sx, sy);
    let walk = |first: (i32, i32), first_n: i32, second: (i32, i32)| {
        let mut route = Vec::new();
        let (mut x, mut y) = (0, 0);
        for _ in 0..first_n {
            x += first.0;
            y += first.1;
            route.push((x, y));
        }
        while route.len() < (major - 1) as usize {
            x += second.0;
            y += second.1;
            route.push((x, y));
        }
        route.truncate((major - 1) as usize);
        route
    };
    vec![
        walk(orth_step, major - minor, diag_step),
        walk(diag_step, minor, orth_step),
    ]
}

fn add_leg(
    m: &mut PieceMoves,
    leg: &SingleLeg,
    g: &Geometry,
    black: bool,
    lame: LameOblique,
) -> Result<(), String> {
    let mut mode = 0;
    if leg.quiet {
        mode |= QUIET;
    }
    if leg.capture {
        mode |= CAPTURE;
    }
    if leg.en_passant {
        mode |= EN_PASSANT;
    }
    let leaper = leg.max == 1;
    if leg.hop == HopKind::Grasshopper && leaper {
        return Err("a grasshopper (g) must be a rider".into());
    }
    for &(vx, vy) in &leg.vectors {
        let (dx, dy) = if black {
            (-(vx as i32), -(vy as i32))
        } else {
            (vx as i32, vy as i32)
        };
        let delta = g.delta(dx, dy);
        let to_delta = |(x, y): (i32, i32)| g.delta(x, y);
        let oblique = dx != 0 && dy != 0 && dx.abs() != dy.abs();
        let mut ray = Ray {
            delta,
            max: leg.max,
            mode,
            initial: leg.initial,
            triple_step: false,
            hop: if leaper { HopKind::None } else { leg.hop },
            skip_first: false,
            must_jump: false,
            routes: ArrayVec::new(),
        };
        let jumps = leg.jump || leaper && leg.hop == HopKind::Cannon;
        if jumps {
            if leaper {
                if oblique {
                    return Err("'j' or 'p' on an oblique leaper is not defined".into());
                }
                let route: Vec<i16> = lame_routes(dx, dy)[0]
                    .iter()
                    .copied()
                    .map(to_delta)
                    .collect();
                if route.is_empty() {
                    return Err("'j' or 'p' on a one-square step has nothing to jump".into());
                }
                ray.must_jump = true;
                ray.routes.push(Route::new(&route));
            } else {
                ray.skip_first = true;
            }
        }
        if leg.lame && !jumps && leaper && lame == LameOblique::OrthogonalFirst {
            // Fairy-Stockfish moves a lame leaper only along the tables of its lame dabbaba,
            // horse, elephant and janggi elephant: a lame leap of any other shape (elgam's
            // `nC`) never moves there.
            let (minor, major) = (dx.abs().min(dy.abs()), dx.abs().max(dy.abs()));
            if !matches!((minor, major), (0, 2) | (1, 2) | (2, 2) | (2, 3)) {
                continue;
            }
        }
        if leg.lame && !jumps {
            let mut routes = lame_routes(dx, dy);
            if lame == LameOblique::OrthogonalFirst {
                routes.truncate(1);
            }
            for route in routes {
                let offsets: Vec<i16> = route.into_iter().map(to_delta).collect();
                if !offsets.is_empty() {
                    ray.routes.push(Route::new(&offsets));
                }
            }
        }
        let double_step = leaper
            && leg.initial
            && leg.lame
            && !jumps
            && mode == QUIET
            && ray.routes.len() == 1
            && ray.routes[0].squares().len() == 1;
        if double_step {
            m.double_steps.push(DoubleStep {
                delta,
                passed: ray.routes[0].squares()[0],
            });
            continue;
        }
        let conditional = ray.initial
            || ray.hop != HopKind::None
            || ray.skip_first
            || ray.must_jump
            || !ray.routes.is_empty()
            || (!leaper && mode & EN_PASSANT != 0);
        if conditional {
            m.rays.push(ray);
        } else if leaper {
            push_unique_leap(m, Leap { delta, mode });
        } else {
            m.slides.push(Slide {
                delta,
                mode,
                max: leg.max,
            });
        }
    }
    Ok(())
}

/// Adds a leap, merging its modes with an existing leap to the same offset.
fn push_unique_leap(m: &mut PieceMoves, leap: Leap) {
    match m.leaps.iter_mut().find(|l| l.delta == leap.delta) {
        Some(l) => l.mode |= leap.mode,
        None => m.leaps.push(leap),
    }
}

/// Lowers a parsed element to a single leg; multi-leg and other elements the engine cannot
/// execute yet are errors naming the element.
pub(crate) fn lower(element: &Element) -> Result<SingleLeg, String> {
    let unsupported = |what: &str| {
        Err(format!(
            "XBetza element '{}': {what} is not supported yet",
            element.source
        ))
    };
    let [leg] = element.legs.as_slice() else {
        return unsupported("a multi-leg move");
    };
    match leg.atom {
        Atom::Step(_) => {}
        Atom::Castle(_) => {
            return unsupported(
                "the castling atom O (castling comes from the variant's castling keys)",
            )
        }
        Atom::Drop(_) => return unsupported("the drop atom @"),
    }
    let m = leg.modality;
    if m.destroy || m.unload {
        return unsupported("capturing or unloading a friend (d, u)");
    }
    if m.spare_royal {
        return unsupported("the modifier t");
    }
    if leg.cylinder || leg.range_toggle || leg.induction || leg.zigzag || leg.circular || leg.royal
    {
        return unsupported("the modifiers o, y, x, z, q and k");
    }
    if leg.initial > 1 || leg.jump > 1 {
        return unsupported("doubled i or j");
    }
    let vectors = leg
        .vectors()
        .map_err(|e| format!("XBetza element '{}': {e}", element.source))?;
    let max = match leg.range {
        Range::Leap => 1,
        Range::Ride { max: None } => 0,
        Range::Ride { max: Some(n) } => n.max(1),
    };
    // No modality letter means move or capture; `e` alone adds only e.p. captures.
    let default = !m.quiet && !m.capture && !m.en_passant;
    Ok(SingleLeg {
        vectors,
        max,
        quiet: m.quiet || default,
        capture: m.capture || default,
        en_passant: m.en_passant,
        initial: leg.initial > 0,
        lame: leg.lame,
        jump: leg.jump > 0,
        hop: match leg.hop {
            None => HopKind::None,
            Some(Hop::Cannon) => HopKind::Cannon,
            Some(Hop::Grasshopper) => HopKind::Grasshopper,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lame_routes_follow_both_paths_of_an_oblique_leap() {
        assert_eq!(lame_routes(2, 1), vec![vec![(1, 0)], vec![(1, 1)]]);
        assert_eq!(lame_routes(1, -2), vec![vec![(0, -1)], vec![(1, -1)]]);
        assert_eq!(
            lame_routes(3, 1),
            vec![vec![(1, 0), (2, 0)], vec![(1, 1), (2, 1)]]
        );
        assert_eq!(lame_routes(0, 2), vec![vec![(0, 1)]]);
        assert_eq!(lame_routes(-2, -2), vec![vec![(-1, -1)]]);
        assert_eq!(lame_routes(3, 0), vec![vec![(1, 0), (2, 0)]]);
    }
}
